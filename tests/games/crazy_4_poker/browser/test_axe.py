"""axe-core over Crazy 4 Poker's felt at its busiest: the bet form, a decision with its buttons, a
settled box with every line (answered by the game itself,
generic_feed.FakeTable), at a phone's size (390x844) and a desktop's (1440x900): no serious or
critical violation (issue 28; the audit is the platform's, tests/browser/axe.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import SIZES, Audit, audit_the_felt
from tests.browser.fixtures import Site
from tests.browser.generic_feed import FakeTable

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size, viewport", SIZES, ids=[s for s, _ in SIZES])
def test_the_felt_at_its_busiest(
    browser: Any, site: Site, size: str, viewport: dict[str, int]
) -> None:
    """The bet form filled in, the decision, the settled box."""
    fake = FakeTable("crazy_4_poker", "alice", seed=4)
    fake.other_player("bob", 4, {"ante": 500})

    def decisions(audit: Audit, page: Any) -> None:
        expect(page.locator("#my-turn")).to_be_visible()
        audit.check(page, "crazy 4 poker, decision")
        page.locator("#my-turn").get_by_role("button", name=re.compile(r"^Play 1x")).click()
        fake.others_act()
        fake.dealer("reveal")
        fake.dealer("settle")
        expect(page.locator("#round-result")).to_be_visible()
        audit.check(page, "crazy 4 poker, settled")

    audit = audit_the_felt(
        browser,
        site,
        size,
        viewport,
        fake,
        2,
        {"ante": "10", "queens_up": "5"},
        "crazy 4 poker",
        decisions,
    )
    assert audit.pages == 3, audit.pages
    assert not audit.found, "\n".join(audit.found)
