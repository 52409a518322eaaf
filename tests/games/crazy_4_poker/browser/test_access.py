"""Players who use a keyboard, a screen reader or voice control (issue 28, WCAG 2.2 AA), at a
Crazy 4 Poker table answered by the game itself (generic_feed.FakeTable):

- after a decision the keyboard stays at the table (the box just played), not the page body;
- announcements queue (each a line added to its live region, never a rewrite of the last),
  the player's turn is said at once (assertive) with the time left, and the clock warns at 10
  and 5 seconds; more time, once a round (WCAG 2.2.1).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Site, login
from tests.browser.generic_feed import SOCKET, FakeTable

pytestmark = pytest.mark.browser


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
