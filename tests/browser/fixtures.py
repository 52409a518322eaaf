"""The browser tests' machinery: Debian's chromium driven by Playwright (sync API) against a
real Daphne. A pytest plugin (``pytest_plugins`` in tests/conftest.py, the only conftest
pytest reads it from), so the platform's browser tests here and each game's own under
``tests/games/<game>/browser/`` share it: the session-scoped ``browser`` and ``site``
fixtures, :class:`Client`, :func:`login` and :func:`screenshot`. It names no game.

Each xdist worker shares one fresh :class:`tests.live.LiveStack` seeded with the demo tables
(one per game) and no automatic dealer: the tests' own dealer pages drive every round.
Screenshots go to ``artifacts/screenshots/`` (gitignored) for people to look at.

A test that uses ``browser`` or ``site`` must carry the ``browser`` marker: ``make test`` runs
those in a pass of their own (``-m browser``; a Playwright session leaves an event loop running
in its worker, where the other tests' ORM calls and ``asyncio.run()`` then refuse to run), and
collection stops with an error on one that does not.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.live import ROOT, LiveStack

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PASSWORD = "frenzy-demo"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DESKTOP_WIDE = {"width": 1440, "height": 900}
#: How long to wait for something the page should show (events arrive in milliseconds).
WAIT_MS = 10_000


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {message}")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


class Site:
    """A live stack with the demo table, and helpers for what the tests check in it."""

    def __init__(self, stack: LiveStack, address: str) -> None:
        self.stack = stack
        self.base = f"http://{address}"
        self.table_id = 1

    def url(self, path: str) -> str:
        return self.base + path

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Read the stack's database directly (faster than a Django process per check)."""
        return self.stack.query(sql, params)

    def next_round(self) -> int:
        """The number the next round to open will get."""
        rows = self.query(
            "SELECT MAX(number) FROM table_round WHERE table_id = ?", (self.table_id,)
        )
        return int(rows[0][0] or 0) + 1

    def balances(self) -> dict[str, int]:
        """Every player's balance in the ledger, in cents."""
        rows = self.query(
            "SELECT u.username, a.balance FROM table_account a "
            "JOIN auth_user u ON u.id = a.user_id WHERE a.kind = 'player'"
        )
        return {name: int(balance) for name, balance in rows}

    def free_boxes(self) -> list[int]:
        rows = self.query("SELECT box FROM table_seat WHERE table_id = ?", (self.table_id,))
        taken = {int(box) for (box,) in rows}
        return [b for b in range(1, 7) if b not in taken]


@pytest.fixture(scope="session")
def site(request: pytest.FixtureRequest) -> Iterator[Site]:
    """One live stack per browser worker, shared by every browser test it runs, the platform's
    and the games' alike (each test picks its own players and boxes: alice 1 and bob 3, dave
    2, carol 5 at the demo table; a test that needs more plays at a table of its own)."""
    stack = LiveStack()
    # Passwords hashed the quick way in every process of the stack (live_settings.py says why).
    stack.env["DJANGO_SETTINGS_MODULE"] = "tests.browser.live_settings"
    stack.start()
    try:
        # The suite arms shoe drills at the demo tables: drills exist only on test tables
        # (issue 28); the tables a test makes for itself are ordinary unless it says so.
        # (One Django process for both.)
        stack.python(
            "from django.core.management import call_command\n"
            "call_command('demo_setup')\n"
            "from table.models import Table\n"
            "Table.objects.update(is_test=True)\n"
        )
        address = stack.daphne()
        yield Site(stack, address)
    finally:
        failed = request.session.testsfailed
        stack.stop()
        if failed:
            print(stack.logs())


#: The fixtures a browser test uses: a test asking for one must be marked ``browser``.
NEEDS_THE_BROWSER_PASS = ("browser", "site")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Stop at a test that would start Chromium or a live stack outside the browser pass."""
    unmarked = [
        item.nodeid
        for item in items
        if any(f in getattr(item, "fixturenames", ()) for f in NEEDS_THE_BROWSER_PASS)
        and item.get_closest_marker("browser") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "browser tests without the browser marker (pytestmark = pytest.mark.browser): "
            + ", ".join(unmarked)
        )


@pytest.fixture(params=[("desktop", DESKTOP_WIDE), ("phone", PHONE)], ids=["desktop", "phone"])
def screen(request: pytest.FixtureRequest) -> tuple[str, dict[str, int]]:
    """Each size a felt is checked at: a desktop's (1440x900) and a phone's (390x844)."""
    return request.param  # type: ignore[no-any-return]


_contexts: list[Any] = []


@pytest.fixture(autouse=True)
def _close_contexts() -> Iterator[None]:
    """Each test's browser contexts close after it (their sockets disconnect)."""
    yield
    while _contexts:
        try:
            _contexts.pop().close()
        except Exception:  # the browser may already be gone
            pass


@dataclass
class Client:
    """One person's browser context: its page, the websocket frames it received (parsed, in
    order) and the script errors it logged."""

    name: str
    page: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def login(
    browser: Any,
    site: Site,
    username: str | None,
    viewport: dict[str, int] = DESKTOP,
    phone: bool = False,
    **context_options: Any,
) -> Client:
    """A fresh browser context (own cookies) logged in as ``username`` (None: logged out);
    ``context_options`` go to Playwright's ``new_context`` (e.g. ``timezone_id``)."""
    options: dict[str, Any] = {"viewport": viewport, **context_options}
    if phone:
        options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
    context = browser.new_context(**options)
    _contexts.append(context)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    client = Client(username or "spectator", page)
    frames, errors = client.frames, client.errors

    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            if isinstance(payload, bytes):
                payload = payload.decode()
            try:
                frames.append(json.loads(payload))
            except ValueError:
                frames.append({"type": "unparseable", "raw": payload})

        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.on(
        "response",
        lambda r: (
            errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )
    if username:
        page.goto(site.url("/login/"))
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(site.url("/"))
    return client


def screenshot(page: Any, name: str, full_page: bool = False) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path
