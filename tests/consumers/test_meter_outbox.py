"""A process publishes each progressive meter at most once an interval (table.meter_outbox,
issue 26): a command's service thread hands its committed meter frames to the process's event
loop without waiting, and the loop coalesces them before they reach the channel layer, by the
relay's rule (a change after a quiet interval at once, a burst's newest when the interval
ends, a hit at once). Before, every change was a publish, and the receiving processes threw
most of them away."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import channel_layers, get_channel_layer

from table import meter_outbox, meters

METER = 987_654


def frame(version: int, cause: str = "increment") -> dict[str, Any]:
    return {
        "type": "meter",
        "meter": METER,
        "kind": "hand_bonus",
        "name": "hand bonus",
        "amount": 10_000_00 + version,
        "version": version,
        "cause": cause,
        "table": 1,
    }


async def test_a_process_publishes_a_meter_at_most_once_an_interval(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.METER_PUBLISH_INTERVAL = 0.3
    channel_layers.backends.clear()
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(meters.meter_group(METER), channel)

    def commands_commit(versions: list[tuple[int, str]]) -> None:
        # In a service thread, as a command's on_commit callbacks run.
        for version, cause in versions:
            meters.publish(frame(version, cause))

    async def received() -> list[tuple[int, str]]:
        got = []
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), 1.0)
            except TimeoutError:
                return got
            text = json.loads(message["text"])
            got.append((text["version"], text["cause"]))

    try:
        # A quiet meter's change at once; four more within the interval: the newest only;
        # a hit at once (the held increments older than it dropped: it carries the amount);
        # two increments after it: the newer, when the interval ends.
        await sync_to_async(commands_commit, thread_sensitive=False)(
            [(1, "increment"), (2, "increment"), (3, "increment"), (4, "reversal")]
            + [(5, "increment"), (6, "hit"), (7, "increment"), (8, "increment")]
        )
        assert await received() == [(1, "increment"), (6, "hit"), (8, "increment")]
        # Offered from the loop itself: the outbox too (a quiet interval: at once).
        assert meter_outbox.offer(frame(9)) is True
        assert await received() == [(9, "increment")]
    finally:
        channel_layers.backends.clear()


def test_outside_an_event_loop_each_frame_is_published_at_once(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    from asgiref.sync import async_to_sync

    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(meters.meter_group(METER), channel)
    try:
        assert meter_outbox.offer(frame(1)) is False
        for version in (1, 2, 3):
            meters.publish(frame(version))
        got = [json.loads(async_to_sync(layer.receive)(channel)["text"]) for _ in range(3)]
        assert [f["version"] for f in got] == [1, 2, 3]
    finally:
        channel_layers.backends.clear()
