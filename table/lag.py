"""Is this Daphne process behind? The overload guard's measure.

Past its capacity a process does not fail at once: every command and every frame waits a
little longer in line, for every table it serves. Two signs show it before seated players
notice: how late the event loop wakes from a short sleep (every socket's frames pass through
it), and how long a command waits for a service thread (``consumers.SERVICE_THREADS``) once it
is its table's turn. Each is smoothed (a moving average with about a second's memory) and the larger
is the process's lag.

Over ``FRENZY_LAG_LIMIT_MS`` (250 ms) the process is *behind*: it logs so (a warning, and
again when it has caught up), and the consumers stop admitting new watchers and new seats with
a message that says why (``server_busy``); seated players, their commands and the dealer go
on. It is *caught up* again once the lag has stayed under half the limit for
``RECOVER_SECONDS``. :func:`reading` is the metric (``/status/lag.json``, and the log).

Each process also tells the others its lag, through the channel layer's Redis, and reads
theirs (:func:`_share`, every ``SHARE_SECONDS``): a table's frames come from whichever process
ran its command, and a process that runs late publishes late, so a socket holding a gap open
for a frame of another process waits as long as *that* process's lag calls for
(:func:`deployment`, consumers.gap_seconds).
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import math
import os
import secrets
import time
import weakref
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

#: Over this lag (seconds) the process counts as behind.
LIMIT = float(os.environ.get("FRENZY_LAG_LIMIT_MS", "250")) / 1000
#: How often the event loop is sampled, seconds.
TICK = 0.1
#: The event loop's moving average forgets with this time constant, seconds (weighted by
#: time, so a tick that woke 500 ms late counts for the 600 ms it covered).
MEMORY = 1.0
#: Weight of a command's wait in its moving average.
ALPHA = 0.2
#: The recent peak (the largest single lateness or wait, fading) forgets with this time
#: constant, seconds. A process's frames go out as late as its event loop's worst moments,
#: not its average ones: on a loaded host (2026-11-27, 50 tables, two processes) a frame came
#: 2.8 s after the next one while twice the smoothed lag said 2.3 s.
PEAK_MEMORY = 5.0
#: Under half the limit for this long: caught up.
RECOVER_SECONDS = 3.0
#: How often a process tells the others its lag and reads theirs, seconds.
SHARE_SECONDS = 0.25
#: A process not heard from for this long is gone (stopped, died): no longer counted. Until
#: then its silence counts as lag (a process whose event loop is stuck cannot say so).
GONE_SECONDS = 10.0
#: A field of the deployment's lag hash not written for this long belongs to a process that
#: ended without taking it out (killed, or its loop stopped before its task could): whichever
#: process reads it deletes it. Without this the hash grew by one field per process started
#: (every Daphne restart, every bench run) for as long as the deployment ran; each process
#: read them all four times a second.
STALE_SECONDS = 60.0

BUSY_WATCHERS = (
    "This table's server is very busy right now, so it lets no new watchers in for the "
    "moment. Please try again in a minute; the players at the table play on."
)
BUSY_SEATS = (
    "The server is very busy right now, so it takes no new seats for the moment. Please try "
    "again in a minute; the players already seated play on."
)


@dataclass
class Lag:
    loop: float = 0.0  # smoothed event-loop lateness, s
    wait: float = 0.0  # smoothed wait of a command for a service thread, s
    worst: float = 0.0  # the largest single event-loop lateness seen
    peak: float = 0.0  # the recent peak: the largest lateness or wait, fading (PEAK_MEMORY)
    behind: bool = False
    calm_since: float | None = None
    refused_watchers: int = 0
    refused_seats: int = 0
    episodes: int = 0  # times the process fell behind
    #: The other processes' lag as they last told it: process key -> (lag s, wall time of
    #: its telling). Wall time: the processes of a deployment share a clock (one host, or
    #: hosts kept in step by NTP to a few milliseconds).
    others: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def value(self) -> float:
        return max(self.loop, self.wait)

    @property
    def recent(self) -> float:
        """How late this process may be running at worst now: the smoothed lag or the recent
        peak, whichever is larger (what it tells the other processes)."""
        return max(self.value, self.peak)

    def update(self, now: float) -> None:
        """The guard's state from the averages (hysteresis: behind over the limit; caught up
        after RECOVER_SECONDS under half of it)."""
        if self.value > LIMIT:
            self.calm_since = None
            if not self.behind:
                self.behind = True
                self.episodes += 1
                log.warning(
                    "behind: event loop %.0f ms late, commands wait %.0f ms for a thread "
                    "(limit %.0f ms): refusing new watchers and new seats",
                    self.loop * 1000,
                    self.wait * 1000,
                    LIMIT * 1000,
                )
        elif self.behind and self.value < LIMIT / 2:
            if self.calm_since is None:
                self.calm_since = now
            elif now - self.calm_since >= RECOVER_SECONDS:
                self.behind = False
                self.calm_since = None
                log.warning(
                    "caught up: event loop %.0f ms late, commands wait %.0f ms; admitting "
                    "again (refused so far: %d watchers, %d seats)",
                    self.loop * 1000,
                    self.wait * 1000,
                    self.refused_watchers,
                    self.refused_seats,
                )


#: One measure per event loop (a Daphne process has one; tests make one per test).
_lags: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Lag, asyncio.Task[None]]] = (
    weakref.WeakKeyDictionary()
)
#: The process's measure for readers outside the loop (the status view's thread).
_current = Lag()


def current() -> Lag:
    """This loop's measure, its sampling started on first use."""
    global _current
    loop = asyncio.get_running_loop()
    found = _lags.get(loop)
    if found is None or found[1].done():
        lag = Lag()
        _lags[loop] = (lag, loop.create_task(_sample(lag)))
        _start_sharing(lag, loop)
        _current = lag
        return lag
    return found[0]


