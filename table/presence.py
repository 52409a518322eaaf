"""Whether a seated player is at the table: a lease, not a round event.

Presence changes often (a tab reloads, a phone changes network) and says nothing about the
game, so it stays out of the hash-chained event log and never moves the table's version.
Each seated player's socket holds a lease on their seats (``Seat.presence_until``) and
renews it every RENEW_SECONDS; a socket that closes gives it up only after DEBOUNCE_SECONDS
(a reconnect within that time changes nothing and tells nobody). A socket whose process died
(``kill -9``) renews nothing: its lease runs out by itself after LEASE_SECONDS and the clock
(table.autodealer) marks the player gone, whichever process held the socket. The grace
period of §684a.7(b) (services.GRACE_SECONDS) then runs from that moment.

Changes go out as a ``presence`` frame (docs/protocol.md) outside the version sequence.

A process renews the leases of all its sockets together (:func:`hold`, :func:`renew`): one
UPDATE every RENEW_SECONDS for every seat it serves, not a read and a write per socket (at
100 tables that was ~10% of a process's CPU); a socket whose seats it no longer holds (the
clock marked them gone, or it has none) claims them again on its own (:func:`claim`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from .broadcast import table_group
from .models import Seat

log = logging.getLogger(__name__)

#: A lease lasts this long; its socket renews it every RENEW_SECONDS.
LEASE_SECONDS = 30.0
RENEW_SECONDS = 10.0
#: A closed socket's player counts as gone only if no socket of theirs came back by then.
DEBOUNCE_SECONDS = 3.0

Change = dict[str, Any]  # the data of a "connection" notice: player, connected, boxes


def _change(name: str, connected: bool, boxes: list[int]) -> Change:
    return {"player": name, "connected": connected, "boxes": sorted(boxes)}


def is_present(seat: Seat, now: dt.datetime | None = None) -> bool:
    """A seat's player is here: connected, and its lease (if it ever had one) runs."""
    if not seat.connected:
        return False
    return seat.presence_until is None or seat.presence_until > (now or timezone.now())


def present_filter(now: dt.datetime) -> Q:
    return Q(connected=True) & (Q(presence_until__isnull=True) | Q(presence_until__gt=now))


def claim(table_id: int, user: User, socket: str) -> Change | None:
    """This socket holds the player's seats at this table (on connect, after sitting, and
    every RENEW_SECONDS). Returns the change to announce if they had counted as gone."""
    now = timezone.now()
    seats = list(Seat.objects.filter(table_id=table_id, player=user))
    if not seats:
        return None
    was_present = all(is_present(s, now) for s in seats)
    Seat.objects.filter(table_id=table_id, player=user).update(
        connected=True,
        disconnected_at=None,
        presence_until=now + dt.timedelta(seconds=LEASE_SECONDS),
        presence_socket=socket,
    )
    if was_present:
        return None
    return _change(user.get_username(), True, [s.box for s in seats])


def renew(sockets: list[str]) -> set[str]:
    """The leases of every seat these sockets hold and that still counts as here, renewed in
    one UPDATE; the sockets renewed. The others claim on their own (:func:`claim`: they may
    have counted as gone, and their return is told)."""
    if not sockets:
        return set()
    until = timezone.now() + dt.timedelta(seconds=LEASE_SECONDS)
    held = Seat.objects.filter(connected=True, presence_socket__in=sockets)
    if not held.update(presence_until=until):
        return set()
    return set(
        Seat.objects.filter(presence_socket__in=sockets, presence_until=until).values_list(
            "presence_socket", flat=True
        )
    )


#: Per event loop: socket (channel name) -> how it claims its seats on its own.
_holders: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[str, Callable[[], Awaitable[None]]]
] = weakref.WeakKeyDictionary()


def hold(socket: str, claim_again: Callable[[], Awaitable[None]]) -> None:
    """This process's socket ``socket`` holds a lease from now on: renewed with the others
    every RENEW_SECONDS, or by ``claim_again`` when the batch did not find it holding one."""
    loop = asyncio.get_running_loop()
    holders = _holders.get(loop)
    if holders is None:
        holders = _holders[loop] = {}
        loop.create_task(_renew_every(holders))
    holders[socket] = claim_again


def unhold(socket: str) -> None:
    holders = _holders.get(asyncio.get_running_loop())
    if holders is not None:
        holders.pop(socket, None)


async def _renew_every(holders: dict[str, Callable[[], Awaitable[None]]]) -> None:
    from channels.db import database_sync_to_async

    while True:
        await asyncio.sleep(max(RENEW_SECONDS, 0.05))
        sockets = list(holders)
        try:
            renewed = await database_sync_to_async(renew)(sockets)
        except Exception:  # each lease runs out by itself if this keeps failing
            log.warning("could not renew %d presence leases", len(sockets), exc_info=True)
            continue
        for socket in sockets:
            claim_again = holders.get(socket)
            if socket not in renewed and claim_again is not None:
                await claim_again()


def release(table_id: int, user: User, socket: str) -> Change | None:
    """The socket closed DEBOUNCE_SECONDS ago: the player is gone unless another socket of
    theirs has claimed the seats since (then nothing changes and nobody is told)."""
    now = timezone.now()
    mine = Seat.objects.filter(table_id=table_id, player=user, presence_socket=socket)
    boxes = list(mine.filter(connected=True).values_list("box", flat=True))
    if not boxes:
        return None
    changed = mine.filter(connected=True).update(
        connected=False, disconnected_at=now, presence_until=now, presence_socket=""
    )
    if not changed:
        return None
    return _change(user.get_username(), False, boxes)


def expire(table_id: int) -> list[Change]:
    """Mark gone every player whose lease ran out (their socket's process died, or its
    network did): the grace period starts when the lease ended."""
    now = timezone.now()
    lapsed = list(
        Seat.objects.filter(table_id=table_id, connected=True, presence_until__lte=now)
        .select_related("player")
        .order_by("box")
    )
    by_player: dict[str, list[int]] = {}
    for seat in lapsed:
        done = Seat.objects.filter(
            pk=seat.pk, connected=True, presence_until=seat.presence_until
        ).update(connected=False, disconnected_at=seat.presence_until, presence_socket="")
        if done:
            by_player.setdefault(seat.player.get_username(), []).append(seat.box)
    return [_change(name, False, boxes) for name, boxes in by_player.items()]


def frame_message(table_id: int, change: Change) -> dict[str, Any]:
    """A ``presence`` frame for the table's group: no version (it is not a table change),
    so each socket sends it at once (TableConsumer.table_frame)."""
    frame = {
        "type": "presence",
        "table": table_id,
        "events": [{"kind": "connection", "data": change}],
    }
    return {"type": "table.frame", "text": json.dumps(frame, separators=(",", ":"))}


async def announce(table_id: int, change: Change | None) -> None:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if change is None or layer is None:
        return
    await layer.group_send(table_group(table_id), frame_message(table_id, change))


def announce_sync(table_id: int, change: Change | None) -> None:
    """From synchronous code (the clock)."""
    from asgiref.sync import async_to_sync

    if change is not None:
        async_to_sync(announce)(table_id, change)
