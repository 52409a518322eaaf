"""A process's progressive meter frames, coalesced before they reach the channel layer (issue 26).

A command that moves a linked meter (every wager on a progressive, at "no more bets"; a
reversal at a void) publishes the meter's frame after its commit. Each such publish went to
Redis and came back once to every process with a socket watching the meter, where the
relay (``table.meter_relay``) held all but one a socket per ``METER_FRAME_INTERVAL``: most
of that traffic was thrown away at the receiving end. And the publish waited, in the
command's service thread, for the event loop to hand it to Redis: a thread held for a loop's
turn that the next command was waiting for.

Here the service thread hands the frame to its process's event loop and goes on; the loop
publishes at most one frame of a meter per ``METER_PUBLISH_INTERVAL`` (0.25 s):
a change after a quiet interval goes at once, the increments and reversals that come within
the interval after it are held, and the newest of them goes when it ends (each frame carries
the meter's whole amount, so the newest makes the older ones good); a hit, a reset, a seed or
a link names what happened and goes at once, never held. A frame published from outside a
running event loop (the admin, a management command, the clock's own thread, a test's
synchronous code) goes at once, as before.

The relay paces what it receives, from every process, to one frame a socket per
``METER_FRAME_INTERVAL`` (1 s). The outbox holds for a shorter time: held for the whole
display interval here too, a change published at the end of one interval reached the relay
just after its own interval ended and waited another, so a socket saw it up to two intervals
late with one process; now at most ``METER_PUBLISH_INTERVAL`` plus one display interval. What
the outbox still saves is Redis messages and the service thread's wait.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from typing import Any

from asgiref.sync import SyncToAsync
from channels.layers import get_channel_layer
from django.conf import settings

log = logging.getLogger(__name__)

#: The causes whose frames coalesce (as the relay's): each only moves the amount.
COALESCED = frozenset({"increment", "reversal"})


class _Meter:
    """One meter's frames leaving this process: when the last went, and the newest held."""

    def __init__(self) -> None:
        self.sent_at = -float("inf")
        self.sent_version = -1
        self.held: dict[str, Any] | None = None
        self.timer: asyncio.TimerHandle | None = None


class Outbox:
    """The meter frames of one event loop's process, on their way to the layer."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.interval = float(settings.METER_PUBLISH_INTERVAL)
        self.meters: dict[int, _Meter] = {}
        self.sending: set[asyncio.Future[None]] = set()
        #: Frames handed to the layer (for the figures and the tests).
        self.published = 0

    def offer(self, frame: dict[str, Any]) -> None:
        """A committed change's frame: published now, or held until the interval ends."""
        meter = self.meters.setdefault(frame["meter"], _Meter())
        version = frame["version"]
        if version <= meter.sent_version:
            return  # a newer frame of the meter went already (threads hand them in any order)
        now = self.loop.time()
        if frame.get("cause") not in COALESCED or (
            meter.held is None and now - meter.sent_at >= self.interval
        ):
            if meter.held is not None and meter.held["version"] <= version:
                self._drop(meter)
            self._publish(meter, frame, now)
            return
        if meter.held is None or version > meter.held["version"]:
            meter.held = frame
        if meter.timer is None:
            meter.timer = self.loop.call_at(meter.sent_at + self.interval, self._flush, meter)

    def _drop(self, meter: _Meter) -> None:
        meter.held = None
        if meter.timer is not None:
            meter.timer.cancel()
            meter.timer = None

    def _flush(self, meter: _Meter) -> None:
        meter.timer = None
        frame, meter.held = meter.held, None
        if frame is not None and frame["version"] > meter.sent_version:
            self._publish(meter, frame, self.loop.time())

    def _publish(self, meter: _Meter, frame: dict[str, Any], now: float) -> None:
        meter.sent_at = now
        meter.sent_version = max(meter.sent_version, frame["version"])
        self.published += 1
        task = asyncio.ensure_future(_send(frame), loop=self.loop)
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)


async def _send(frame: dict[str, Any]) -> None:
    from .meters import frame_message, meter_group

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(meter_group(frame["meter"]), frame_message(frame))
    except Exception:  # a lost frame is made good by the next one (it carries the amount)
        log.exception("could not publish version %s of meter %s", frame["version"], frame["meter"])


_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Outbox] = (
    weakref.WeakKeyDictionary()
)


def outbox(loop: asyncio.AbstractEventLoop) -> Outbox:
    box = _outboxes.get(loop)
    if box is None:
        box = _outboxes[loop] = Outbox(loop)
    return box


def _loop_of_this_thread() -> asyncio.AbstractEventLoop | None:
    """The event loop this code runs for: its own thread's, or, in a thread running a
    service for it (``sync_to_async``), the loop that called it; None outside both."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        pass
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop: asyncio.AbstractEventLoop | None = getattr(
        SyncToAsync.threadlocal, "main_event_loop", None
    )
    return loop


def offer(frame: dict[str, Any]) -> bool:
    """Hand a committed meter frame to this process's outbox without waiting; False when
    there is no running event loop to take it (the caller publishes it itself)."""
    loop = _loop_of_this_thread()
    if loop is None or loop.is_closed() or not loop.is_running():
        return False
    try:
        loop.call_soon_threadsafe(lambda: outbox(loop).offer(frame))
    except RuntimeError:  # the loop closed meanwhile
        return False
    return True