async def _sample(lag: Lag) -> None:
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(TICK)
        observe(lag, loop.time() - before)


def observe(lag: Lag, elapsed: float) -> None:
    """A sleep of TICK took ``elapsed`` seconds: the averages and the peak move."""
    late = max(0.0, elapsed - TICK)
    lag.worst = max(lag.worst, late)
    lag.peak = max(late, lag.peak * math.exp(-elapsed / PEAK_MEMORY))
    weight = 1 - math.exp(-elapsed / MEMORY)
    lag.loop += weight * (late - lag.loop)
    lag.wait *= 1 - weight  # commands that no longer wait: the wait fades
    lag.update(time.monotonic())


def others_lag(lag: Lag, now: float) -> float:
    """The largest lag among the other processes: as each last told it, or the time since it
    last did (less the telling period) if that is longer; those silent for GONE_SECONDS are
    gone."""
    worst = 0.0
    for value, said in lag.others.values():
        silent = now - said
        if silent < GONE_SECONDS:
            worst = max(worst, value, silent - SHARE_SECONDS)
    return worst


def deployment() -> float:
    """The lag that frames reaching this process may carry: this process's own recent worst
    and the largest the others told (seconds)."""
    watch = current()
    return max(watch.recent, others_lag(watch, time.time()))


def _readings(
    fields: dict[bytes, bytes], pid: str, now: float
) -> tuple[dict[str, tuple[float, float]], list[bytes]]:
    """The other processes' (lag, when said) from the hash's fields, and the fields to delete:
    those not written for STALE_SECONDS (their process is long gone) or unreadable. Fields of
    this pid are neither (in production one event loop per process; tests make one per test,
    and a finished test's loop is no other process)."""
    others: dict[str, tuple[float, float]] = {}
    stale: list[bytes] = []
    for raw, text in fields.items():
        name = raw.decode(errors="replace")
        if name.startswith(pid):
            continue
        try:
            value, said = (float(x) for x in text.decode().split())
        except ValueError:
            stale.append(raw)
            continue
        if now - said > STALE_SECONDS:
            stale.append(raw)
        else:
            others[name] = (value, said)
    return others, stale


