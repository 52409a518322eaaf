"""Five Card Hi-Lo's felt in Chromium, a round a real one of the game (the platform's
tests/browser/generic_feed.py answers the page's socket with the game's own views and moves):
before the Play each setting the hand allows, in words with both totals, then the setting step
with each setting's high and low hand (§663a.11(d)), and a settled box that says why the Ante
and Play went as they did. Screenshots (phone 390x844, desktop 1440x900) go to
/tmp/shots/generic/ (``GENERIC_SHOTS``)."""

from __future__ import annotations

import re
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
