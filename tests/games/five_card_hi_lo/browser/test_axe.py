"""axe-core over Five Card Hi-Lo's felt at its busiest: the bet form, the setting step with both
settings, and a settled box with both hands against the dealer's (answered by the game itself,
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
    """The bet form filled in, the setting step, the settled box."""
    hilo = FakeTable("five_card_hi_lo", "carol", seed=1)
    hilo.other_player("bob", 5, {"ante": 500})

    def decisions(audit: Audit, page: Any) -> None:
        page.locator("#my-turn").get_by_role("button", name=re.compile(r"^Play")).click()
        hilo.others_act()
        expect(page.locator("#my-turn .g-setting-choice").first).to_be_visible()
        audit.check(page, "hi-lo, setting")
        page.locator("#my-turn .g-setting-choice button").first.click()
        hilo.others_act()
        hilo.dealer("reveal")
        hilo.dealer("settle")
        expect(page.locator("#my-result .g-versus")).to_be_visible()
        audit.check(page, "hi-lo, settled")

    audit = audit_the_felt(
        browser, site, size, viewport, hilo, 1, {"ante": "5"}, "hi-lo", decisions
    )
    assert audit.pages == 3, audit.pages
    assert not audit.found, "\n".join(audit.found)
