"""The channel layer unpacks a group's message once for all the process's channels in the group
(table.layer, issue 26): each channel still gets a message equal to what was sent, its own
top-level dict, only the channels in the group get it, and a channel's own messages (and a
group of one) are unpacked by its receive as before."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import channels_redis
import pytest
from django.conf import settings

from table.layer import CHANNELS_REDIS_VERSIONS, PubSubLayer


def test_the_layer_is_for_the_channels_redis_installed() -> None:
    """An upgrade fails here until channels_redis's pub/sub layer has been read again (the
    three methods table.layer overrides) and its version added."""
    assert channels_redis.__version__ in CHANNELS_REDIS_VERSIONS


@pytest.mark.realstack
def test_the_site_uses_it_on_redis() -> None:
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the in-memory layer without Redis")
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "table.layer.PubSubLayer"


@pytest.mark.realstack
async def test_a_groups_message_is_unpacked_once_and_each_channel_gets_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs Redis")
    layer = PubSubLayer(hosts=[{"address": url}], prefix=f"{settings.CHANNELS_PREFIX}-layer-test")
    unpacked = 0
    real = layer._serializer.from_bytes

    def counting(data: bytes) -> Any:
        nonlocal unpacked
        unpacked += 1
        return real(data)

    monkeypatch.setattr(layer._serializer, "from_bytes", counting)
    try:
        table = [await layer.new_channel() for _ in range(3)]
        elsewhere = await layer.new_channel()
        for channel in table:
            await layer.group_add("table.1", channel)
        await layer.group_add("table.2", elsewhere)
        message = {
            "type": "table.version",
            "version": 7,
            "text": '{"type":"events"}',
            "mine": {"12": ["private", None, None]},
        }
        await layer.group_send("table.1", message)
        got = [await asyncio.wait_for(layer.receive(c), 5) for c in table]
        assert got == [message] * 3
        assert len({id(m) for m in got}) == 3  # each its own dict
        got[0]["type"] = "changed by one consumer"
        assert got[1]["type"] == "table.version"
        assert unpacked == 1
        # A group of one, and a channel's own message: unpacked by its receive, as before.
        await layer.group_send("table.2", {"type": "one", "n": 1})
        await layer.send(table[0], {"type": "own", "n": 2})
        assert await asyncio.wait_for(layer.receive(elsewhere), 5) == {"type": "one", "n": 1}
        assert await asyncio.wait_for(layer.receive(table[0]), 5) == {"type": "own", "n": 2}
        assert unpacked == 3
        # The channel outside the group got nothing of table.1's.
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(elsewhere), 0.3)
    finally:
        await layer.flush()


@pytest.mark.realstack
async def test_a_commands_one_message_is_a_plain_publish_and_several_one_pipeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """table.broadcast.group_send_many: a command's one message goes as a plain PUBLISH (no
    pipeline built and reset for it); several still travel as one pipeline, in order."""
    from redis.asyncio.client import Pipeline

    from table.broadcast import group_send_many

    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs Redis")
    layer = PubSubLayer(hosts=[{"address": url}], prefix=f"{settings.CHANNELS_PREFIX}-pub-test")
    pipelines: list[int] = []
    real = Pipeline.execute

    async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        pipelines.append(len(self.command_stack))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", counting)
    try:
        sockets = [await layer.new_channel() for _ in range(2)]
        for channel in sockets:
            await layer.group_add("table.9", channel)
        await group_send_many(layer, [("table.9", {"type": "v", "n": 1})])
        assert pipelines == []
        await group_send_many(layer, [("table.9", {"type": "v", "n": n}) for n in (2, 3)])
        assert pipelines == [2]
        for channel in sockets:
            got = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(3)]
            assert [m["n"] for m in got] == [1, 2, 3]
    finally:
        await layer.flush()
