"""One function per table command. Services own the transactions.

Each command: lock the table row (``select_for_update``; SQLite serialises writers with
IMMEDIATE transactions), return the first answer for a replayed idempotency key, refuse a
stale client version, load the round, call the engine, store the round, the ledger entries and
the events, bump the table version, and publish the events only after commit.

A refused command raises :class:`ServiceError` and changes nothing: the transaction rolls
back and the in-memory engine objects are thrown away.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from table.engine.cards import codes
from table.engine.errors import EngineError
from table.engine.hands import best_four, describe
from table.engine.round import (
    PUBLIC,
    Event,
    Phase,
    Step,
    to_player,
)
from table.engine.round import Round as EngineRound
from table.engine.rules import TableRules, rule_changes
from table.engine.shoe import Fault, RandomSource, SecretsSource, Shuffler, new_salt

from . import duties, fastsql, ledger, presence
from .models import (
    BoxRecord,
    CommandRecord,
    Round,
    RoundEvent,
    RulesSubmission,
    Seat,
    SettlementLine,
    Table,
)

User = get_user_model()

#: The randomness behind every shuffle; tests swap in a seeded source.
RANDOM: RandomSource = SecretsSource()

#: What a dealer may name in a ``void`` command; the engine still wants the evidence.
DECLARABLE_VOIDS = ("face_up_cards", "wrong_card_count", "shoe_jam", "stub_miscount")

#: A player who drops keeps the box this long before it is given up (§684a.7(b)).
GRACE_SECONDS = 30


class ServiceError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Publication:
    """A committed command's events, for the channel layer (see table.broadcast)."""

    table_id: int
    version: int
    round_id: int | None
    events: list[Event]
    user_ids: dict[str, int]  # player name -> user id, for each private audience


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
    engine: EngineRound | None = None
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
    #: The dealer or staff user running a dealer command (None: the house's clock).
    dealer: AbstractBaseUser | None = None

    @property
    def rules(self) -> TableRules:
        return self.table.rules.to_table_rules()

    def load_round(self) -> EngineRound | None:
        if self.engine is None and self.table.current_round_id:
            found = self.stored_round
            if found is None:
                found = fastsql.one(
                    f"SELECT phase, state FROM {fastsql.table(Round)} WHERE id = %s",
                    [self.table.current_round_id],
                )
            assert found is not None
            # A stand-in row (id and phase): enough to point at, and _save_round writes it.
            self.round_row = Round(id=self.table.current_round_id, phase=found[0])
            self.engine = EngineRound.from_dict(fastsql.loads(found[1]))
        return self.engine

    def live_round(self) -> EngineRound:
        rnd = self.load_round()
        if rnd is None or rnd.finished:
            raise ServiceError("no_round", "no round is in play: open betting first")
        return rnd

    def apply(self, step: Step) -> None:
        """Record a step's events and post its money now (so balance checks see it)."""
        self.events.extend(step.events)
        if not step.transfers:
            return
        players = {t.player for t in step.transfers}
        missing = players - set(self.accounts)
        if missing or self.bankroll is None:
            found, self.bankroll, held = ledger.lock_for_table(self.table, missing)
            self.accounts.update(found)
            for account_id, account in held.items():
                self.held.setdefault(account_id, account)
        self.balances.update(
            ledger.post_transfers(
                step.transfers, self.table, self.round_row, self.accounts, self.bankroll, self.held
            )
        )
        self.moved |= players

    def note(self, kind: str, data: dict[str, Any], audience: str = PUBLIC) -> None:
        self.events.append(Event(kind, data, audience))


def _deadline_ms(moment: dt.datetime | None) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def _save_round(ctx: Context) -> None:
    """Persist the engine round, stamp phase times, and close the books when it ends."""
    rnd, row = ctx.engine, ctx.round_row
    if rnd is None or row is None:
        return
    previous = row.phase
    row.phase = rnd.phase.value
    stamps = []
    if previous != row.phase:
        now = fastsql.when(ctx.now)
        if rnd.dealer_cards:
            stamps.append(("dealt_at = COALESCE(dealt_at, %s)", now))
        if rnd.phase is Phase.REVEALED:
            stamps.append(("revealed_at = %s", now))
        if rnd.finished:
            stamps.append(("finished_at = %s", now))
    fastsql.write(
        f"UPDATE {fastsql.table(Round)} SET state = %s, phase = %s, void_reason = %s"
        + "".join(", " + sql for sql, _ in stamps)
        + " WHERE id = %s",
        [
            fastsql.dumps(rnd.to_dict()),
            row.phase,
            rnd.void_reason or "",
            *(v for _, v in stamps),
            row.pk,
        ],
    )
    table = ctx.table
    # Turn clock: the box to act gets the Rules Submission's decision time.
    if rnd.phase is Phase.DECISIONS and rnd.to_act is not None:
        for event in ctx.events:
            if event.kind == "turn" and event.data.get("box") == rnd.to_act:
                table.turn_deadline = ctx.now + dt.timedelta(seconds=rnd.rules.decision_seconds)
                event.data["deadline"] = _deadline_ms(table.turn_deadline)
                event.data["seconds"] = rnd.rules.decision_seconds
    else:
        table.turn_deadline = None
    if rnd.phase is not Phase.BETTING:
        table.betting_deadline = None
    if rnd.finished and previous not in (Phase.SETTLED.value, Phase.VOID.value):
        _record_finished(ctx, rnd, row)
        if rnd.phase is Phase.VOID or rnd.main_game_void:
            # Who caused it (the dealer who dealt, counted, closed; or the house) and its
            # evidence, as the round_void / dealer_card_exposed event has it.
            shown = next(
                (e.data for e in ctx.events if e.kind in ("round_void", "dealer_card_exposed")),
                {},
            )
            _audit(
                ctx,
                "void" if rnd.phase is Phase.VOID else "main_game_void",
                {
                    "round": rnd.number,
                    "reason": rnd.void_reason or "dealer_card_exposed",
                    "evidence": shown.get("evidence"),
                    "card": shown.get("card"),
                },
            )


