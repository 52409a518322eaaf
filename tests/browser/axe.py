"""axe-core (the axe-playwright-python package's copy) over pages in Chromium: the audit the
platform's tests/browser/test_axe.py runs over every page and each game's test_axe.py over its
felt at its busiest (issue 28: no serious or critical violation of WCAG 2.0-2.2 A/AA or axe's
best practices)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .fixtures import DESKTOP_WIDE, PHONE, Client, Site, login

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
