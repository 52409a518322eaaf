"""A websocket client of the table protocol (docs/protocol.md) for tests and benchmarks."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson
import websockets

#: How often a client pings (static/table/protocol.js: every 15 s).
PING_SECONDS = 15.0


class Refused(Exception):
    """The server turned the socket away with a ``closing`` frame (its code and message)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class TableClient:
    """One socket: keeps every frame, answers commands, and tracks versions.

    ``arrivals`` maps (version) to the monotonic time the public frame of that version came.
    Like a browser's client (static/table/protocol.js) it asks for a snapshot when a public
    version comes with one missing before it; it counts the versions missing (``lost``), those
    that came after a newer one or again (``late``), the snapshots it asked for on a gap
    (``gap_snapshots``) and those the server sent unasked in place of a version it gave up on
    (``resyncs``).
    """

    def __init__(self, name: str, url: str, cookie: str | None, origin: str) -> None:
        self.name = name
        self.url = url
        self.cookie = cookie
        self.origin = origin
        self.frames: list[dict[str, Any]] = []
        self.arrivals: dict[int, float] = {}
        self.versions: list[int] = []
        self.snapshot: dict[str, Any] | None = None
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.waiters: list[tuple[Callable[[dict[str, Any]], bool], asyncio.Future[Any]]] = []
        self.errors: list[dict[str, Any]] = []
        self.keep_frames = True
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.pinger: asyncio.Task[None] | None = None
        self.messages = 0
        self.kinds: Counter[str] = Counter()  # public event kinds received so far
        self.types: Counter[str] = Counter()  # frames received so far, by type
        self.arrived = asyncio.Condition()
        #: The process that took this socket, as a proxy in front names it (HAProxy's
        #: ``X-Frenzy-Server``, docs/deploy/haproxy.cfg); None without one.
        self.server: str | None = None
        self.version: int | None = None  # the last public version seen (or snapshot's)
        self.lost = 0
        self.late = 0
        self.gap_snapshots = 0
        self.resyncs = 0

    async def connect(self) -> TableClient:
        headers = {"Origin": self.origin}
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.ws = await websockets.connect(
            self.url, additional_headers=headers, max_queue=None, ping_interval=None
        )
        self.server = self.ws.response.headers.get("X-Frenzy-Server")
        self.reader = asyncio.create_task(self._read())
        self.pinger = asyncio.create_task(self._ping())
        first = await self.wait_for(lambda f: f["type"] in ("snapshot", "closing"), 10)
        if first["type"] == "closing":  # turned away (caps, the overload guard): say why
            await self.close()
            raise Refused(first.get("code", ""), first.get("message", ""))
        return self

    async def _ping(self) -> None:
        """Every PING_SECONDS, as a browser's client does (static/table/protocol.js): a
        socket that sends nothing for 2 minutes is closed as idle (a dealer's console waits
        that long while a hundred tables are seated one after the other)."""
        try:
            while True:
                await asyncio.sleep(PING_SECONDS)
                await self.ws.send(json.dumps({"cmd": "ping", "t": int(time.time() * 1000)}))
        except (websockets.ConnectionClosed, asyncio.CancelledError):
            pass

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                now = time.monotonic()
                # orjson: the tool's own parsing of 700 sockets' frames was a sixth of its CPU
                # (py-spy, 100 tables), CPU the server it measures shares on a small host.
                message = orjson.loads(text)
                self.messages += 1
                # One websocket message each, by type: an events frame with the round view
                # riding in it counts as "events+view".
                riding = message.pop("view", None) if message.get("type") == "events" else None
                self.types["events+view" if riding is not None else str(message.get("type"))] += 1
                for frame in (message, riding) if riding is not None else (message,):
                    await self._take(frame, now)
        except websockets.ConnectionClosed:
            pass

    async def _take(self, frame: dict[str, Any], now: float) -> None:
        """One frame, as a browser's client takes it (static/table/protocol.js): a view
        that rode in an events frame comes after that frame's events, as its own."""
        if self.keep_frames:
            self.frames.append(frame)
        kind = frame.get("type")
        if kind == "events" and not frame.get("private"):
            self.arrivals.setdefault(frame["version"], now)
            self.versions.append(frame["version"])
            await self._check_version(frame["version"])
            self.kinds.update(e["kind"] for e in frame["events"])
            async with self.arrived:
                self.arrived.notify_all()
        elif kind == "snapshot":
            if self.snapshot is not None and "ref" not in frame:
                self.resyncs += 1
            # The versions it covers reached this socket now (in the snapshot).
            if self.version is not None:
                for covered in range(self.version + 1, frame["version"] + 1):
                    self.arrivals.setdefault(covered, now)
            self.snapshot = frame
            self.version = max(self.version or 0, frame["version"])
        elif kind in ("ok", "error"):
            if kind == "error":
                self.errors.append(frame)
            await self.replies.put(frame)
        for pred, fut in list(self.waiters):
            if not fut.done() and pred(frame):
                fut.set_result(frame)
                self.waiters.remove((pred, fut))

    async def _check_version(self, version: int) -> None:
        """A public version after the last one seen: the next, or a gap (counted, and a
        snapshot asked for, as a browser does), or one that came late (counted)."""
        last = self.version
        if last is not None and version > last + 1:
            self.lost += version - last - 1
            self.gap_snapshots += 1
            await self.ws.send(json.dumps({"cmd": "snapshot", "ref": f"gap-{version}"}))
        elif last is not None and version <= last:
            self.late += 1
        self.version = max(last or 0, version)

    async def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10, since: int = 0
    ) -> dict[str, Any]:
        """The first frame (from index ``since``) matching ``pred``, waiting if need be."""
        for frame in self.frames[since:]:
            if pred(frame):
                return frame
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiters.append((pred, fut))
        return await asyncio.wait_for(fut, timeout)

    async def wait_count(self, kind: str, count: int, timeout: float = 60) -> None:
        """Until ``count`` public events of ``kind`` have arrived (no polling)."""
        async with self.arrived:
            await asyncio.wait_for(
                self.arrived.wait_for(lambda: self.kinds[kind] >= count), timeout
            )

    async def command(self, timeout: float = 10, **message: Any) -> dict[str, Any]:
        ref = uuid.uuid4().hex[:12]
        message.setdefault("key", uuid.uuid4().hex)
        await self.ws.send(json.dumps({**message, "ref": ref}))
        while True:
            reply = await asyncio.wait_for(self.replies.get(), timeout)
            if reply.get("ref") == ref:
                return reply

    async def fetch_snapshot(self, timeout: float = 10) -> dict[str, Any]:
        """A fresh snapshot. The reply is a ``snapshot`` frame echoing ``ref`` (not an ``ok``:
        :meth:`command` would wait for one in vain)."""
        ref = uuid.uuid4().hex[:12]
        waiting = asyncio.ensure_future(
            self.wait_for(lambda f: f.get("type") == "snapshot" and f.get("ref") == ref, timeout)
        )
        await asyncio.sleep(0)  # the waiter is registered before the reply can arrive
        await self.ws.send(json.dumps({"cmd": "snapshot", "ref": ref}))
        return await waiting

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            e
            for f in self.frames
            if f.get("type") == "events"
            for e in f["events"]
            if kind is None or e["kind"] == kind
        ]

    async def close(self) -> None:
        if self.pinger is not None:
            self.pinger.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


SESSION_SCRIPT = """
import json
from django.test import Client
from django.contrib.auth import get_user_model
out = {}
for name in NAMES:
    user = get_user_model().objects.get(username=name)
    client = Client()
    client.force_login(user)
    out[name] = "sessionid=" + client.cookies["sessionid"].value
print(json.dumps(out))
"""


def session_cookies(stack: Any, names: list[str]) -> dict[str, str]:
    """Log users in inside the stack's database; returns their session cookies."""
    out = stack.python(f"NAMES = {names!r}\n" + SESSION_SCRIPT)
    return dict(json.loads(out.strip().splitlines()[-1]))
