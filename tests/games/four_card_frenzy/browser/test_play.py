"""Two players and a dealer, each in their own browser, play full rounds at a live table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import PHONE, Client, Site, login, screenshot
from tests.browser.helpers import (
    add_chips,
    dealer_does,
    expect_balance,
    expect_no_citation,
    expect_opaque_bar,
    open_betting,
    open_console,
    open_table,
    place_bets,
    region_html,
    sit,
    wait_phase,
)

from .helpers import assert_no_foreign_cards_seen, decide

pytestmark = pytest.mark.browser

FELT = [".felt", "#my-hands", "#my-turn", "#round-result"]
CONSOLE = ["#box-rows", ".dealer-result"]


def frames_since_round(frames: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    for i, frame in enumerate(frames):
        for event in frame.get("events", []):
            if event["kind"] == "round_opened" and event["data"]["round"] == number:
                return frames[i:]
    raise AssertionError(f"round {number} never opened")


def shots(alice: Client, bob: Client, dealer: Client, stage: str) -> None:
    """The player page as a desktop (1280x800) and a phone (390x844) show it from the top,
    the phone's controls further down, and the whole dealer console."""
    for client in (alice, bob):
        client.page.evaluate("window.scrollTo(0, 0)")
    screenshot(alice.page, f"player-desktop-{stage}")
    screenshot(bob.page, f"player-phone-{stage}")
    bob.page.locator(".controls").scroll_into_view_if_needed()
    screenshot(bob.page, f"player-phone-{stage}-controls")
    screenshot(dealer.page, f"dealer-{stage}", full_page=True)


def expect_ledger(site: Site, *players: Client) -> dict[str, int]:
    """The balance each page shows is the ledger's."""
    ledger = site.balances()
    for player in players:
        expect_balance(player, ledger[player.name])
    return ledger


def dom_without_backlog(page: Any) -> str:
    """The whole page but the console log's backlog: the table's public events from before the
    console opened (views.dealer_log_json, public audience only), where an earlier round's
    cards, public since its reveal, may be the very cards this round deals."""
    return str(
        page.evaluate(
            """() => {
              const d = document.documentElement.cloneNode(true);
              d.querySelectorAll("#log li[data-backlog]").forEach((n) => n.remove());
              return d.outerHTML;
            }"""
        )
    )


def settle_and_check(
    site: Site,
    number: int,
    alice: Client,
    bob: Client,
    dealer: Client,
    stage: str,
    before: dict[str, int],
    full_dom: bool,
) -> dict[str, Any]:
    """Reveal and settle, after checking that nobody saw a card they should not have.
    ``before``: the balances before the round's first bet."""
    expect(dealer.page.locator("#next-action")).to_have_text(re.compile("^Reveal"))
    expect(dealer.page.locator("#next-action")).to_be_enabled()
    html = {
        c.name: (dom_without_backlog(c.page) if full_dom else region_html(c, sel))
        for c, sel in ((alice, FELT), (bob, FELT), (dealer, CONSOLE))
    }
    dealer.page.click("#next-action")
    expect(dealer.page.locator("#console")).to_have_attribute("data-phase", "revealed")
    for player in (alice, bob):
        wait_phase(player, "revealed")
        expect(player.page.locator("#dealer-cards .card.face")).to_have_count(5)
    shots(alice, bob, dealer, f"{stage}-4-revealed")
    dealer_does(dealer, "Settle", "settled")
    for player in (alice, bob):
        wait_phase(player, "settled")
    cards = assert_no_foreign_cards_seen(site, number, [alice, bob, dealer], html)
    ledger = expect_ledger(site, alice, bob)
    for player in (alice, bob):
        net = cards["players"][player.name]["net"]
        expect(player.page.locator("#round-result")).to_have_attribute("data-net", str(net))
        # A round's net is what the player is up or down on it (stakes come back besides).
        assert ledger[player.name] == before[player.name] + net, (player.name, net)
        # Every wager on the player's box shows its result and amount.
        box = next(b for b, v in cards["boxes"].items() if v["player"] == player.name)
        expect(player.page.locator(f"#box-{box} .box-results .box-net")).to_be_visible()
        # After a whole round, nothing a player reads cites the regulation, and the pinned
        # bar hides what scrolls under it (desktop and phone).
        expect_no_citation(player.page)
        expect_opaque_bar(player.page)
    shots(alice, bob, dealer, f"{stage}-5-settled")
    return cards