def _record_finished(ctx: Context, rnd: EngineRound, row: Round) -> None:
    names = sorted({b.player for b in rnd.boxes.values()})
    users = dict(
        fastsql.rows(
            f"SELECT username, id FROM {fastsql.col(User._meta.db_table)} "
            f"WHERE username IN ({', '.join(['%s'] * len(names)) or 'NULL'})",
            names,
        )
    )
    settled = {b["box"]: b for b in (rnd.results or {}).get("boxes", [])}
    records, lines = [], []
    for play in rnd.boxes.values():
        hand = best_four(play.cards) if len(play.cards) == 5 else None
        info = settled.get(play.box, {})
        player = users[play.player]
        records.append(
            (
                row.pk,
                play.box,
                player,
                " ".join(codes(play.cards)),
                " ".join(codes(hand.cards)) if hand else "",
                describe(hand.value) if hand else "",
                fastsql.dumps(dict(play.wagers)),
                play.decision,
                info.get("net", 0),
            )
        )
        for line in info.get("results", []):
            lines.append(
                (
                    row.pk,
                    play.box,
                    player,
                    line["wager"],
                    line["stake"],
                    line["outcome"],
                    line["net"],
                    line["row"] or "",
                )
            )
    fastsql.insert_many(
        BoxRecord,
        [
            "round_id",
            "box",
            "player_id",
            "cards",
            "best_four",
            "hand",
            "wagers",
            "decision",
            "net",
        ],
        records,
        returning=False,
    )
    fastsql.insert_many(
        SettlementLine,
        ["round_id", "box", "player_id", "wager", "stake", "outcome", "net", "row"],
        lines,
        returning=False,
    )
    table = ctx.table
    # §684a.3(b)/(c) bookkeeping, and a Rules Submission change waiting for the round to end.
    if table.pending_rules_id:
        table.rules_id = table.pending_rules_id
        table.pending_rules = None
        ctx.note("rules_changed", {"rules": table.rules.name})


def _note_balances(ctx: Context) -> None:
    """Tell each player whose money moved their new balance (a private event)."""
    for player in sorted(ctx.moved):
        balance = ctx.balances[ctx.accounts[player]]
        ctx.note("balance", {"balance": balance}, to_player(player))


def _write_events(ctx: Context) -> int:
    """Append the command's events to the hash-chained log under the next version."""
    table = ctx.table
    table.version += 1
    version = table.version
    prev = table.last_hash
    values = []
    round_id = ctx.round_row.pk if ctx.round_row else None
    created = fastsql.when(ctx.now)
    for seq, event in enumerate(ctx.events):
        row = RoundEvent(
            table=table,
            round_id=round_id,
            version=version,
            seq=seq,
            kind=event.kind,
            audience=event.audience,
            data=event.data,
            actor=ctx.actor,
            created=ctx.now,
            prev_hash=prev,
        )
        row.hash = row.compute_hash()
        prev = row.hash
        values.append(
            (
                table.pk,
                round_id,
                version,
                seq,
                event.kind,
                event.audience,
                fastsql.dumps(event.data),
                ctx.actor,
                created,
                row.prev_hash,
                row.hash,
            )
        )
    fastsql.insert_many(
        RoundEvent,
        [
            "table_id",
            "round_id",
            "version",
            "seq",
            "kind",
            "audience",
            "data",
            "actor",
            "created",
            "prev_hash",
            "hash",
        ],
        values,
        returning=False,
    )
    table.last_hash = prev
    # Every field a command may change; not the clock owner's heartbeat (another writer).
    fastsql.write(
        f"UPDATE {fastsql.table(Table)} SET version = %s, last_hash = %s, is_open = %s, "
        "rules_id = %s, pending_rules_id = %s, shoe = %s, rounds_since_stub_count = %s, "
        "current_round_id = %s, betting_deadline = %s, turn_deadline = %s WHERE id = %s",
        [
            table.version,
            table.last_hash,
            table.is_open,
            table.rules_id,
            table.pending_rules_id,
            fastsql.dumps(table.shoe),
            table.rounds_since_stub_count,
            table.current_round_id,
            fastsql.when(table.betting_deadline),
            fastsql.when(table.turn_deadline),
            table.pk,
        ],
    )
    return version


_TABLE_COLUMNS = (
    "name",
    "is_open",
    "rules_id",
    "pending_rules_id",
    "version",
    "shoe",
    "rounds_since_stub_count",
    "current_round_id",
    "betting_deadline",
    "turn_deadline",
    "last_hash",
    "dealt_by",
    "clock_owner",
    "clock_heartbeat",
)
_RULES_FIELDS = [f for f in RulesSubmission._meta.concrete_fields]


def _moment(value: Any) -> dt.datetime | None:
    """A datetime column read by plain SQL: aware (PostgreSQL), or naive UTC or text (SQLite)."""
    if value is None:
        return None
    parsed = value if isinstance(value, dt.datetime) else parse_datetime(value)
    if parsed is not None and timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, dt.UTC)
    return parsed


@dataclass
class _Locked:
    """What a command reads with its table row lock, in one statement."""

    table: Table
    answer: Any  # the stored response to this idempotency key, if it was seen before
    request: str | None  # the fingerprint of the command that key was first used for
    stored_round: tuple[str, Any] | None  # the current round's (phase, state)
    seats: dict[int, tuple[int, str]]  # box -> (user id, username)


