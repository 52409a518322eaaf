"""A socket's consumer waits for its messages with one task per source for its whole life
(table.socket_loop, issue 26) and keeps what Channels' ``await_many_dispatch`` gave: each
source's messages in order, one dispatched at a time, a failing source ending the consumer
with its error, and the sources' waits cancelled (and awaited) when the consumer ends."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.exceptions import StopConsumer
from channels.layers import InMemoryChannelLayer

from table.consumers import FrameConsumer
from table.socket_loop import dispatch_loop


class Source:
    """A queue to receive from, noting whether its wait was cancelled."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.cancelled = 0

    async def __call__(self) -> Any:
        try:
            item = await self.queue.get()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        if isinstance(item, BaseException):
            raise item
        return item


async def test_each_sources_messages_in_order_one_at_a_time() -> None:
    socket, layer = Source(), Source()
    got: list[Any] = []
    busy = 0

    async def dispatch(message: Any) -> None:
        nonlocal busy
        busy += 1
        assert busy == 1  # never two at once
        await asyncio.sleep(0)
        got.append(message)
        busy -= 1
        if message == "stop":
            raise StopConsumer

    for n in range(30):
        socket.queue.put_nowait(("socket", n))
        layer.queue.put_nowait(("layer", n))
    loop = asyncio.ensure_future(dispatch_loop([socket, layer], dispatch))
    await asyncio.sleep(0.05)
    layer.queue.put_nowait("stop")
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(loop, 5)
    for name in ("socket", "layer"):
        assert [n for source, n in got[:-1] if source == name] == list(range(30))
    assert got[-1] == "stop"
    # Both sources' waits were cancelled when the consumer ended.
    assert socket.cancelled == 1 and layer.cancelled == 1


async def test_a_failing_source_ends_the_consumer_with_its_error() -> None:
    socket, layer = Source(), Source()
    got: list[Any] = []

    async def dispatch(message: Any) -> None:
        got.append(message)

    layer.queue.put_nowait("frame")
    layer.queue.put_nowait(ConnectionError("the layer is gone"))
    with pytest.raises(ConnectionError, match="the layer is gone"):
        await asyncio.wait_for(dispatch_loop([socket, layer], dispatch), 5)
    assert got == ["frame"]
    assert socket.cancelled == 1


async def test_an_error_in_dispatch_ends_the_consumer_and_its_waits() -> None:
    socket, layer = Source(), Source()

    async def dispatch(message: Any) -> None:
        raise KeyError(message)

    socket.queue.put_nowait("bad")
    with pytest.raises(KeyError):
        await asyncio.wait_for(dispatch_loop([socket, layer], dispatch), 5)
    assert socket.cancelled == 1 and layer.cancelled == 1


async def test_a_cancelled_consumer_cancels_its_waits() -> None:
    socket, layer = Source(), Source()

    async def dispatch(message: Any) -> None:
        pass

    loop = asyncio.ensure_future(dispatch_loop([socket, layer], dispatch))
    await asyncio.sleep(0.01)
    loop.cancel()
    with pytest.raises(asyncio.CancelledError):
        await loop
    assert socket.cancelled == 1 and layer.cancelled == 1


class Echo(FrameConsumer):
    """A consumer with both sources: what the socket says goes to the layer and back."""

    groups = ["echo"]

    async def connect(self) -> None:
        await self.channel_layer.group_add("echo", self.channel_name)
        await self.accept()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send("echo", {"type": "echo.frame", "text": text_data})

    async def echo_frame(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


async def test_a_frame_consumer_takes_both_sources_and_leaves_the_layer_when_it_ends(
    settings: Any,
) -> None:
    from channels.layers import channel_layers
    from channels.testing import WebsocketCommunicator

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    comm = WebsocketCommunicator(Echo.as_asgi(), "/ws/echo/")
    connected, _ = await comm.connect()
    assert connected
    for n in range(20):
        await comm.send_to(text_data=f"frame {n}")
    assert [await comm.receive_from() for _ in range(20)] == [f"frame {n}" for n in range(20)]
    layer = channel_layers["default"]
    assert isinstance(layer, InMemoryChannelLayer)
    assert layer.groups.get("echo")
    await comm.disconnect()
    channel_layers.backends.clear()
