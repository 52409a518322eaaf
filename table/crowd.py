"""Keep one visitor from slowing every table: caps on watchers, and cheap reads.

The 4 service threads (consumers.SERVICE_THREADS) run the game's commands. Snapshots and
pings used to queue for the same threads, so 30 anonymous sockets asking for snapshots
within their own rate limits made every seated player's bet wait behind them. Here:

- reads (snapshots, the table's version for a pong) run in their own small thread pool,
  never in the command threads;
- the table's version is read at most once per VERSION_TTL per table and process, however
  many sockets ping;
- a spectator's snapshot (no private part) is built once per table version and process,
  serialised once, and sent to every spectator who asks;
- anonymous sockets are capped per client IP (open at once, and new ones per second), and
  watchers (anonymous, or logged in without a seat) per table; a socket over a cap is told
  why and closed with 4429, and the client reconnects later with its backoff.

Without Redis (one process) the caps are counted in the process. With Redis configured
(``REDIS_URL``: several Daphne processes serve one table) the watchers per table and the open
anonymous sockets per address are counted in Redis, so they hold across processes: each open
socket is a member of a sorted set scored by when its place lapses (WATCH_LEASE_SECONDS,
renewed by the socket's beat), so the places of a process killed with ``kill -9`` free up by
themselves. Should Redis not answer, the process falls back to its own counts (logged).
The new-connection rate per address stays per process (a bucket per process and address).
Settings via environment variables, below. Behind a reverse proxy run Daphne with
``--proxy-headers`` so the client's address is the visitor's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import time
import weakref
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from django.conf import settings

from .models import Table
from .service_pool import ServicePool
from .snapshot import snapshot

log = logging.getLogger(__name__)

#: Anonymous sockets one client address may hold open at once (across processes on Redis).
ANONYMOUS_PER_IP = int(os.environ.get("FRENZY_ANONYMOUS_PER_IP", "8"))
#: New anonymous sockets per client address: a burst, then so many a second.
CONNECTS_BURST = float(os.environ.get("FRENZY_CONNECTS_BURST", "10"))
CONNECTS_PER_SECOND = float(os.environ.get("FRENZY_CONNECTS_PER_SECOND", "1"))
#: Watchers (anonymous, or logged in without a seat) per table (across processes on Redis).
WATCHERS_PER_TABLE = int(os.environ.get("FRENZY_WATCHERS_PER_TABLE", "200"))
#: A pong's table version is at most this old.
VERSION_TTL = 0.5
#: A logged-in socket asking again for a snapshot at the same version within this long gets
#: the one it was just sent (its balance could have moved at another table meanwhile).
REUSE_SECONDS = 1.0

#: On Redis, a socket's place lapses this long after its socket's last renewal (its beat
#: renews it every WATCH_RENEW_SECONDS): the places of a killed process free up by themselves.
WATCH_LEASE_SECONDS = 30.0
WATCH_RENEW_SECONDS = 10.0

READ_THREADS = int(os.environ.get("FRENZY_READ_THREADS", "2"))
_read_pool = ServicePool(READ_THREADS, "frenzy-read")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def in_reader(fn: Callable[_P, _R]) -> Callable[_P, Coroutine[Any, Any, _R]]:
    """Run a read in the read pool: never queued behind (or ahead of) a game command."""
    return _read_pool.bind(fn)


class Bucket:
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


@dataclass
class _Loop:
    """What one process (event loop) knows: open watchers, versions, spectator snapshots."""

    anonymous: dict[str, int] = field(default_factory=dict)  # ip -> open anonymous sockets
    connects: dict[str, Bucket] = field(default_factory=dict)  # ip -> new-socket bucket
    watchers: dict[int, int] = field(default_factory=dict)  # table -> open watchers
    versions: dict[int, tuple[float, int | None]] = field(default_factory=dict)
    version_reads: dict[int, asyncio.Future[int | None]] = field(default_factory=dict)
    snapshots: dict[int, tuple[int, str]] = field(default_factory=dict)  # table -> (v, text)
    snapshot_builds: dict[int, asyncio.Future[tuple[int, str]]] = field(default_factory=dict)
    redis: Any = None  # this loop's client of the shared counts (a client belongs to its loop)


#: Per event loop (a test's loop goes away with its state; an id could be reused).
_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Loop] = weakref.WeakKeyDictionary()


def _here() -> _Loop:
    loop = asyncio.get_running_loop()
    state = _loops.get(loop)
    if state is None:
        state = _loops[loop] = _Loop()
    return state


def client_ip(scope: Mapping[str, Any]) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


# Atomically: drop lapsed places, refuse over a cap, else take a place (a member scored by
# when it lapses) in the table's set and, for an anonymous socket, in its address's set.
_ADMIT = """
local now, lapse = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 1 end
if #KEYS == 2 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 2 end
  redis.call('ZADD', KEYS[2], lapse, ARGV[5])
  redis.call('EXPIRE', KEYS[2], math.ceil(lapse - now))
