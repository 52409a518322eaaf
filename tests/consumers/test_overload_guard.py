"""Past capacity, a guard: the process notices it is behind (table.lag: a metric and a log
line) and stops admitting new watchers and new seats, with a message that says why, while the
players already seated, and the dealer, play on."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from table import consumers, lag

from .conftest import open_socket

pytestmark = [
    pytest.mark.realstack,
    pytest.mark.overload_guard,
    pytest.mark.django_db(transaction=True),
]


async def test_a_process_whose_event_loop_is_late_knows_it_is_behind(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(lag, "RECOVER_SECONDS", 0.3)
    caplog.set_level(logging.WARNING, logger="table.lag")
    watch = lag.current()
    await asyncio.sleep(0.3)
    assert not watch.behind
    for _ in range(6):
        time.sleep(0.5)  # the loop is held, as by a flood of work: every tick wakes late
        await asyncio.sleep(0.15)
    assert watch.behind and watch.loop > lag.LIMIT
    assert lag.reading()["behind"] is True and lag.reading()["lag_ms"] > 250
    assert any(r.getMessage().startswith("behind: event loop") for r in caplog.records)
    for _ in range(60):  # free again: caught up once calm for RECOVER_SECONDS
        await asyncio.sleep(0.1)
        if not watch.behind:
            break
    assert not watch.behind
    assert any(r.getMessage().startswith("caught up") for r in caplog.records)
    assert watch.episodes == 1


async def test_commands_waiting_for_a_thread_count_as_lag() -> None:
    watch = lag.current()
    for _ in range(15):
        lag.note_wait(watch, 0.6)
    assert watch.behind and watch.wait > lag.LIMIT


async def test_behind_no_new_watchers_or_seats_and_the_seated_play_on(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lag, "RECOVER_SECONDS", 600.0)  # the guard stays on for the test
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    bob = await open_socket(table.pk, table_setup["bob"])  # watching, not seated yet
    assert (await alice.command(cmd="sit", box=1))["type"] == "ok"
    await alice.close()

    watch = lag.current()
    watch.loop = 2 * lag.LIMIT
    watch.update(time.monotonic())
    assert watch.behind
    status = await database_sync_to_async(lambda: Client().get("/status/lag.json"))()
    assert status.status_code == 503 and status.json()["behind"] is True

    # A new watcher, anonymous or logged in without a seat, is told why and let go.
    for user in (None, table_setup["carol"]):
        sock = await open_socket(table.pk, user)
        frame = await sock.recv()
        assert frame["type"] == "closing" and frame["code"] == "server_busy", frame
        assert "very busy" in frame["message"]
        with pytest.raises(ConnectionError):
            await sock.recv()
        assert sock.closed_code == 4429
    # A watcher already in may not take a seat now.
    refused = await bob.command(cmd="sit", box=3)
    assert refused["type"] == "error" and refused["code"] == "server_busy", refused
    assert "no new seats" in refused["message"]
    assert watch.refused_watchers == 2 and watch.refused_seats == 1

    # The seated player comes back and plays; the dealer deals.
    alice = await open_socket(table.pk, table_setup["alice"])
    assert (await alice.recv())["type"] == "snapshot"
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
    reply = await alice.command(cmd="act", move="bet", box=1, args={"ante": 1000})
    assert reply["type"] == "ok", reply

    # Caught up: seats again.
    watch.loop = 0.0
    monkeypatch.setattr(lag, "RECOVER_SECONDS", 0.0)
    watch.update(time.monotonic())
    watch.update(time.monotonic())
    assert not watch.behind
    assert (await bob.command(cmd="sit", box=3))["type"] == "ok"
    for sock in (alice, bob, dealer):
        await sock.close()


async def test_a_late_process_waits_longer_for_a_frame_that_crossed() -> None:
    """Frames of a table published by another process come through Redis: a process that
    runs late reads them late too, so a socket holds a gap open longer before it gives up
    (and its client asks for a snapshot)."""
    watch = lag.current()
    watch.loop = watch.wait = watch.peak = 0.0
    assert consumers.gap_seconds() == consumers.GAP_SECONDS
    watch.loop = 0.8
    assert consumers.gap_seconds() == pytest.approx(consumers.GAP_SECONDS + 1.6)
    watch.loop = 60.0
    assert consumers.gap_seconds() == consumers.GAP_MAX_SECONDS
    # A moment 1.2 s late, whose average has faded since: frames may still come that late.
    watch.loop, watch.peak = 0.1, 1.2
    assert consumers.gap_seconds() == pytest.approx(consumers.GAP_SECONDS + 2.4)
    watch.loop = watch.peak = 0.0


def test_the_recent_peak_outlasts_the_average() -> None:
    """One event-loop wake 2 s late: the smoothed lag has forgotten it within a few seconds
    of punctual ticks, the peak (what the other processes are told) fades over PEAK_MEMORY;
    a command that waited for a thread raises it too."""
    watch = lag.Lag()
    lag.observe(watch, lag.TICK + 2.0)
    assert watch.peak == pytest.approx(2.0)
    for _ in range(30):  # 3 s of punctual ticks
        lag.observe(watch, lag.TICK)
    assert watch.value < 0.2
    assert watch.recent == pytest.approx(2.0 * math.exp(-3.0 / lag.PEAK_MEMORY))
    lag.note_wait(watch, 1.5)
    assert watch.peak == 1.5


def test_another_process_lag_counts_and_so_does_its_silence() -> None:
    """The frame a socket waits for may come from any process: the wait follows the largest
    lag the others told (table.lag._share), and a process that has not told it for a while
    counts as that late (a stuck event loop cannot say so), until it is gone."""
    watch = lag.Lag()
    now = 1000.0
    assert lag.others_lag(watch, now) == 0.0
    watch.others = {"1:a": (0.3, now - 0.1), "2:b": (0.9, now - 0.2)}
    assert lag.others_lag(watch, now) == pytest.approx(0.9)
    watch.others = {"1:a": (0.1, now - 2.0)}  # silent for 2 s
    assert lag.others_lag(watch, now) == pytest.approx(2.0 - lag.SHARE_SECONDS)
    watch.others = {"1:a": (0.1, now - lag.GONE_SECONDS - 1)}  # gone
    assert lag.others_lag(watch, now) == 0.0


async def test_the_lag_hash_keeps_no_field_of_a_process_long_gone() -> None:
    """The deployment's lag hash (table.lag._share) had one field per process ever started,
    never deleted. A field not written for STALE_SECONDS is deleted by the process that reads
    it; a process takes its own out when its sharing ends (and at its exit: lag._forget)."""
    import secrets as tokens

    import redis.asyncio as redis
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("the lag hash is the Redis layer's (run with REDIS_URL)")
    key = f"test-lag-{tokens.token_hex(4)}"
    client = redis.from_url(settings.REDIS_URL)
    now = time.time()
    await client.hset(
        key,
        mapping={
            "1:gone": f"0.0100 {now - lag.STALE_SECONDS - 5:.4f}",
            "2:live": f"0.0200 {now:.4f}",
            "3:garbled": "not a reading",
        },
    )
    watch = lag.Lag()
    task = asyncio.ensure_future(lag._share(watch, settings.REDIS_URL, key))
    try:
        for _ in range(50):
            await asyncio.sleep(0.05)
            if len(await client.hkeys(key)) == 2:
                break
        fields = {k.decode() for k in await client.hkeys(key)}
        mine = {f for f in fields if f.startswith(f"{os.getpid()}:")}
        assert fields - mine == {"2:live"} and len(mine) == 1
        assert set(watch.others) == {"2:live"}
        assert mine <= {f for _, _, f in lag._fields}
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert {k.decode() for k in await client.hkeys(key)} == {"2:live"}
    assert not [f for _, k, f in lag._fields if k == key]
    await client.delete(key)
    await client.aclose()