def test_two_players_and_a_dealer_play_full_rounds(browser: Any, site: Site) -> None:
    start = site.balances()
    alice = login(browser, site, "alice")
    bob = login(browser, site, "bob", PHONE, phone=True)
    dealer = login(browser, site, "dealer")
    open_table(alice, site)
    open_table(bob, site)
    open_console(dealer, site)

    sit(alice, 1)
    sit(bob, 3)
    expect(dealer.page.locator('#box-rows tr[data-box="3"]')).to_contain_text("bob")
    # Box 1 is at the dealer's left: the right-hand end of the felt as the players see it.
    one = alice.page.locator("#box-1").bounding_box()
    six = alice.page.locator("#box-6").bounding_box()
    assert one and six and one["x"] > six["x"]
    shots(alice, bob, dealer, "r1-0-seated")

    # --- round 1: alice raises, bob folds (his All-Six keeps his cards in action) ----------
    open_betting(dealer)
    first = site.next_round() - 1
    for player in (alice, bob):
        wait_phase(player, "betting")
        expect(player.page.locator("#countdown")).to_contain_text("Bets close in")

    # A refused bet says why, with the table's limits.
    add_chips(alice, 1, [(100, "ante")], placed=False)
    expect(alice.page.locator("#notice")).to_contain_text("$5.00 to $500.00")
    add_chips(
        alice,
        1,
        [(500, "ante"), (500, "ante"), (500, "prime"), (500, "four_card_bonus"), (500, "all_six")],
    )
    expect(alice.page.locator("#box-1 .g-chip[data-wager='odds']")).to_contain_text("$10")
    place_bets(alice)
    add_chips(bob, 3, [(2500, "ante"), (100, "all_six")])
    place_bets(bob)
    expect_balance(alice, start["alice"] - 3500)
    expect_balance(bob, start["bob"] - 5100)
    expect_ledger(site, alice, bob)
    expect(dealer.page.locator('#box-rows tr[data-box="1"]')).to_contain_text("Ante $10.00")
    shots(alice, bob, dealer, "r1-1-betting")

    dealer_does(dealer, "No more bets", "closed")
    shots(alice, bob, dealer, "r1-2-closed")
    dealer_does(dealer, "Deal", "decisions")
    for player in (alice, bob):
        wait_phase(player, "decisions")
    # Her own five cards face up, the best four marked; everyone else's face down.
    expect(alice.page.locator("#my-hands .card.face")).to_have_count(5)
    expect(alice.page.locator("#my-hands .card.best")).to_have_count(4)
    expect(alice.page.locator("#box-3 .card.back")).to_have_count(5)
    expect(alice.page.locator("#dealer-cards .card.back")).to_have_count(5)
    expect(alice.page.locator("#extra-spot")).to_contain_text("All-Six card")
    expect(alice.page.locator("#extra-card .card.back")).to_have_count(1)
    expect(bob.page.locator("#box-1 .card.back")).to_have_count(5)
    expect(alice.page.locator("#my-turn")).to_be_visible()
    expect(bob.page.locator("#my-turn")).to_be_hidden()
    expect(dealer.page.locator("#next-action")).to_have_text("Waiting for the players")
    expect(dealer.page.locator("#phase-detail")).to_have_text("Box 1 is deciding.")
    expect(dealer.page.locator("#next-action")).to_be_disabled()
    shots(alice, bob, dealer, "r1-3-decisions")
    decide(alice, 1, 1)
    expect(bob.page.locator("#my-turn")).to_be_visible()
    screenshot(bob.page, "player-phone-r1-3-decisions-bob-to-act")
    decide(bob, 3, 0)
    cards = settle_and_check(site, first, alice, bob, dealer, "r1", start, full_dom=True)
    # Settled: bob's cards (folded with an All-Six wager) are turned up for everyone.
    bob_cards = cards["boxes"][3]["cards"]
    for code in bob_cards:
        expect(alice.page.locator(f'#box-3 [data-card="{code}"]')).to_have_count(1)
    expect(dealer.page.locator("#log")).to_contain_text("Round settled")

    # --- round 2: alice repeats her bet and raises the most she may; bob folds an Ante
    # alone, so his cards are mucked unseen ---------------------------------------------------
    before = site.balances()
    dealer_does(dealer, "Open betting", "betting")
    wait_phase(alice, "betting")
    wait_phase(bob, "betting")
    alice.page.click("#repeat-bets")  # one tap: placed at once
    expect(alice.page.locator("#box-1 .g-chip[data-wager='ante']")).to_contain_text("$10")
    place_bets(alice)
    add_chips(bob, 3, [(500, "ante")])
    place_bets(bob)
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "decisions")
    multiple = decide(alice, 1, "max")
    expect_balance(alice, before["alice"] - 3500 - multiple * 1000)
    decide(bob, 3, 0)
    cards = settle_and_check(site, first + 1, alice, bob, dealer, "r2", before, full_dom=False)
    expect(alice.page.locator("#box-3 .mucked")).to_be_visible()
    # Folded with no optional wager: mucked unseen, in events, snapshots and on the page (the
    # whole shoe is published after settlement, for the commitment, but not as bob's hand).
    mucked = cards["boxes"][3]["cards"]
    for client in (alice, dealer):
        for frame in frames_since_round(client.frames, first + 1):
            for event in frame.get("events", []):
                if event["kind"] == "box_settled" and event["data"]["box"] == 3:
                    assert event["data"]["cards"] is None, (client.name, event)
            if frame.get("type") == "snapshot" and frame.get("round"):
                for box in frame["round"]["boxes"]:
                    assert box["box"] != 3 or box["cards"] is None, (client.name, box)
        html = client.page.inner_html(".felt" if client is alice else "#box-rows")
        for code in mucked:
            assert f'data-card="{code}"' not in html, (client.name, code)

    # Game recall beside the felt: both rounds, newest first.
    expect(alice.page.locator("#recall .recall-item")).to_have_count(2)
    expect(alice.page.locator("#recall .recall-item").first).to_contain_text(f"Round {first + 1}")
    # The console works on a phone too.
    dealer.page.set_viewport_size(PHONE)
    expect(dealer.page.locator("#next-action")).to_be_in_viewport()
    screenshot(dealer.page, "dealer-phone-settled", full_page=True)
    for client in (alice, bob, dealer):
        assert not client.errors, (client.name, client.errors)
