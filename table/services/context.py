"""What every table command works with: its :class:`Context` (the table as read under the
lock, the round, the events and the money moved so far), the :class:`Result` it answers with,
and the :class:`ServiceError` a refused command raises; with the two helpers every kind of
command uses on a context (the audit log, the clock's deadlines in milliseconds).

The bottom of the package: every other module here imports it, it imports none of them.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from table.games import game as game_named
from table.games import game_of_state
from table.games.base import (
    PUBLIC,
    Event,
    Game,
    GameStep,
    MeterChange,
    MeterReading,
    RoundStatus,
    Transfer,
)

from .. import duties, fastsql, ledger
from ..broadcast import Publication
from ..models import Round, Table
from ..protection import guard

#: Whether a phase of a game means the round is over (settled, void), as the game's own
#: status said when the phase was first seen: a round read from the store is checked by its
#: stored phase, without computing a status (its commitment hash) on every command.
_FINISHED: dict[tuple[str, str], bool] = {}


#: How long a player's bet or decision may wait inside the server (the socket's queue, the
#: table's queue, a command thread) and still count from when its frame arrived: the clock
#: waits this long after a deadline before it closes betting or times a box out, and a command
#: is judged by when its frame reached the socket (:func:`made_at`), so no player pays for the
#: server's lag up to this bound. Past it, the server is failing (the overload guard turns new
#: players away long before: table.lag). Environment ``FRENZY_LAG_ALLOWANCE``, seconds.
LAG_ALLOWANCE = dt.timedelta(seconds=float(os.environ.get("FRENZY_LAG_ALLOWANCE", "1.0")))


class ServiceError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RefusedDuty(ServiceError):
    """A privileged command refused to its actor (not their table, or duties combined): the
    command changes nothing, and the attempt goes in the audit log (services.execute)."""

    def __init__(self, code: str, message: str, actor: Any) -> None:
        super().__init__(code, message)
        self.actor = actor


@dataclass
class Result:
    version: int
    response: dict[str, Any]
    replayed: bool = False
    #: Set when the caller publishes the events itself (``execute(..., publish=False)``).
    publication: Publication | None = None


@dataclass
class Context:
    """What one command works on, and what it has done so far."""

    table: Table
    actor: str
    now: dt.datetime
    round_row: Round | None = None
    #: The round in play (or the last one), in its game's own state: what every command
    #: hands to the game (``game.apply(state, ...)``) and stores again.
    state: Any = None
    #: The game of ``state`` (the round's own, as stored), once a round is loaded.
    round_game: Game[Any, Any] | None = None
    #: ``game.status(state)`` as it stands (None: not asked since the state last changed):
    #: a status costs the round's commitment (a SHA-256 over the shoe), so it is asked once.
    status_now: RoundStatus | None = None
    #: The state changed in this command (the stored phase no longer says where it is).
    changed: bool = False
    events: list[Event] = field(default_factory=list)
    accounts: dict[str, int] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)  # players whose balance changed
    balances: dict[int, int] = field(default_factory=dict)  # account id -> new balance
    bankroll: int | None = None
    held: ledger.Held = field(default_factory=dict)  # accounts locked by this command
    #: The current round's (phase, state) as read with the table row.
    stored_round: tuple[str, Any] | None = None
    #: box -> (user id, username) of the seats as read with the table row.
    seats: dict[int, tuple[int, str]] = field(default_factory=dict)
    #: The ids of the dealers assigned to the table, as read with the table row.
    dealers: frozenset[int] = frozenset()
    #: Their usernames (user id -> username), for the console's round view.
    dealer_names: dict[int, str] = field(default_factory=dict)
    #: (username, whether they may credit accounts now) of the dealer running the command,
    #: as read with the table row (the duties check: table/duties.py ``clash``).
    credits: tuple[str, bool] | None = None
    #: The dealer or staff user running a dealer command (None: the house's clock).
    dealer: User | None = None
    #: When the command's frame reached this server's socket (None: not from a socket).
    received: dt.datetime | None = None
    #: The player session the command came in (§812a.9(a)(5)): kept with its events and
    #: ledger transactions; None for the dealer's, the clock's, and calls from no session.
    session: int | None = None
    #: Every transfer the command's steps made, as the game gave them (before a meter's
    #: part is taken off): what player protection counts (table/protection/guard.py).
    transfers: list[Transfer] = field(default_factory=list)
    #: The actor's session as read with the table row, (ended, last active, reality check
    #: answered), if ``session`` is the actor's (None: it is not, or there is none).
    session_row: tuple[Any, ...] | None = None
    #: What came with the players' account locks: their open sessions' figures since login
    #: and, for the acting player, their protection (``ledger.lock_for_table``).
    locked: ledger.Locked = field(default_factory=lambda: ledger.Locked({}, {}))
    #: Each player's open sessions' figures since login as this command leaves them
    #: (session id -> (net, wagered)): sent with the player's balance.
    since_login: dict[str, dict[int, tuple[int, int]]] = field(default_factory=dict)
    #: The table's linked meters (``table.meters.Linked``) as read with the table row:
    #: locked, for a command that may change them (``execute(..., meters="lock")``), or only
    #: which are linked (``meters="links"``); None: not read yet (read when first needed).
    linked: Any = None

    @property
    def game(self) -> Game[Any, Any]:
        """The game of the round loaded, else the game of the table's Rules Submission."""
        if self.round_game is not None:
            return self.round_game
        return game_named(self.table.rules.game)

    @property
    def rules(self) -> Any:
        """The rules in force at the table, in the game's own value."""
        return self.table.rules.game_rules()

    def load_round(self) -> Any:
        """The current round's state (None: the table never opened one)."""
        if self.state is None and self.table.current_round_id:
            found = self.stored_round
            if found is None:
                found = fastsql.one(
                    fastsql.round_phase_and_state(),
                    [self.table.current_round_id],
                )
            assert found is not None
            # A stand-in row (id and phase): enough to point at, and _save_round writes it.
            self.round_row = Round(id=self.table.current_round_id, phase=found[0])
            data = fastsql.loads(found[1])
            self.round_game = game_of_state(data)
            self.state = self.round_game.from_dict(data)
            self.status_now = None
        return self.state

    def status(self) -> RoundStatus | None:
        """The loaded round at a glance (None: no round)."""
        state = self.load_round()
        if state is None:
            return None
        if self.status_now is None:
            self.status_now = self.game.status(state)
            _FINISHED[self.game.name, self.status_now.phase] = self.status_now.finished
        return self.status_now

    def set_round(self, state: Any, game: Game[Any, Any]) -> None:
        """A round just opened is the one this command works on."""
        self.state, self.round_game, self.status_now = state, game, None
        self.changed = True

    def live_round(self) -> Any:
        state = self.load_round()
        finished = None
        if state is not None and not self.changed and self.status_now is None:
            assert self.round_row is not None
            # The round as stored: its phase says whether it is over, without a status.
            finished = _FINISHED.get((self.game.name, self.round_row.phase))
        if finished is None and state is not None:
            status = self.status()
            finished = status is None or status.finished
        if state is None or finished:
            # Words for whoever sent it: the dealer opens betting, a player waits for it.
            if self.actor.startswith("dealer:") or self.actor == "clock":
                raise ServiceError("no_round", "no round is in play: open betting first")
            raise ServiceError(
                "no_round", "no round is in play: wait for the dealer to open betting"
            )
        return state

    def apply(self, step: GameStep) -> None:
        """Record a step's events, post its money now (so balance checks see it) and apply
        its changes to the shared meters (each in the meters store, in order)."""
        self.status_now = None  # the step changed the round
        self.changed = True
        self.events.extend(step.events)
        transfers = step.transfers
        self.transfers.extend(transfers)
        if step.meters:
            transfers = _less_meter_payouts(transfers, step.meters)
        if transfers:
            self._hold({t.player for t in transfers})
            assert self.bankroll is not None  # _hold locked it
            self.balances.update(
                ledger.post_transfers(
                    transfers,
                    self.table,
                    self.round_row,
                    self.accounts,
                    self.bankroll,
                    self.held,
                    self.session,
                )
            )
            self.moved |= {t.player for t in transfers}
        if step.meters:
            self._apply_meters(step.meters)

    def hold_locked(
        self, found: dict[str, int], bankroll: int | None, held: ledger.Held, locked: ledger.Locked
    ) -> None:
        """Accounts already locked with the table row (``execute(..., hold_actor=True)``): the
        acting player's and the bankroll, kept as :meth:`_hold` keeps what it locks, so that
        the command's first money moved sends no lock of its own. Nothing is kept unless
        both were found (an account not made yet is made by :meth:`_hold`)."""
        if self.actor not in found or bankroll is None:
            return
        self.accounts.update(found)
        self.bankroll = bankroll
        self.locked.sessions.update(locked.sessions)
        self.locked.guard.update(locked.guard)
        for account_id, account in held.items():
            self.held.setdefault(account_id, account)

    def _hold(self, players: set[str]) -> None:
        """Lock the table's bankroll and these players' accounts, if not yet."""
        missing = players - set(self.accounts)
        if missing or self.bankroll is None:
            # The acting player's protection comes with their lock: a wager costs no round
            # trip of its own for it (table/protection/guard.py).
            dates = guard.lock_dates(self.now) if self.actor in missing else ()
            found, self.bankroll, held, locked = ledger.lock_for_table(self.table, missing, dates)
            self.accounts.update(found)
            self.locked.sessions.update(locked.sessions)
            self.locked.guard.update(locked.guard)
            for account_id, account in held.items():
                self.held.setdefault(account_id, account)

    def meter_readings(self) -> dict[str, MeterReading]:
        """The table's shared meters as they stand (locked), for the game's settlement."""
        if not self.game.meters(self.game.round_rules(self.live_round())):
            return {}
        from .. import meters

        return {
            kind: MeterReading(m.amount, m.reserve)
            for kind, m in _meter_call(meters.table_meters, self.table, self.meters()).items()
        }

    def meters(self) -> Any:
        """The table's linked meters, locked (``table.meters.Linked``): as the locked read
        brought them, else locked now (one statement), once a command."""
        from .. import meters

        if self.linked is None or not self.linked.locked:
            self.linked = _meter_call(meters.linked, self.table.pk)
        return self.linked

    def _meter_round(self) -> Round:
        """The round row as the meters store wants it: its table and number."""
        assert self.round_row is not None and self.state is not None
        status = self.status()
        assert status is not None
        return Round(
            id=self.round_row.pk, table=self.table, number=status.number, phase=status.phase
        )

    def _apply_meters(self, changes: tuple[MeterChange, ...]) -> None:
        """Apply a step's meter changes through the meters store (table/meters.py): the
        increments at "no more bets" (§657a.10(a)(2)), a void's reversal (§657a.13), the
        payouts in settlement order (§657a.12(d)(4), (e)(4), (f)(2)). The store books each
        change in the meter's history and the ledger; where it computes the amount itself
        (an increment from the stakes, a payout from the meter as it stands) it must agree
        with the game, or the command is refused and nothing changes."""
        from .. import meters

        self._hold(set())
        row = self._meter_round()
        increments = [c for c in changes if c.kind == "increment"]
        if increments:
            boxes = [b for b in self.game.boxes(self.state) if b.in_play]
            # Every stake of each wager that feeds a meter of the game.
            feeding = dict.fromkeys(w for k in self.game.meter_catalogue() for w in k.wagers)
            stakes = {w: [b.wagers[w] for b in boxes if b.wagers.get(w)] for w in feeding}
            booked = _meter_call(
                meters.apply_increments,
                self.table,
                row,
                stakes,
                self.held,
                self.meters(),
                self.bankroll,
            )
            wanted = {c.meter: (c.amount, c.reserve) for c in increments if c.amount or c.reserve}
            got = {k: (i.primary, i.reserve) for k, i in booked.items() if i.primary or i.reserve}
            if wanted != got:
                raise ServiceError(
                    "meter_mismatch",
                    f"the meters store would add {got} to the meters, the round asks {wanted}: "
                    "nothing was done",
                )
        if any(c.kind == "reverse" for c in changes):
            _meter_call(meters.reverse_increments, row, self.held)
        owners = {b.box: b.player for b in self.game.boxes(self.state)}
        payouts = [
            meters.Payout(
                c.meter,
                c.box or 0,
                owners.get(c.box or 0, ""),
                c.wager or "",
                c.paid,
                c.percent,
                c.reset,
                c.split,
            )
            for c in changes
            if c.kind == "payout"
        ]
        if payouts:
            # The game's own payments, in its order, booked as they are (issue 23: nothing
            # re-derived, so the table pays what settle_round says to the cent).
            self._hold({p.player for p in payouts})
            booked_out = _meter_call(
                meters.book_payouts,
                self.table,
                row,
                payouts,
                self.held,
                self.meters(),
                self.bankroll,
            )
            for payment in booked_out:
                account = self.accounts[payment.player]
                self.balances[account] = self.held[account][2]
                self.moved.add(payment.player)

    def note(self, kind: str, data: dict[str, Any], audience: str = PUBLIC) -> None:
        self.events.append(Event(kind, data, audience))


