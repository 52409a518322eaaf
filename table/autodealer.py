"""The automatic dealer: runs a table unattended, and owns its clock.

Exactly one clock owner per table: ownership is a row in the database (``Table.clock_owner``
plus a heartbeat), taken with a conditional UPDATE, so a second autodealer for the same table
refuses to start, on one machine or many. The loop only calls services, like a human dealer.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import secrets
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils import timezone

from table.games import game as game_named
from table.games.base import DEAL, DEALER_STEPS, REVEAL, SETTLE, Actor

from . import presence, services
from .models import Round, Seat, Table
from .services.context import clock_due

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 3.0
STALE_AFTER = dt.timedelta(seconds=15)
#: Pause after the reveal before paying, and after a round ends (settled, or void for an
#: irregularity of §684a.13) before the next round: the outcome stays on the felt that long.
REVEAL_PAUSE = 1.5
RESULT_PAUSE = 6.0


class ClockTaken(Exception):
    pass


def owner_name() -> str:
    """A claim that says where it was made: ``autodealer-<pid>@<host>-<random>``, so that a
    restart on the same machine can tell a dead owner (its process is gone) from a live one."""
    host = socket.gethostname()[:32]
    return f"autodealer-{os.getpid()}@{host}-{secrets.token_hex(4)}"


def owner_is_gone(owner: str) -> bool:
    """True only when ``owner`` provably no longer runs: it was claimed on this machine and no
    process has its pid. A claim from another machine (or not in our format) is never
    provably gone; it is taken over once its heartbeat is STALE_AFTER old."""
    head, sep, rest = owner.partition("@")
    if not sep or not head.startswith("autodealer-"):
        return False
    pid_text = head.removeprefix("autodealer-")
    host = rest.rpartition("-")[0]
    if not pid_text.isdigit() or host != socket.gethostname()[:32]:
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # a process of another user has that pid: alive
        return False
    return False  # alive (or the pid was reused: then wait for the claim to go stale)


def acquire(table_id: int, owner: str) -> None:
    """Take the table's clock, or raise :class:`ClockTaken` naming the owner. A claim whose
    owner has provably died (see :func:`owner_is_gone`) is taken over at once; any other
    claim once its heartbeat is STALE_AFTER old."""
    now = timezone.now()
    taken = Table.objects.filter(
        Q(clock_owner="") | Q(clock_heartbeat__lt=now - STALE_AFTER) | Q(clock_owner=owner),
        pk=table_id,
    ).update(clock_owner=owner, clock_heartbeat=now)
    if taken:
        return
    current = Table.objects.filter(pk=table_id).values_list("clock_owner", flat=True).first()
    if current is None:
        raise ClockTaken(f"there is no table {table_id}")
    if owner_is_gone(current):
        # Conditional on the same dead owner: two restarts racing cannot both win.
        if Table.objects.filter(pk=table_id, clock_owner=current).update(
            clock_owner=owner, clock_heartbeat=now
        ):
            log.warning("table %s: took the clock over from %s (process gone)", table_id, current)
            return
        current = Table.objects.filter(pk=table_id).values_list("clock_owner", flat=True).first()
    raise ClockTaken(f"table {table_id}'s clock is already run by {current}")


def heartbeat(table_id: int, owner: str) -> bool:
    return bool(
        Table.objects.filter(pk=table_id, clock_owner=owner).update(clock_heartbeat=timezone.now())
    )


def release(table_id: int, owner: str) -> None:
    try:
        services.release_dealing(table_id, owner)  # the console sees nobody deals now
    except services.ServiceError as exc:
        log.warning("autodealer: %s", exc.message)
    Table.objects.filter(pk=table_id, clock_owner=owner).update(
        clock_owner="", clock_heartbeat=None
    )


@dataclass
class AutoDealer:
    table_id: int
    owner: str = ""
    full: bool = True  # False: only time-outs and abandoned seats (a human deals)
    revealed_at: float = 0.0
    #: Set (e.g. by a SIGTERM handler) to stop :meth:`run` after its current tick; the
    #: claim on the clock is then released.
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.owner = self.owner or owner_name()

    def tick(self) -> str | None:
        """Do at most one thing that is due; returns what it did."""
        table = Table.objects.select_related("rules").get(pk=self.table_id)
        now = timezone.now()
        # Leases that ran out (their socket's process died): the players are gone.
        for change in presence.expire(self.table_id):
            presence.announce_sync(self.table_id, change)
        did = self._abandon_dropped(table, now)
        if did:
            return did
        state = game = None
        finished_at = None
        if table.current_round_id:
            data, finished_at, name = (
                Round.objects.filter(pk=table.current_round_id)
                .values_list("state", "finished_at", "game")
                .first()
            ) or (None, None, "")
            if data:
                game = game_named(name)
                state = game.from_dict(data)
        finished = game is None or game.status(state).finished
        # What the round waits for (any game): betting, a box's decision, the settings.
        timer = None if game is None or finished else game.timer(state)
        if timer is not None and timer.kind != "betting" and timer.expire is not None:
            # Not at the deadline itself: a decision sent before it may still be on its way
            # through a busy server (services.context.LAG_ALLOWANCE).
            if clock_due(table.turn_deadline, now):
                services.time_out(self.table_id)
                return "time_out"
        if not self.full or not table.is_open or table.dealt_by.startswith("dealer:"):
            return None  # a dealer took the table over at the console: the clock only
        if table.dealt_by != self.owner:
            services.claim_dealing(self.table_id, self.owner)  # the console shows who deals
        if game is None or finished:
            # Timed from when the round ended, not from this clock's own settle: a void or an
            # exposed dealer card (console or shoe) shows as long as a settlement does.
            if finished_at and (now - finished_at).total_seconds() < RESULT_PAUSE:
                return None
            # A round only for players who are here (a seat left by a crashed socket is not).
            if Seat.objects.filter(presence.present_filter(now), table=table).exists():
                try:
                    services.open_betting(self.table_id)
                except services.ServiceError as exc:
                    if exc.code not in ("no_deck", "deck_short"):
                        raise
                    # §684a.5(b): a deck left after a miscount; bring new ones, as a dealer would.
                    services.change_decks(self.table_id)
                    return "change_decks"
                return "open_betting"
            return None
        if timer is not None and timer.kind == "betting":
            anyone_bet = timer.expire is not None  # betting closes only on a wager
            if table.betting_deadline is None:
                if anyone_bet:  # the first bet after a wait: the countdown starts
                    services.restart_betting_clock(self.table_id)
                    return "betting_clock"
                return None
            if clock_due(table.betting_deadline, now):  # and a bet sent before it came
                if anyone_bet:
                    services.no_more_bets(self.table_id)
                    return "no_more_bets"
                if not Seat.objects.filter(presence.present_filter(now), table=table).exists():
                    return None  # nobody here: the countdown waits for someone to come back
                # Nobody bet: betting stays open without a countdown until someone bets (one
                # event per idle spell, not one per countdown).
                services.restart_betting_clock(self.table_id, wait=True)
                return "betting_clock"
            return None
        # The dealer's step due now, as the game offers it to the dealer.
        due = next(
            (m.name for m in game.moves(state, Actor.dealer()) if m.name in DEALER_STEPS), None
        )
        if due == DEAL:
            services.deal(self.table_id)
            return "deal"
        if due == REVEAL:
            services.reveal(self.table_id)
            self.revealed_at = time.monotonic()
            return "reveal"
        if due == SETTLE:
            if time.monotonic() - self.revealed_at >= REVEAL_PAUSE:
                services.settle(self.table_id)
                return "settle"
        return None

    def _abandon_dropped(self, table: Table, now: dt.datetime) -> str | None:
        cutoff = now - dt.timedelta(seconds=services.GRACE_SECONDS)
        gone = (
            Seat.objects.filter(table=table, connected=False, disconnected_at__lt=cutoff)
            .select_related("player")
            .first()
        )
        if gone is None:
            return None
        services.leave(self.table_id, gone.player)
        # A seat with cards in play stays until the round ends; try again later, not at once.
        Seat.objects.filter(pk=gone.pk).update(disconnected_at=now)
        return f"leave:{gone.player.get_username()}"

    def _beat_and_tick(self, last_beat: float) -> tuple[str | None, float]:
        if time.monotonic() - last_beat >= HEARTBEAT_SECONDS:
            if not heartbeat(self.table_id, self.owner):
                raise ClockTaken("lost the table's clock to another owner")
            last_beat = time.monotonic()
        try:
            did = self.tick()
        except services.ServiceError as exc:
            # Someone else (a human dealer) moved first: look again next tick.
            log.info("autodealer: %s", exc.message)
            did = None
        if did:
            log.info("autodealer table %s: %s", self.table_id, did)
        return did, last_beat

    def run(self, stop_after: float | None = None, interval: float = 0.2) -> None:
        """Run in this thread (its own process, with the Redis channel layer)."""
        acquire(self.table_id, self.owner)
        started = last_beat = time.monotonic()
        try:
            while stop_after is None or time.monotonic() - started < stop_after:
                if self.stopping.is_set():
                    break
                did, last_beat = self._beat_and_tick(last_beat)
                if not did:
                    self.stopping.wait(interval)
        finally:
            release(self.table_id, self.owner)

    async def run_async(self, interval: float = 0.2) -> None:
        """Run as a task inside a Daphne process's event loop, so that with the in-memory
        channel layer (one process, no Redis) its events reach that process's sockets."""
        from channels.db import DatabaseSyncToAsync

        def worker(fn: Any) -> Any:
            return DatabaseSyncToAsync(fn, thread_sensitive=False)

        await worker(acquire)(self.table_id, self.owner)
        last_beat = time.monotonic()
        try:
            while True:
                did, last_beat = await worker(self._beat_and_tick)(last_beat)
                if not did:
                    await asyncio.sleep(interval)
        finally:
            await worker(release)(self.table_id, self.owner)
