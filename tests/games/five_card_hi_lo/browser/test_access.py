"""Players who use a screen reader or voice control (issue 28, WCAG 2.2 AA), at a Five Card
Hi-Lo table answered by the game itself (generic_feed.FakeTable): the setting buttons and the
dealer's hand are named with the cards in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site, login
from tests.browser.generic_feed import SOCKET, FakeTable

pytestmark = pytest.mark.browser

CARD_WORDS = re.compile(
    r"\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
    r"(clubs|diamonds|hearts|spades)\b"
)
#: A card as a code ("KS") or printed with its suit symbol ("K♠").
CARD_MARKS = re.compile(r"\b[2-9TJQKA][CDHS]\b|[♣♦♥♠]")


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
