"""Watcher caps hold across Daphne processes on Redis (issue 23): two processes serving one
table, a cap of three watchers per table and two anonymous sockets per address; the sockets
over a cap are refused (told why, closed 4429) whichever process they reach, and a place
freed in one process is taken in the other."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest
import websockets

from tests.live import LiveStack

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

REAL = os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")


async def watch(address: str, ip: str) -> tuple[Any, str]:
    """An anonymous socket on ``address`` from client address ``ip`` (Daphne's proxy headers
    take it from X-Forwarded-For): the socket, and its first frame's type or closing code."""
    sock = await websockets.connect(
        f"ws://{address}/ws/tables/1/",
        origin=f"http://{address}",  # type: ignore[arg-type]
        additional_headers={"X-Forwarded-For": ip},
    )
    first = json.loads(await asyncio.wait_for(sock.recv(), 10))
    return sock, first["type"] if first["type"] == "snapshot" else first.get("code", "")


@pytest.mark.skipif(not REAL, reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL")
def test_watcher_caps_hold_across_two_daphne_processes() -> None:
    caps = {"FRENZY_WATCHERS_PER_TABLE": "3", "FRENZY_ANONYMOUS_PER_IP": "2"}
    with LiveStack(use_redis=True, use_postgres=True) as stack:
        stack.demo()
        one = stack.daphne(**caps, proxy_headers=True)
        two = stack.daphne(**caps, proxy_headers=True)
        try:
            asyncio.run(crowd(one, two))
        except BaseException:
            print(stack.logs())
            raise


async def crowd(one: str, two: str) -> None:
    a1, seen = await watch(one, "198.51.100.1")
    assert seen == "snapshot"
    a2, seen = await watch(one, "198.51.100.1")
    assert seen == "snapshot"
    # The address's third socket, at the other process: over the address's cap.
    a3, seen = await watch(two, "198.51.100.1")
    assert seen == "too_many_connections"
    b1, seen = await watch(two, "198.51.100.2")
    assert seen == "snapshot"
    # The table's fourth watcher, at either process: over the table's cap.
    c1, seen = await watch(two, "198.51.100.3")
    assert seen == "too_many_connections"
    c2, seen = await watch(one, "198.51.100.4")
    assert seen == "too_many_connections"
    await a1.close()  # a place frees in process one...
    await asyncio.sleep(0.5)
    d1, seen = await watch(two, "198.51.100.5")  # ...and is taken in process two
    assert seen == "snapshot"
    for sock in (a2, a3, b1, c1, c2, d1):
        await sock.close()