async def _share(lag: Lag, url: str, key: str) -> None:
    """Every SHARE_SECONDS: this process's lag into one Redis hash of the deployment, and the
    others' out of it (one round trip). A process's field is its pid and a token. Its field
    goes when its task ends (the loop closing) or, failing that, when the process exits
    (:func:`_forget`); a field left by a process killed outright is deleted by the others
    once STALE_SECONDS old."""
    import redis.asyncio as redis

    client = redis.from_url(url)
    pid = f"{os.getpid()}:"
    me = pid + secrets.token_hex(4)
    _fields.add((url, key, me))
    try:
        while True:
            try:
                pipe = client.pipeline(transaction=False)
                pipe.hset(key, me, f"{lag.recent:.4f} {time.time():.4f}")
                pipe.expire(key, 3600)
                pipe.hgetall(key)
                *_, fields = await pipe.execute()
                lag.others, stale = _readings(fields, pid, time.time())
                if stale:
                    await client.hdel(key, *stale)
            except Exception:  # Redis is away: the last readings age into GONE_SECONDS
                log.debug("lag sharing: no answer from Redis", exc_info=True)
            await asyncio.sleep(SHARE_SECONDS)
    finally:
        lag.others = {}
        try:
            await asyncio.wait_for(client.hdel(key, me), 1.0)
            _fields.discard((url, key, me))
        except (Exception, asyncio.CancelledError):  # the exit, or the others, will
            pass


#: (url, key, field) of the fields this process has in a deployment's lag hash.
_fields: set[tuple[str, str, str]] = set()


@atexit.register
def _forget() -> None:
    """At the process's exit, its fields out of the lag hash: Daphne stopped by its service
    manager ends its loop without cancelling its tasks, so :func:`_share` never says it."""
    for url, key, me in list(_fields):
        try:
            import redis

            redis.Redis.from_url(url, socket_timeout=1.0).hdel(key, me)
        except Exception:  # Redis is away: the others delete it once it is stale
            pass
    _fields.clear()


def _start_sharing(lag: Lag, loop: asyncio.AbstractEventLoop) -> None:
    from django.conf import settings

    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return  # one process (the in-memory layer): nothing to share
    prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "frenzy")
    _sharing[loop] = loop.create_task(_share(lag, url, f"{prefix}:lag"))


#: The sharing task of each loop's measure (kept referenced: a task only weakly held may be
#: collected while it waits).
_sharing: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def note_publish(lag: Lag, seconds: float) -> None:
    """A command's frame left for the layer ``seconds`` after its commit: the round views
    built after the commit in a service thread that shares the GIL with the event loop, the
    thread's return, the loop's turn. Another process's next command may commit and publish
    meanwhile, so this delay is what a socket holding a gap waits out; it raises the peak (what
    the other processes are told), not the guard's averages."""
    lag.peak = max(lag.peak, seconds)


def note_wait(lag: Lag, seconds: float) -> None:
    """A command waited ``seconds`` for a service thread (measured in that thread)."""
    lag.wait += ALPHA * (seconds - lag.wait)
    lag.peak = max(lag.peak, seconds)
    lag.update(time.monotonic())


def behind() -> bool:
    return current().behind


def reading() -> dict[str, float | int | bool]:
    """The metric: the lag now (ms), whether the guard is on, and what it refused."""
    lag = _current
    return {
        "lag_ms": round(lag.value * 1000, 1),
        "others_lag_ms": round(others_lag(lag, time.time()) * 1000, 1),
        "loop_lag_ms": round(lag.loop * 1000, 1),
        "command_wait_ms": round(lag.wait * 1000, 1),
        "worst_loop_lag_ms": round(lag.worst * 1000, 1),
        "recent_peak_ms": round(lag.peak * 1000, 1),
        "limit_ms": round(LIMIT * 1000, 1),
        "behind": lag.behind,
        "episodes": lag.episodes,
        "refused_watchers": lag.refused_watchers,
        "refused_seats": lag.refused_seats,
    }