@lru_cache(maxsize=4)
def _locked_read_sql(vendor: str) -> str:
    """The text of _lock_table's round trip, built once per database vendor."""
    lock = ""
    if vendor == "postgresql":
        lock = f"SELECT id FROM {fastsql.table(Table)} WHERE id = %s FOR UPDATE;\n"
        seat_list = "json_agg(json_build_array(s.box, s.player_id, u.username))"
    else:
        seat_list = "json_group_array(json_array(s.box, s.player_id, u.username))"
    rules_cols = ", ".join(f"r.{fastsql.col(f.column)}" for f in _RULES_FIELDS)
    table_cols = ", ".join(f"t.{fastsql.col(c)}" for c in _TABLE_COLUMNS)
    users = fastsql.col(User._meta.db_table)
    rounds = fastsql.table(Round)
    return (
        f"{lock}SELECT {table_cols}, {rules_cols}, "
        f"(SELECT c.response FROM {fastsql.table(CommandRecord)} c WHERE c.table_id = t.id "
        f"AND c.actor = %s AND c.{fastsql.col('key')} = %s), "
        f"(SELECT c.request FROM {fastsql.table(CommandRecord)} c WHERE c.table_id = t.id "
        f"AND c.actor = %s AND c.{fastsql.col('key')} = %s), "
        f"(SELECT phase FROM {rounds} WHERE id = t.current_round_id), "
        f"(SELECT state FROM {rounds} WHERE id = t.current_round_id), "
        f"(SELECT {seat_list} FROM {fastsql.table(Seat)} s JOIN {users} u ON u.id = s.player_id "
        "WHERE s.table_id = t.id) "
        f"FROM {fastsql.table(Table)} t "
        f"JOIN {fastsql.table(RulesSubmission)} r ON r.id = t.rules_id WHERE t.id = %s"
    )


def _lock_table(table_id: int, actor: str = "", key: str | None = None) -> _Locked:
    """The table's row, locked (SELECT ... FOR UPDATE), with its Rules Submission, the
    answer already given to this idempotency key, the current round and the seats: one
    round trip, because every round trip holds the table's lock a little longer.

    On PostgreSQL two statements travel together: the first waits for the row lock, the
    second reads. One statement would not do: at READ COMMITTED a statement that waited for
    a lock sees the locked row as the last command left it, but every other table (the
    round, the seats) as they were when it started waiting."""
    postgres = connection.vendor == "postgresql"
    found = fastsql.last_one(
        _locked_read_sql(connection.vendor),
        [table_id, actor, key, actor, key, table_id]
        if postgres
        else [actor, key, actor, key, table_id],
    )
    if found is None:
        raise ServiceError("no_table", f"there is no table {table_id}")
    values = dict(zip(_TABLE_COLUMNS, found[: len(_TABLE_COLUMNS)], strict=True))
    values["shoe"] = fastsql.loads(values["shoe"])
    values["is_open"] = bool(values["is_open"])
    values["betting_deadline"] = _moment(values["betting_deadline"])
    values["turn_deadline"] = _moment(values["turn_deadline"])
    values["clock_heartbeat"] = _moment(values["clock_heartbeat"])
    table = Table(id=table_id, **values)
    rules_end = len(_TABLE_COLUMNS) + len(_RULES_FIELDS)
    rules_values = found[len(_TABLE_COLUMNS) : rules_end]
    rules = RulesSubmission(
        **{f.attname: v for f, v in zip(_RULES_FIELDS, rules_values, strict=True)}
    )
    for f in _RULES_FIELDS:
        if isinstance(f, models.BooleanField):
            setattr(rules, f.attname, bool(getattr(rules, f.attname)))
    table.rules = rules
    answer, request, phase, state, seat_rows = found[rules_end:]
    seats = {
        int(box): (int(player), str(name))
        for box, player, name in (fastsql.loads(seat_rows) if seat_rows else [])
    }
    stored_round = (phase, state) if phase is not None else None
    return _Locked(table, answer, request, stored_round, seats)


