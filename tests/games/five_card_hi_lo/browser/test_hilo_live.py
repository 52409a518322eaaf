"""A Five Card Hi-Lo round end to end on the live stack, as its people see it: two players bet
through the felt's form and both Play; erin, dealt one ace, chooses on the felt the setting
with the ace low (both settings offered with their high and low totals, §663a.11(d)); frank
does not set in time and the house sets his hand (house rule: aces high); the dealer's console
reveals and settles; each felt then shows both hands' totals beside the dealer's and what each
wager won or lost, and why.

The shoe is rigged: the test starts its own Daphne whose ``services.dealing.RANDOM`` is a
seeded source (swapped inside that process before it serves, ``tests.live.shoe_setup``;
the production code has no hook for it), on a table of its own, so the first shuffle of that
process is the one below. Seed 252 deals (stacks of five from box 1's side, §663a.10(b)):

- erin, box 2: A♣ K♣ 10♠ 8♥ 5♦. Aces high: A-K-10 = 31 / 8-5 = 13; ace low: K-10-8 = 28 / A-5 = 6.
- frank, box 5: K♥ 8♣ 6♠ 5♠ 4♥: K-8-6 = 24 / 5-4 = 9 (one setting only).
- the dealer: J♦ J♥ 7♠ 5♥ 2♠, set by the house way J-J-7 = 27 / 5-2 = 7 (§663a.11(e)).

So erin's choice decides her round: aces high would push (31 beats 27, 13 does not beat 7), the
ace low wins (28 beats 27 and 6 beats 7, §663a.11(g)); frank loses (24 and 9 beat neither).

Screenshots of every step (phone 390x844 and desktop 1440x900) go to /tmp/shots/browse/
(``BROWSE_SHOTS``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site, login
from tests.browser.helpers import (
    expect_dealer_clear_of_the_bar,
    expect_no_citation,
    expect_opaque_bar,
    shot,
)
from tests.live import shoe_setup

pytestmark = [pytest.mark.browser]

SEED = 252

MAKE_TABLE = """
import dataclasses
from table import ledger
from table.demo import link_meters
from table.games import game
from table.models import DealerAssignment, RulesSubmission, Table
from django.contrib.auth import get_user_model
g = game("five_card_hi_lo")
# A short setting clock, so that frank's time-out comes within the test.
rules_choices = g.rules_to_dict(dataclasses.replace(g.default_rules(), setting_seconds=6))
rules, _ = RulesSubmission.objects.get_or_create(
    name="Hi-Lo live", defaults={"game": "five_card_hi_lo", "choices": rules_choices})
