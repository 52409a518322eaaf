"""The channel layer: channels_redis's pub/sub layer, a group's message unpacked once (issue 26).

channels_redis hands a group's message, as the bytes Redis delivered, to the queue of each of
the process's channels in the group, and each socket's ``receive`` unpacks its own copy
(msgpack): a table's version message, which carries the public frame, the round views and
every player's private frame, was unpacked seven times a version at a table of six players and
a dealer, all on the event loop. Here it is unpacked once, when it arrives, and each channel
of the group is given its own shallow copy of the result (its own top-level dict, as an
unpacking gave it; the texts inside are shared, and nothing changes them).

Everything else is channels_redis's own: a message to one channel is unpacked by its
``receive`` as before, and so is a group's message when the group has a single channel here.
Subclasses of channels_redis 4.3's ``RedisPubSubChannelLayer``, ``RedisPubSubLoopLayer`` and
``RedisSingleShardConnection``, overriding only ``_get_layer`` (to make the loop layer here),
``deserialize`` (a message unpacked already is copied, not unpacked) and
``_receive_message`` (tests/consumers/test_layer.py pins the version).
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

#: The channels_redis versions this was read against.
CHANNELS_REDIS_VERSIONS = ("4.3.0",)


class Unpacked:
    """A group's message unpacked once, on its way to each channel's queue."""

    __slots__ = ("message",)

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message


class PubSubLayer(RedisPubSubChannelLayer):  # type: ignore[misc]  # channels_redis is untyped
    """``channels_redis.pubsub.RedisPubSubChannelLayer``, a group's message unpacked once."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer

    def deserialize(self, message: Any) -> Any:
        if type(message) is Unpacked:
            return dict(message.message)  # the channel's own top-level dict
        return super().deserialize(message)


class LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Made anew (nothing is connected yet), as the shard connections below.
        shards: list[Any] = getattr(self, "_shards")  # noqa: B009  (set by channels_redis)
        self._shards = [Shard(shard.host, self) for shard in shards]


class Shard(RedisSingleShardConnection):  # type: ignore[misc]
    def _receive_message(self, message: Any) -> None:
        if message is not None:
            name = message["channel"]
            if isinstance(name, bytes):
                name = name.decode()
            layer = self.channel_layer
            members = layer.groups.get(name)
            if name not in layer.channels and members is not None and len(members) > 1:
                unpacked = Unpacked(layer.channel_layer.deserialize(message["data"]))
                queues = layer.channels
                for channel in members:
                    queue = queues.get(channel)
                    if queue is not None:
                        queue.put_nowait(unpacked)
                return
        super()._receive_message(message)
