"""A socket sends a table's frames in version order, whatever order the layer brings them in.

Two Daphne processes (or a consumer and the clock) publish one table's versions
independently, so frames can cross on the way to a socket; each socket puts them back in
order, waits for a missing one as long as the slowest process's lag calls for (table.lag
shares each process's lag through Redis), and sends a snapshot in place of a version that
never comes: a client never gets versions out of order or with one missing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from table import consumers, lag
from table.broadcast import table_group, version_message
from table.games.events import Event
from table.models import Table

from .conftest import open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


def message(table_id: int, version: int, private: dict[str, int] | None = None) -> dict[str, Any]:
    """A version's one layer message, with a probe event for everyone and one for each
    player named in ``private`` (name -> user id)."""
    events = [Event("probe", {"version": version, "private": False})]
    events += [
        Event("probe", {"version": version, "private": True, "for": name}, f"player:{name}")
        for name in private or {}
    ]
    return version_message(table_id, version, None, events, private or {}, {})


async def table_frame(sock: Any, timeout: float = 5) -> dict[str, Any]:
    """The socket's next frame but the round views (one follows each version's frames)."""
    return dict(await sock.until(lambda f: f["type"] != "view", timeout))


async def nothing_but_views(sock: Any, wait: float = 0.5) -> bool:
    """Within ``wait`` seconds the socket sends nothing but round views (a pong then says
    everything due before it has come)."""
    seen = len(sock.frames)
    await asyncio.sleep(wait)
    await sock.send(cmd="ping", t=0)
    await sock.until(lambda f: f["type"] == "pong" and f.get("ref") is None and f["t"] == 0)
    return not [f for f in sock.frames[seen:] if f["type"] not in ("view", "pong")]


async def test_frames_that_cross_go_out_in_version_order(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = table_setup["alice"]
    sock = await open_socket(table.pk, alice)
    snap = await sock.recv()
    assert snap["type"] == "snapshot"
    v = snap["version"]
    layer = get_channel_layer()
    group = table_group(table.pk)
    for sent in (
        message(table.pk, v + 3),
        message(table.pk, v + 2, {"alice": alice.pk}),
        message(table.pk, v),  # in the snapshot
        message(table.pk, v + 1),
    ):
        await layer.group_send(group, sent)
    got = [await table_frame(sock) for _ in range(4)]
    assert [(f["version"], bool(f.get("private"))) for f in got] == [
        (v + 1, False),
        (v + 2, True),  # a version's private frame before its public one
        (v + 2, False),
        (v + 3, False),
    ]
    await sock.close()


def commit_versions(table_id: int, version: int) -> None:
    """The table's version moves on in the database, as commands committed by another
    process would move it (their frames are sent by hand)."""
    Table.objects.filter(pk=table_id).update(version=version)


@asynccontextmanager
async def lagging_peer(seconds: float) -> AsyncIterator[None]:
    """Another process of the deployment that says, through the layer's Redis, that it runs
    ``seconds`` late (as table.lag._share does), for as long as the block lasts."""
    import redis.asyncio as redis

    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
    key, field = f"{prefix}:lag", "peer-process:test"
    client = redis.from_url(settings.REDIS_URL)

    async def tell() -> None:
        while True:
            await client.hset(key, field, f"{seconds:.4f} {time.time():.4f}")
            await asyncio.sleep(0.1)

    telling = asyncio.ensure_future(tell())
    watch = lag.current()
    try:
        for _ in range(50):  # this process reads it within SHARE_SECONDS
            if lag.others_lag(watch, time.time()) >= seconds:
                break
            await asyncio.sleep(0.05)
        assert lag.deployment() >= seconds
        yield
    finally:
        telling.cancel()
        await client.hdel(key, field)
        await client.aclose()


@pytest.mark.skipif(not settings.REDIS_URL, reason="processes share their lag through Redis")
async def test_a_frame_published_late_by_a_lagging_process_goes_out_in_order(
    table_setup: dict[str, Any],
) -> None:
    """The other process runs 1 s late, so its frame of version v + 1 reaches this process
    1.2 s after v + 2 (published on time by another): the socket waits for it (0.5 s plus
    twice the other's lag) and sends both in order. Before, it waited 0.5 s plus twice its
    own lag, sent v + 2 with v + 1 missing, and dropped v + 1 when it came."""
    table = table_setup["table"]
    sock = await open_socket(table.pk, table_setup["alice"])
    v = (await sock.recv())["version"]
    await database_sync_to_async(commit_versions)(table.pk, v + 2)
    layer = get_channel_layer()
    async with lagging_peer(1.0):
        await layer.group_send(table_group(table.pk), message(table.pk, v + 2))
        await asyncio.sleep(1.2)
        await layer.group_send(table_group(table.pk), message(table.pk, v + 1))
        got = [await table_frame(sock) for _ in range(2)]
    assert [(f["type"], f["version"]) for f in got] == [("events", v + 1), ("events", v + 2)]
    assert await nothing_but_views(sock, 0.3)
    await sock.close()


async def test_a_version_that_never_comes_is_replaced_by_a_snapshot(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Version v + 1 was committed but its frame is lost (its process died before it
    published): after the wait the socket sends a snapshot in its place, as new as what it
    holds, and nothing of what it held that the snapshot covers; the client sees no gap."""
    monkeypatch.setattr(consumers, "GAP_SECONDS", 0.3)
    table = table_setup["table"]
    sock = await open_socket(table.pk)
    v = (await sock.recv())["version"]
    await database_sync_to_async(commit_versions)(table.pk, v + 2)
    layer = get_channel_layer()
    started = time.monotonic()
    await layer.group_send(table_group(table.pk), message(table.pk, v + 2))
    resync = await table_frame(sock)
    waited = time.monotonic() - started
    assert resync["type"] == "snapshot" and resync["version"] == v + 2, resync
    assert waited >= 0.25 and "ref" not in resync
    # The next versions flow at once.
    await layer.group_send(table_group(table.pk), message(table.pk, v + 3))
    assert (await table_frame(sock, timeout=1))["version"] == v + 3
    # A straggler older than what was sent is in the snapshot: not sent out of order.
    await layer.group_send(table_group(table.pk), message(table.pk, v + 1))
    assert await nothing_but_views(sock)
    await sock.close()


async def test_a_snapshot_in_place_of_a_lost_version_for_a_seated_player(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same for a logged-in socket (its own snapshot, not the spectators' cache), with a
    snapshot it was sent a moment ago that is now too old to stand in."""
    monkeypatch.setattr(consumers, "GAP_SECONDS", 0.3)
    table = table_setup["table"]
    sock = await open_socket(table.pk, table_setup["alice"])
    v = (await sock.recv())["version"]
    await database_sync_to_async(commit_versions)(table.pk, v + 3)
    layer = get_channel_layer()
    await layer.group_send(table_group(table.pk), message(table.pk, v + 1))
    assert (await table_frame(sock, timeout=1))["version"] == v + 1
    await layer.group_send(table_group(table.pk), message(table.pk, v + 3))
    resync = await table_frame(sock)
    assert resync["type"] == "snapshot" and resync["version"] == v + 3, resync
    await layer.group_send(table_group(table.pk), message(table.pk, v + 2))
    assert await nothing_but_views(sock)
    await sock.close()


async def test_a_frame_that_leaves_late_after_its_commit_lengthens_every_wait(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After its commit a command still builds its round views in a service thread (sharing
    the GIL with the event loop) before its frame leaves; meanwhile another process's next
    command can commit and publish. That delay, which the event loop's lateness does not
    show, counts as this process's lag: the recent peak it tells the other processes, and
    what its own sockets hold a gap open for (0.6 s late here: 0.5 s + about 1.2 s)."""
    from table.services import command

    built = command._round_views

    def slow_views(*args: Any) -> Any:
        time.sleep(0.6)  # a thread past the commit, the table's lock already released
        return built(*args)

    monkeypatch.setattr(command, "_round_views", slow_views)
    watch = lag.current()
    watch.loop = watch.wait = watch.peak = 0.0
    sock = await open_socket(table_setup["table"].pk, table_setup["alice"])
    await sock.recv()
    assert (await sock.command(cmd="sit", box=1))["type"] == "ok"
    assert watch.peak >= 0.5 and watch.loop < 0.3  # (the peak fades a little each tick)
    assert consumers.gap_seconds() >= consumers.GAP_SECONDS + 1.0
    await sock.close()
