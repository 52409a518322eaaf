"""Websocket consumers: thin adapters between frames and the services.

Each consumer authenticates (session cookie, via AuthMiddlewareStack), validates every frame
against the pydantic protocol, rate-limits, and calls one service per command through
``database_sync_to_async``. No table state lives here: the database is the truth, and events
arrive through the channel layer after each command commits.

One room past 500 lines: the player's and the dealer's sockets share the connection's life
(admission, rate limits, version ordering, the read pool, superseding tabs); splitting them
would split that one life.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import json
import logging
import os
import time
import weakref
from collections.abc import Callable, Coroutine
from functools import cached_property
from typing import Any, ParamSpec, TypeVar, cast

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import InstanceSessionWrapper
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone

from . import crowd, fastsql, lag, meter_relay, presence, services
from . import snapshot as snapshots
from .broadcast import (
    CONSOLE_VIEW,
    PLAYER_VIEW,
    PRIVATE,
    deliver,
    table_group,
    view_text,
    with_view,
)
from .duties import can_deal
from .layer_watch import layer_epoch
from .models import ProgressiveMeter, Seat, Table
from .protocol import DEALER_ADAPTER, PLAYER_ADAPTER, ProtocolError, parse, ref_of
from .service_pool import ServicePool
from .snapshot import snapshot
from .socket_loop import dispatch_loop

log = logging.getLogger(__name__)

#: Token bucket per connection: sustained frames per second, and the burst allowed.
RATE_PER_SECOND = 10.0
RATE_BURST = 30.0
#: Frames refused for the rate may come so many a second (bursts of so many) before the
#: connection is closed with CLOSE_RATE: a client that ignores "rate_limited" is let go.
REFUSED_PER_SECOND = 3.0
REFUSED_BURST = 30.0
#: Snapshots a connection may ask for (a client asks one when it missed something): more
#: wait for their turn, and asking again while one is on its way counts as a refused frame.
SNAPSHOTS_PER_SECOND = 1.0
SNAPSHOT_BURST = 5.0
#: A connection with no frame from the client for this long is closed (clients ping every 15 s).
IDLE_SECONDS = 120.0
#: How often a socket looks at its idleness, its presence lease and the layer's epoch.
BEAT_SECONDS = 5.0
#: Frames of one table can cross on the way here (published by two processes, or by a
#: consumer and the clock): a socket holds a frame whose predecessor has not come for up to
#: this long (plus the lag, :func:`gap_seconds`); a version that still has not come is given
#: up on, and the socket sends its client a snapshot in its place (:meth:`give_up_gap`).
GAP_SECONDS = 0.5

#: At most this long in all, however late the processes run. Waiting costs nothing while the
#: frame is on its way (it goes out the moment it comes); giving up costs every socket of the
#: table a snapshot read. 5 s was too short past capacity (100 tables on two processes,
#: 2026-11-27: 26 versions given up on, each of which came later).
GAP_MAX_SECONDS = 10.0


def gap_seconds() -> float:
    """How long a socket holds frames for a missing one: GAP_SECONDS, and twice the largest
    lag of the deployment's processes on top (table.lag.deployment): the missing frame was
    published by whichever process ran its command, and one that runs late publishes late
    (its event loop hands the frame to Redis only when it gets round to it); this process,
    late itself, reads every frame late as well. Giving up too soon costs a snapshot for
    every socket of the table."""
    return min(GAP_MAX_SECONDS, GAP_SECONDS + 2 * lag.deployment())


#: A version held for its turn: (this socket's private frame or None, the public frame, this
#: socket's round view or None).
Held = tuple[str | None, str, str | None]


#: Threads that run services for this process's sockets (each holds a database connection).
#: Few: the work is mostly Python holding the GIL, and many threads only share it out slowly
#: (every command in flight finishes late); the rest wait their turn in order.
SERVICE_THREADS = int(os.environ.get("FRENZY_SERVICE_THREADS", "4"))
#: A connection that has just answered skips Django's health check (service_pool.HEALTHY_FOR).
_service_pool = ServicePool(SERVICE_THREADS, "frenzy-service", skip_fresh_check=True)

_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_worker(fn: Callable[_P, _R]) -> Callable[_P, Coroutine[Any, Any, _R]]:
    """Run a service in this process's service pool, not Channels' single shared sync
    thread: commands for different tables then wait on the database side by side. The
    hand-off is table.service_pool's, lean (issue 26), with the guarantees Channels'
    ``database_sync_to_async`` gave."""
    return _service_pool.bind(fn)


_table_queues: dict[tuple[int, int], asyncio.Lock] = {}


def table_queue(table_id: int) -> asyncio.Lock:
    """Commands for one table queue here, in this process, before taking a service thread:
    six players betting at once then wait in the event loop, not by holding six threads on
    the table's database lock while other tables' commands starve."""
    key = (id(asyncio.get_running_loop()), table_id)
    lock = _table_queues.get(key)
    if lock is None:
        lock = _table_queues[key] = asyncio.Lock()
    return lock


#: Per event loop: table -> (version, the spectators' view frame being built or built), so
#: that a table's watchers share one view per version (as they share one snapshot).
_public_views: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[int, tuple[int, asyncio.Future[str]]]
] = weakref.WeakKeyDictionary()


def _build_public_view(table_id: int, version: int) -> str:
    return view_text(version, snapshots.round_view(table_id, None))


async def public_view(table_id: int, version: int) -> str:
    """A spectator's view frame, no older than ``version``: built once (in the read pool) for
    every watcher of the table in this process."""
    loop = asyncio.get_running_loop()
    views = _public_views.get(loop)
    if views is None:
        views = _public_views[loop] = {}
    cached = views.get(table_id)
    if cached is not None and cached[0] >= version and not cached[1].cancelled():
        if not cached[1].done() or cached[1].exception() is None:
            return await asyncio.shield(cached[1])
    built = asyncio.ensure_future(crowd.in_reader(_build_public_view)(table_id, version))
    views[table_id] = (version, built)
    return await asyncio.shield(built)


def table_links(table_id: int) -> tuple[str, list[int]] | None:
    """The table's game and the shared meters linked to it (None: no such table): every
    felt draws from the round view each socket is sent after the table's frames (protocol
    v2, "view"), with the linked meters' frames."""
    game = Table.objects.filter(pk=table_id).values_list("rules__game", flat=True).first()
    if game is None:
        return None
    meters = ProgressiveMeter.objects.filter(tables__id=table_id).order_by("pk")
    return game, list(meters.values_list("pk", flat=True))


CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_SUPERSEDED = 4409
CLOSE_IDLE = 4408
CLOSE_RATE = 4429
#: The ``closing`` frame's codes of a refused handshake (docs/protocol.md; a refused origin
#: is frenzy_site.websocket_origin's ``bad_origin``).
NO_SUCH_TABLE = "no_such_table"
FORBIDDEN = "forbidden"
FORBIDDEN_WORDS = "only a dealer assigned to this table may open its console"


class TokenBucket:
    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


#: What sending on a socket that is already closing raises: Daphne's (autobahn's)
#: "Attempt to send on a closed protocol", or the OSError the ASGI spec asks servers for.
SOCKET_GONE = (Disconnected, OSError)


class FrameConsumer(AsyncWebsocketConsumer):
    """Channels' dispatch first hops to its shared sync thread to close stale database
    connections, for every message, a frame to fan out included. Our consumers touch the
    database only inside services run by ``in_worker``, which tidies connections in its own
    threads; so the hop (most of the event loop's time at a busy table) is skipped."""

    #: The socket is closing (we closed it, or the client did): frames for it are dropped.
    gone = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' ``AsyncConsumer.__call__``, waiting for the next message the lean way
        (table.socket_loop: one task per source for the socket's life, not one per message)."""
        self.scope = scope
        layer = get_channel_layer(self.channel_layer_alias)
        self.channel_layer = layer  # type: ignore[assignment]  # None: no layer, as Channels
        sources = [receive]
        if layer is not None:
            self.channel_name = await layer.new_channel()
            # channels_redis's pub/sub layer proxies each call to this event loop's own layer
            # (a lookup and one more coroutine a message): its receive is taken straight.
            loop_layer = getattr(layer, "_get_layer", None)
            receive_from = (loop_layer() if loop_layer is not None else layer).receive
            self.channel_receive = functools.partial(receive_from, self.channel_name)  # type: ignore[assignment]
            sources.append(self.channel_receive)
        self.base_send = send
        try:
            await dispatch_loop(sources, self.dispatch)
        except StopConsumer:
            pass

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send(  # type: ignore[override]  # the websocket send, as in Channels' own stub
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """A socket stays in its groups until Daphne reports the disconnect, a while after
        the tab closed (or after we closed it and the client did not answer): a frame for it
        then is dropped, not raised ("Exception inside application"), so the consumer lives
        on to its disconnect and cleans up."""
        if self.gone:
            return
        try:
            if text_data is not None and bytes_data is None and not close:
                await self.server_send({"type": "websocket.send", "text": text_data})
            else:
                await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except SOCKET_GONE:
            self.gone = True

    @cached_property
    def server_send(self) -> Any:
        """The server's own send, for a text frame: Channels' session wrapper around it reads
        the session's state on every message to save it on an HTTP response's start only,
        never a websocket's (~2% of a busy table server's CPU, once per frame)."""
        wrapper = getattr(self.base_send, "__self__", None)
        if isinstance(wrapper, InstanceSessionWrapper):
            return wrapper.real_send
        return self.base_send

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        if self.gone:
            return
        self.gone = True
        try:
            await super().close(code=code, reason=reason)
        except SOCKET_GONE:
            pass


class TableConsumer(FrameConsumer):
    """Players and spectators at one table: ``/ws/tables/<id>/``."""

    adapter = PLAYER_ADAPTER
    role = "player"
    #: The felt draws the linked meters' amounts; the dealer's console draws none (a meter
    #: payment's amount comes in the settlement, from the meter's locked row), so it is sent
    #: no meter frames: one socket in seven at a table, frames no one would see (issue 26).
    draws_meters = True

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        # AuthMiddleware's lazy object stands for the User or AnonymousUser it loads.
        self.user = cast("User | AnonymousUser | None", self.scope.get("user"))
        self.bucket = TokenBucket(RATE_PER_SECOND, RATE_BURST)
        self.tolerance = TokenBucket(REFUSED_PER_SECOND, REFUSED_BURST)
        self.snapshot_bucket = TokenBucket(SNAPSHOTS_PER_SECOND, SNAPSHOT_BURST)
        self.snapshot_wait: asyncio.TimerHandle | None = None
        self.admission: crowd.Admission | None = None
        self.last_snapshot: tuple[float, dict[str, Any]] | None = None
        self.last_seen = time.monotonic()
        self.superseded = False
        self.idle_task: asyncio.Task[None] | None = None
        # Version order (see table_frame): nothing goes out before the first snapshot.
        self.next_version: int | None = None
        #: version -> what this socket sends for it (see table_version)
        self.held: dict[int, Held] = {}
        self.gap_timer: asyncio.TimerHandle | None = None
        self.gap_since = 0.0  # when the gap held open now began (monotonic)
        self.resyncing = False  # a snapshot in place of a version given up on is on its way
        self.sending = asyncio.Lock()
        # Protocol v2 (every felt is drawn from views): a round view after the frames, and
        # the linked meters' frames.
        self.view_wanted = self.view_sent = 0
        self.view_task: asyncio.Task[None] | None = None
        self.meter_versions: dict[int, tuple[int, Any]] = {}  # meter -> version, amount sent
        links = await database_sync_to_async(table_links)(self.table_id)
        if links is None:
            await self.refuse(NO_SUCH_TABLE, f"there is no table {self.table_id}", CLOSE_NOT_FOUND)
            return
        self.game, self.meters = links
        self.player_session = await database_sync_to_async(self.login_session)()
        if not await self.allowed():
            await self.refuse(FORBIDDEN, FORBIDDEN_WORDS, CLOSE_FORBIDDEN)
            return
        if not await self.admitted():
            return
        self.layer_epoch = layer_epoch()
        # The table's group only: each version's one message carries every user's private
        # frame and view, and this socket takes its own user's (table_version).
        self.mine = str(self.account.pk) if self.authenticated else None
        self.groups_joined = [table_group(self.table_id)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        # The linked meters' frames come through the process's one relay per meter, to the
        # pages that draw them (:attr:`draws_meters`).
        self.meters_watched: list[int] = []
        for meter in self.meters if self.draws_meters else ():
            await meter_relay.watch(meter, self)
            self.meters_watched.append(meter)
        await self.accept()
        if self.authenticated:
            # One live connection per user per table: the newest takes over.
            await self.channel_layer.group_send(
                self.session_group,
                {"type": "session.takeover", "channel": self.channel_name},
            )
            await self.channel_layer.group_add(self.session_group, self.channel_name)
            await self.mark_connected(True)
            if self.role == "player":
                # Its seats' lease, renewed with the process's other sockets (table.presence;
                # a spectator has no seat and holds none).
                presence.hold(self.channel_name, lambda: self.mark_connected(True))
        await self.send_snapshot()
        self.idle_task = asyncio.create_task(self.watch_idle())

    def login_session(self) -> int | None:
        """The player session of the login this socket came with (table/protection)."""
        session = self.scope.get("session")
        if session is None or not self.authenticated:
            return None
        found = session.get("player_session")
        return int(found) if found else None

    @property
    def authenticated(self) -> bool:
        return bool(self.user is not None and self.user.is_authenticated)

    @property
    def account(self) -> User:
        """The signed-in user: a socket's commands, presence and own groups are a signed-in
        socket's only (each use checks :attr:`authenticated` first)."""
        user = self.user
        assert user is not None and user.is_authenticated
        return user

    @property
    def session_group(self) -> str:
        return f"table.{self.table_id}.session.{self.role}.{self.account.pk}"

    async def refuse(self, code: str, message: str, close_code: int) -> None:
        """A refused handshake, said: accepted, told why in a ``closing`` frame, closed with
        ``close_code`` and ``code`` as the reason. A socket closed before it is accepted shows a
        browser only a failed handshake (no code, no reason), whatever the cause."""
        await self.accept()
        await self.send_json({"type": "closing", "code": code, "message": message})
        await self.close(code=close_code, reason=code)

    async def allowed(self) -> bool:
        return True  # spectators welcome; commands check the seat

    async def admitted(self) -> bool:
        """Watchers (anonymous, or logged in without a seat here) within the caps of
        table.crowd; a seated player always gets in. Over a cap: told why, closed (4429)."""
        if self.authenticated and await crowd.in_reader(self.seated)():
            return True
        watch = lag.current()
        if watch.behind:  # the overload guard (table.lag): seated players come first
            watch.refused_watchers += 1
            await self.accept()
            await self.send_json(
                {"type": "closing", "code": "server_busy", "message": lag.BUSY_WATCHERS}
            )
            await self.close(code=CLOSE_RATE)
            return False
        self.admission, why = await crowd.admit(
            self.table_id, crowd.client_ip(self.scope), not self.authenticated
        )
        if self.admission is not None:
            return True
        await self.accept()
        await self.send_json({"type": "closing", "code": "too_many_connections", "message": why})
        await self.close(code=CLOSE_RATE)
        return False

    def seated(self) -> bool:
        return Seat.objects.filter(table_id=self.table_id, player=self.account).exists()

    async def disconnect(self, code: int) -> None:
        if (admission := getattr(self, "admission", None)) is not None:
            await admission.leave()
        if self.idle_task is not None:
            self.idle_task.cancel()
        if (gap_timer := getattr(self, "gap_timer", None)) is not None:
            gap_timer.cancel()
        if (snapshot_wait := getattr(self, "snapshot_wait", None)) is not None:
            snapshot_wait.cancel()
        if (view_task := getattr(self, "view_task", None)) is not None:
            view_task.cancel()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        for meter in getattr(self, "meters_watched", []):
            await meter_relay.unwatch(meter, self)
        if self.authenticated and hasattr(self, "groups_joined"):
            presence.unhold(self.channel_name)
            await self.channel_layer.group_discard(self.session_group, self.channel_name)
            if not self.superseded:
                await self.mark_connected(False)

    async def watch_idle(self) -> None:
        try:
            while True:
                await asyncio.sleep(BEAT_SECONDS)
                if time.monotonic() - self.last_seen > IDLE_SECONDS:
                    await self.send_json(
                        {
                            "type": "closing",
                            "code": "idle",
                            "message": "closed after 2 minutes without a frame",
                        }
                    )
                    await self.close(code=CLOSE_IDLE)
                    return
                if self.admission is not None:
                    await self.admission.renew()  # its place in the shared watcher counts
                epoch = layer_epoch()
                if epoch != self.layer_epoch:
                    self.layer_epoch = epoch
                    await self.rejoin_groups()
        except asyncio.CancelledError:
            pass

    async def rejoin_groups(self) -> None:
        """Join this socket's groups again (idempotent), when the layer's Redis restarted and
        forgot them (see table.layer_watch). Rejoined, the client sees the next version jump
        and asks for a snapshot."""
        groups = list(getattr(self, "groups_joined", []))
        if self.authenticated and groups:
            groups.append(self.session_group)
        try:
            for group in groups:
                await self.channel_layer.group_add(group, self.channel_name)
            for meter in getattr(self, "meters_watched", []):
                await meter_relay.rejoin(meter)
        except Exception:  # the layer is down: try again on the next beat
            log.warning("could not rejoin the groups of %s", self.channel_name, exc_info=True)

    # --- outbound --------------------------------------------------------------------------

    async def send_json(self, content: dict[str, Any]) -> None:
        await self.send(text_data=fastsql.dumps(content))

    async def send_snapshot(self, ref: str | None = None, at_least: int = 0) -> None:
        """Off the command threads (table.crowd): a spectator's comes from the per-version
        cache; a logged-in viewer asking again at the same version within a second gets the
        one just sent. Never older than what this socket was already sent, nor than
        ``at_least``."""
        at_least = max(at_least, (self.next_version or 1) - 1)
        if not self.authenticated:
            version, text = await crowd.public_snapshot(
                self.table_id, at_least, fresh=self.next_version is None
            )
            text = crowd.with_now(text, ref)
        else:
            last = self.last_snapshot
            # The shared version read may be up to VERSION_TTL old: frames this socket was
            # sent or holds after that snapshot say it is out of date, whatever the read says.
            if last is not None and last[1]["version"] < at_least:
                last = None
            if last is not None and time.monotonic() - last[0] < crowd.REUSE_SECONDS:
                if await crowd.table_version(self.table_id) != last[1]["version"]:
                    last = None
            else:
                last = None
            if last is None:
                fresh = await crowd.in_reader(snapshot)(self.table_id, self.user)
                self.last_snapshot = last = (time.monotonic(), fresh)
            snap = {**last[1], "now": int(time.time() * 1000)}
            if ref is not None:
                snap["ref"] = ref
            version, text = snap["version"], json.dumps(snap, separators=(",", ":"))
        async with self.sending:
            await self.send(text_data=text)
            self.view_sent = max(self.view_sent, version)  # the snapshot's round is the view
            # Frames up to the snapshot's version are in it; later ones follow it, in order.
            self.next_version = max(self.next_version or 0, version + 1)
            for version in [v for v in self.held if v < self.next_version]:
                del self.held[version]
            await self.release()

    async def table_frame(self, message: dict[str, Any]) -> None:
        """A frame outside the table's versions (presence): sent as it comes."""
        await self.send(text_data=message["text"])

    async def table_version(self, message: dict[str, Any]) -> None:
        """A version's one message (table.broadcast.version_message): this socket takes the
        public frame, its own user's private frame, if any, and the round view meant for it
        (a spectator's: the spectators'; a seated player's: their own; a console's: the
        console's). Nothing of another user's entry is ever sent. Versions go out in order:
        they almost always come in order and go straight out; one that comes early waits
        (at most :func:`gap_seconds`) for the ones before it."""
        version = message["version"]
        own = message["mine"].get(self.mine) if self.mine is not None else None
        view: str | None = None
        if self.mine is None:
            view = message.get("view")
        elif own is not None:
            view = own[CONSOLE_VIEW if self.role == "dealer" else PLAYER_VIEW]
        async with self.sending:
            if self.next_version is not None and version < self.next_version:
                return  # already in the snapshot this socket was sent
            self.held[version] = (own[PRIVATE] if own is not None else None, message["text"], view)
            await self.release()

    async def release(self) -> None:
        """Send every held version that is next in line. The newest round view that came
        with them rides in its own version's public frame (:func:`table.broadcast.with_view`):
        one websocket message where there were two, each of which costs the server as much
        to send whatever it holds (issue 26); the client takes it after the frame's events,
        as if it came alone. The older views of a burst are never sent (the felt draws the
        newest)."""
        if self.next_version is None:
            return
        burst: list[tuple[int, Held]] = []
        while (held := self.held.pop(self.next_version, None)) is not None:
            burst.append((self.next_version, held))
            self.next_version += 1
        carrier = max((version for version, held in burst if held[2] is not None), default=0)
        for version, (private, public, view) in burst:
            if private is not None:
                await self.send(text_data=private)
            if version == carrier and view is not None and version > self.view_sent:
                self.view_sent = version
                await self.send(text_data=with_view(public, view))
                continue
            await self.send(text_data=public)
            if view is None:
                self.view_due(version)
        # A gap: a later version came before the next one.
        gap = any(version > self.next_version for version in self.held)
        if gap and self.gap_timer is None and not self.resyncing:
            self.gap_since = time.monotonic()
            self.hold_gap(gap_seconds())
        elif not gap and self.gap_timer is not None:
            self.gap_timer.cancel()
            self.gap_timer = None

    def hold_gap(self, seconds: float) -> None:
        self.gap_timer = asyncio.get_running_loop().call_later(
            seconds, lambda: asyncio.ensure_future(self.give_up_gap())
        )

    async def give_up_gap(self) -> None:
        """A version has not come for :func:`gap_seconds`. If the deployment's lag has grown
        meanwhile, wait as long as it now calls for. Else it is not coming (a process died
        between commit and publish, or the layer lost it): the client gets a snapshot in its
        place, at least as new as every version held; the held versions it covers are
        dropped and the later ones follow it. Versions never go out of order or with one
        missing (a straggler that comes after the snapshot is in it: table_version drops it)."""
        async with self.sending:
            self.gap_timer = None
            if self.next_version is None or not self.held or self.resyncing:
                return
            newest = max(self.held)
            if newest <= self.next_version:
                return  # no gap any more
            more = gap_seconds() - (time.monotonic() - self.gap_since)
            if more > 0.05:
                self.hold_gap(more)
                return
            self.resyncing = True
        log.warning(
            "table %s: version %s never came within %.1f s; a snapshot in its place",
            self.table_id,
            self.next_version,
            time.monotonic() - self.gap_since,
        )
        try:
            await self.send_snapshot(at_least=newest)
        finally:
            self.resyncing = False
        async with self.sending:
            await self.release()  # a gap beyond the snapshot is held open again

    # --- protocol v2: the round view and the meters ----------------------------------------

    def view_due(self, version: int) -> None:
        """A version went out with no view for this socket (a dealer's console, a logged-in
        watcher, or a command that sent none): one is built in the read pool, never the
        command threads. Views coalesce: a burst of frames is followed by one or two views,
        the last one as new as the last frame."""
        self.view_wanted = max(self.view_wanted, version)
        if self.view_task is None or self.view_task.done():
            self.view_task = asyncio.ensure_future(self.send_views())

    async def send_views(self) -> None:
        while self.view_sent < self.view_wanted and not self.gone:
            version = self.view_wanted
            try:
                if self.authenticated:
                    mine = await crowd.in_reader(snapshots.round_view)(self.table_id, self.user)
                    text = view_text(version, mine)
                else:
                    text = await public_view(self.table_id, version)
            except asyncio.CancelledError:
                raise
            except Exception:  # the client's next snapshot has the round as well
                log.warning(
                    "could not build the round view of table %s", self.table_id, exc_info=True
                )
                return
            if version <= self.view_sent:
                continue  # a newer view came with the frames meanwhile
            self.view_sent = version
            await self.send(text_data=text)

    async def meter_frame(self, message: dict[str, Any]) -> None:
        """Linked meters changed (table.meters publishes after commit; the process's relay
        paces them): forwarded as they are, the newest only (frames of one meter can cross
        between processes), none that leaves this socket's amount as it was."""
        text = meter_relay.fresh_text(message, self.meter_versions)
        if text is not None:
            await self.send(text_data=text)

    async def snapshot_requested(self, ref: str | None) -> None:
        """At most SNAPSHOTS_PER_SECOND (bursts of SNAPSHOT_BURST); one more waits its turn
        (a client asks again only once it has its snapshot), any beyond that is refused."""
        if self.snapshot_wait is not None:
            if not self.tolerance.take():
                await self.close_rate_limited()
            return
        if self.snapshot_bucket.take():
            await self.send_snapshot(ref)
            return
        delay = (1 - self.snapshot_bucket.tokens) / self.snapshot_bucket.rate

        def due() -> None:
            self.snapshot_wait = None
            self.snapshot_bucket.take()
            asyncio.ensure_future(self.send_snapshot(ref))

        self.snapshot_wait = asyncio.get_running_loop().call_later(delay, due)

    async def close_rate_limited(self) -> None:
        await self.send_json(
            {
                "type": "closing",
                "code": "rate_limited",
                "message": "closed: far too many frames; reconnect later",
            }
        )
        await self.close(code=CLOSE_RATE)

    async def session_takeover(self, message: dict[str, Any]) -> None:
        if message["channel"] == self.channel_name:
            return
        self.superseded = True
        await self.send_json(
            {
                "type": "superseded",
                "code": "second_connection",
                "message": "this table was opened in another tab or window; this one is closed",
            }
        )
        await self.close(code=CLOSE_SUPERSEDED)

    async def error(self, code: str, message: str, ref: str | None = None) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, "ref": ref})

    # --- inbound ---------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # When the frame reached the socket, before any queue: a bet or a decision is judged
        # against its deadline by this (services.context.made_at), not by when a busy server
        # got round to it.
        received = timezone.now()
        self.last_seen = time.monotonic()
        if not self.bucket.take():
            if not self.tolerance.take():
                await self.close_rate_limited()
                return
            await self.error("rate_limited", "too many frames: slow down", ref_of(text_data))
            return
        try:
            command = parse(self.adapter, text_data, bytes_data)
        except ProtocolError as exc:
            await self.error(exc.code, exc.message, exc.ref)
            return
        if command.cmd == "ping":
            # The table's version rides on the pong, so a client that missed a frame
            # notices within one ping even when the table is quiet.
            version = await crowd.table_version(self.table_id)  # shared, off the commands
            await self.send_json(
                {
                    "type": "pong",
                    "t": command.t,
                    "ref": command.ref,
                    "server": int(time.time() * 1000),
                    "version": version,
                }
            )
            return
        if command.cmd == "snapshot":
            await self.snapshot_requested(command.ref)
            return
        if not self.authenticated:
            await self.error("login_required", "log in to play", command.ref)
            return
        watch = lag.current()
        if command.cmd == "sit" and watch.behind:  # the overload guard (table.lag)
            watch.refused_seats += 1
            await self.error("server_busy", lag.BUSY_SEATS, command.ref)
            return
        try:
            async with table_queue(self.table_id):
                queued = time.monotonic()
                result = await in_worker(self.run_timed)(command, received, queued, watch)
                if result.publication is not None:
                    # From the event loop, before the table's next command: in order.
                    await deliver(result.publication)
                    lag.note_publish(watch, time.monotonic() - result.publication.committed)
        except services.ServiceError as exc:
            await self.error(exc.code, exc.message, command.ref)
            return
        except Exception:  # never a crash trace to the client
            log.exception("command %s failed", command.cmd)
            await self.error(
                "server_error", "the server could not do that; nothing changed", command.ref
            )
            return
        if command.cmd == "sit" and not result.replayed:
            await self.mark_connected(True)  # the new seat's presence lease is this socket's
            if self.admission is not None:
                # Seated now, no longer a watcher: its place under the watcher caps (and the
                # Redis renewal of it with every beat) goes back.
                admission, self.admission = self.admission, None
                await admission.leave()
        await self.send_json(
            {
                "type": "ok",
                "cmd": command.cmd,
                "ref": command.ref,
                "version": result.version,
                "replayed": result.replayed,
                "result": result.response,
            }
        )

    def run_timed(
        self, command: Any, received: dt.datetime, queued: float, watch: lag.Lag
    ) -> services.Result:
        """:meth:`run` in a service thread, noting how long the command waited for it."""
        lag.note_wait(watch, time.monotonic() - queued)
        return self.run(command, received)

    def run(self, command: Any, received: dt.datetime | None = None) -> services.Result:
        kw: dict[str, Any] = {
            "key": command.key,
            "expected_version": command.version,
            "publish": False,
            # The login's player session (§812a.9(a)(5)): kept with the command, checked
            # by player protection (idle lock, reality check) in its transaction.
            "session": self.player_session,
        }
        t, user = self.table_id, self.account
        # A player's moves are judged against the clock by when they reached the socket.
        timed = {**kw, "received": received}
        match command.cmd:
            case "sit":
                return services.sit(t, user, command.box, **kw)
            case "stand":
                return services.stand(t, user, command.box, **kw)
            case "more_time":
                return services.more_time(t, user, command.box, **timed)
            case "leave":
                return services.leave(t, user, **kw)
            case "act":
                # Protocol v2: the game checks the move against its rules (Game.apply).
                return services.act(t, user, command.move, command.box, command.args, **timed)
        raise services.ServiceError("unknown_command", f"unknown command {command.cmd!r}")

    def current_version(self) -> int | None:
        return Table.objects.filter(pk=self.table_id).values_list("version", flat=True).first()

    async def mark_connected(self, connected: bool) -> None:
        """Presence (table.presence): here now (and the lease renewed); or, once the socket
        closed, gone after DEBOUNCE_SECONDS unless another socket of theirs came back.
        A spectator (no account) holds no seat and no lease: nothing to mark."""
        if not self.authenticated:
            return
        if not connected:
            asyncio.get_running_loop().call_later(
                presence.DEBOUNCE_SECONDS, lambda: asyncio.ensure_future(self.let_go())
            )
            return
        try:
            change = await database_sync_to_async(presence.claim)(
                self.table_id, self.account, self.channel_name
            )
            await presence.announce(self.table_id, change)
        except Exception:  # the lease runs out by itself if this keeps failing
            log.warning("could not mark %s here", self.user, exc_info=True)

    async def let_go(self) -> None:
        try:
            change = await database_sync_to_async(presence.release)(
                self.table_id, self.account, self.channel_name
            )
            await presence.announce(self.table_id, change)
        except Exception:  # the lease runs out by itself
            log.warning("could not mark %s gone", self.user, exc_info=True)


class DealerConsumer(TableConsumer):
    """The dealer console: ``/ws/tables/<id>/dealer/``, for the dealers assigned to this table
    only (each command checks the assignment again, in its service)."""

    adapter = DEALER_ADAPTER
    role = "dealer"
    draws_meters = False

    async def allowed(self) -> bool:
        return self.authenticated and await database_sync_to_async(can_deal)(
            self.user, self.table_id
        )

    async def admitted(self) -> bool:
        return True  # the dealer is no watcher: never capped

    @database_sync_to_async
    def mark_connected(self, connected: bool) -> None:
        return None

    def run(self, command: Any, received: dt.datetime | None = None) -> services.Result:
        kw = {"key": command.key, "expected_version": command.version, "publish": False}
        t, dealer = self.table_id, self.account
        simple = {
            "open_betting": services.open_betting,
            "no_more_bets": services.no_more_bets,
            "deal": services.deal,
            "reveal": services.reveal,
            "settle": services.settle,
            "dealer_card_exposed": services.dealer_card_exposed,
            "change_decks": services.change_decks,
            "count_stub": services.count_stub,
            "open_table": services.open_table,
            "close_table": services.close_table,
            "take_over": services.take_over,
            "hand_back": services.hand_back,
        }
        if command.cmd in simple:
            return simple[command.cmd](t, dealer, **kw)
        if command.cmd == "time_out":
            return services.time_out(t, dealer, **kw)
        if command.cmd == "void":
            evidence = dict(command.evidence) or None
            return services.void_round(t, command.reason, dealer, evidence, **kw)
        if command.cmd == "arm_fault":
            return services.arm_fault(t, command.fault, dealer, **kw)
        raise services.ServiceError("unknown_command", f"unknown command {command.cmd!r}")


class BroadcastBaseline(FrameConsumer):
    """The load benchmark's baseline: a bare ``group_send`` fan-out, no database, no rules.

    Routed only when ``FRENZY_BENCH_ROUTES`` is set (bench_load starts such a Daphne)."""

    async def connect(self) -> None:
        self.group = f"bench.{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(
            self.group, {"type": "bench.frame", "text": text_data or ""}
        )

    async def bench_frame(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])
