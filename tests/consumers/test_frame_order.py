"""A socket sends a table's frames in version order, whatever order the layer brings them in.

Two Daphne processes (or a consumer and the clock) publish one table's versions
independently, so frames can cross on the way to a socket; each socket puts them back in
order, and gives up on a version that never comes after ``GAP_SECONDS`` (the client then sees
the gap and asks for a snapshot).
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from channels.layers import get_channel_layer

from table import consumers
from table.broadcast import frame_message, group_send_many, table_group, user_group

from .conftest import open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


def frame(table_id: int, version: int, private: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "events", "table": table_id, "version": version, "round": None}
    if private:
        body["private"] = True
    body["events"] = [{"kind": "probe", "data": {"version": version, "private": private}}]
    return body


async def test_frames_that_cross_go_out_in_version_order(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = table_setup["alice"]
    sock = await open_socket(table.pk, alice)
    snap = await sock.recv()
    assert snap["type"] == "snapshot"
    v = snap["version"]
    layer = get_channel_layer()
    mine = user_group(table.pk, alice.pk)
    await group_send_many(
        layer,
        [
            (table_group(table.pk), frame_message(frame(table.pk, v + 3))),
            (mine, frame_message(frame(table.pk, v + 2, private=True))),
            (table_group(table.pk), frame_message(frame(table.pk, v + 2))),
            (table_group(table.pk), frame_message(frame(table.pk, v))),  # in the snapshot
            (table_group(table.pk), frame_message(frame(table.pk, v + 1))),
        ],
    )
    got = [await sock.recv() for _ in range(4)]
    assert [(f["version"], bool(f.get("private"))) for f in got] == [
        (v + 1, False),
        (v + 2, True),  # a version's private frame before its public one
        (v + 2, False),
        (v + 3, False),
    ]
    await sock.close()


async def test_a_version_that_never_comes_is_given_up(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(consumers, "GAP_SECONDS", 0.3)
    table = table_setup["table"]
    sock = await open_socket(table.pk)
    v = (await sock.recv())["version"]
    layer = get_channel_layer()
    started = time.monotonic()
    await layer.group_send(table_group(table.pk), frame_message(frame(table.pk, v + 2)))
    late = await sock.recv(timeout=5)
    waited = time.monotonic() - started
    # Held for the missing version, then sent: the client sees v + 2 after v and resyncs.
    assert late["version"] == v + 2 and waited >= 0.25
    # Once given up, the next versions flow at once.
    await layer.group_send(table_group(table.pk), frame_message(frame(table.pk, v + 3)))
    assert (await sock.recv(timeout=1))["version"] == v + 3
    # A straggler older than what was sent is not sent out of order.
    await layer.group_send(table_group(table.pk), frame_message(frame(table.pk, v + 1)))
    assert await sock.comm.receive_nothing(timeout=0.5)
    await sock.close()
