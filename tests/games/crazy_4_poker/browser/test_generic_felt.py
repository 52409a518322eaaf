"""Crazy 4 Poker's felt in Chromium, each round a real one of the game (the platform's
tests/browser/generic_feed.py answers the page's socket with the game's own views and moves):
the bet form drawn from the bet move's amounts with their limits, the Play buttons from the
decide move's choices with why the Play may be what it is (§657a.11(b)), the meters panel
following meter frames, and a settled box that says what each wager won or lost and why.
Screenshots (phone 390x844, desktop 1440x900) go to /tmp/shots/generic/ (``GENERIC_SHOTS``)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site
from tests.browser.generic_feed import FakeTable, open_fake, player, shot
from tests.browser.helpers import (
    down_at_the_controls,
    expect_dealer_clear_of_the_bar,
    expect_no_citation,
    expect_opaque_bar,
)

pytestmark = pytest.mark.browser


def test_crazy_4_poker_bet_decide_meters_and_result(
    browser: Any, site: Site, screen: tuple[str, dict[str, int]]
) -> None:
    fake = FakeTable("crazy_4_poker", "alice", seed=4)  # two pair: Play 1x to 3x
    fake.other_player("bob", 4, {"ante": 500})
    alice = player(browser, site, screen)
    open_fake(alice, site, fake)
    page = alice.page
    expect(page.locator("#app")).to_have_attribute("data-game", "crazy_4_poker")
    expect(page.locator("#app")).to_have_attribute("data-phase", "betting")
    expect(page.locator(".g-game-title").first).to_have_text("Crazy 4 Poker")
    # Under its name the layout prints its chapter's inscriptions (§657a.2(b)(7)), the game's.
    printed = page.locator(".felt-print .g-printed .qualify")
    expect(printed).to_have_count(4)
    expect(printed.nth(1)).to_have_text("Dealer qualifies with king high or better")
    # The meters the table is linked to, at their amounts.
    meters = page.locator("#meters .g-meter")
    expect(meters).to_have_count(len(fake.meter_frames()))

    page.click("#box-2 .sit")
    form = page.locator("#bet-form fieldset[data-box='2']")
    expect(form).to_be_visible()
    # One row per amount of the bet move, each with its limits.
    bet = next(m for m in fake.driver.moves(fake.viewer()) if m.name == "bet" and m.box == 2)
    for amount in bet.amounts:
        expect(form).to_contain_text(amount.label)
    expect(form).to_contain_text("$5.00 – $500.00")
    form.locator("#bet-2-ante").fill("10")
    form.locator("#bet-2-queens_up").fill("2")
    form.locator("#bet-2-progressive").check()
    form.get_by_role("button", name="Place wagers on box 2").click()
    chips = page.locator("#box-2 .g-chip")
    expect(chips.filter(has_text="Ante")).to_contain_text("$10")
    expect(chips.filter(has_text="Queens Up")).to_contain_text("$2")
    assert fake.driver.state().boxes[2].wagers["ante"] == 1000
    shot(alice, f"c4p-betting-{screen[0]}")
    # The signs pay "to 1" and "for 1": one line under them says the difference (the "for 1"
    # wagers are taken at "no more bets", §657a.10(a)(2)).
    expect(page.locator("#pay-legend")).to_have_text(
        "“for 1”: the payout includes your wager, which was taken at “no more bets” · "
        "“to 1”: paid on top of your wager, which is returned."
    )
    form.scroll_into_view_if_needed()
    shot(alice, f"c4p-betform-{screen[0]}")

    # Out of the limits: the game refuses and says why; nothing changed.
    form.locator("#bet-2-ante").fill("5000")
    form.get_by_role("button", name="Place wagers on box 2").click()
    expect(page.locator("#notice")).to_be_visible()
    assert fake.driver.state().boxes[2].wagers["ante"] == 1000

    before = page.locator("#meters .g-meter-amount").all_text_contents()
    fake.dealer("close_betting")
    expect(page.locator("#meters .g-meter-amount").first).not_to_have_text(before[0])
    fake.dealer("deal")
    expect(page.locator("#app")).to_have_attribute("data-phase", "decisions")
    turn = page.locator("#my-turn")
    expect(turn).to_be_visible()
    decide = next(m for m in fake.driver.moves(fake.viewer()) if m.name == "decide")
    labels = [c.label for c in decide.choices]
    assert labels == ["Fold", "Play 1x ($10.00)", "Play 2x ($20.00)", "Play 3x ($30.00)"]
    for label in labels:
        expect(turn.get_by_role("button", name=label)).to_be_visible()
    expect(page.locator(".my-hand .cards-row .card.face")).to_have_count(5)
    # Why the Play may go up to 3x: a pair of aces or better (§657a.11(b)), in words.
    hand = fake.round_view()["boxes"][0]["hand"]
    assert hand == "Two pair, jacks and sevens"
    expect(turn.locator(".g-play-why")).to_have_text(
        "A pair of aces or better allows a Play of up to 3x your Ante: with your two pair, "
        "jacks and sevens you may Play from $10.00 (1x) to $30.00 (3x)."
    )
    expect_no_citation(page)
    shot(alice, f"c4p-decision-{screen[0]}")
    turn.get_by_role("button", name=labels[-1]).click()
    expect(turn).to_be_hidden()
    assert fake.driver.state().boxes[2].wagers["play"] == 3000
    fake.others_act()
    down_at_the_controls(page)
    fake.dealer("reveal")
    fake.dealer("settle")
    expect(page.locator("#app")).to_have_attribute("data-phase", "settled")
    expect(page.locator("#round-result")).to_be_visible()
    expect_dealer_clear_of_the_bar(page)
    expect_opaque_bar(page)
    expect_no_citation(page)
    # Whether the dealer qualifies, and what qualifying takes (§657a.11(c)(3)).
    expect(page.locator("#dealer-hand")).to_contain_text("king high or better")
    result = page.locator("#my-result")
    expect(result).to_be_visible()
    settled = fake.round_view()["boxes"]
    mine = next(b for b in settled if b["box"] == 2)
    lines = result.locator(".result-lines li")
    expect(lines).to_have_count(len(mine["results"]))
    # Every line: the wager, won/lost/push, why (the hands that decided it) and the amount.
    ante = result.locator("li[data-wager='ante']")
    expect(ante).to_contain_text("Ante")
    expect(ante.locator(".res-why")).not_to_be_empty()
    expect(page.locator("#dealer-cards .card.face")).to_have_count(5)
    expect(page.locator("#round-result")).to_be_visible()
    shot(alice, f"c4p-settled-{screen[0]}", full_page=screen[0] == "desktop")
    result.scroll_into_view_if_needed()
    shot(alice, f"c4p-result-{screen[0]}")
    assert not [e for e in alice.errors if "WebSocket" not in e], alice.errors


def test_crazy_4_poker_below_aces_plays_1x_and_says_why(
    browser: Any, site: Site, screen: tuple[str, dict[str, int]]
) -> None:
    """Below a pair of aces the Play is the Ante only (§657a.11(b)): the felt says so, and
    what 3x would take, before the player decides."""
    fake = FakeTable("crazy_4_poker", "alice", seed=6)  # a pair of jacks: Play 1x only
    fake.other_player("bob", 4, {"ante": 500})
    alice = player(browser, site, screen)
    open_fake(alice, site, fake)
    page = alice.page
    page.click("#box-2 .sit")
    form = page.locator("#bet-form fieldset[data-box='2']")
    form.locator("#bet-2-ante").fill("10")
    form.get_by_role("button", name="Place wagers on box 2").click()
    expect(page.locator("#box-2 .g-chip").filter(has_text="Ante")).to_contain_text("$10")
    fake.dealer("close_betting")
    fake.dealer("deal")
    turn = page.locator("#my-turn")
    expect(turn).to_be_visible()
    mine = fake.round_view()["boxes"][0]
    assert mine["hand"] == "Pair of jacks"
    assert (mine["play_options"]["min"], mine["play_options"]["max"]) == (1000, 1000)
    expect(turn.locator(".decision-buttons button")).to_have_text(["Fold", "Play 1x ($10.00)"])
    expect(turn.locator(".g-play-why")).to_have_text(
        "With your pair of jacks you may Play 1x your Ante ($10.00) only: 2x or 3x needs a "
        "pair of aces or better."
    )
    expect_no_citation(page)
    shot(alice, f"c4p-play-1x-{screen[0]}")
    turn.get_by_role("button", name="Play 1x ($10.00)").click()
    expect(turn).to_be_hidden()
    assert fake.driver.state().boxes[2].wagers["play"] == 1000
    assert not [e for e in alice.errors if "WebSocket" not in e], alice.errors