table = Table.objects.create(name="Hi-Lo live %s", rules=rules, is_test=True)  # drills shown
ledger.table_bankroll(table)
link_meters(table, rules)
DealerAssignment.objects.create(table=table, dealer=get_user_model().objects.get(username="dealer"))
print(table.pk)
"""


@pytest.fixture
def rigged(site: Site, screen: tuple[str, dict[str, int]]) -> Iterator[tuple[Site, int]]:
    """A Daphne of its own whose shuffles come from the seed, and a fresh Hi-Lo table (a fresh
    shoe: its first shuffle is this process's first)."""
    table_id = int(
        site.stack.manage("shell", "-c", MAKE_TABLE % screen[0]).strip().splitlines()[-1]
    )
    address = site.stack.daphne(setup=shoe_setup("tests.conftest:SeededSource", SEED))
    proc = site.stack.processes[-1]
    try:
        yield Site(site.stack, address), table_id
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_two_players_play_hi_lo_and_one_sets_an_ace_low(
    browser: Any, rigged: tuple[Site, int], screen: tuple[str, dict[str, int]]
) -> None:
    site, table_id = rigged
    label, viewport = screen
    phone = label == "phone"
    erin = login(browser, site, "erin", viewport=viewport, phone=phone)
    frank = login(browser, site, "frank", viewport=viewport, phone=phone)
    dealer = login(browser, site, "dealer", viewport=viewport, phone=phone)
    dealer.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    expect(dealer.page.locator("#console")).to_have_attribute("data-game", "five_card_hi_lo")
    # Ch. 663a has no exposed dealer card: the console offers no such drill (§663a.13).
    expect(dealer.page.locator(".fault[data-fault='dealer_card_exposed']")).to_be_hidden()
    expect(dealer.page.locator(".fault[data-fault='jam']")).to_be_visible()
    button = dealer.page.locator("#next-action")
    felts = {}
    for player, box in ((erin, 2), (frank, 5)):
        player.page.goto(site.url(f"/tables/{table_id}/"))
        app = player.page.locator("#app")
        expect(app).to_have_attribute("data-game", "five_card_hi_lo")
        player.page.click(f"#box-{box} .sit")
        expect(player.page.locator(f"#box-{box}")).to_have_class(re.compile(r"\bmine\b"))
        felts[player.name] = app

    expect(button).to_have_text("Open betting")
    button.click()
    # Both bet through the felt's form: erin an Ante and a Poker Bonus, frank an Ante and a
    # Tie Wager.
    for player, box, extra, amount in ((erin, 2, "poker_bonus", "5"), (frank, 5, "tie", "5")):
        expect(felts[player.name]).to_have_attribute("data-phase", "betting")
        form = player.page.locator(f"#bet-form fieldset[data-box='{box}']")
        form.locator(f"#bet-{box}-ante").fill("10")
        form.locator(f"#bet-{box}-{extra}").fill(amount)
        form.get_by_role("button", name=f"Place wagers on box {box}").click()
        chips = player.page.locator(f"#box-{box} .g-chip")
        expect(chips.filter(has_text="Ante")).to_contain_text("$10")
    shot(erin, f"hilo-{label}-1-erin-bets", "#bet-form")
    expect(button).to_have_text("No more bets")
    button.click()
    expect(button).to_have_text("Deal")
    button.click()

    # Decisions box by box from the dealer's left: erin's box 2, then frank's box 5. Before
    # she decides, erin sees the two ways her hand may be set.
    turn = erin.page.locator("#my-turn")
    expect(turn).to_be_visible()
    options = turn.locator(".g-preview-list li")
    expect(options).to_have_count(2)
    # Each way said in words, with both totals, before she Plays.
    expect(options.nth(0)).to_contain_text("Ace high: it counts 11 in your high hand")
    expect(options.nth(0)).to_contain_text("high hand 31, low hand 13")
    expect(options.nth(1)).to_contain_text("Ace low: it counts 1 in your low hand")
    expect(options.nth(1)).to_contain_text("high hand 28, low hand 6")
    # §663a.11(b): a fold loses the Ante (and a Tie Wager), the Poker Bonus stays in action.
    expect(turn.locator(".g-fold-cost")).to_have_text(
        "Folding loses your Ante $10.00; your Poker Bonus $5.00 stays in play."
    )
    shot(erin, f"hilo-{label}-2-erin-decides", "#my-turn")
    turn.get_by_role("button", name=re.compile(r"^Play \$10\.00")).click()
    frank_turn = frank.page.locator("#my-turn")
    expect(frank_turn).to_be_visible()
    frank_turn.get_by_role("button", name=re.compile(r"^Play")).click()

    # The setting: erin's two settings, each hand with its total.
    expect(felts["erin"]).to_have_attribute("data-phase", "setting")
    choices = turn.locator(".g-setting-choice")
    expect(choices).to_have_count(2)
    expect(choices.nth(0).locator(".g-total")).to_have_text(["= 31", "= 13"])
    expect(choices.nth(0).locator(".g-choice-title")).to_have_text(
        "Ace high: it counts 11 in your high hand"
    )
    expect(choices.nth(1).locator(".g-choice-title")).to_have_text(
        "Ace low: it counts 1 in your low hand"
    )
    expect_no_citation(erin.page)
    expect(choices.nth(1).locator(".g-total")).to_have_text(["= 28", "= 6"])
    shot(erin, f"hilo-{label}-3-erin-sets", "#my-turn")
    shot(frank, f"hilo-{label}-3-frank-sets", "#my-turn")
    choices.nth(1).get_by_role("button").click()
    expect(erin.page.locator("#box-2 .g-setting")).to_contain_text("28")
    # frank lets his clock run out: the dealer's console offers the time-out once it has.
    time_out = dealer.page.locator("#time-out")
    expect(time_out).to_be_enabled(timeout=15_000)
    shot(dealer, f"hilo-{label}-4-console-time-out", "#next-action")
    time_out.click()
    expect(button).to_have_text(re.compile("^Reveal"))
    button.click()
    expect(button).to_have_text("Settle")
    button.click()
    expect(dealer.page.locator("#console")).to_have_attribute("data-phase", "settled")
    shot(dealer, f"hilo-{label}-5-console-settled", "#box-rows")

    # Each felt: the dealer's hands, both of the player's totals beside the dealer's, and a
    # line per wager with what it did and why.
    for player, box in ((erin, 2), (frank, 5)):
        page = player.page
        expect(felts[player.name]).to_have_attribute("data-phase", "settled")
        expect(page.locator("#dealer-hand")).to_contain_text("= 27")
        expect(page.locator("#dealer-hand")).to_contain_text("= 7")
        compare = page.locator(f"#my-result .my-result-box[data-box='{box}'] .g-versus")
        expect(compare).to_be_visible()
        # The dealer's hand in view below the bar, which hides nothing under it.
        expect(page.locator("#round-result")).to_be_visible()
        expect_dealer_clear_of_the_bar(page)
        expect_opaque_bar(page)
        expect_no_citation(page)
        shot(player, f"hilo-{label}-6-{player.name}-result", "#my-result")
        shot(player, f"hilo-{label}-7-{player.name}-felt", "#dealer-cards")

    erin_result = erin.page.locator("#my-result")
    versus = erin_result.locator(".g-versus")
    expect(versus.locator("[data-hand='high']")).to_contain_text("28")
    expect(versus.locator("[data-hand='high']")).to_contain_text("27")
    expect(versus.locator("[data-hand='low']")).to_contain_text("6")
    expect(versus.locator("[data-hand='low']")).to_contain_text("7")
    for wager in ("ante", "play"):
        line = erin_result.locator(f"li[data-wager='{wager}']")
        expect(line).to_have_class(re.compile(r"\boutcome-win\b"))
        expect(line.locator(".res-why")).to_contain_text("both your hands beat the dealer's")
        expect(line.locator(".amt")).to_have_text("+$10.00")
    bonus = erin_result.locator("li[data-wager='poker_bonus']")
    expect(bonus).to_have_class(re.compile(r"\boutcome-lose\b"))
    expect(bonus.locator(".res-why")).to_contain_text("high card")
    expect(erin.page.locator("#round-result")).to_contain_text("You won $15.00")
    # The pinned bar says why, as at Four Card Frenzy: what decided the main game and what
    # each wager did (issue 28: it said only "You won $15.00").
    erin_bar = erin.page.locator("#round-result .why")
    expect(erin_bar).to_contain_text(
        "both your hands beat the dealer's (high 28 vs 27, low 6 vs 7) — Ante\u00a0+$10.00, "
        "Play\u00a0+$10.00"
    )
    expect(erin_bar).to_contain_text("Poker Bonus\u00a0−$")

    frank_result = frank.page.locator("#my-result")
    expect(frank_result.locator(".g-versus [data-hand='high']")).to_contain_text("24")
    expect(frank_result.locator(".g-versus [data-hand='low']")).to_contain_text("9")
    expect(frank_result.locator(".g-set-by")).to_contain_text("the house set your hands, aces high")
    for wager in ("ante", "play"):
        line = frank_result.locator(f"li[data-wager='{wager}']")
        expect(line).to_have_class(re.compile(r"\boutcome-lose\b"))
        expect(line.locator(".res-why")).to_contain_text("neither hand beat the dealer's")
    tie = frank_result.locator("li[data-wager='tie']")
    expect(tie).to_have_class(re.compile(r"\boutcome-lose\b"))
    expect(tie.locator(".res-why")).to_contain_text("neither hand tied")
    expect(frank.page.locator("#round-result")).to_contain_text("You lost $25.00")
    frank_bar = frank.page.locator("#round-result .why")
    expect(frank_bar).to_contain_text(
        "neither of your hands beat the dealer's (high 24 vs 27, low 9 vs 7) — Ante\u00a0−$10.00"
    )
    expect(frank_bar).to_contain_text("Tie")
    # The header: the betting limits (as at Four Card Frenzy), no internal rules name, and the
    # game's title once.
    head = frank.page.locator(".table-head")
    expect(head.locator(".g-limits")).to_contain_text("Ante $5.00 – $500.00")
    expect(head.locator(".g-limits")).to_contain_text("up to 2 adjacent boxes")
    expect(head).not_to_contain_text("rules:")
    # A test table (its console arms drills) says so after its name (issue 28, bug 6).
    expect(head.locator("h1")).to_have_text(
        re.compile(r"^Hi-Lo live \w+ · Five Card Hi-Lo Test table$")
    )
    for client in (erin, frank, dealer):
        assert not client.errors, f"{client.name}: {client.errors}"
