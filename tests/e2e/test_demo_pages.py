"""The demo as ``make run`` starts it (``manage.py demo``): DEBUG off, so a player who opens
a round that is not theirs gets our "Not found" page, never Django's debug page with every URL
pattern; static files are still served (WhiteNoise) and every page carries the
Content-Security-Policy."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

import pytest

from bench.client import session_cookies
from tests.live import LiveStack, free_port, wait_for_port

pytestmark = [pytest.mark.slow]


def fetch(url: str, cookie: str = "") -> tuple[int, Any, str]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_the_demo_serves_players_with_debug_off() -> None:
    with LiveStack(use_redis=False, use_postgres=False) as stack:
        stack.env.pop("DJANGO_DEBUG", None)  # as on a fresh machine
        port = free_port()
        demo = stack.spawn("demo", "--host", "127.0.0.1", "--port", str(port), "--no-autodealer")
        try:
            wait_for_port(port, demo, 90)
            base = f"http://127.0.0.1:{port}"
            alice = session_cookies(stack, ["alice"])["alice"]
            for path in ("/static/table/table.js", "/static/table/felt.css"):
                status, _, _ = fetch(base + path)
                assert status == 200, (path, status)
            status, headers, page = fetch(f"{base}/tables/1/", alice)
            assert status == 200 and "script-src 'self'" in headers["Content-Security-Policy"]
            for path in ("/rounds/999999/", "/no/such/page/"):
                status, headers, page = fetch(base + path, alice)
                assert status == 404, (path, status)
                assert "Not found" in page, page[:500]
                for debug in ("URLconf", "Django tried", "urlpatterns", "DEBUG = True"):
                    assert debug not in page, (path, debug)
                assert "Content-Security-Policy" in headers
        except BaseException:
            print(stack.logs())
            raise