end
redis.call('ZADD', KEYS[1], lapse, ARGV[5])
redis.call('EXPIRE', KEYS[1], math.ceil(lapse - now))
return 0
"""

TABLE_FULL = "this table has as many watchers as it can take: try again shortly"
ADDRESS_FULL = "too many open connections from your address"


def _shared(state: _Loop) -> Any:
    """This loop's Redis client for the shared counts, or None without Redis."""
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    if state.redis is None:
        import redis.asyncio as redis

        state.redis = redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return state.redis


def _keys(table_id: int, ip: str | None) -> list[str]:
    prefix = f"{settings.CHANNELS_PREFIX}:crowd"
    keys = [f"{prefix}:table:{table_id}"]
    if ip is not None:
        keys.append(f"{prefix}:ip:{ip}")
    return keys


class Admission:
    """One watcher socket's place under the caps; ``leave`` gives it back (idempotent).
    ``member``: its name in the shared counts (None: counted in this process only)."""

    def __init__(self, table_id: int, ip: str | None, member: str | None = None) -> None:
        self.table_id, self.ip, self.member = table_id, ip, member
        self.left = False
        self.renewed = time.monotonic()

    async def renew(self) -> None:
        """Keep a shared place from lapsing (from the socket's beat, every so often)."""
        if self.member is None or self.left:
            return
        if time.monotonic() - self.renewed < WATCH_RENEW_SECONDS:
            return
        self.renewed = time.monotonic()
        client = _shared(_here())
        lapse = time.time() + WATCH_LEASE_SECONDS
        try:
            for key in _keys(self.table_id, self.ip):
                await client.zadd(key, {self.member: lapse}, xx=True)
        except Exception:  # it lapses, and the socket is counted a little less long
            log.warning("could not renew a watcher's place in Redis", exc_info=True)

    async def leave(self) -> None:
        if self.left:
            return
        self.left = True
        if self.member is not None:
            try:
                for key in _keys(self.table_id, self.ip):
                    await _shared(_here()).zrem(key, self.member)
            except Exception:  # the place lapses by itself
                log.warning("could not give back a watcher's place in Redis", exc_info=True)
            return
        state = _here()
        state.watchers[self.table_id] = max(0, state.watchers.get(self.table_id, 1) - 1)
        if self.ip is not None:
            left = state.anonymous.get(self.ip, 1) - 1
            if left > 0:
                state.anonymous[self.ip] = left
            else:
                state.anonymous.pop(self.ip, None)


