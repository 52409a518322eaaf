"""axe-core over Crazy 4 Poker's felt at its busiest: the bet form, a decision with its buttons, a
settled box with every line (answered by the game itself,
generic_feed.FakeTable), at a phone's size (390x844) and a desktop's (1440x900): no serious or
critical violation (issue 28; the audit is the platform's, tests/browser/axe.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import SIZES, Audit
from tests.browser.fixtures import Site
from tests.browser.generic_feed import SOCKET, FakeTable

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size, viewport", SIZES, ids=[s for s, _ in SIZES])
def test_the_felt_at_its_busiest(
    browser: Any, site: Site, size: str, viewport: dict[str, int]
) -> None:
    """The bet form filled in, the decision, the settled box."""
    audit = Audit(size)
    fake = FakeTable("crazy_4_poker", "alice", seed=4)
    fake.other_player("bob", 4, {"ante": 500})
    alice = audit.person(browser, site, "alice", viewport)
    page = alice.page
    page.route_web_socket(SOCKET, fake.attach)
    page.goto(site.url("/tables/1/"))
    page.click("#box-2 .sit")
    form = page.locator("#bet-form fieldset[data-box='2']")
    form.locator("#bet-2-ante").fill("10")
    form.locator("#bet-2-queens_up").fill("5")
    audit.check(page, "crazy 4 poker, betting")
    form.get_by_role("button", name="Place wagers on box 2").click()
    expect(page.locator("#box-2 .g-chip").first).to_be_visible()
    fake.dealer("close_betting")
    fake.dealer("deal")
    expect(page.locator("#my-turn")).to_be_visible()
    audit.check(page, "crazy 4 poker, decision")
    page.locator("#my-turn").get_by_role("button", name=re.compile(r"^Play 1x")).click()
    fake.others_act()
    fake.dealer("reveal")
    fake.dealer("settle")
    expect(page.locator("#round-result")).to_be_visible()
    audit.check(page, "crazy 4 poker, settled")
    assert audit.pages == 3, audit.pages
    assert not audit.found, "\n".join(audit.found)
