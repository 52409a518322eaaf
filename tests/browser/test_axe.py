"""axe-core (the axe-playwright-python package's copy) over every page a player, a dealer and
the admin see, at a phone's size (390x844) and a desktop's (1440x900): no serious or critical
violation of WCAG 2.0-2.2 A/AA or axe's best practices (issue 28). Each game's felt at its
busiest (a decision, a setting, a settlement) is checked in its own folder,
tests/games/<game>/browser/test_axe.py, with the same audit (tests/browser/axe.py).

Each size is one test: one browser context per person, every page in turn (about a second a
page), so the whole run stays short.
"""

from __future__ import annotations

from typing import Any

import pytest

from .axe import SIZES, Audit
from .fixtures import Client, Site

pytestmark = pytest.mark.browser


def admin_paths(client: Client, site: Site) -> list[str]:
    """The admin's index and each page it links to (each list, each add form)."""
    client.page.goto(site.url("/admin/"))
    links = client.page.eval_on_selector_all(
        "#content a[href^='/admin/']", "els => els.map(e => e.getAttribute('href'))"
    )
    return ["/admin/", *sorted(set(links))]


@pytest.mark.parametrize("size, viewport", SIZES, ids=[s for s, _ in SIZES])
def test_no_serious_or_critical_violation_on_any_page(
    browser: Any, site: Site, size: str, viewport: dict[str, int]
) -> None:
    import time

    start = time.monotonic()
    audit = Audit(size)
    stranger = audit.person(browser, site, None, viewport)
    audit.visit(stranger, site, "/login/", "#id_username")

    player = audit.person(browser, site, "erin", viewport)
    audit.visit(player, site, "/", ".lobby")
    for table_id in [int(t) for (t,) in site.query("SELECT id FROM table_table ORDER BY id")][:3]:
        audit.visit(player, site, f"/tables/{table_id}/", "#app[data-ready='1']")
    audit.visit(player, site, "/rounds/mine/")
    mine = player.page.locator("main a[href^='/rounds/']").first
    if mine.count():
        audit.visit(player, site, mine.get_attribute("href") or "/rounds/mine/")
    audit.visit(player, site, "/protection/limits/")
    audit.visit(player, site, "/responsible-gaming/")

    dealer = audit.person(browser, site, "dealer", viewport)
    for table_id in [int(t) for (t,) in site.query("SELECT id FROM table_table ORDER BY id")][:3]:
        audit.visit(dealer, site, f"/tables/{table_id}/dealer/", "#console[data-ready='1']")

    admin = audit.person(browser, site, "admin", viewport)
    objects = []
    for path in admin_paths(admin, site):
        audit.visit(admin, site, path)
        first = admin.page.locator("#result_list tbody th a").first
        if first.count():
            objects.append(first.get_attribute("href") or path)
    for path in objects:  # each list's first object's page
        audit.visit(admin, site, path)

    print(f"axe: {audit.pages} pages at {size} size in {time.monotonic() - start:.0f} s")
    assert audit.pages > 20, audit.pages
    assert not audit.found, "\n".join(audit.found)
