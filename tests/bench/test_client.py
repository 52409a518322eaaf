"""The bench's websocket client keeps count of versions as a browser's client would
(static/table/protocol.js): a gap is counted and answered with a snapshot request, a version
that comes after a newer one is counted, and a snapshot the server sends unasked in place of
a version it gave up on (table.consumers.give_up_gap) covers the versions up to its own."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bench.client import TableClient
from bench.load import version_faults


class FakeSocket:
    """The server's side of one socket: the frames it sends, and what the client sent."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.frames = [json.dumps(f) for f in frames]
        self.sent: list[dict[str, Any]] = []

    def __aiter__(self) -> FakeSocket:
        return self

    async def __anext__(self) -> str:
        if not self.frames:
            raise StopAsyncIteration
        return self.frames.pop(0)

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def events(version: int) -> dict[str, Any]:
    return {"type": "events", "version": version, "events": [{"kind": "probe", "data": {}}]}


def read(frames: list[dict[str, Any]]) -> tuple[TableClient, FakeSocket]:
    client = TableClient("bot", "ws://test/", None, "http://test")
    client.ws = FakeSocket(frames)
    asyncio.run(client._read())
    return client, client.ws


def test_a_gap_asks_for_a_snapshot_and_is_counted() -> None:
    client, ws = read([{"type": "snapshot", "version": 5}, events(6), events(8), events(7)])
    assert (client.lost, client.late, client.gap_snapshots) == (1, 1, 1)
    assert ws.sent == [{"cmd": "snapshot", "ref": "gap-8"}]
    assert version_faults(client) == 2


def test_a_snapshot_in_place_of_a_lost_version_is_no_fault() -> None:
    """The server gave up on version 7 and sent a snapshot at 8 instead: nothing lost, nothing
    out of order, no request; versions 7 and 8 reached the socket with the snapshot."""
    client, ws = read(
        [
            {"type": "snapshot", "version": 5},
            events(6),
            {"type": "snapshot", "version": 8},
            events(9),
        ]
    )
    assert (client.lost, client.late, client.gap_snapshots, client.resyncs) == (0, 0, 0, 1)
    assert ws.sent == [] and version_faults(client) == 0
    assert {7, 8} <= set(client.arrivals) and client.version == 9


def test_a_snapshot_asked_for_is_no_resync() -> None:
    client, _ = read(
        [{"type": "snapshot", "version": 5}, {"type": "snapshot", "version": 5, "ref": "r1"}]
    )
    assert client.resyncs == 0


def test_a_view_riding_in_an_events_frame_is_taken_after_its_events() -> None:
    """As a browser's client: the events, then the view as a frame of its own (what the bots
    and the console wait for); counted as one message, of its own type."""
    view = {"type": "view", "version": 6, "round": {"phase": "betting"}}
    client, _ = read([{"type": "snapshot", "version": 5}, {**events(6), "view": view}])
    assert [f["type"] for f in client.frames] == ["snapshot", "events", "view"]
    assert "view" not in client.frames[1] and client.frames[2] == view
    assert client.messages == 2 and client.types == {"snapshot": 1, "events+view": 1}
    assert client.version == 6 and client.lost == 0