def _less_meter_payouts(
    transfers: tuple[Transfer, ...], changes: tuple[MeterChange, ...]
) -> tuple[Transfer, ...]:
    """The table's own payments once the meters have paid their part: what a meter pays a
    box's wager comes from the meter's account, not the table's bankroll (docs/meters.md,
    "hit"), so the table pays that wager only the rest."""
    owed: dict[tuple[int | None, str | None], int] = {}
    for change in changes:
        if change.kind == "payout" and change.paid:
            key = (change.box, change.wager)
            owed[key] = owed.get(key, 0) + change.paid
    if not owed:
        return transfers
    out = []
    for t in transfers:
        key = (t.box, t.wager)
        if t.amount < 0 and owed.get(key):
            taken = min(owed[key], -t.amount)
            owed[key] -= taken
            if t.amount + taken == 0:
                continue
            t = Transfer(t.player, t.amount + taken, t.memo, t.box, t.wager)
        out.append(t)
    left = {k: v for k, v in owed.items() if v}
    if left:
        raise ServiceError(
            "meter_mismatch", f"meter payouts {left} are more than the round pays those wagers"
        )
    return tuple(out)


def _meter_call(fn: Any, *args: Any) -> Any:
    """A meters store call; its refusal is the command's."""
    from .. import meters

    try:
        return fn(*args)
    except meters.MeterError as exc:
        raise ServiceError(exc.code, exc.message) from exc


def made_at(ctx: Context) -> dt.datetime:
    """When a command counts as made, for its deadline: when its frame reached the server's
    socket (stamped there, before any queue: the server's own clock, nothing the client
    says), but never earlier than :data:`LAG_ALLOWANCE` before now, so a stamp cannot carry
    a command past the clock that waited that long."""
    if ctx.received is None:
        return ctx.now
    return max(min(ctx.received, ctx.now), ctx.now - LAG_ALLOWANCE)


def clock_due(deadline: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether the clock may act on ``deadline`` (close betting, time a box out): only once
    every command that reached a socket before it has had :data:`LAG_ALLOWANCE` to arrive."""
    return deadline is not None and deadline + LAG_ALLOWANCE <= now


def _deadline_ms(moment: dt.datetime | None) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def _audit(ctx: Context, action: str, details: dict[str, Any]) -> None:
    """The command's privileged action into the audit log, in its transaction."""
    round_id = ctx.round_row.pk if ctx.round_row is not None else None
    duties.record(
        ctx.dealer, action, details, table_id=ctx.table.pk, round_id=round_id, when=ctx.now
    )