def fingerprint(command: str, request: dict[str, Any] | None = None) -> str:
    """What a command asked for (its name and arguments), as kept with its idempotency key."""
    text = json.dumps(
        {"command": command, **(request or {})},
        sort_keys=True,
        separators=(",", ":"),
        default=repr,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _stakes(wagers: Any) -> Any:
    """A bet's wagers for its fingerprint: a wager of 0 is no wager."""
    if isinstance(wagers, dict):
        return {str(k): v for k, v in wagers.items() if not (type(v) is int and v == 0)}
    return wagers


def execute(
    table_id: int,
    actor: str,
    command: str,
    body: Callable[[Context], dict[str, Any] | None],
    *,
    key: str | None = None,
    expected_version: int | None = None,
    publish: bool = True,
    request: dict[str, Any] | None = None,
) -> Result:
    """Run one command in one transaction holding the table's row lock.

    The events go out after commit: published here (``publish``), or handed back in
    ``Result.publication`` for a caller that publishes them itself (the websocket consumers,
    which publish from the event loop, in order, while they hold the table's queue).
    Frames of one table can still reach the channel layer out of order from two processes
    (or a consumer and the clock): each socket puts them back in version order
    (``TableConsumer.table_frame``).

    ``request`` holds the command's arguments: an idempotency key answers again only the
    command it was first used for; sent with another command (or other arguments) it is
    refused with ``key_reused`` and changes nothing.
    """
    from . import broadcast

    asked = fingerprint(command, request) if key else ""

    # Not inside a caller's transaction: the last round trip can carry the COMMIT too.
    outermost = connection.get_autocommit() and connection.vendor == "postgresql"
    try:
        with transaction.atomic(), fastsql.batched_writes():
            locked = _lock_table(table_id, actor, key)
            table = locked.table
            if key and locked.answer is not None:
                if locked.request and locked.request != asked:
                    raise ServiceError(
                        "key_reused",
                        "this idempotency key was already used for another command: "
                        "nothing was done; send a new key with each command",
                    )
                answer = fastsql.loads(locked.answer)
                return Result(answer["version"], answer, replayed=True)
            if expected_version is not None and expected_version != table.version:
                raise ServiceError(
                    "stale_version",
                    f"the table moved on (version {table.version}, you sent {expected_version}): "
                    "refresh and try again",
                )
            ctx = Context(table, actor, timezone.now())
            ctx.stored_round, ctx.seats = locked.stored_round, locked.seats
            response = body(ctx) or {}
            _save_round(ctx)
            _note_balances(ctx)
            version = _write_events(ctx)
            response = {"version": version, **response}
            if key:
                fastsql.insert_many(
                    CommandRecord,
                    ["table_id", "actor", "key", "command", "request", "response", "created"],
                    [
                        (
                            table_id,
                            actor,
                            key,
                            command,
                            asked,
                            fastsql.dumps(response),
                            fastsql.when(ctx.now),
                        )
                    ],
                    returning=False,
                )
            fastsql.flush(commit=outermost)
            publication = Publication(
                table_id,
                version,
                ctx.round_row.pk if ctx.round_row else None,
                list(ctx.events),
                _private_audience(ctx),
            )
            if publish:
                transaction.on_commit(lambda: broadcast.publish(publication))
                return Result(version, response)
            return Result(version, response, publication=publication)
    except EngineError as exc:
        raise ServiceError(exc.code, exc.message) from exc
    except ledger.InsufficientFunds as exc:
        raise ServiceError(exc.code, exc.message) from exc


def _private_audience(ctx: Context) -> dict[str, int]:
    """User ids of the players who get private events from this command."""
    names = {e.audience.removeprefix("player:") for e in ctx.events if e.audience != PUBLIC}
    user_ids = {name: uid for uid, name in ctx.seats.values() if name in names}
    missing = names - set(user_ids)
    if missing:  # a player whose seat this command gave up or took
        user_ids.update(User.objects.filter(username__in=missing).values_list("username", "pk"))
    return user_ids


# --- actors -------------------------------------------------------------------------------


def player_name(user: AbstractBaseUser) -> str:
    return user.get_username()


def dealer_name(user: AbstractBaseUser | None) -> str:
    return f"dealer:{user.get_username()}" if user is not None else "clock"


def _as_dealer(
    user: AbstractBaseUser | None,
    body: Callable[[Context], dict[str, Any] | None],
    staff_may: bool = False,
) -> Callable[[Context], dict[str, Any] | None]:
    """``body``, run only for a dealer assigned to this table (checked under the table's
    lock, so a dealer taken off the table stops at the next command), or for the house's
    clock (no user). ``staff_may``: table staff (``table.change_table``, the admin) too."""

    def checked(ctx: Context) -> dict[str, Any] | None:
        if user is not None and not duties.can_deal(user, ctx.table.pk):
            if not (staff_may and user.has_perm("table.change_table")):
                raise ServiceError(
                    "not_your_table", f"{user.get_username()} is not assigned to deal this table"
                )
        ctx.dealer = user
        return body(ctx)

    return checked


def _audit(ctx: Context, action: str, details: dict[str, Any]) -> None:
    """The command's privileged action into the audit log, in its transaction."""
    round_id = ctx.round_row.pk if ctx.round_row is not None else None
    duties.record(
        ctx.dealer, action, details, table_id=ctx.table.pk, round_id=round_id, when=ctx.now
    )


def _seat_of(ctx: Context, user: AbstractBaseUser, box: int) -> Seat:
    seat = Seat.objects.filter(table=ctx.table, box=box).first()
    if seat is None or seat.player_id != user.pk:
        raise ServiceError("not_your_box", f"you are not seated at box {box}")
    return seat


def _check_seat(ctx: Context, user: AbstractBaseUser, box: int) -> None:
    seat = ctx.seats.get(box)  # as read with the table's lock
    if seat is None or seat[0] != user.pk:
        raise ServiceError("not_your_box", f"you are not seated at box {box}")


def _check_box_number(box: object) -> int:
    if not isinstance(box, int) or isinstance(box, bool) or not 1 <= box <= 6:
        raise ServiceError("bad_box", f"there is no box {box!r}; boxes are 1 to 6")
    return box


# --- seating ------------------------------------------------------------------------------


def sit(table_id: int, user: AbstractBaseUser, box: int, **kw: Any) -> Result:
    """Take a free box; a player's boxes must be adjacent, at most the allowed count."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        if not ctx.table.is_open:
            raise ServiceError("table_closed", "the table is closed")
        if duties.deals_table(user, ctx.table.pk):
            # Segregation of duties: the dealer of a table does not play at it.
            raise ServiceError(
                "dealer_at_table", "you deal this table: a dealer may not play at it"
            )
        taken = Seat.objects.filter(table=ctx.table, box=number).first()
        if taken is not None:
            if taken.player_id == user.pk:
                raise ServiceError("already_seated", f"you already sit at box {number}")
            raise ServiceError("box_taken", f"box {number} is taken")
        mine = sorted(
            Seat.objects.filter(table=ctx.table, player=user).values_list("box", flat=True)
        )
        allowed = ctx.rules.adjacent_boxes
        boxes = sorted([*mine, number])
        if len(boxes) > allowed:
            raise ServiceError(
                "too_many_boxes", f"a player may play at most {allowed} adjacent boxes (§684a.7(e))"
            )
        if boxes[-1] - boxes[0] != len(boxes) - 1:
            raise ServiceError("not_adjacent", "your boxes must be next to each other")
        Seat.objects.create(table=ctx.table, box=number, player=user)
        ledger.player_account(user)
        ctx.note("seated", {"box": number, "player": player_name(user)})
        return {"box": number}

    return execute(table_id, player_name(user), "sit", body, request={"box": box}, **kw)


def _box_has_stake(rnd: EngineRound | None, box: int) -> bool:
    return bool(rnd and not rnd.finished and box in rnd.boxes and rnd.boxes[box].in_play)


def stand(table_id: int, user: AbstractBaseUser, box: int, **kw: Any) -> Result:
    """Stand up from a box. During betting its wagers come back; after "no more bets" the
    player must stay seated until the round is over (§684a.7(b))."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        seat = _seat_of(ctx, user, number)
        rnd = ctx.load_round()
        if _box_has_stake(rnd, number):
            assert rnd is not None
            if rnd.phase is not Phase.BETTING:
                raise ServiceError(
                    "round_in_play", "you have cards in this round: stay until it is settled"
                )
            ctx.apply(rnd.withdraw(number, player_name(user)))
        mine = sorted(
            Seat.objects.filter(table=ctx.table, player=user)
            .exclude(pk=seat.pk)
            .values_list("box", flat=True)
        )
        if mine and mine[-1] - mine[0] != len(mine) - 1:
            raise ServiceError("not_adjacent", "standing here would leave your boxes apart")
        seat.delete()
        ctx.note("stood", {"box": number, "player": player_name(user)})
        return {"box": number}

    return execute(table_id, player_name(user), "stand", body, request={"box": box}, **kw)


def leave(table_id: int, user: AbstractBaseUser, **kw: Any) -> Result:
    """The player leaves the table (or their grace period ran out): wagers in betting come
    back; boxes already dealt fold when their turn comes (§684a.7(b)); seats are freed once
    nothing of theirs is left in play."""

    def body(ctx: Context) -> dict[str, Any]:
        name = player_name(user)
        rnd = ctx.load_round()
        if rnd is not None and not rnd.finished:
            ctx.apply(rnd.abandon(name))
        freed = []
        for seat in Seat.objects.filter(table=ctx.table, player=user):
            if not _box_has_stake(rnd, seat.box):
                freed.append(seat.box)
                seat.delete()
            elif seat.connected:
                seat.connected = False
                seat.disconnected_at = seat.disconnected_at or ctx.now
                seat.save(update_fields=["connected", "disconnected_at"])
        ctx.note("player_left", {"player": name, "boxes": freed})
        return {"freed": freed}

    return execute(table_id, player_name(user), "leave", body, **kw)


def set_connected(
    table_id: int, user: AbstractBaseUser, connected: bool, socket: str = ""
) -> dict[str, Any] | None:
    """Mark a seated player here or gone at once (the grace period starts when they drop).
    Presence is no table change: no event in the chain, no version (table.presence, which
    the sockets use with its lease and debounce). Returns the change, or None if none."""
    if connected:
        return presence.claim(table_id, user, socket)
    now = timezone.now()
    mine = Seat.objects.filter(table_id=table_id, player=user, connected=True)
    boxes = sorted(mine.values_list("box", flat=True))
    if not boxes or not mine.update(
        connected=False, disconnected_at=now, presence_until=now, presence_socket=""
    ):
        return None
    return {"player": player_name(user), "connected": False, "boxes": boxes}


# --- who deals ------------------------------------------------------------------------------

#: An automatic dealer whose heartbeat is older than this has stopped (autodealer.STALE_AFTER).
DEALER_STALE = dt.timedelta(seconds=15)


def _dealing_autodealer(table: Table, now: dt.datetime) -> str:
    """The automatic dealer dealing this table now, or ""."""
    by = table.dealt_by
    if not by or by.startswith("dealer:"):
        return ""
    alive = table.clock_heartbeat is not None and now - table.clock_heartbeat < DEALER_STALE
    return by if alive and table.clock_owner == by else ""


def _check_driver(ctx: Context) -> None:
    """One driver moves the rounds on: the automatic dealer, or a dealer who took over at
    the console (the demo had both pressing, "No more bets" 2 s into a 15 s countdown)."""
    by = ctx.table.dealt_by
    if ctx.actor.startswith("dealer:") and _dealing_autodealer(ctx.table, ctx.now):
        raise ServiceError(
            "autodealer_deals",
            f"the automatic dealer ({by}) deals this table: take over at the console first",
        )
    if ctx.actor == "clock" and by.startswith("dealer:"):
        raise ServiceError(
            "dealer_deals", f"{by.removeprefix('dealer:')} has taken this table over at the console"
        )


def _set_dealt_by(ctx: Context, by: str) -> None:
    # Not among _write_events' columns: changed only here, under the table's lock.
    Table.objects.filter(pk=ctx.table.pk).update(dealt_by=by)
    ctx.table.dealt_by = by


def take_over(table_id: int, dealer: AbstractBaseUser, **kw: Any) -> Result:
    """A dealer at the console takes the table over: the automatic dealer (if one runs) keeps
    only the decision clock and lets dropped players go; the round in play goes on."""

    def body(ctx: Context) -> dict[str, Any]:
        name = dealer_name(dealer)
        was = ctx.table.dealt_by
        if was == name:
            raise ServiceError("already_dealing", "you already deal this table")
        _set_dealt_by(ctx, name)
        ctx.note("dealing", {"by": name, "was": was})
        return {"by": name}

    return execute(table_id, dealer_name(dealer), "take_over", body, **kw)


def hand_back(table_id: int, dealer: AbstractBaseUser, **kw: Any) -> Result:
    """The dealer who took over gives the table back to the automatic dealer (if one runs)."""

    def body(ctx: Context) -> dict[str, Any]:
        name = dealer_name(dealer)
        if ctx.table.dealt_by != name:
            raise ServiceError("not_dealing", "you do not deal this table: nothing to hand back")
        _set_dealt_by(ctx, "")
        ctx.note("dealing", {"by": "", "was": name})
        return {"by": ""}

    return execute(table_id, dealer_name(dealer), "hand_back", body, **kw)


def claim_dealing(table_id: int, owner: str) -> Result:
    """The automatic dealer that owns the table's clock starts dealing, unless a dealer has
    taken the table over."""

    def body(ctx: Context) -> dict[str, Any]:
        was = ctx.table.dealt_by
        if was.startswith("dealer:"):
            raise ServiceError("dealer_deals", f"{was.removeprefix('dealer:')} deals this table")
        _set_dealt_by(ctx, owner)
        ctx.note("dealing", {"by": owner, "was": was})
        return {"by": owner}

    return execute(table_id, "clock", "claim_dealing", body)


def release_dealing(table_id: int, owner: str) -> Result | None:
    """The automatic dealer stops: the table is nobody's to deal until someone presses."""
    if not Table.objects.filter(pk=table_id, dealt_by=owner).exists():
        return None

    def body(ctx: Context) -> dict[str, Any]:
        if ctx.table.dealt_by == owner:
            _set_dealt_by(ctx, "")
            ctx.note("dealing", {"by": "", "was": owner})
        return {}

    return execute(table_id, "clock", "release_dealing", body)


# --- betting --------------------------------------------------------------------------------


def open_betting(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """Open a new round: shuffle the next deck, publish its commitment, take bets."""

    def body(ctx: Context) -> dict[str, Any]:
        table = ctx.table
        _check_driver(ctx)
        if not table.is_open:
            raise ServiceError("table_closed", "the table is closed")
        current = ctx.load_round()
        if current is not None and not current.finished:
            raise ServiceError(
                "round_in_play", f"round {current.number} is still {current.phase.value}"
            )
        if table.pending_rules_id:
            table.rules_id = table.pending_rules_id
            table.pending_rules = None
            table.rules = RulesSubmission.objects.get(pk=table.rules_id)
        rules = ctx.rules
        # A Submission in force that breaks the rules (say one from before jurisdictions
        # were checked) deals no round; the refusal is the one change_rules gives.
        problems = rules.problems()
        if problems:
            raise ServiceError("bad_rules", "; ".join(m for _, m in problems))
        shuffler = _shuffler(table, rules)
        try:
            # §684a.3(b): one deck, or two alternating, as the submission in force says.
            if shuffler.match_rules(rules.two_decks, time.time()):
                ctx.note(
                    "decks_changed",
                    {
                        "decks": [d.back for d in shuffler.decks],
                        "reason": f"the Rules Submission “{table.rules.name}” plays "
                        + ("two decks" if rules.two_decks else "one deck"),
                    },
                )
            back, order = shuffler.shuffle_next(RANDOM, time.time())
        except EngineError as exc:
            if exc.code != "deck_miscount":
                raise
            # §684a.5(b): the deck that counted wrong leaves the table; no round opens on it.
            table.shoe = shuffler.to_dict()
            ctx.note("deck_removed", {"reason": exc.message})
            return {"opened": False, "deck_removed": exc.message}
        table.shoe = shuffler.to_dict()
        number = (current.number if current else 0) + 1
        if current is None:
            last = Round.objects.filter(table=table).order_by("-number").first()
            number = (last.number if last else 0) + 1
        rnd, step = EngineRound.open(number, rules, back, order, new_salt())
        [round_id] = fastsql.insert_many(
            Round,
            [
                "table_id",
                "number",
                "rules_submission_id",
                "rules",
                "phase",
                "state",
                "commitment",
                "deck_back",
                "void_reason",
                "opened_at",
            ],
            [
                (
                    table.pk,
                    number,
                    table.rules_id,
                    fastsql.dumps(rules.to_dict()),
                    rnd.phase.value,
                    fastsql.dumps(rnd.to_dict()),
                    rnd.commitment,
                    back,
                    "",
                    fastsql.when(ctx.now),
                )
            ],
            returning=True,
        )
        ctx.round_row = Round(id=round_id, phase=rnd.phase.value)
        ctx.engine = rnd
        table.current_round = ctx.round_row
        table.betting_deadline = ctx.now + dt.timedelta(seconds=rules.betting_seconds)
        ctx.apply(step)
        ctx.events[-1].data["deadline"] = _deadline_ms(table.betting_deadline)
        ctx.events[-1].data["seconds"] = rules.betting_seconds
        return {"opened": True, "round": number, "commitment": rnd.commitment}

    return execute(table_id, dealer_name(dealer), "open_betting", _as_dealer(dealer, body), **kw)


def _shuffler(table: Table, rules: TableRules) -> Shuffler:
    if table.shoe:
        return Shuffler.from_dict(table.shoe)
    return Shuffler.fresh(time.time(), rules.two_decks)


def place_bets(
    table_id: int, user: AbstractBaseUser, box: int, wagers: dict[str, Any], **kw: Any
) -> Result:
    """Place or change a box's wagers: Ante (Odds equal to it) and optional wagers."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        _check_seat(ctx, user, number)
        rnd = ctx.live_round()
        ctx.apply(rnd.bet(number, player_name(user), dict(wagers)))
        return {"box": number, "wagers": rnd.boxes[number].wagers if number in rnd.boxes else {}}

    request = {"box": box, "wagers": _stakes(wagers)}
    return execute(table_id, player_name(user), "bet", body, request=request, **kw)


def withdraw_bets(table_id: int, user: AbstractBaseUser, box: int, **kw: Any) -> Result:
    return place_bets(table_id, user, box, {}, **kw)


def no_more_bets(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> None:
        _check_driver(ctx)
        ctx.apply(ctx.live_round().close_betting())

    return execute(table_id, dealer_name(dealer), "no_more_bets", _as_dealer(dealer, body), **kw)


def deal(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """Deal from the virtual automated shoe; any armed shoe fault happens now."""

    def body(ctx: Context) -> dict[str, Any]:
        _check_driver(ctx)
        rnd = ctx.live_round()
        shuffler = _shuffler(ctx.table, rnd.rules)
        faults = shuffler.take_deal_faults() if rnd.phase is Phase.CLOSED else []
        ctx.apply(rnd.deal(faults))
        ctx.table.shoe = shuffler.to_dict()
        ctx.table.rounds_since_stub_count += 1
        return {"phase": rnd.phase.value}

    return execute(table_id, dealer_name(dealer), "deal", _as_dealer(dealer, body), **kw)


def decide(table_id: int, user: AbstractBaseUser, box: int, multiple: int, **kw: Any) -> Result:
    """Raise 1x/2x/3x the Ante or fold (0), when it is this box's turn (§684a.11(b))."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        rnd = ctx.live_round()
        ctx.apply(rnd.decide(number, player_name(user), multiple))
        return {"box": number, "multiple": multiple}

    request = {"box": box, "raise": multiple}
    return execute(table_id, player_name(user), "decide", body, request=request, **kw)


def time_out(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """The box to act ran out of decision time: it folds (abandoned wagers, §684a.7(b)).
    Run by the clock, or from the console by a dealer assigned to the table."""

    def body(ctx: Context) -> dict[str, Any]:
        rnd = ctx.live_round()
        if ctx.table.turn_deadline and ctx.table.turn_deadline > ctx.now:
            raise ServiceError("not_yet", "the player still has time")
        box = rnd.to_act
        ctx.apply(rnd.time_out())
        return {"box": box}

    return execute(table_id, "clock", "time_out", _as_dealer(dealer, body), **kw)


def reveal(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> None:
        _check_driver(ctx)
        ctx.apply(ctx.live_round().reveal())

    return execute(table_id, dealer_name(dealer), "reveal", _as_dealer(dealer, body), **kw)


def _test_settle_delay() -> None:
    """Crash-test hook (tests/integrity/test_crash.py): with ``FRENZY_TEST_SETTLE_DELAY`` set,
    wait that many seconds inside the settle transaction, after the ledger postings, so that a
    process killed now dies mid-settlement. Never set in production."""
    delay = os.environ.get("FRENZY_TEST_SETTLE_DELAY")
    if delay:
        time.sleep(float(delay))


def settle(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> dict[str, Any]:
        _check_driver(ctx)
        rnd = ctx.live_round()
        ctx.apply(rnd.settle())
        _test_settle_delay()
        return {"players": (rnd.results or {}).get("players", {})}

    return execute(table_id, dealer_name(dealer), "settle", _as_dealer(dealer, body), **kw)


# --- irregularities and the shoe ----------------------------------------------------------------


def void_round(
    table_id: int, reason: str, dealer: AbstractBaseUser | None = None, **kw: Any
) -> Result:
    """Void the round for a named irregularity of §684a.13: every stake goes back."""

    def body(ctx: Context) -> dict[str, Any]:
        if reason not in DECLARABLE_VOIDS:
            raise ServiceError("unknown_irregularity", f"unknown irregularity {reason!r}")
        # The engine takes no void on trust: the deal's irregularities only from the shoe,
        # a stub miscount only from the count, nothing once the outcome is known.
        ctx.apply(ctx.live_round().void(reason))
        return {"reason": reason}

    return execute(
        table_id,
        dealer_name(dealer),
        "void",
        _as_dealer(dealer, body),
        request={"reason": reason},
        **kw,
    )


def dealer_card_exposed(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """§684a.13(d) declared by the dealer: refused. In the virtual shoe no dealer card is seen
    before the reveal unless the shoe shows it while dealing (the ``dealer_card_exposed``
    drill, armed before the deal, which then voids the main game itself); a declaration
    after seeing who raised would choose whose Raise stands."""

    def body(ctx: Context) -> None:
        rnd = ctx.live_round()
        if rnd.phase is not Phase.DECISIONS:
            raise ServiceError("wrong_phase", f"not allowed now: the round is {rnd.phase.value}")
        raise ServiceError(
            "shoe_only",
            "in the virtual shoe a dealer card is exposed only by the shoe, while dealing; "
            "nothing shows one exposed in this round (§684a.13(d))",
        )

    return execute(
        table_id, dealer_name(dealer), "dealer_card_exposed", _as_dealer(dealer, body), **kw
    )


def arm_fault(
    table_id: int, fault: str, dealer: AbstractBaseUser | None = None, **kw: Any
) -> Result:
    """Tell the virtual shoe to fail on its next shuffle or deal (§684a.13 drills)."""

    def body(ctx: Context) -> dict[str, Any]:
        try:
            kind = Fault(fault)
        except ValueError:
            raise ServiceError(
                "unknown_fault",
                f"unknown shoe fault {fault!r} (one of {', '.join(f.value for f in Fault)})",
            ) from None
        shuffler = _shuffler(ctx.table, ctx.rules)
        shuffler.arm(kind)
        ctx.table.shoe = shuffler.to_dict()
        ctx.note("shoe_fault_armed", {"fault": kind.value})
        _audit(ctx, "drill_armed", {"fault": kind.value})
        return {"fault": kind.value}

    request = {"fault": fault}
    return execute(
        table_id, dealer_name(dealer), "arm_fault", _as_dealer(dealer, body), request=request, **kw
    )


def change_decks(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """Bring new decks into play (at least every 8 hours, §684a.3(c)(2))."""

    def body(ctx: Context) -> dict[str, Any]:
        rnd = ctx.load_round()
        if rnd is not None and not rnd.finished and rnd.phase is not Phase.BETTING:
            raise ServiceError("round_in_play", "change decks between rounds")
        shuffler = _shuffler(ctx.table, ctx.rules)
        shuffler.change_decks(time.time(), ctx.rules.two_decks)
        ctx.table.shoe = shuffler.to_dict()
        ctx.table.rounds_since_stub_count = 0
        ctx.note("decks_changed", {"decks": [d.back for d in shuffler.decks]})
        _audit(ctx, "decks_changed", {"decks": [d.back for d in shuffler.decks]})
        return {}

    return execute(
        table_id,
        dealer_name(dealer),
        "change_decks",
        _as_dealer(dealer, body, staff_may=True),
        **kw,
    )


def count_stub(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """Count the last round's cards (§684a.10(d)-(f)): 52 resets the count; else void."""

    def body(ctx: Context) -> dict[str, Any]:
        rnd = ctx.load_round()
        if rnd is None:
            raise ServiceError("no_round", "no round has been dealt yet")
        if not rnd.dealer_cards:
            # Nothing dealt, no stub: a "count" now would reset the counter unseen.
            raise ServiceError(
                "no_stub",
                f"round {rnd.number} has not been dealt: the stub is counted after a deal",
            )
        if rnd.phase is Phase.REVEALED:
            # §684a.11(c): with the dealer's hand face up the dealer settles; a void now
            # would pick the outcome. Count the stub once the round is settled.
            raise ServiceError(
                "wrong_phase", "the dealer's hand is face up: settle the round, then count the stub"
            )
        counted = rnd.stub_count()
        ok = counted == 52
        if ok:
            ctx.table.rounds_since_stub_count = 0
        elif not rnd.finished:
            ctx.apply(rnd.void("stub_miscount"))
        ctx.note("stub_counted", {"count": counted, "correct": ok})
        _audit(ctx, "stub_counted", {"round": rnd.number, "count": counted, "correct": ok})
        return {"count": counted, "correct": ok}

    return execute(table_id, dealer_name(dealer), "count_stub", _as_dealer(dealer, body), **kw)


# --- the table ------------------------------------------------------------------------------


def open_table(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> None:
        ctx.table.is_open = True
        ctx.note("table_opened", {})
        _audit(ctx, "table_opened", {})

    return execute(
        table_id, dealer_name(dealer), "open_table", _as_dealer(dealer, body, staff_may=True), **kw
    )


def close_table(table_id: int, dealer: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """Close the table; a round still taking bets is voided and its wagers returned."""

    def body(ctx: Context) -> None:
        rnd = ctx.load_round()
        if rnd is not None and not rnd.finished:
            if rnd.phase is not Phase.BETTING:
                raise ServiceError("round_in_play", "finish the round before closing the table")
            ctx.apply(rnd.void("table_closed", {"closed_by": ctx.actor}))
        ctx.table.is_open = False
        ctx.note("table_closed", {})
        _audit(ctx, "table_closed", {})

    return execute(
        table_id, dealer_name(dealer), "close_table", _as_dealer(dealer, body, staff_may=True), **kw
    )


def change_rules(
    table_id: int, rules: RulesSubmission, staff: AbstractBaseUser | None = None, **kw: Any
) -> Result:
    """Put a Rules Submission in force now if no round is in play, else when it ends."""

    def body(ctx: Context) -> dict[str, Any]:
        problems = rules.to_table_rules().problems()
        if problems:
            raise ServiceError("bad_rules", "; ".join(m for _, m in problems))
        rnd = ctx.load_round()
        if rnd is not None and not rnd.finished:
            ctx.table.pending_rules = rules
            ctx.note("rules_pending", _rules_notice(rnd, rules))
            _audit(ctx, "rules_change", {"rules": rules.name, "pending": True})
            return {"pending": True}
        _audit(ctx, "rules_change", {"rules": rules.name, "was": ctx.table.rules.name})
        ctx.table.rules = rules
        ctx.table.pending_rules = None
        ctx.note("rules_changed", _rules_notice(rnd, rules))
        return {"pending": False}

    request = {"rules": rules.pk}
    return execute(
        table_id,
        dealer_name(staff),
        "change_rules",
        _as_dealer(staff, body, staff_may=True),
        request=request,
        **kw,
    )


def _rules_notice(rnd: EngineRound | None, rules: RulesSubmission) -> dict[str, Any]:
    """What players are told before the next betting window: the submission, and each thing
    that changes from the rules of the round in play (or the last one), in words."""
    changes = rule_changes(rnd.rules, rules.to_table_rules()) if rnd is not None else []
    return {
        "rules": rules.name,
        "changes": changes,
        "from_round": rnd.number + 1 if rnd is not None else None,
    }


def rules_edited(table_id: int, staff: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """The Rules Submission the table's next round will play under was saved with new
    values (the admin): announce it now, before the next betting window. A round in play
    keeps the rules it opened with (they are frozen in the round)."""

    def body(ctx: Context) -> dict[str, Any]:
        rnd = ctx.load_round()
        rules = RulesSubmission.objects.get(pk=ctx.table.pending_rules_id or ctx.table.rules_id)
        notice = _rules_notice(rnd, rules)
        if rnd is not None and not rnd.finished:
            ctx.note("rules_pending", notice)
        else:
            ctx.note("rules_changed", notice)
        return notice

    return execute(table_id, dealer_name(staff), "rules_edited", body, **kw)


def fail_unfinished_round(table_id: int) -> Result | None:
    """Void a round left unfinished and return every stake (a round is normally resumed
    from the store after a restart; this is for a table being cleared, e.g. by bench_load)."""
    table = Table.objects.get(pk=table_id)
    if not table.current_round_id:
        return None
    row = Round.objects.get(pk=table.current_round_id)
    if row.phase in (Phase.SETTLED.value, Phase.VOID.value):
        return None

    def body(ctx: Context) -> None:
        rnd = ctx.live_round()
        if rnd.phase is Phase.REVEALED:
            # The outcome is known: the round is settled, never voided (§684a.11(c)).
            ctx.apply(rnd.settle())
            return
        ctx.apply(rnd.void("server_restart", {"phase": rnd.phase.value}))

    return execute(table_id, "clock", "void", body)


# --- reading ----------------------------------------------------------------------------------


def restart_betting_clock(table_id: int, *, wait: bool = False, **kw: Any) -> Result:
    """Nobody has bet when the countdown ran out: keep betting open for another countdown;
    or (``wait``) with no countdown until someone bets, so that a seated player who never
    bets does not add an event to the log every countdown (the clock starts one when a
    bet comes)."""

    def body(ctx: Context) -> dict[str, Any]:
        rnd = ctx.live_round()
        if rnd.phase is not Phase.BETTING:
            raise ServiceError("wrong_phase", "betting is not open")
        seconds = None if wait else rnd.rules.betting_seconds
        ctx.table.betting_deadline = (
            None if seconds is None else ctx.now + dt.timedelta(seconds=seconds)
        )
        deadline = _deadline_ms(ctx.table.betting_deadline)
        ctx.note("betting_clock", {"deadline": deadline, "seconds": seconds})
        return {"deadline": deadline}

    return execute(table_id, "clock", "betting_clock", body, **kw)
