"""The server as deployed runs Daphne on uvloop (frenzy_site.server): the loop Daphne makes,
and Twisted's reactor on it, are uvloop's; a launcher that comes too late says so rather
than serving on asyncio's loop unnoticed; and a live process serves a table's sockets."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from bench.client import TableClient
from tests.live import ROOT, LiveStack

pytestmark = [pytest.mark.slow]

PROBE = """
import {first}
import daphne.server
from twisted.internet import reactor
print(type(daphne.server.twisted_loop).__module__, type(reactor).__name__,
      type(reactor._asyncioEventloop).__module__)
"""


def probe(first: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE.format(first=first)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_daphnes_loop_and_reactor_are_uvloops() -> None:
    out = probe("frenzy_site.server; frenzy_site.server.install()")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["uvloop", "AsyncioSelectorReactor", "uvloop"]
    # plain Daphne, for contrast: asyncio's own loop
    plain = probe("asyncio")
    assert plain.stdout.split() == [
        "asyncio.unix_events",
        "AsyncioSelectorReactor",
        "asyncio.unix_events",
    ]


def test_installing_after_daphne_made_its_loop_is_refused() -> None:
    code = "import daphne.server\nimport frenzy_site.server\nfrenzy_site.server.install()\n"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode != 0
    assert "already asyncio's own" in out.stderr


def test_the_launched_server_serves_a_table_on_uvloop() -> None:
    with LiveStack() as stack:
        stack.demo("alice")
        address = stack.daphne()
        proc = stack.processes[-1]
        with open(f"/proc/{proc.pid}/maps") as maps:
            assert "uvloop/loop" in maps.read()  # its event loop's library is loaded
        origin = f"http://{address}"
        asyncio.run(watch(f"ws://{address}/ws/tables/1/", origin))


async def watch(url: str, origin: str) -> None:
    spectator = await TableClient("spectator", url, None, origin).connect()
    try:
        assert spectator.snapshot is not None and spectator.snapshot["table"]["id"] == 1
        await spectator.ws.send('{"cmd": "ping", "t": 1}')
        pong = await spectator.wait_for(lambda f: f["type"] == "pong")
        assert pong["version"] == spectator.snapshot["version"]
    finally:
        await spectator.close()
