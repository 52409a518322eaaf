"""The felt of Crazy 4 Poker and Five Card Hi-Lo in Chromium, each round a real one of the game
(tests/browser/generic_feed.py answers the page's socket with the game's own views and moves):
the page hands itself over to felt_generic.js, the bet form is drawn from the bet move's
amounts with their limits, the decision buttons from the decide move's choices, Hi-Lo's
setting step shows each setting's high and low hand with their totals, the meters panel follows
meter frames, and a settled box says what each wager won or lost and why. Screenshots (phone
390x844, desktop 1440x900) go to /tmp/shots/generic/ (``GENERIC_SHOTS``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Client, Site, login
from .generic_feed import FakeTable
from .helpers import expect_no_citation, expect_opaque_bar

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
SHOTS = Path(os.environ.get("GENERIC_SHOTS", "/tmp/shots/generic"))
SOCKET = re.compile(r"/ws/tables/1/(dealer/)?$")


def shot(client: Client, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    client.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def open_fake(client: Client, site: Site, fake: FakeTable, path: str = "/tables/1/") -> None:
    client.page.route_web_socket(SOCKET, fake.attach)
    client.page.goto(site.url(path))


@pytest.fixture(params=[("desktop", DESKTOP), ("phone", PHONE)], ids=["desktop", "phone"])
def screen(request: pytest.FixtureRequest) -> Iterator[tuple[str, dict[str, int]]]:
    yield request.param


def player(browser: Any, site: Site, screen: tuple[str, dict[str, int]]) -> Client:
    name, viewport = screen
    return login(browser, site, "alice", viewport=viewport, phone=name == "phone")


def down_at_the_controls(page: Any) -> None:
    """The player is down at the bottom of the page (at the decision panel, the setting, the
    signs) when the dealer reveals, as players are."""
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")


#: The pinned bar's box and the dealer's cards', on the screen.
BAR_AND_DEALER = """() => {
  const bar = document.querySelector('#pinned').getBoundingClientRect();
  const cards = document.querySelector('#dealer-cards').getBoundingClientRect();
  return {bar: [bar.top, bar.bottom], cards: [cards.top, cards.bottom], height: innerHeight};
}"""


def expect_dealer_clear_of_the_bar(page: Any) -> None:
    """At settlement the dealer's cards are on the screen, whole, below the pinned bar (which
    has grown by the result), not under it nor scrolled away above it."""
    try:
        page.wait_for_function(
            """() => {
              const bar = document.querySelector('#pinned').getBoundingClientRect();
              const cards = document.querySelector('#dealer-cards').getBoundingClientRect();
              return cards.height > 0 && bar.bottom <= cards.top && cards.bottom <= innerHeight;
            }""",
            timeout=3_000,
        )
    except Exception as exc:
        where = page.evaluate(BAR_AND_DEALER)
        raise AssertionError(f"the bar and the dealer's cards: {where}") from exc


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


def test_five_card_hi_lo_setting_step(
    browser: Any, site: Site, screen: tuple[str, dict[str, int]]
) -> None:
    fake = FakeTable("five_card_hi_lo", "alice", seed=1)  # an ace: two settings
    fake.other_player("bob", 5, {"ante": 500})
    alice = player(browser, site, screen)
    open_fake(alice, site, fake)
    page = alice.page
    expect(page.locator("#app")).to_have_attribute("data-game", "five_card_hi_lo")
    # Under its name, how the Ante and Play win (§663a.11(g)), in the game's words.
    expect(page.locator(".felt-print .g-printed")).to_have_text(
        "Win with a higher high hand and a lower low hand than the dealer's"
    )
    page.click("#box-1 .sit")
    form = page.locator("#bet-form fieldset[data-box='1']")
    form.locator("#bet-1-ante").fill("5")
    form.locator("#bet-1-tie").fill("1")
    form.get_by_role("button", name="Place wagers on box 1").click()
    expect(page.locator("#box-1 .g-chip").filter(has_text="Tie")).to_contain_text("$1")
    fake.dealer("close_betting")
    fake.dealer("deal")
    turn = page.locator("#my-turn")
    expect(turn.get_by_role("button", name="Fold")).to_be_visible()
    # The Ante Bonus is posted "for 1": X times the Ante, besides the Ante's own result
    # (§663a.12(b); FIVE_CARD_HI_LO.md, house interpretation 1).
    expect(page.locator("#pay-legend")).to_have_text(
        "“for 1”: the Ante Bonus pays that many times your Ante, besides what the Ante itself "
        "wins or loses · “to 1”: paid on top of your wager, which is returned."
    )
    # Before deciding, the settings the hand allows are shown, each saying in words what it
    # does with the ace and both totals (§663a.11(d)).
    offered = fake.round_view()["boxes"][0]["settings"]
    assert [s["ace_low"] for s in offered] == [False, True]
    options = turn.locator(".g-preview-list li")
    expect(options).to_have_count(2)
    for option, s in zip((options.nth(0), options.nth(1)), offered, strict=True):
        expect(option.locator(".g-option-title")).to_contain_text(
            "Ace low: it counts 1" if s["ace_low"] else "Ace high: it counts 11"
        )
        expect(option.locator(".g-option-title")).to_contain_text(
            f"high hand {s['high_total']}, low hand {s['low_total']}"
        )
    expect_no_citation(page)
    shot(alice, f"hilo-decision-{screen[0]}")
    turn.get_by_role("button", name=re.compile(r"^Play")).click()
    fake.others_act()
    expect(page.locator("#app")).to_have_attribute("data-phase", "setting")
    move = next(m for m in fake.driver.moves(fake.viewer()) if m.name == "set_hands")
    settings = {
        (tuple(s["high"]), tuple(s["low"])): s for s in fake.round_view()["boxes"][0]["settings"]
    }
    choices = turn.locator(".g-setting-choice")
    assert len(move.choices) == 2  # aces high, or the ace low (§663a.11(d))
    expect(choices).to_have_count(2)
    expect(choices.nth(0).locator(".g-choice-title")).to_have_text(
        "Ace high: it counts 11 in your high hand"
    )
    expect(choices.nth(1).locator(".g-choice-title")).to_have_text(
        "Ace low: it counts 1 in your low hand"
    )
    # The help says how cards count in plain words, without the regulation's section.
    expect(turn.locator(".g-set-help")).to_contain_text(
        "An ace may count as 1 in your low hand (only one ace)"
    )
    expect_no_citation(page)
    for i, choice in enumerate(move.choices):
        s = settings[(tuple(choice.args["high"]), tuple(choice.args["low"]))]
        card = choices.nth(i)
        expect(card.locator(".g-choice-hand").nth(0)).to_contain_text(f"= {s['high_total']}")
        expect(card.locator(".g-choice-hand").nth(1)).to_contain_text(f"= {s['low_total']}")
        expect(card.locator(".g-choice-hand").nth(0).locator(".card.face")).to_have_count(3)
        expect(card.locator(".g-choice-hand").nth(1).locator(".card.face")).to_have_count(2)
    shot(alice, f"hilo-setting-{screen[0]}")
    choices.last.get_by_role("button").click()
    expect(turn).to_be_hidden()
    picked = move.choices[-1].args
    setting = fake.driver.state().boxes[1].setting()
    assert setting is not None
    assert [c for c in fake.round_view()["boxes"][0]["setting"]["high"]] == list(picked["high"])
    fake.others_act()
    down_at_the_controls(page)
    fake.dealer("reveal")
    fake.dealer("settle")
    result = page.locator("#my-result")
    expect(result).to_be_visible()
    expect(page.locator("#round-result")).to_be_visible()
    expect_dealer_clear_of_the_bar(page)
    expect_opaque_bar(page)
    expect_no_citation(page)
    shot(alice, f"hilo-revealed-{screen[0]}")
    # Why the Ante and Play went as they did: both totals against the dealer's.
    dealer = fake.round_view()["dealer"]
    expect(result.locator("li[data-wager='ante'] .res-why")).to_contain_text(
        f"vs {dealer['high_total']}"
    )
    expect(page.locator("#dealer-hand")).to_contain_text(f"= {dealer['low_total']}")
    page.locator("#dealer-cards").scroll_into_view_if_needed()
    shot(alice, f"hilo-settled-{screen[0]}")
    result.scroll_into_view_if_needed()
    shot(alice, f"hilo-result-{screen[0]}")
    assert not [e for e in alice.errors if "WebSocket" not in e], alice.errors


@pytest.mark.parametrize("game_name", ["crazy_4_poker", "five_card_hi_lo"])
def test_console_draws_the_dealers_moves(browser: Any, site: Site, game_name: str) -> None:
    """The console's one big button is the step the dealer's moves offer (sent as the
    console's command: close_betting as no_more_bets), the time-out is the time_out move, and
    the voids allowed now are buttons with their reasons."""
    fake = FakeTable(game_name, "dealer", seed=4, dealer_page=True)
    fake.other_player("bob", 3, {"ante": 500})
    dealer = login(browser, site, "dealer", viewport=DESKTOP)
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
    if game_name == "five_card_hi_lo":
        expect(console).to_have_attribute("data-phase", "setting")
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
