"""A Crazy 4 Poker round end to end on the live stack: the real socket, services and snapshot.
A player bets through the generic felt's form, the dealer's console moves the round on from
its moves, the player plays, and the settled result and the meters show. Needs the platform's
generic services (``services.act``) and snapshot (``snapshot.round_view``): skipped until
both are in the tree (tests/browser/test_generic_felt.py covers the pages meanwhile)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Site, login

pytestmark = [pytest.mark.browser]

MAKE_TABLE = """
from table.games import game
from table.models import DealerAssignment, RulesSubmission, Table
from table import meters
from django.contrib.auth import get_user_model
g = game("crazy_4_poker")
rules, _ = RulesSubmission.objects.get_or_create(
    name="Crazy 4 Poker live", defaults={"game": "crazy_4_poker",
    "choices": g.rules_to_dict(g.default_rules())})
table, made = Table.objects.get_or_create(name="Crazy live", defaults={"rules": rules})
if made:
    DealerAssignment.objects.create(
        table=table, dealer=get_user_model().objects.get(username="dealer"))
    meters.create_meter("Crazy live five-card", "five_card", "A", 100, [table])
    meters.create_meter("Crazy live hand bonus", "hand_bonus", "", 100, [table])
print(table.pk)
"""


def test_crazy_4_poker_round_on_the_live_stack(browser: Any, site: Site) -> None:
    table_id = int(site.stack.manage("shell", "-c", MAKE_TABLE).strip().splitlines()[-1])
    alice = login(browser, site, "carol")
    dealer = login(browser, site, "dealer")
    dealer.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    console = dealer.page.locator("#console")
    expect(console).to_have_attribute("data-game", "crazy_4_poker")
    alice.page.goto(site.url(f"/tables/{table_id}/"))
    app = alice.page.locator("#app")
    expect(app).to_have_attribute("data-game", "crazy_4_poker")
    expect(alice.page.locator("#meters .g-meter")).to_have_count(2)
    alice.page.click("#box-3 .sit")
    button = dealer.page.locator("#next-action")
    expect(button).to_have_text("Open betting")
    button.click()
    expect(app).to_have_attribute("data-phase", "betting")
    form = alice.page.locator("#bet-form fieldset[data-box='3']")
    form.locator("#bet-3-ante").fill("5")
    form.get_by_role("button", name="Place wagers on box 3").click()
    expect(alice.page.locator("#box-3 .g-chip").filter(has_text="Ante")).to_contain_text("$5")
    expect(button).to_have_text("No more bets")
    button.click()
    expect(button).to_have_text("Deal")
    button.click()
    turn = alice.page.locator("#my-turn")
    expect(turn).to_be_visible()
    turn.get_by_role("button", name=re.compile(r"^Play 1x")).click()
    expect(button).to_have_text(re.compile("^Reveal"))
    button.click()
    expect(button).to_have_text("Settle")
    button.click()
    expect(app).to_have_attribute("data-phase", "settled")
    expect(alice.page.locator("#my-result li[data-wager='ante'] .res-why")).not_to_be_empty()
    expect(alice.page.locator("#round-result")).to_be_visible()
