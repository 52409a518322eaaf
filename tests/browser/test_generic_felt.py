"""The generic felt and console in Chromium, whatever the game: the console draws any game's
dealer moves, each round a real one of the game (tests/browser/generic_feed.py answers the
page's socket with the game's own views and moves), and the felt's words leave the engines'
citations out. Each game's own felt (its bet form, decisions, settings, results in its words)
is tested in its folder: tests/games/<game>/browser/test_generic_felt.py. Screenshots go to
/tmp/shots/generic/ (``GENERIC_SHOTS``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from table.games import ENTRIES

from .fixtures import DESKTOP_WIDE, Site, login
from .generic_feed import FakeTable, open_fake, shot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game_name", list(ENTRIES))
def test_console_draws_the_dealers_moves(browser: Any, site: Site, game_name: str) -> None:
    """Every game's round on the console: its one big button is the step the dealer's moves
    offer (sent as the console's command: close_betting as no_more_bets), the time-out is the
    time_out move, the voids allowed now are buttons with their reasons, and a phase of the
    game's own (a setting step) shows as the round's phase until the dealer may reveal."""
    fake = FakeTable(game_name, "dealer", seed=4, dealer_page=True)
    fake.other_player("bob", 3, {"ante": 500})
    dealer = login(browser, site, "dealer", viewport=DESKTOP_WIDE)
    open_fake(dealer, site, fake, "/tables/1/dealer/")
    page = dealer.page
    console = page.locator("#console")
    expect(console).to_have_attribute("data-game", game_name)
    button = page.locator("#next-action")
    expect(button).to_have_text("No more bets")
    expect(page.locator("#box-rows tr[data-box='3']")).to_contain_text("Ante $5.00")
    voids = page.locator("#generic-voids button")
    expect(voids.first).to_contain_text("the table closed before the round was dealt")
    shot(dealer, f"console-{game_name}-betting")
    button.click()
    expect(button).to_have_text("Deal")
    assert fake.received[-1]["cmd"] == "no_more_bets"
    button.click()
    expect(console).to_have_attribute("data-phase", "decisions")
    assert fake.received[-1]["cmd"] == "deal"
    # Box 3 decides now: the dealer may time it out (the clock ran out in the fake).
    timeout = next(m for m in fake.driver.moves(fake.viewer()) if m.name == "time_out")
    expect(page.locator("#time-out")).to_have_text(timeout.label)
    expect(page.locator("#dealer-hand")).to_contain_text("stub")
    shot(dealer, f"console-{game_name}-decisions")
    fake.others_act()
    for _ in range(4):  # the game's own phases before the reveal, each on the console
        if any(m.name == "reveal" for m in fake.driver.moves(fake.viewer())):
            break
        expect(console).to_have_attribute("data-phase", fake.round_view()["phase"])
        fake.others_act()
    expect(button).to_have_text(re.compile("^Reveal"))
    button.click()
    expect(button).to_have_text("Settle")
    button.click()
    expect(console).to_have_attribute("data-phase", "settled")
    expect(page.locator("#box-rows tr[data-box='3']")).to_contain_text("Ante")
    expect(page.locator("#dealer-cards .card.face")).to_have_count(5)
    shot(dealer, f"console-{game_name}-settled")
    assert [f["cmd"] for f in fake.received if f["cmd"] not in ("ping", "snapshot")] == [
        "no_more_bets",
        "deal",
        "reveal",
        "settle",
    ]
    assert not [e for e in dealer.errors if "WebSocket" not in e], dealer.errors


#: The engines' citations left out of what the felt shows. (Why each wager won or lost is the
#: game's, carried by its round view since issue 27: tests/games/<game>/test_words.py holds
#: those sentences, and the live tests see them on the felt.)
PLAIN_WORDS = """async () => {
  const w = await import('/static/table/game_words.js');
  return [
    w.plainWords('more than one card was found face up while dealing (§663a.13(a))'),
    w.plainWords('§663a.12(a)'),
    w.plainWords('box 1: an ante is required (§663a.7(d)); try again'),
  ];
}"""


def test_results_say_why_in_words(browser: Any, site: Site) -> None:
    """The engines' citations left out; a line's why is the view's own (the game's words),
    else its row or hand in words."""
    client = login(browser, site, None)
    client.page.goto(site.url("/"))
    assert client.page.evaluate(PLAIN_WORDS) == [
        "more than one card was found face up while dealing",
        "",
        "box 1: an ante is required; try again",
    ]
    lines = client.page.evaluate(LINES_FROM_THE_VIEW)
    assert lines == {
        "ante": "the game's own words",
        "tie": "both tie",
        "bonus": "paid on top of the hand-bonus wagers",
    }


LINES_FROM_THE_VIEW = """async () => {
  const w = await import('/static/table/game_words.js');
  const round = {game: 'any', phase: 'settled', dealer: {}};
  const box = {box: 1, results: [
    {wager: 'ante', outcome: 'lose', net: -500, why: "the game's own words"},
    {wager: 'tie', outcome: 'win', net: 2000, hand: 'both_tie'},
  ], bonuses: {bonus: 100}};
  return Object.fromEntries(w.boxLines(box, round, {}).map((l) => [l.wager, l.why]));
}"""
