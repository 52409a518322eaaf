"""The round log's words for events whose data the first words misread (issue 28): the
betting clock without a countdown, the countdown the first bet starts, and a Hi-Lo round
every box folded out of."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Site, login

pytestmark = [pytest.mark.browser]

WORDS = """async () => {
  const w = await import('/static/table/words.js');
  const g = await import('/static/table/game_words.js');
  return {
    waiting: w.describeEvent('betting_clock', {deadline: null, seconds: null}),
    counting: w.describeEvent('betting_clock', {deadline: 1700000000000, seconds: 15}),
    noSetting: g.describeGameEvent('five_card_hi_lo', 'setting_started', {boxes: [], order: {}}),
    setting: g.describeGameEvent('five_card_hi_lo', 'setting_started', {boxes: [1, 3]}),
  };
}"""


def test_the_betting_clock_and_an_all_fold_round_in_words(browser: Any, site: Site) -> None:
    client = login(browser, site, None)
    client.page.goto(site.url("/"))
    words = client.page.evaluate(WORDS)
    # Bug 2: "betting stays open another null s", then the same line when the first bet lands.
    assert words["waiting"] == "Nobody has bet yet: betting stays open until someone bets."
    assert words["counting"] == "Betting closes in 15 s."
    assert "null" not in words["waiting"] + words["counting"]
    # Bug 3: "...sets its high and low hands: box ." for a setting step nobody is in.
    assert words["noSetting"] is None
    assert words["setting"].endswith("box 1, box 3.")
