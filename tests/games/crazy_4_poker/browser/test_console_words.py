"""The dealer console and the bet form in words (issue 28): a void is an action the dealer
takes, the automatic dealer is never named by its process id, and the bet form refuses an
Ante of 0 or 5.005 with a message (nothing sent). Screenshots at 390x844 and 1440x900."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site, login, screenshot

from .test_generic_live import MAKE_TABLE

pytestmark = [pytest.mark.browser]

OWN_TABLE = MAKE_TABLE.replace("Crazy 4 Poker live", "Crazy 4 Poker words").replace(
    "Crazy live", "Crazy words"
)


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_voids_read_as_actions_and_bad_bets_say_why(browser: Any, site: Site, size: Any) -> None:
    width, height = size
    viewport = {"width": width, "height": height}
    phone = width < 500
    table_id = int(site.stack.manage("shell", "-c", OWN_TABLE).strip().splitlines()[-1])
    player = login(browser, site, "erin", viewport=viewport, phone=phone)
    dealer = login(browser, site, "dealer", viewport=viewport, phone=phone)
    dealer.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    expect(dealer.page.locator("#console")).to_have_attribute("data-game", "crazy_4_poker")
    player.page.goto(site.url(f"/tables/{table_id}/"))
    expect(player.page.locator("#app")).to_have_attribute("data-game", "crazy_4_poker")
    # The felt is drawn (its boxes are there) once the first snapshot is in.
    expect(player.page.locator("#app")).to_have_attribute("data-ready", "1")
    if player.page.locator("#box-2 .sit").count():  # seated already at the other size
        # The felt redraws as the clock ticks: click the button as it is now.
        player.page.evaluate("document.querySelector('#box-2 .sit').click()")
    expect(player.page.locator("#box-2")).to_have_class(re.compile(r"\bmine\b"))
    button = dealer.page.locator("#next-action")
    expect(button).to_have_text(re.compile("^Open"))
    if button.inner_text().strip() == "Open the table":
        button.click()
    expect(button).to_have_text("Open betting")
    button.click()
    expect(player.page.locator("#app")).to_have_attribute("data-phase", "betting")
    form = player.page.locator("#bet-form fieldset[data-box='2']")
    notice = player.page.locator("#notice")
    for typed, words in (("0", "needs an Ante"), ("5.005", "whole number of $1.00")):
        form.locator("#bet-2-ante").fill(typed)
        form.get_by_role("button", name="Place wagers on box 2").click()
        expect(notice).to_contain_text(words)
    notice.scroll_into_view_if_needed()
    screenshot(player.page, f"c4p-bet-refused-{width}")
    log = player.page.locator("#log")
    expect(log).not_to_contain_text("took the wagers back")
    # The console: the void is worded as an action, under what it is for.
    voids = dealer.page.locator("#generic-voids")
    action = voids.locator("button.void-action").first
    expect(action).to_contain_text("Void this round — ")
    expect(voids).to_contain_text("If one of these happened, void the round")
    expect(dealer.page.locator("#dealing")).not_to_contain_text("autodealer-")
    # Bug 6: an ordinary table's console offers no shoe drill; the felt says nothing of one.
    expect(dealer.page.locator("fieldset.faults")).to_be_hidden()
    expect(player.page.locator(".test-table")).to_have_count(0)
    voids.scroll_into_view_if_needed()
    screenshot(dealer.page, f"console-voids-{width}")
    action.click()
    dealer.page.locator("#confirm").get_by_role("button", name="Void the round").click()
    expect(dealer.page.locator("#console")).to_have_attribute("data-phase", "void")
    assert not dealer.errors, dealer.errors
