"""One subscription per process for each progressive meter's frames, and one display pace
for all of them (issue 26).

A meter is linked to many tables (at the bench, a third of its tables share each meter),
and every change of it goes to every socket at each of them. When each socket joined the
meter's group, every change was received, unpacked and dispatched once per socket (119 times
at 50 tables of the mix: a third of the messages the sockets handled, for a fifth of the
frames). Here the process joins the group once per meter, with a channel of its own, and
hands the one message to each of its sockets watching the meter (``TableConsumer.
meter_frame``: the newest version only).

The frames are paced as a casino's progressive display updates (issue 26): a socket gets at
most one frame of increments and reversals per ``settings.METER_FRAME_INTERVAL`` seconds,
whatever number of linked meters moved, and the newest amount of each always comes, no later
than one interval after the change. A change after a quiet interval goes at once; the changes
that come within the interval after it are held (the newest of each meter), and when the
interval ends each socket gets one frame carrying every meter it watches that moved: a
``meter`` frame for one, a ``meters`` frame (docs/protocol.md) for several, e.g. a table's
progressive and hand-bonus meters, which a round's "no more bets" moves together (they cost a
frame each before, each meter paced on its own). Only increments and reversals are held (each
frame carries the meter's whole amount: the newest makes the older ones good); a hit, a reset,
a seed or a link names what happened (``cause``, ``table``) and goes at once, never held, never
dropped for a newer increment, and not counted against the pace. The pace is the process's (one
timer for all its meters): a meter may wait for the interval another meter's frame began, never
longer than the interval. No regulation text at hand sets a display rate (the games' chapters
leave the progressive system to §605a.7 and §605a.8); a payout is "the amount on the meter when
it is the player's turn to be paid" (e.g. §657a.12(d)(4)), which the server reads from the
meter's row, never from what a display shows.

Per event loop (each test's loop, each Daphne process's one loop); a relay lives while a
socket of the process watches its meter.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from channels.layers import get_channel_layer
from django.conf import settings

from .meters import meter_group

log = logging.getLogger(__name__)

#: The causes whose frames coalesce: each only moves the amount, which the next frame carries.
COALESCED = frozenset({"increment", "reversal"})


class Watcher(Protocol):
    async def meter_frame(self, message: dict[str, Any]) -> None: ...


def meters_text(texts: list[str]) -> str:
    """The ``meters`` frame carrying these ``meter`` frames (their JSON text, as published)."""
    return '{"type":"meters","meters":[' + ",".join(texts) + "]}"


def fresh_text(message: dict[str, Any], seen: dict[int, tuple[int, Any]]) -> str | None:
    """What a socket sends of a relayed message, given ``seen`` (meter -> the version and
    amount it last sent, updated here): the meters it has not seen as new, or None.

    A version not above the one it sent is dropped (frames of one meter can cross between
    processes); so is an increment or reversal that leaves the amount where the socket's
    last frame put it (an increment and its void's reversal within one interval): the display
    already shows it. A hit, reset, seed or link always goes."""
    parts = message.get("parts") or [message]
    kept = []
    for part in parts:
        meter, version = part.get("meter"), part.get("version")
        if not isinstance(meter, int) or not isinstance(version, int):
            kept.append(part)
            continue
        last = seen.get(meter)
        if last is not None and version <= last[0]:
            continue
        amount = part.get("amount")
        seen[meter] = (version, amount)
        if (
            last is not None
            and amount is not None
            and amount == last[1]
            and part.get("cause") in COALESCED
        ):
            continue
        kept.append(part)
    if len(kept) == len(parts):
        return str(message["text"])
    if not kept:
        return None
    if len(kept) == 1:
        return str(kept[0]["text"])
    return meters_text([p["text"] for p in kept])


class Display:
    """The pace of one event loop's meter frames: when increments last went to the sockets,
    and the newest change of each meter held since."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.sent_at = -float("inf")  # the loop's time of the last increments handed on
        self.held: dict[int, dict[str, Any]] = {}  # meter -> its newest frame held
        self.timer: asyncio.TimerHandle | None = None
        self.flushing: set[asyncio.Future[None]] = set()
        #: Increment frames handed to sockets, by meters carried (for the figures, the tests).
        self.handed = 0

    @staticmethod
    def interval() -> float:
        return float(settings.METER_FRAME_INTERVAL)

    def due_now(self) -> bool:
        """Nothing held and a quiet interval behind: a change goes at once."""
        return not self.held and self.loop.time() - self.sent_at >= self.interval()

    def hold(self, meter_id: int, message: dict[str, Any]) -> None:
        held = self.held.get(meter_id)
        if held is None or message["version"] > held["version"]:
            self.held[meter_id] = message
        if self.timer is None:
            self.timer = self.loop.call_at(self.sent_at + self.interval(), self.flush)

    def drop(self, meter_id: int, version: int) -> None:
        """A hit or the like went at once: a held change of the meter no newer is made good."""
        held = self.held.get(meter_id)
        if held is not None and held["version"] <= version:
            del self.held[meter_id]

    def flush(self) -> None:
        """The interval ended: each socket gets one frame of every meter it watches held."""
        self.timer = None
        held, self.held = self.held, {}
        by_socket: dict[Watcher, list[dict[str, Any]]] = {}
        for meter_id in sorted(held):
            message = held[meter_id]
            relay = _relays.get((id(self.loop), meter_id))
            if relay is None or message["version"] <= relay.sent_version:
                continue
            relay.sent_version = message["version"]
            for socket in relay.sockets:
                by_socket.setdefault(socket, []).append(message)
        if not by_socket:
            return
        self.sent_at = self.loop.time()
        messages: dict[tuple[int, ...], dict[str, Any]] = {}
        deliveries = []
        for socket, parts in by_socket.items():
            key = tuple(p["meter"] for p in parts)
            if key not in messages:
                if len(parts) == 1:
                    messages[key] = parts[0]
                else:  # serialised once for every socket watching the same meters
                    text = meters_text([p["text"] for p in parts])
                    messages[key] = {"type": "meter.frame", "text": text, "parts": parts}
            deliveries.append((socket, messages[key]))
        self.handed += len(deliveries)
        task = asyncio.ensure_future(_deliver(deliveries))
        self.flushing.add(task)
        task.add_done_callback(self.flushing.discard)


async def _deliver(deliveries: list[tuple[Watcher, dict[str, Any]]]) -> None:
    for socket, message in deliveries:
        try:
            await socket.meter_frame(message)
        except Exception:  # one socket's trouble is not the others'
            log.warning("could not relay meter frames", exc_info=True)


_displays: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Display] = (
    weakref.WeakKeyDictionary()
)


def display() -> Display:
    """The running loop's display pace."""
    loop = asyncio.get_running_loop()
    found = _displays.get(loop)
    if found is None:
        found = _displays[loop] = Display(loop)
    return found


class Relay:
    """A meter's frames, read once, for the process's sockets that watch it."""

    def __init__(self, meter_id: int) -> None:
        self.meter_id = meter_id
        self.sockets: set[Watcher] = set()
        self.channel: str | None = None
        self.sent_version = -1  # the newest version handed on
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
        """Hand ``message`` on now, or hold it (the meter's newest held) for the display's
        interval."""
        version = message.get("version")
        if not isinstance(version, int):
            await self.hand_on(message)
            return
        if version <= self.sent_version:
            return  # crossed a newer one on the way: each socket keeps the newest only
        pace = display()
        if message.get("cause") not in COALESCED:
            pace.drop(self.meter_id, version)
            await self.hand_on(message)
            return
        if pace.due_now():
            pace.sent_at = pace.loop.time()
            pace.handed += len(self.sockets)
            await self.hand_on(message)
            return
        pace.hold(self.meter_id, message)

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
            display().held.pop(self.meter_id, None)
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