async def admit(table_id: int, ip: str, anonymous: bool) -> tuple[Admission | None, str]:
    """A place for a new watcher socket, or (None, why not)."""
    state = _here()
    if anonymous:
        bucket = state.connects.get(ip)
        if bucket is None:
            if len(state.connects) > 10_000:  # forget idle addresses now and then
                state.connects.clear()
            bucket = state.connects[ip] = Bucket(CONNECTS_PER_SECOND, CONNECTS_BURST)
        if not bucket.take():
            return None, "too many new connections from your address: try again shortly"
    client = _shared(state)
    if client is not None:
        member = secrets.token_hex(8)
        now = time.time()
        try:
            refused = await client.eval(
                _ADMIT,
                2 if anonymous else 1,
                *_keys(table_id, ip if anonymous else None),
                now,
                now + WATCH_LEASE_SECONDS,
                WATCHERS_PER_TABLE,
                ANONYMOUS_PER_IP,
                member,
            )
        except Exception:
            log.warning("Redis did not answer: watchers counted in this process", exc_info=True)
        else:
            if int(refused) == 1:
                return None, TABLE_FULL
            if int(refused) == 2:
                return None, ADDRESS_FULL
            return Admission(table_id, ip if anonymous else None, member), ""
    if anonymous and state.anonymous.get(ip, 0) >= ANONYMOUS_PER_IP:
        return None, ADDRESS_FULL
    if state.watchers.get(table_id, 0) >= WATCHERS_PER_TABLE:
        return None, TABLE_FULL
    state.watchers[table_id] = state.watchers.get(table_id, 0) + 1
    if anonymous:
        state.anonymous[ip] = state.anonymous.get(ip, 0) + 1
    return Admission(table_id, ip if anonymous else None), ""


def _read_version(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


async def table_version(table_id: int, fresh: bool = False) -> int | None:
    """The table's version, read at most once per VERSION_TTL here, however many ask
    (``fresh``: read now, e.g. for a socket that just joined the table's group)."""
    state = _here()
    cached = state.versions.get(table_id)
    now = time.monotonic()
    if fresh:
        version = await in_reader(_read_version)(table_id)
        state.versions[table_id] = (now, version)
        return version
    if cached is not None and now - cached[0] < VERSION_TTL:
        return cached[1]
    pending = state.version_reads.get(table_id)
    if pending is None:
        pending = asyncio.ensure_future(in_reader(_read_version)(table_id))
        state.version_reads[table_id] = pending
        try:
            version = await asyncio.shield(pending)
            state.versions[table_id] = (now, version)
            return version
        finally:
            state.version_reads.pop(table_id, None)
    return await asyncio.shield(pending)


def _build_public(table_id: int) -> tuple[int, str]:
    snap = snapshot(table_id, None)
    snap.pop("now", None)
    return int(snap["version"]), json.dumps(snap, separators=(",", ":"))


async def public_snapshot(table_id: int, at_least: int, fresh: bool = False) -> tuple[int, str]:
    """A spectator's snapshot, as (version, JSON text without ``now``), no older than
    ``at_least`` nor than the table's version as last read (``fresh``: as read now, for a
    socket's first snapshot: it has no frame from before it joined): built once per
    version."""
    state = _here()
    current = await table_version(table_id, fresh)
    wanted = max(at_least, current or 0)
    cached = state.snapshots.get(table_id)
    if cached is not None and cached[0] >= wanted:
        return cached
    pending = state.snapshot_builds.get(table_id)
    if pending is None:
        pending = asyncio.ensure_future(in_reader(_build_public)(table_id))
        state.snapshot_builds[table_id] = pending
        try:
            built = await asyncio.shield(pending)
        finally:
            state.snapshot_builds.pop(table_id, None)
        if cached is None or built[0] >= cached[0]:
            state.snapshots[table_id] = built
        return built
    built = await asyncio.shield(pending)
    if built[0] >= wanted:
        return built
    return await public_snapshot(table_id, wanted)  # a build already under way was older


def with_now(text: str, ref: str | None) -> str:
    """The cached snapshot text with this moment's ``now`` (and the request's ``ref``)."""
    head = f'{{"now":{int(time.time() * 1000)},'
    if ref is not None:
        head += f'"ref":{json.dumps(ref)},'
    return head + text[1:]
