"""Players who use a keyboard (issue 28, WCAG 2.2 AA) at Four Card Frenzy's felt, on the live
stack at a table of its own: the single-key shortcuts can be turned off (WCAG 2.1.4), and the
choice kept; more time on the clock, and the keyboard after the decision."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site, login

pytestmark = pytest.mark.browser


MAKE_FRENZY = """
from table import ledger
from table.demo import game_rules_submission
from table.models import DealerAssignment, Table
from django.contrib.auth import get_user_model
rules = game_rules_submission("four_card_frenzy", "Frenzy access")
table, _ = Table.objects.get_or_create(name="Frenzy access", defaults={"rules": rules})
ledger.table_bankroll(table)
DealerAssignment.objects.get_or_create(
    table=table, dealer=get_user_model().objects.get(username="dealer"))
print(table.pk)
"""


def test_single_key_shortcuts_can_be_turned_off(browser: Any, site: Site) -> None:
    """Single-key shortcuts can be turned off, and the choice outlives a reload (WCAG 2.1.4);
    more time on the clock, and the keyboard after the decision."""
    table_id = int(site.stack.manage("shell", "-c", MAKE_FRENZY).strip().splitlines()[-1])
    carol = login(browser, site, "carol")
    dealer = login(browser, site, "dealer")
    dealer.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    page = carol.page
    page.goto(site.url(f"/tables/{table_id}/"))
    expect(page.locator("#app")).to_have_attribute("data-ready", "1")
    page.click("#box-4 .sit")
    button = dealer.page.locator("#next-action")
    expect(button).to_have_text("Open betting")
    button.click()
    form = page.locator("#bet-form fieldset[data-box='4']")
    expect(form).to_be_visible()
    expect(page.locator("#bet-keys")).to_be_visible()
    # On: "3" picks $25.
    page.locator("#boxes").click(position={"x": 2, "y": 2})
    page.keyboard.press("3")
    expect(page.locator("#bet-keys [data-cents='2500']")).to_have_attribute("aria-current", "true")
    # Off: the keys do nothing and their hints go; the choice outlives a reload.
    page.uncheck("#single-keys")
    expect(page.locator("#bet-keys")).to_be_hidden()
    page.reload()
    expect(page.locator("#app")).to_have_attribute("data-ready", "1")
    expect(page.locator("#single-keys")).not_to_be_checked()
    expect(page.locator("#bet-keys")).to_be_hidden()
    page.locator("#boxes").click(position={"x": 2, "y": 2})
    page.keyboard.press("3")
    page.keyboard.press("a")
    expect(page.locator("#box-4 .g-chip")).to_have_count(0)
    # Sit here is named by its own words first (WCAG 2.5.3).
    assert (page.locator("#box-1 .sit").get_attribute("aria-label") or "").startswith("Sit here")
    page.check("#single-keys")
    expect(page.locator("#bet-keys")).to_be_visible()

    # Her turn: more time once a round, and after the decision the keyboard stays on her box.
    form.locator("#bet-4-ante").fill("5")
    form.get_by_role("button", name="Place wagers on box 4").click()
    expect(page.locator("#box-4 .g-chip[data-wager='ante']")).to_contain_text("$5")
    expect(button).to_have_text("No more bets")
    button.click()
    expect(button).to_have_text("Deal")
    button.click()
    decision = page.locator("#my-turn")
    expect(decision).to_be_visible()
    expect(page.locator("#announce-now p").first).to_contain_text("seconds to decide")
    decision.locator(".more-time").click()
    expect(decision.locator(".more-time")).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("asked for more time: 20 s more on the clock")
    decision.get_by_role("button", name="Raise 1x ($5.00)").click()
    expect(decision).to_be_hidden()
    page.wait_for_function("() => document.activeElement !== document.body")
    assert page.evaluate("() => document.activeElement.id") == "box-4"
    assert not carol.errors, carol.errors
