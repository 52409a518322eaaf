"""One subscription per process for each progressive meter's frames (issue 26).

A meter is linked to many tables (at the bench, a third of its tables share each meter),
and every change of it goes to every socket at each of them. When each socket joined the
meter's group, every change was received, unpacked and dispatched once per socket (119 times
at 50 tables of the mix: a third of the messages the sockets handled, for a fifth of the
frames). Here the process joins the group once per meter, with a channel of its own, and
hands the one message to each of its sockets watching the meter (``TableConsumer.
meter_frame``: the newest version only, forwarded as it is). The frames are the same; only
the way to the socket is shorter.

Per event loop (each test's loop, each Daphne process's one loop); a relay lives while a
socket of the process watches its meter.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels.layers import get_channel_layer

from .meters import meter_group

log = logging.getLogger(__name__)


class Watcher(Protocol):
    async def meter_frame(self, message: dict[str, Any]) -> None: ...


class Relay:
    """A meter's frames, read once, for the process's sockets that watch it."""

    def __init__(self, meter_id: int) -> None:
        self.meter_id = meter_id
        self.sockets: set[Watcher] = set()
        self.channel: str | None = None
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
            message = await layer.receive(self.channel)
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
            self.task.cancel()


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
