"""axe-core (the axe-playwright-python package's copy) over every page a player, a dealer and
the admin see, at a phone's size (390x844) and a desktop's (1440x900): no serious or critical
violation of WCAG 2.0-2.2 A/AA or axe's best practices (issue 28). The felt is checked at its
busiest too: a Crazy 4 Poker decision and settlement, a Five Card Hi-Lo setting (answered by
the game itself, generic_feed.FakeTable).

Each size is one test: one browser context per person, every page in turn (about a second a
page), so the whole run stays short.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Client, Site, login
from .generic_feed import FakeTable

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
SIZES = [("phone", PHONE), ("desktop", DESKTOP)]
#: WCAG 2.0, 2.1 and 2.2 at A and AA, axe's best practices, and its experimental rules (the
#: label-in-name check, WCAG 2.5.3, is one of them).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice", "experimental"]
FAILING = {"serious", "critical"}
SOCKET = re.compile(r"/ws/tables/1/(dealer/)?$")


def axe_script() -> str:
    """axe-core as the axe-playwright-python package ships it."""
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


class Audit:
    """axe's serious and critical findings, page by page."""

    def __init__(self, size: str) -> None:
        self.size = size
        self.script = axe_script()
        self.found: list[str] = []
        self.pages = 0

    def person(
        self, browser: Any, site: Site, name: str | None, viewport: dict[str, int]
    ) -> Client:
        """A person's browser context, with axe loaded into each page it opens (the browser
        parses it once and caches it: cheaper than sending it to every page)."""
        client = login(browser, site, name, viewport=viewport, phone=self.size == "phone")
        client.page.context.add_init_script(self.script)
        return client

    def check(self, page: Any, where: str) -> None:
        options = {"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": TAGS}}
        violations = page.evaluate(
            "(options) => axe.run(document, options).then((r) => r.violations)", options
        )
        self.pages += 1
        for v in violations:
            if v["impact"] in FAILING:
                targets = [n["target"] for n in v["nodes"]][:4]
                self.found.append(f"{self.size} {where}: {v['id']} [{v['impact']}] {targets}")

    def visit(self, client: Client, site: Site, path: str, ready: str | None = None) -> None:
        client.page.goto(site.url(path))
        if ready:
            expect(client.page.locator(ready)).to_be_attached()
        client.page.wait_for_load_state("load")
        # The admin's own fixes run at "load" (static/table/admin_access.js): after them.
        client.page.evaluate("() => new Promise((done) => setTimeout(done, 0))")
        self.check(client.page, path)


def admin_paths(client: Client, site: Site) -> list[str]:
    """The admin's index and each page it links to (each list, each add form)."""
    client.page.goto(site.url("/admin/"))
    links = client.page.eval_on_selector_all(
        "#content a[href^='/admin/']", "els => els.map(e => e.getAttribute('href'))"
    )
    return ["/admin/", *sorted(set(links))]


def felt_states(
    audit: Audit, browser: Any, site: Site, size: str, viewport: dict[str, int]
) -> None:
    """The felt at its busiest: a decision with its buttons, a settled box with every line."""
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

    hilo = FakeTable("five_card_hi_lo", "carol", seed=1)
    hilo.other_player("bob", 5, {"ante": 500})
    carol = audit.person(browser, site, "carol", viewport)
    page = carol.page
    page.route_web_socket(SOCKET, hilo.attach)
    page.goto(site.url("/tables/1/"))
    page.click("#box-1 .sit")
    form = page.locator("#bet-form fieldset[data-box='1']")
    form.locator("#bet-1-ante").fill("5")
    form.get_by_role("button", name="Place wagers on box 1").click()
    expect(page.locator("#box-1 .g-chip").first).to_be_visible()
    hilo.dealer("close_betting")
    hilo.dealer("deal")
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

    felt_states(audit, browser, site, size, viewport)
    print(f"axe: {audit.pages} pages at {size} size in {time.monotonic() - start:.0f} s")
    assert audit.pages > 20, audit.pages
    assert not audit.found, "\n".join(audit.found)
