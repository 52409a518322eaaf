"""Players who use a keyboard, a screen reader or voice control (issue 28, WCAG 2.2 AA):

- after a decision the keyboard stays at the table (the box just played), not the page body;
- announcements queue (each a line added to its live region, never a rewrite of the last),
  the player's turn is said at once (assertive) with the time left, and the clock warns at 10
  and 5 seconds;
- Five Card Hi-Lo's setting buttons and the dealer's hand are named with the cards in words;
- Four Card Frenzy's single-key shortcuts can be turned off (WCAG 2.1.4), and the choice kept.

The games after Four Card Frenzy are answered by the game itself (generic_feed.FakeTable);
Four Card Frenzy's felt runs on the live stack, at a table of its own.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Site, login
from .generic_feed import FakeTable

pytestmark = pytest.mark.browser

SOCKET = re.compile(r"/ws/tables/1/(dealer/)?$")
CARD_WORDS = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
    r"(clubs|diamonds|hearts|spades)\b"
)
#: A card as a code ("KS") or printed with its suit symbol ("K♠").
CARD_MARKS = re.compile(r"\b[2-9TJQKA][CDHS]\b|[♣♦♥♠]")


def lines(page: Any, region: str) -> list[str]:
    return page.locator(f"{region} p").all_text_contents()  # type: ignore[no-any-return]


def test_decision_focus_turn_said_at_once_and_the_clock_warns(browser: Any, site: Site) -> None:
    fake = FakeTable("crazy_4_poker", "alice", seed=6)
    fake.other_player("bob", 4, {"ante": 500})
    alice = login(browser, site, "alice")
    page = alice.page
    page.route_web_socket(SOCKET, fake.attach)
    page.goto(site.url("/tables/1/"))
    expect(page.locator("#app")).to_have_attribute("data-phase", "betting")
    page.click("#box-2 .sit")
    form = page.locator("#bet-form fieldset[data-box='2']")
    form.locator("#bet-2-ante").fill("10")
    form.get_by_role("button", name="Place wagers on box 2").click()
    expect(page.locator("#announce p").last).to_have_text("Wagers placed on box 2.")
    fake.dealer("close_betting")
    fake.dealer("deal")
    turn = page.locator("#my-turn")
    expect(turn).to_be_visible()
    # The turn is said at once (assertive), with the time left to decide.
    now = page.locator("#announce-now p")
    expect(now.first).to_contain_text("Your turn on box 2")
    expect(now.first).to_contain_text(re.compile(r"\d+ seconds to decide\."))
    # The panel has the keyboard.
    assert page.evaluate("() => document.activeElement.id") == "my-turn"
    # Queued, not overwritten: a second polite line beside the first, both in the region.
    before = len(lines(page, "#announce"))
    fake.send(
        {
            "type": "events",
            "version": fake.version + 1,
            "table": 1,
            "events": [
                # The clock moves to 11.5 s from now: the page warns at 10 and at 5.
                {"kind": "decision_clock", "data": {"deadline": int(time.time() * 1000) + 11_500}}
            ],
        }
    )
    fake.version += 1
    expect(now.filter(has_text="10 seconds left to decide on box 2.")).to_have_count(1)
    expect(now.filter(has_text="5 seconds left to decide on box 2.")).to_have_count(
        1, timeout=9_000
    )
    # Every line is still there, in order: none rewrote another.
    said = lines(page, "#announce-now")
    assert said.index("10 seconds left to decide on box 2.") < said.index(
        "5 seconds left to decide on box 2."
    ), said
    assert len(lines(page, "#announce")) >= before
    # More time, once a round (WCAG 2.2.1): the clock moves on, the button goes.
    turn.get_by_role("button", name="More time (+20 s, once a round)").click()
    expect(now.filter(has_text="20 more seconds on box 2.")).to_have_count(1)
    expect(turn.get_by_role("button", name=re.compile(r"^More time"))).to_have_count(0)
    expect(page.locator("#countdown")).to_have_text(re.compile(r"^2\d s to decide$"))
    expect(page.locator("#log")).to_contain_text("asked for more time: 20 s more on the clock")
    turn.get_by_role("button", name=re.compile(r"^Play 1x")).click()
    expect(turn).to_be_hidden()
    # After the decision the keyboard is on the box just played, not the page's body.
    page.wait_for_function("() => document.activeElement !== document.body")
    assert page.evaluate("() => document.activeElement.id") == "box-2"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#boxes, .below') !== null")
    assert not [e for e in alice.errors if "WebSocket" not in e], alice.errors


def test_hi_lo_settings_and_the_dealers_hand_in_words(browser: Any, site: Site) -> None:
    fake = FakeTable("five_card_hi_lo", "alice", seed=1)  # an ace: two settings
    fake.other_player("bob", 5, {"ante": 500})
    alice = login(browser, site, "alice")
    page = alice.page
    page.route_web_socket(SOCKET, fake.attach)
    page.goto(site.url("/tables/1/"))
    page.click("#box-1 .sit")
    form = page.locator("#bet-form fieldset[data-box='1']")
    form.locator("#bet-1-ante").fill("5")
    form.get_by_role("button", name="Place wagers on box 1").click()
    expect(page.locator("#box-1 .g-chip").filter(has_text="Ante")).to_be_visible()
    fake.dealer("close_betting")
    fake.dealer("deal")
    turn = page.locator("#my-turn")
    turn.get_by_role("button", name=re.compile(r"^Play")).click()
    fake.others_act()
    buttons = turn.get_by_role("button", name=re.compile(r"^Set these hands"))
    expect(buttons).to_have_count(2)
    for i in range(2):
        name = buttons.nth(i).get_attribute("aria-label") or ""
        # Its own words first (a voice-control user says what is shown), then the cards in
        # words and the totals: no card codes, no suit symbols.
        assert name.startswith("Set these hands: high hand "), name
        assert len(CARD_WORDS.findall(name)) == 5, name
        assert not CARD_MARKS.search(name), name
        assert re.search(r"total \d+; low hand .+, total \d+$", name), name
    buttons.first.click()
    expect(turn).to_be_hidden()
    page.wait_for_function("() => document.activeElement !== document.body")
    fake.others_act()
    fake.dealer("reveal")
    fake.dealer("settle")
    expect(page.locator("#app")).to_have_attribute("data-phase", "settled")
    # The dealer's hand: symbols for the eye (hidden from screen readers), words for them.
    hand = page.locator("#dealer-hand")
    expect(hand).to_contain_text("= ")
    spoken = " ".join(hand.locator(".visually-hidden").all_text_contents())
    assert len(CARD_WORDS.findall(spoken)) == 5, spoken
    for symbol in hand.locator(".card-symbol").all():
        assert symbol.get_attribute("aria-hidden") == "true"
    # The log's reveal line too (the fake sends no events of its own: the reveal's, as the
    # consumer sends it).
    dealer = fake.round_view()["dealer"]
    fake.version += 1
    fake.send(
        {
            "type": "events",
            "version": fake.version,
            "table": 1,
            "events": [{"kind": "dealer_revealed", "data": dealer}],
        }
    )
    reveal = page.locator("#log li").filter(has_text="The dealer shows").first
    expect(reveal).to_be_visible()
    words = " ".join(reveal.locator(".visually-hidden").all_text_contents())
    assert len(CARD_WORDS.findall(words)) >= 5, words
    assert not [e for e in alice.errors if "WebSocket" not in e], alice.errors


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
