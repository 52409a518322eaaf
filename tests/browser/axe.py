"""axe-core (the axe-playwright-python package's copy) over pages in Chromium: the audit the
platform's tests/browser/test_axe.py runs over every page and each game's test_axe.py over its
felt at its busiest (issue 28: no serious or critical violation of WCAG 2.0-2.2 A/AA or axe's
best practices)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .fixtures import DESKTOP_WIDE, PHONE, Client, Site, login
from .generic_feed import SOCKET, FakeTable

SIZES = [("phone", PHONE), ("desktop", DESKTOP_WIDE)]
#: WCAG 2.0, 2.1 and 2.2 at A and AA, axe's best practices, and its experimental rules (the
#: label-in-name check, WCAG 2.5.3, is one of them).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice", "experimental"]
FAILING = {"serious", "critical"}


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


def audit_the_felt(
    browser: Any,
    site: Site,
    size: str,
    viewport: dict[str, int],
    fake: FakeTable,
    box: int,
    wagers: dict[str, str],
    label: str,
    decisions: Callable[[Audit, Any], None],
) -> Audit:
    """A game's felt at its busiest, audited (each game's browser/test_axe.py): ``fake``'s
    player (``fake.me``) sits at ``box`` of the demo table answered by the game itself
    (:class:`FakeTable`), fills in ``wagers`` (the bet form checked, "<label>, betting"),
    places them and the dealer deals; ``decisions`` then plays and checks the game's own
    steps to its settlement (its page and this audit)."""
    audit = Audit(size)
    page = audit.person(browser, site, fake.me, viewport).page
    page.route_web_socket(SOCKET, fake.attach)
    page.goto(site.url("/tables/1/"))
    page.click(f"#box-{box} .sit")
    form = page.locator(f"#bet-form fieldset[data-box='{box}']")
    for wager, amount in wagers.items():
        form.locator(f"#bet-{box}-{wager}").fill(amount)
    audit.check(page, f"{label}, betting")
    form.get_by_role("button", name=f"Place wagers on box {box}").click()
    expect(page.locator(f"#box-{box} .g-chip").first).to_be_visible()
    fake.dealer("close_betting")
    fake.dealer("deal")
    decisions(audit, page)
    return audit
