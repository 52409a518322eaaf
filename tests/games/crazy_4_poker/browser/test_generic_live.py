"""A Crazy 4 Poker round end to end on the live stack: the real socket, services and snapshot.
A player bets through the generic felt's form, the dealer's console moves the round on from
its moves, the player plays, and the settled result and the meters show (the generic services,
``services.act``, and snapshot, ``snapshot.round_view``, behind the real socket)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import PHONE, Site, login
from tests.browser.helpers import shot

from .helpers import generic_ante_play_round

DESKTOP = {"width": 1440, "height": 900}

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
    expect(dealer.page.locator("#next-action")).to_have_text("Open betting")
    generic_ante_play_round(alice.page, dealer.page, 3)
    expect(alice.page.locator("#my-result li[data-wager='ante'] .res-why")).not_to_be_empty()
    expect(alice.page.locator("#round-result")).to_be_visible()
    # The pinned bar says why (issue 28: it said only "You lost $…"): the hands that decided
    # the Ante and Play, and what each wager did.
    why = alice.page.locator("#round-result .why")
    expect(why).to_contain_text(re.compile(r"beats|ties|does not qualify"))
    expect(why).to_contain_text(re.compile(r"Ante\u00a0[+−]\$5\.00|Ante\u00a0returned"))
    expect(why).to_contain_text("Play\u00a0")
    # The header: the betting limits, no internal rules name, the game's title once.
    head = alice.page.locator(".table-head")
    expect(head.locator(".g-limits")).to_contain_text("Ante & Super Bonus $5.00 – $500.00")
    expect(head).not_to_contain_text("rules:")
    expect(head.locator("h1")).to_have_text("Crazy live · Crazy 4 Poker")


MAKE_TWO = """
from table import ledger
from table.demo import game_rules_submission, link_meters
from table.models import DealerAssignment, Table
from django.contrib.auth import get_user_model
rules = game_rules_submission("crazy_4_poker", "Crazy 4 Poker two players")
table = Table.objects.create(name="Crazy two %s", rules=rules)
ledger.table_bankroll(table)
link_meters(table, rules)
DealerAssignment.objects.create(table=table, dealer=get_user_model().objects.get(username="dealer"))
print(table.pk)
"""


@pytest.mark.parametrize("label, viewport", [("desktop", DESKTOP), ("phone", PHONE)])
def test_two_players_one_folds_one_plays(
    browser: Any, site: Site, label: str, viewport: dict[str, int]
) -> None:
    """dave (box 1, the first to decide) folds and frank (box 4) plays 1x: each felt says what
    each of its wagers did and why; the console shows both boxes settled."""
    out = site.stack.manage("shell", "-c", MAKE_TWO % label)
    table_id = int(out.strip().splitlines()[-1])
    phone = label == "phone"
    dave = login(browser, site, "dave", viewport=viewport, phone=phone)
    frank = login(browser, site, "frank", viewport=viewport, phone=phone)
    dealer = login(browser, site, "dealer", viewport=viewport, phone=phone)
    dealer.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    expect(dealer.page.locator("#console")).to_have_attribute("data-game", "crazy_4_poker")
    button = dealer.page.locator("#next-action")
    seats = ((dave, 1), (frank, 4))
    for player, box in seats:
        player.page.goto(site.url(f"/tables/{table_id}/"))
        expect(player.page.locator("#app")).to_have_attribute("data-game", "crazy_4_poker")
        player.page.click(f"#box-{box} .sit")
        expect(player.page.locator(f"#box-{box}")).to_have_class(re.compile(r"\bmine\b"))
    expect(button).to_have_text("Open betting")
    button.click()
    for player, box in seats:
        expect(player.page.locator("#app")).to_have_attribute("data-phase", "betting")
        form = player.page.locator(f"#bet-form fieldset[data-box='{box}']")
        form.locator(f"#bet-{box}-ante").fill("10")
        form.locator(f"#bet-{box}-queens_up").fill("5")
        form.get_by_role("button", name=f"Place wagers on box {box}").click()
        chip = player.page.locator(f"#box-{box} .g-chip").filter(has_text="Ante")
        expect(chip).to_contain_text("$10")
    shot(frank, f"c4p-{label}-1-frank-bets", "#bet-form")
    expect(button).to_have_text("No more bets")
    button.click()
    expect(button).to_have_text("Deal")
    button.click()
    turn = dave.page.locator("#my-turn")
    expect(turn).to_be_visible()
    # The digest's interpretation 3: warn before a fold, which loses every wager but the
    # Six Card Bonus (§657a.11(b)).
    expect(turn.locator(".g-fold-cost")).to_have_text(
        "Folding loses your Ante $10.00, Super Bonus $10.00, Queens Up $5.00."
    )
    shot(dave, f"c4p-{label}-2-dave-decides", "#my-turn")
    turn.get_by_role("button", name="Fold").click()
    frank_turn = frank.page.locator("#my-turn")
    expect(frank_turn).to_be_visible()
    shot(frank, f"c4p-{label}-2-frank-decides", "#my-turn")
    frank_turn.get_by_role("button", name=re.compile(r"^Play 1x")).click()
    expect(button).to_have_text(re.compile("^Reveal"))
    button.click()
    expect(button).to_have_text("Settle")
    button.click()
    expect(dealer.page.locator("#console")).to_have_attribute("data-phase", "settled")
    rows = dealer.page.locator("#box-rows")
    expect(rows.locator("tr[data-box='1']")).to_contain_text("Folded")
    shot(dealer, f"c4p-{label}-3-console-settled", "#box-rows")
    for player, _box in seats:
        expect(player.page.locator("#app")).to_have_attribute("data-phase", "settled")
        expect(player.page.locator("#round-result")).to_be_visible()
        shot(player, f"c4p-{label}-4-{player.name}-result", "#my-result")
        shot(player, f"c4p-{label}-5-{player.name}-felt", "#dealer-cards")
    dave_result = dave.page.locator("#my-result")
    # §657a.11(b)(1): a fold forfeits the Ante, the Super Bonus and the Queens Up.
    for wager in ("ante", "super_bonus", "queens_up"):
        line = dave_result.locator(f"li[data-wager='{wager}']")
        expect(line).to_have_class(re.compile(r"\boutcome-lose\b"))
        expect(line.locator(".res-why")).to_contain_text("you folded")
    expect(dave.page.locator("#round-result")).to_contain_text("You lost")
    frank_result = frank.page.locator("#my-result")
    for wager in ("ante", "play", "super_bonus", "queens_up"):
        expect(frank_result.locator(f"li[data-wager='{wager}'] .res-why")).not_to_be_empty()
    expect(frank_result.locator("li[data-wager='ante'] .res-why")).to_contain_text("the dealer's")
    for client in (dave, frank, dealer):
        assert not client.errors, f"{client.name}: {client.errors}"
