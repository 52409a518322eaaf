"""Four Card Frenzy's round on the generic dealer console (issue 27: one console for every
game): console_generic.js draws the game's dealer moves, served over a routed socket by the
game itself (tests/browser/generic_feed.py), as it does Crazy 4 Poker's and Five Card Hi-Lo's
and the live table's (test_play)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import DESKTOP_WIDE, Site, login
from tests.browser.generic_feed import open_fake, shot

from .test_generic_felt_fcf import OnTheGenericFelt

pytestmark = pytest.mark.browser


def test_the_generic_console_runs_a_four_card_frenzy_round(browser: Any, site: Site) -> None:
    fake = OnTheGenericFelt("four_card_frenzy", "dealer", seed=4, dealer_page=True)
    fake.other_player("bob", 3, {"ante": 500, "all_six": 100})
    dealer = login(browser, site, "dealer", viewport=DESKTOP_WIDE)
    open_fake(dealer, site, fake, "/tables/1/dealer/")
    page = dealer.page
    console = page.locator("#console")
    expect(console).to_have_attribute("data-game", "four_card_frenzy")
    button = page.locator("#next-action")
    expect(button).to_have_text("No more bets")
    expect(page.locator("#box-rows tr[data-box='3']")).to_contain_text("Ante $5.00")
    # The void the rules allow while betting (the table closed), with its reason.
    expect(page.locator("#generic-voids button").first).to_contain_text("table closed")
    button.click()
    expect(button).to_have_text("Deal")
    button.click()
    expect(console).to_have_attribute("data-phase", "decisions")
    timeout = next(m for m in fake.driver.moves(fake.viewer()) if m.name == "time_out")
    expect(page.locator("#time-out")).to_have_text(timeout.label)
    shot(dealer, "console-fcf-decisions")
    fake.others_act()
    expect(button).to_have_text(re.compile("^Reveal"))
    button.click()
    expect(button).to_have_text("Settle")
    button.click()
    expect(console).to_have_attribute("data-phase", "settled")
    expect(page.locator("#dealer-cards .card.face")).to_have_count(5)
    expect(page.locator("#box-rows tr[data-box='3']")).to_contain_text("Ante")
    shot(dealer, "console-fcf-settled", full_page=True)
    assert [f["cmd"] for f in fake.received if f["cmd"] not in ("ping", "snapshot")] == [
        "no_more_bets",
        "deal",
        "reveal",
        "settle",
    ]
    assert not [e for e in dealer.errors if "WebSocket" not in e], dealer.errors
