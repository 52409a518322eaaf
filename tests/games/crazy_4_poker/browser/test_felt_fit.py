"""The felt keeps its boxes on the screen and inside the rail (issue 28, Players): on a phone a
Crazy 4 Poker box with every wager was taller than the screen (an oval per wager, the Hand
Bonus's name over five lines); on a desktop a settled end box ran over the felt's rail. The
socket is answered by the game itself (generic_feed.FakeTable). Screenshots at 390x844 and
1440x900 go to /tmp/shots/fit/ (``FIT_SHOTS``)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import PHONE, Client, Site, login
from tests.browser.generic_feed import FakeTable

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
SHOTS = Path(os.environ.get("FIT_SHOTS", "/tmp/shots/fit"))
SOCKET = re.compile(r"/ws/tables/1/(dealer/)?$")

#: Whether a box's two lower corners are inside the felt's rail (its inner edge: the felt's
#: bottom corners are ellipses, ``border-radius: <rx> <ry>`` less the rail's width).
INSIDE_RAIL = """(sel) => {
  const felt = document.querySelector('.felt');
  const f = felt.getBoundingClientRect();
  const cs = getComputedStyle(felt);
  const rail = parseFloat(cs.borderBottomWidth);
  const px = (v, of) => v.endsWith('%') ? parseFloat(v) / 100 * of : parseFloat(v);
  const [rxs, rys] = cs.borderBottomLeftRadius.split(' ');
  const rx = px(rxs, f.width) - rail, ry = px(rys ?? rxs, f.height) - rail;
  const b = document.querySelector(sel).getBoundingClientRect();
  const inside = (x, y) => {
    const left = x < f.left + f.width / 2;
    const cx = left ? f.left + rail + rx : f.right - rail - rx;
    const cy = f.bottom - rail - ry;
    // Above the corners' curve, or between the two corners: the straight bottom edge.
    if (y <= cy || (left ? x >= cx : x <= cx)) return y <= f.bottom - rail;
    const dx = (x - cx) / rx, dy = (y - cy) / ry;
    return dx * dx + dy * dy <= 1;
  };
  return {left: inside(b.left + 6, b.bottom - 2), right: inside(b.right - 6, b.bottom - 2),
          box: [b.left, b.bottom], felt: [rx, ry]};
}"""


def shot(client: Client, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    client.page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("label, viewport", [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_crazy_4_poker_box_with_every_wager_fits(
    browser: Any, site: Site, label: str, viewport: dict[str, int]
) -> None:
    fake = FakeTable("crazy_4_poker", "alice", seed=4)
    fake.other_player("bob", 4, {"ante": 500})
    alice = login(browser, site, "alice", viewport=viewport, phone=label == "phone")
    page = alice.page
    page.route_web_socket(SOCKET, fake.attach)
    page.goto(site.url("/tables/1/"))
    expect(page.locator("#app")).to_have_attribute("data-phase", "betting")
    # Box 6: an end box, where the rail curves up.
    page.click("#box-6 .sit")
    form = page.locator("#bet-form fieldset[data-box='6']")
    for field in form.locator("input").all():
        if field.get_attribute("type") == "checkbox":
            field.check()
        else:
            field.fill("5")
    form.get_by_role("button", name="Place wagers on box 6").click()
    chips = page.locator("#box-6 .g-chip")
    expect(chips).to_have_count(len(fake.driver.state().boxes[6].wagers))
    assert chips.count() >= 7
    fake.dealer("close_betting")
    fake.dealer("deal")
    fake.others_act()  # bob, box 4, decides first
    page.locator("#my-turn").get_by_role("button", name=re.compile(r"^Play 1x")).click()
    fake.others_act()
    box = page.locator("#box-6")
    # Every wager, the cards and the hand: the whole box fits on the screen below the pinned
    # bar, with room to spare.
    height = box.bounding_box()["height"]
    room = viewport["height"] - page.locator("#pinned").bounding_box()["height"]
    assert height < room * 0.75, (height, room)
    box.scroll_into_view_if_needed()
    shot(alice, f"c4p-every-wager-{label}")
    fake.dealer("reveal")
    fake.dealer("settle")
    expect(page.locator("#app")).to_have_attribute("data-phase", "settled")
    expect(box.locator(".box-results li.box-net")).to_be_visible()
    height = box.bounding_box()["height"]
    assert height < room * 0.85, (height, room)
    if label == "desktop":
        where = page.evaluate(INSIDE_RAIL, "#box-6")
        assert where["left"] and where["right"], where
    page.locator("#dealer-cards").scroll_into_view_if_needed()
    shot(alice, f"c4p-every-wager-settled-{label}")
    assert not [e for e in alice.errors if "WebSocket" not in e], alice.errors
