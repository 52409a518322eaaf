"""Four Card Frenzy on the generic felt (issue 27: a game is one package, one felt): its round
view and moves drawn by felt_generic.js, served over a routed socket by the game itself
(tests/browser/generic_feed.py), as Crazy 4 Poker's and Five Card Hi-Lo's are, and as the live
table draws it (test_play, test_felt): a bet from the bet move's amounts, the Raise buttons from
the decide move's choices with why the Raise is what it is, the All-Six card as the shared
card, and a settled box that says what each wager won or lost and why. Screenshots (phone
390x844, desktop 1440x900) go to /tmp/shots/generic/ (``GENERIC_SHOTS``)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site
from tests.browser.generic_feed import FakeTable, open_fake, player, shot
from tests.browser.helpers import down_at_the_controls, expect_no_citation

pytestmark = pytest.mark.browser


class OnTheGenericFelt(FakeTable):
    """The table as the snapshot would be if the game named no felt module of its own."""

    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        snap["table"]["felt"].update(felt_module=None, console_module=None)
        return snap


def test_four_card_frenzy_on_the_generic_felt(
    browser: Any, site: Site, screen: tuple[str, dict[str, int]]
) -> None:
    fake = OnTheGenericFelt("four_card_frenzy", "alice", seed=4)
    fake.other_player("bob", 4, {"ante": 500, "all_six": 100})
    alice = player(browser, site, screen)
    open_fake(alice, site, fake)
    page = alice.page
    expect(page.locator("#app")).to_have_attribute("data-game", "four_card_frenzy")
    expect(page.locator("#app")).to_have_attribute("data-phase", "betting")
    # Under its name, as the table printed it before the generic felt (§684a.11(c)(2)(i)): the
    # game's words (FeltParts.printed), none of the felt's own.
    expect(page.locator(".felt-print .g-printed")).to_be_visible()
    expect(page.locator(".felt-print .g-printed")).to_have_text(
        "Dealer qualifies with king high or better"
    )

    page.click("#box-2 .sit")
    form = page.locator("#bet-form fieldset[data-box='2']")
    expect(form).to_be_visible()
    form.locator("#bet-2-ante").fill("10")
    form.locator("#bet-2-prime").fill("5")
    form.get_by_role("button", name="Place wagers on box 2").click()
    expect(page.locator("#box-2 .g-chip").filter(has_text="Ante")).to_contain_text("$10")
    wagers = fake.driver.state().boxes[2].wagers
    assert wagers["ante"] == wagers["odds"] == 1000 and wagers["prime"] == 500
    shot(alice, f"fcf-betting-{screen[0]}")
    # Every payout on its signs reads on one line ("1 to 1", "push": never "1 to / 1", "pus / h").
    lines = page.evaluate(
        """() => [...document.querySelectorAll('#paytables .paytable td')].map((td) => {
             const range = document.createRange();
             range.selectNodeContents(td);
             const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
             return [td.textContent, tops.size];
           })"""
    )
    assert lines and all(n == 1 for _, n in lines), [x for x in lines if x[1] != 1]

    fake.dealer("close_betting")
    fake.dealer("deal")
    expect(page.locator("#app")).to_have_attribute("data-phase", "decisions")
    # The All-Six card is dealt face down beside the dealer (§684a.10(b)).
    expect(page.locator("#extra-spot")).to_be_visible()
    expect(page.locator("#extra-spot")).to_contain_text("All-Six card")
    expect(page.locator("#extra-card .card.back")).to_have_count(1)
    turn = page.locator("#my-turn")
    expect(turn).to_be_visible()
    decide = next(m for m in fake.driver.moves(fake.viewer()) if m.name == "decide")
    labels = [c.label for c in decide.choices]
    assert labels[:2] == ["Fold", "Raise 1x ($10.00)"]
    for label in labels:
        expect(turn.get_by_role("button", name=label)).to_be_visible()
    expect(page.locator(".my-hand .cards-row .card.face")).to_have_count(5)
    expect(turn.locator(".g-play-why")).to_contain_text("your Ante")
    # §684a.11(b)(2): a fold loses the Ante and Odds; the Prime stays in action.
    expect(turn).to_contain_text("Folding loses your Ante $10.00, Odds $10.00")
    expect(turn).not_to_contain_text("Prime $5.00.")
    expect_no_citation(page)
    shot(alice, f"fcf-decision-{screen[0]}")
    turn.get_by_role("button", name="Raise 1x ($10.00)").click()
    expect(turn).to_be_hidden()
    assert fake.driver.state().boxes[2].wagers["raise"] == 1000
    # The decision in the game's words (the view's decision_words), not as an amount.
    expect(page.locator("#box-2")).to_contain_text("Raised 1x")
    fake.others_act()
    down_at_the_controls(page)
    fake.dealer("reveal")
    fake.dealer("settle")
    expect(page.locator("#app")).to_have_attribute("data-phase", "settled")
    expect(page.locator("#extra-card .card.face")).to_have_count(1)
    expect(page.locator("#dealer-hand")).to_contain_text("qualif")
    result = page.locator("#my-result")
    expect(result).to_be_visible()
    mine = next(b for b in fake.round_view()["boxes"] if b["box"] == 2)
    lines = result.locator(".result-lines li")
    expect(lines).to_have_count(len(mine["results"]))
    # Every line: the wager, what it won or lost, and why, in the game's words.
    for line in mine["results"]:
        item = result.locator(f"li[data-wager='{line['wager']}']")
        expect(item.locator(".res-why")).to_have_text(line["why"])
    expect(page.locator("#round-result")).to_be_visible()
    expect_no_citation(page)
    shot(alice, f"fcf-settled-{screen[0]}", full_page=screen[0] == "desktop")
    result.scroll_into_view_if_needed()
    shot(alice, f"fcf-result-{screen[0]}")
    assert not [e for e in alice.errors if "WebSocket" not in e], alice.errors
