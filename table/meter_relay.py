"""One subscription per process for each progressive meter's frames (issue 26).

A meter is linked to many tables (at the bench, a third of its tables share each meter),
and every change of it goes to every socket at each of them. When each socket joined the
meter's group, every change was received, unpacked and dispatched once per socket (119 times
at 50 tables of the mix: a third of the messages the sockets handled, for a fifth of the
frames). Here the process joins the group once per meter, with a channel of its own, and
hands the one message to each of its sockets watching the meter (``TableConsumer.
meter_frame``: the newest version only, forwarded as it is). The frames are the same; only
the way to the socket is shorter.

The relay also coalesces the frames as a casino's progressive display updates (issue 26):
each socket gets at most one frame of a meter per ``settings.METER_FRAME_INTERVAL`` seconds.
A change after a quiet interval goes at once; the changes that come within the interval after
it are held, and only the newest of them goes when the interval ends, so the last frame a
socket gets always carries the meter's newest amount, no later than one interval after the
change. Only increments and reversals coalesce (each frame carries the whole amount: the
newest makes the older ones good); a hit, a reset, a seed or a link names what happened
(``cause``, ``table``) and goes at once, never held and never dropped for a newer increment.
The frames themselves are unchanged: the newest of those held is forwarded as it came.

Per event loop (each test's loop, each Daphne process's one loop); a relay lives while a
socket of the process watches its meter.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.conf import settings

from .meters import meter_group

log = logging.getLogger(__name__)

#: The causes whose frames coalesce: each only moves the amount, which the next frame carries.
COALESCED = frozenset({"increment", "reversal"})


class Watcher(Protocol):
    async def meter_frame(self, message: dict[str, Any]) -> None: ...


class Relay:
    """A meter's frames, read once, for the process's sockets that watch it."""

    def __init__(self, meter_id: int) -> None:
        self.meter_id = meter_id
        self.sockets: set[Watcher] = set()
        self.channel: str | None = None
        self.interval = float(settings.METER_FRAME_INTERVAL)
        self.sent_at = -float("inf")  # the loop's time of the last frame handed on
        self.sent_version = -1  # the newest version handed on
        self.held: dict[str, Any] | None = None  # the newest frame waiting for the interval
        self.flush_timer: asyncio.TimerHandle | None = None
        self.flushing: set[asyncio.Future[None]] = set()
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        layer = get_channel_layer()
        assert layer is not None
        try:
            self.channel = await layer.new_channel()
            await layer.group_add(meter_group(self.meter_id), self.channel)
        except asyncio.CancelledError:
            self.ready.cancel()
            raise
        except Exception as exc:
            self.ready.set_exception(exc)
            raise
        self.ready.set_result(None)
        while True:
            await self.received(await layer.receive(self.channel))

    async def received(self, message: dict[str, Any]) -> None:
        """Hand ``message`` on now, or hold it (the newest held) until the interval ends."""
        version = message.get("version")
        if not isinstance(version, int):
            await self.hand_on(message)
            return
        if version <= self.sent_version:
            return  # crossed a newer one on the way: each socket keeps the newest only
        loop = asyncio.get_running_loop()
        now = loop.time()
        held = self.held
        if message.get("cause") not in COALESCED or (
            held is None and now - self.sent_at >= self.interval
        ):
            if held is not None and held["version"] <= version:
                self.drop_held()
            self.sent_at = now
            await self.hand_on(message)
            return
        if held is None or version > held["version"]:
            self.held = message
        if self.flush_timer is None:
            self.flush_timer = loop.call_at(self.sent_at + self.interval, self.flush)

    def drop_held(self) -> None:
        self.held = None
        if self.flush_timer is not None:
            self.flush_timer.cancel()
            self.flush_timer = None

    def flush(self) -> None:
        """The interval ended: the newest frame held goes to the sockets."""
        self.flush_timer = None
        message, self.held = self.held, None
        if message is None or message["version"] <= self.sent_version:
            return
        self.sent_at = asyncio.get_running_loop().time()
        task = asyncio.ensure_future(self.hand_on(message))
        self.flushing.add(task)
        task.add_done_callback(self.flushing.discard)

    async def hand_on(self, message: dict[str, Any]) -> None:
        version = message.get("version")
        if isinstance(version, int):
            self.sent_version = max(self.sent_version, version)
        for socket in list(self.sockets):
            try:
                await socket.meter_frame(message)
            except Exception:  # one socket's trouble is not the others'
                log.warning("could not relay meter %s", self.meter_id, exc_info=True)

    async def rejoin(self) -> None:
        """Join the meter's group again (idempotent): the layer's Redis restarted."""
        layer = get_channel_layer()
        if layer is not None and self.channel is not None:
            await layer.group_add(meter_group(self.meter_id), self.channel)

    async def close(self) -> None:
        layer = get_channel_layer()
        try:
            await asyncio.shield(self.ready)  # joined before it leaves: no group left behind
        except (Exception, asyncio.CancelledError):
            pass
        try:
            if layer is not None and self.channel is not None:
                await layer.group_discard(meter_group(self.meter_id), self.channel)
        finally:
            self.drop_held()
            self.task.cancel()
            for task in list(self.flushing):
                task.cancel()


_relays: dict[tuple[int, int], Relay] = {}


def _key(meter_id: int) -> tuple[int, int]:
    return id(asyncio.get_running_loop()), meter_id


async def watch(meter_id: int, socket: Watcher) -> None:
    """``socket`` gets the meter's frames from now on (once this returns, the process is in
    the meter's group: a change committed after that reaches it)."""
    key = _key(meter_id)
    relay = _relays.get(key)
    if relay is None or relay.task.done():
        relay = _relays[key] = Relay(meter_id)
    relay.sockets.add(socket)
    try:
        await asyncio.shield(relay.ready)
    except Exception:
        relay.sockets.discard(socket)
        if _relays.get(key) is relay:
            del _relays[key]
        raise


async def unwatch(meter_id: int, socket: Watcher) -> None:
    """No more of the meter's frames for ``socket``; the last one out closes the relay."""
    key = _key(meter_id)
    relay = _relays.get(key)
    if relay is None:
        return
    relay.sockets.discard(socket)
    if not relay.sockets:
        del _relays[key]
        await relay.close()


async def rejoin(meter_id: int) -> None:
    relay = _relays.get(_key(meter_id))
    if relay is not None:
        await relay.rejoin()
