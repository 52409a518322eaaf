"""Sockets that close while the table talks: no traceback.

A socket that is closing (the tab closed, or the server closed it and waits for the
client's reply) is still in the table's groups until Daphne reports the disconnect; a frame
sent to it then used to raise "Attempt to send on a closed protocol" inside the consumer:
"Exception inside application" in the log, and the consumer died without its cleanup.
Runs against a real Daphne (the in-memory test communicator never refuses a send).
"""

from __future__ import annotations

import asyncio
import base64
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.client import TableClient
from tests.live import LiveStack

pytestmark = [pytest.mark.slow]


class SilentSocket:
    """A websocket client that completes the handshake and then never reads again: it
    never answers the server's close frame, as a frozen or vanishing tab would not."""

    def __init__(self, address: str, path: str, cookie: str) -> None:
        self.address, self.path, self.cookie = address, path, cookie
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        host, port = self.address.split(":")
        reader, self.writer = await asyncio.open_connection(host, int(port))
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        self.writer.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.address}\r\n"
                f"Origin: http://{self.address}\r\nCookie: {self.cookie}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await self.writer.drain()
        status = await asyncio.wait_for(reader.readline(), 10)
        assert b" 101 " in status, status

    def send_close(self) -> None:
        """A masked close frame (1001, going away), as a closing tab sends."""
        assert self.writer is not None
        mask = secrets.token_bytes(4)
        payload = (1001).to_bytes(2, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(bytes([0x88, 0x80 | len(payload)]) + mask + masked)

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()


async def seat_and_stand(client: TableClient, times: int) -> None:
    """Table events for every socket: a player sits down and stands up again."""
    for _ in range(times):
        assert (await client.command(cmd="sit", box=2))["type"] == "ok"
        assert (await client.command(cmd="stand", box=2))["type"] == "ok"


async def traffic(address: str, cookies: dict[str, str]) -> None:
    path = "/ws/tables/1/"
    origin = f"http://{address}"
    bob = await TableClient("bob", f"ws://{address}{path}", cookies["bob"], origin).connect()
    # 1. The server closes a socket (a second tab takes over) whose client never answers:
    #    it stays closing for a while, and the table's frames keep coming to it.
    silent = SilentSocket(address, path, cookies["alice"])
    await silent.open()
    await asyncio.sleep(0.5)  # its snapshot went out
    # A second tab takes over: the server closes the silent socket.
    alice = await TableClient("alice", f"ws://{address}{path}", cookies["alice"], origin).connect()
    await seat_and_stand(bob, 3)
    # 2. Tabs that close (a close frame, then nothing) while frames fan out to them.
    tabs = []
    for _ in range(6):
        tab = SilentSocket(address, path, cookies["carol"] if len(tabs) % 2 else "")
        await tab.open()
        tabs.append(tab)
    await asyncio.sleep(0.5)
    for tab in tabs:
        tab.send_close()
    await seat_and_stand(bob, 3)
    assert (await bob.command(cmd="sit", box=2))["type"] == "ok"
    await asyncio.sleep(3)  # past the closing handshake timeout: the consumers finish
    for tab in (silent, *tabs):
        tab.abort()
    await asyncio.sleep(1.5)  # Daphne reaps the finished consumers (and logs their errors)
    await alice.close()
    await bob.close()


def test_frames_to_closing_sockets_raise_nothing() -> None:
    with LiveStack(use_redis=False, use_postgres=False) as stack:
        cookies = stack.demo("alice", "bob", "carol")
        address = stack.daphne()
        try:
            # Its own thread: a Playwright session earlier in the same pytest process leaves
            # an event loop running in this one, where asyncio.run() refuses to start.
            with ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, traffic(address, cookies)).result()
        finally:
            stack.stop()
        log = "\n".join(p.read_text(errors="replace") for p in Path(stack.tmp).glob("*.log"))
        assert "Exception inside application" not in log, log[-6000:]
        assert "closed protocol" not in log, log[-6000:]
