"""Websocket clients against the real ASGI application (router, auth, origin check)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client

from frenzy_site.asgi import application
from table import ledger, services
from table.demo import ensure_demo, make_user
from tests.conftest import SeededSource


def session_cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


class Sock:
    """A websocket client that keeps every frame it received, in order."""

    def __init__(self, comm: WebsocketCommunicator, name: str) -> None:
        self.comm = comm
        self.name = name
        self.frames: list[dict[str, Any]] = []
        #: The websocket messages as they came (a view riding in an events frame in it).
        self.messages: list[dict[str, Any]] = []
        self.unfolded: list[dict[str, Any]] = []
        self.closed_code: int | None = None

    async def send(self, **message: Any) -> None:
        await self.comm.send_to(text_data=json.dumps(message))

    async def send_raw(self, text: str | None = None, data: bytes | None = None) -> None:
        await self.comm.send_to(text_data=text, bytes_data=data)

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        """The next frame. A view riding in an events frame (its ``view``) comes next, as
        the browser's client takes it (static/table/protocol.js): after the frame's events,
        as a view frame of its own; ``messages`` counts what came over the socket."""
        if self.unfolded:
            frame = self.unfolded.pop(0)
            self.frames.append(frame)
            return frame
        output = await self.comm.receive_output(timeout)
        if output["type"] == "websocket.close":
            self.closed_code = output.get("code")
            raise ConnectionError(f"{self.name} closed with {self.closed_code}")
        frame = json.loads(output["text"])
        self.messages.append(frame)
        if frame.get("type") == "events" and "view" in frame:
            frame = dict(frame)
            self.unfolded.append(frame.pop("view"))
        self.frames.append(frame)
        return frame

    async def until(self, predicate: Any, timeout: float = 5) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no matching frame; got {self.frames[-5:]}")
            frame = await self.recv(left)
            if predicate(frame):
                return frame

    async def reply(self, timeout: float = 5) -> dict[str, Any]:
        return await self.until(lambda f: f["type"] in ("ok", "error"), timeout)

    async def command(self, **message: Any) -> dict[str, Any]:
        await self.send(**message)
        return await self.reply()

    async def drain(self, quiet: float = 0.3) -> None:
        try:
            while True:
                await self.recv(quiet)
        except TimeoutError:
            pass

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        out = []
        for frame in self.frames:
            if frame.get("type") == "events":
                for event in frame["events"]:
                    if kind is None or event["kind"] == kind:
                        out.append(event)
        return out

    async def close(self) -> None:
        await self.comm.disconnect()


async def open_socket(
    table_id: int,
    user: Any = None,
    dealer: bool = False,
    origin: str = "http://testserver",
    name: str = "",
    host: str = "testserver",
) -> Sock:
    # As a browser sends them: the site's Host, and the origin of the page opening the socket.
    headers = [(b"host", host.encode()), (b"origin", origin.encode())]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    path = f"/ws/tables/{table_id}/" + ("dealer/" if dealer else "")
    comm = WebsocketCommunicator(application, path, headers)
    connected, code = await comm.connect(timeout=5)
    sock = Sock(comm, name or (user.username if user else "spectator"))
    if not connected:
        sock.closed_code = code
    return sock


async def refusal(sock: Sock) -> tuple[str, int | None, str | None]:
    """A refused handshake as a browser sees it (docs/protocol.md): the socket opens, one
    ``closing`` frame says why, then the close: (the frame's code, the close code, the
    close's reason). Nothing else comes."""
    assert sock.closed_code is None, "refused before it opened: a browser cannot tell why"
    frame = await sock.recv()
    assert frame["type"] == "closing" and frame["message"], frame
    output = await sock.comm.receive_output(5)
    assert output["type"] == "websocket.close", output
    sock.closed_code = output.get("code")
    return frame["code"], sock.closed_code, output.get("reason")


@pytest.fixture
def table_setup(transactional_db: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(services.dealing, "RANDOM", SeededSource(7))
    demo = ensure_demo()
    return {
        "table": demo.table,
        "alice": make_user("alice"),
        "bob": make_user("bob"),
        "carol": make_user("carol"),
        "dealer": make_user("dealer", dealer=True),
    }


@pytest.fixture(autouse=True)
def ledger_balances_after_test(request: pytest.FixtureRequest) -> Any:
    yield
    if "table_setup" in request.fixturenames:
        assert ledger.verify() == []


@pytest.fixture(autouse=True)
async def fresh_layer() -> Any:
    """Each test gets its own channel layer object, emptied: each test runs in its own event
    loop, and a Redis layer's receive lock and pools belong to the loop that made them."""
    channel_layers.backends.clear()
    layer = get_channel_layer()
    if hasattr(layer, "flush"):
        await layer.flush()
    yield
    if hasattr(layer, "close_pools"):
        await layer.close_pools()
    channel_layers.backends.clear()
