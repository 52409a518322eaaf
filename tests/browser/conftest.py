"""Browser tests: Debian's chromium driven by Playwright (sync API) against real Daphne.

The suite shares one fresh :class:`tests.live.LiveStack` seeded with the demo table and no
automatic dealer: the tests' own dealer page drives every round. Screenshots go to
``artifacts/screenshots/`` (gitignored) for people to look at.
"""

from __future__ import annotations

import json
import os
import re
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
#: How long to wait for something the page should show (events arrive in milliseconds).
WAIT_MS = 10_000
CARD = re.compile(r"^[2-9TJQKA][CDHS]$")


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

    def round_cards(self, number: int) -> dict[str, Any]:
        """Who held which cards in a round (read from the store after it is over)."""
        from table.games.cards import card_code, codes

        (state,) = self.query(
            "SELECT state FROM table_round WHERE table_id = ? AND number = ?",
            (self.table_id, number),
        )[0]
        r = json.loads(state) if isinstance(state, str) else state
        return {
            "boxes": {
                int(b["box"]): {"player": b["player"], "cards": codes(b["cards"])}
                for b in r["boxes"]
            },
            "dealer": codes(r["dealer_cards"]),
            "all_six": card_code(r["all_six_card"]) if r["all_six_card"] is not None else None,
            "discards": codes(r["discards"]),
            "players": (r["results"] or {}).get("players"),
            "phase": r["phase"],
        }


@pytest.fixture(scope="session")
def site(request: pytest.FixtureRequest) -> Iterator[Site]:
    """One live stack for the whole browser suite (each test picks its own players and boxes:
    alice 1 and bob 3, dave 2, carol 5)."""
    stack = LiveStack().start()
    try:
        stack.manage("demo_setup")
        # The suite arms shoe drills at the demo tables: drills exist only on test tables
        # (issue 28); the tables a test makes for itself are ordinary unless it says so.
        stack.manage(
            "shell", "-c", "from table.models import Table; Table.objects.update(is_test=True)"
        )
        address = stack.daphne()
        yield Site(stack, address)
    finally:
        failed = request.session.testsfailed
        stack.stop()
        if failed:
            print(stack.logs())


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


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a parsed JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= card_codes(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_codes(item)
    return found


def frames_before_reveal(frames: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    """The frames a page received from round ``number`` opening until the dealer's reveal
    (not including the reveal itself)."""
    start = None
    for i, frame in enumerate(frames):
        kinds = [(e["kind"], e["data"]) for e in frame.get("events", [])]
        if start is None:
            if any(k == "round_opened" and d.get("round") == number for k, d in kinds):
                start = i
            continue
        if any(k == "dealer_revealed" for k, _ in kinds):
            return frames[start:i]
    raise AssertionError(f"round {number}: no round_opened/dealer_revealed pair in the frames")
