"""The round log's words for events whose data the first words misread (issue 28): the
betting clock without a countdown and the countdown the first bet starts (a game's own events
in words: tests/games/<game>/browser/test_log_words.py), the bet form's refusals, a Raise."""

from __future__ import annotations

from typing import Any

import pytest

from .fixtures import Site, login

pytestmark = [pytest.mark.browser]

WORDS = """async () => {
  const w = await import('/static/table/words.js');
  return {
    waiting: w.describeEvent('betting_clock', {deadline: null, seconds: null}),
    counting: w.describeEvent('betting_clock', {deadline: 1700000000000, seconds: 15}),
  };
}"""


def test_the_betting_clock_in_words(browser: Any, site: Site) -> None:
    client = login(browser, site, None)
    client.page.goto(site.url("/"))
    words = client.page.evaluate(WORDS)
    # Bug 2: "betting stays open another null s", then the same line when the first bet lands.
    assert words["waiting"] == "Nobody has bet yet: betting stays open until someone bets."
    assert words["counting"] == "Betting closes in 15 s."
    assert "null" not in words["waiting"] + words["counting"]


BETS = """async () => {
  const g = await import('/static/table/game_words.js');
  const ante = (text) => [
    {arg: 'ante', label: 'Ante', text, low: 500, high: 50000, required: true},
    {arg: 'queens_up', label: 'Queens Up', text: '', low: 100, high: 10000, required: false},
  ];
  const out = {};
  for (const t of ['0', '-5', '5.005', '5.01', '7', 'abc']) out[t] = g.readBet(1, ante(t), 100);
  out.fives = g.readBet(1, ante('10'), 500);
  out.notFives = g.readBet(1, ante('7'), 500);
  return out;
}"""


def test_the_bet_form_refuses_what_the_server_would(browser: Any, site: Site) -> None:
    """Bugs 4 and 5: an Ante of 0 or −5 said nothing (and the log said the wagers went back),
    5.005 placed $5.01. The form now says why and sends nothing."""
    client = login(browser, site, None)
    client.page.goto(site.url("/"))
    bets = client.page.evaluate(BETS)
    assert bets["0"] == {"error": "Box 1 needs an Ante of $5.00 to $500.00."}
    assert bets["-5"]["error"] == 'Ante on box 1: "-5" is not an amount in dollars.'
    for typed in ("5.005", "5.01"):
        assert "whole number of $1.00" in bets[typed]["error"], bets[typed]
    assert "not an amount" in bets["abc"]["error"]
    assert bets["7"] == {"args": {"ante": 700}}
    assert bets["fives"] == {"args": {"ante": 1000}}
    assert "whole number of $5.00" in bets["notFives"]["error"]


RAISE = """async () => {
  const g = await import('/static/table/game_words.js');
  const w = await import('/static/table/words.js');
  const d = {box: 1, player: 'alice', multiple: 2, raise: 2000};
  const own = g.describeGameEvent('', 'decision', d);
  return own === undefined ? w.describeEvent('decision', d) : own;
}"""


def test_a_raise_multiple_is_told_in_the_log(browser: Any, site: Site) -> None:
    """A decision with a Raise multiple and no Play amount read "Box 1 (alice) plays —." in
    the felt's and the console's logs: the shared words say it."""
    client = login(browser, site, None)
    client.page.goto(site.url("/"))
    assert client.page.evaluate(RAISE) == "Box 1 (alice) raises 2x ($20.00)."
