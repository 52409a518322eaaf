"""The dealer console's round log (issue 28: it stayed empty while the players' log was full):
after a whole Crazy 4 Poker round it has the round's lines in words, as the felt's log does,
each stamped in the casino's time zone, named; a console opened after the round starts with
them. Screenshots at 390x844 and 1440x900."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site, login, screenshot

from .helpers import generic_ante_play_round
from .test_generic_live import MAKE_TABLE

pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_the_console_log_tells_the_round(browser: Any, site: Site, size: Any) -> None:
    width, height = size
    viewport = {"width": width, "height": height}
    phone = width < 500
    make = MAKE_TABLE.replace("Crazy 4 Poker live", f"Crazy 4 Poker log {width}").replace(
        "Crazy live", f"Crazy log {width}"
    )
    table_id = int(site.stack.manage("shell", "-c", make).strip().splitlines()[-1])
    # Each browser in a zone of its own: the player reads theirs, the dealer the casino's.
    player = login(browser, site, "frank", viewport=viewport, phone=phone, timezone_id="Asia/Tokyo")
    dealer = login(
        browser, site, "dealer", viewport=viewport, phone=phone, timezone_id="Europe/Lisbon"
    )
    dealer.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    expect(dealer.page.locator("#console")).to_have_attribute("data-game", "crazy_4_poker")
    player.page.goto(site.url(f"/tables/{table_id}/"))
    app = player.page.locator("#app")
    expect(app).to_have_attribute("data-game", "crazy_4_poker")
    expect(app).to_have_attribute("data-ready", "1")  # the felt is drawn (its boxes are there)
    player.page.evaluate("document.querySelector('#box-4 .sit').click()")
    expect(player.page.locator("#box-4")).to_have_class(re.compile(r"\bmine\b"))
    button = dealer.page.locator("#next-action")
    expect(button).to_have_text(re.compile("^Open"))
    if button.inner_text().strip() == "Open the table":
        button.click()
    expect(button).to_have_text("Open betting")
    generic_ante_play_round(player.page, dealer.page, 4)
    expect(dealer.page.locator("#console")).to_have_attribute("data-phase", "settled")
    # The players' log has the round; the console's has it too, line for line in words.
    felt_log = player.page.locator("#log")
    console_log = dealer.page.locator("#log")
    for words in (
        "open for bets",
        "(frank) bets Ante $5.00",
        "Cards dealt to box 4",
        "plays $5.00",
        "Round settled",
    ):
        expect(felt_log).to_contain_text(words)
        expect(console_log).to_contain_text(words)
    expect(console_log.locator("li")).not_to_have_count(0)
    # The dealer is staff: the casino's zone (settings.TIME_ZONE, America/New_York), named.
    expect(console_log.locator("li time").first).to_have_text(
        re.compile(r"^\d\d:\d\d:\d\d E[SD]T$")
    )
    expect(felt_log.locator("li time").first).to_have_text(re.compile(r"^\d\d:\d\d:\d\d GMT\+9$"))
    dealer.page.locator("#log").scroll_into_view_if_needed()
    screenshot(dealer.page, f"console-log-{width}")
    screenshot(dealer.page, f"console-log-{width}-full", full_page=True)
    assert not dealer.errors, dealer.errors
    # A console opened after the round (a relief dealer, a reload) starts with the round's
    # lines too, oldest at the bottom, in the casino's zone, and nobody's hole cards.
    relief = login(browser, site, "dealer", viewport=viewport, phone=phone, timezone_id="UTC")
    relief.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    later_log = relief.page.locator("#log")
    for words in ("open for bets", "(frank) bets Ante $5.00", "plays $5.00", "Round settled"):
        expect(later_log).to_contain_text(words)
    expect(later_log.locator("li").first).to_contain_text("Round settled")
    expect(later_log.locator("li").last).to_contain_text("sits at box 4")
    expect(later_log.locator("li time").first).to_have_text(re.compile(r" E[SD]T$"))
    expect(later_log).not_to_contain_text("Your cards")
    relief.page.locator("#log").scroll_into_view_if_needed()
    screenshot(relief.page, f"console-log-opened-later-{width}")
    assert not relief.errors, relief.errors
