"""The command path: :func:`execute` runs one command in one transaction.

Each command: lock the table row (``select_for_update``; SQLite serialises writers with
IMMEDIATE transactions), return the first answer for a replayed idempotency key, refuse a
stale client version, load the round, call the engine, store the round, the ledger entries and
the events (:mod:`table.services.records`), bump the table version, and publish the events only
after commit (:mod:`table.broadcast`).

Here too: the locked read (the table, its Rules Submission, the idempotency key's answer, the
round and the seats in one round trip), the command's fingerprint, and who runs a command (a
player's name, a dealer's, :func:`_as_dealer`'s check that a dealer may deal this table).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from table.games.base import Actor
from table.games.errors import EngineError
from table.games.events import to_player

from .. import broadcast, duties, fastsql, ledger
from .. import meters as meter_store
from ..broadcast import Publication
from ..models import CommandRecord, RulesSubmission, Table
from ..protection import guard
from .context import Context, RefusedDuty, Result, ServiceError
from .records import _note_balances, _save_round, _write_events

_TABLE_COLUMNS = (
    "name",
    "is_open",
    "is_test",
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
#: A Table's fields in their order: the locked read builds the row by position (Django's
#: model made from keywords costs twice as much, ~22 us a command, issue 26); a field the
#: read does not bring (``created``) is its default, None, as it was from keywords.
_TABLE_FIELDS = tuple(f.attname for f in Table._meta.concrete_fields)


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
    dealers: dict[int, str]  # the dealers assigned to the table: user id -> username
    session: tuple[Any, ...] | None  # the actor's session: (ended, last active, reality check)
    #: Whether the dealer running the command (``actor`` "dealer:<username>") may credit
    #: accounts now, read under the lock; None: not a dealer's command, or no such user.
    dealer_credits: bool | None = None
    #: With a player's command on PostgreSQL: the rows of the acting player's account and the
    #: table's bankroll, locked in the same round trip (``fastsql.lock_table_accounts``).
    accounts: list[tuple[Any, ...]] | None = None
    #: With ``meters="lock"`` on PostgreSQL: the table's bankroll, locked if the table has a
    #: meter linked (``fastsql.meter_bankroll_lock``): (id, kind, name, balance) rows.
    bankroll: list[tuple[Any, ...]] | None = None
    #: With ``meters`` on PostgreSQL: the rows of ``fastsql.table_meters`` (the table's
    #: linked meters, locked with ``meters="lock"``).
    meters: list[tuple[Any, ...]] | None = None


def _lock_table(
    table_id: int,
    actor: str = "",
    key: str | None = None,
    session: int | None = None,
    hold: Sequence[object] | None = None,
    meters: str = "",
) -> _Locked:
    """The table's row, locked (SELECT ... FOR UPDATE), with its Rules Submission, the
    answer already given to this idempotency key, the current round and the seats: one
    round trip, because every round trip holds the table's lock a little longer.

    On PostgreSQL two statements travel together: the first waits for the row lock, the
    second reads. One statement would not do: at READ COMMITTED a statement that waited for
    a lock sees the locked row as the last command left it, but every other table (the
    round, the seats) as they were when it started waiting.

    ``hold`` (PostgreSQL, a player's command; the dates of ``guard.lock_dates``): the acting
    player's account and the table's bankroll are locked and read after the table row in
    the same round trip, as ``ledger.lock_for_table`` would when the command first moves
    money (the same two statements, in the same order: table row, then accounts).

    ``meters`` (PostgreSQL): ``"lock"``, a command that may change the table's meters (no
    more bets, the settlement): the table's bankroll (if a meter is linked) and the linked
    meters with their accounts are locked and read after the table row, in the same round
    trip, as ``Context._apply_meters`` and ``table.meters`` would lock them when the game first
    changes a meter (the same locks: bankroll, then the meters and their accounts in id
    order); ``"links"``: which meters are linked, unlocked (open betting's check). A table
    with no meter locks and reads nothing more."""
    vendor = fastsql.vendor()
    postgres = vendor == "postgresql"
    dealer = actor.removeprefix("dealer:") if actor.startswith("dealer:") else ""
    app_label, codename = duties.CREDIT_PERMISSION.split(".")
    credit = [codename, app_label, codename, app_label, dealer]
    sql = fastsql.locked_read(vendor, _TABLE_COLUMNS, tuple(f.column for f in _RULES_FIELDS))
    params = (
        [table_id, actor, key, actor, key, *credit, session, actor, table_id]
        if postgres
        else [actor, key, actor, key, *credit, session, actor, table_id]
    )
    accounts = bankroll = linked = None
    if postgres and (hold is not None or meters):
        # Each statement's rows: [0] the table row's lock, [1] the read, then what follows.
        statements, more = [sql], list(params)
        if hold is not None:
            statements.append(fastsql.lock_table_accounts(1, True))  # a lock, then a read
            more += fastsql.lock_table_accounts_params(table_id, [actor], hold)
        if meters == "lock":
            statements.append(fastsql.meter_bankroll_lock(vendor))
            more += [table_id, table_id]
        if meters:
            statements.append(fastsql.table_meters(vendor, meters == "lock"))
            more += [table_id] * 3
        sets = fastsql.result_sets(";\n".join(statements), more)
        found = sets[1][0] if sets[1] else None
        rest = sets[2:]
        if hold is not None:
            accounts, rest = rest[1], rest[2:]
        if meters == "lock":
            bankroll, rest = rest[0], rest[1:]
        if meters:
            linked = rest[0]
    else:
        found = fastsql.last_one(sql, params)
    if found is None:
        raise ServiceError("no_table", f"there is no table {table_id}")
    values = dict(zip(_TABLE_COLUMNS, found[: len(_TABLE_COLUMNS)], strict=True))
    values["shoe"] = fastsql.loads(values["shoe"])
    values["is_open"] = bool(values["is_open"])
    values["is_test"] = bool(values["is_test"])
    values["betting_deadline"] = _moment(values["betting_deadline"])
    values["turn_deadline"] = _moment(values["turn_deadline"])
    values["clock_heartbeat"] = _moment(values["clock_heartbeat"])
    values["id"] = table_id
    table = Table(*[values.get(name) for name in _TABLE_FIELDS])
    rules_end = len(_TABLE_COLUMNS) + len(_RULES_FIELDS)
    # Every field of the Rules Submission, in its order: by position.
    rules = RulesSubmission(*found[len(_TABLE_COLUMNS) : rules_end])
    for f in _RULES_FIELDS:
        if isinstance(f, models.BooleanField):
            setattr(rules, f.attname, bool(getattr(rules, f.attname)))
        elif f.attname == "choices":
            # The game's choices as stored (JSON text), with the rules they read as.
            rules.read_choices(rules.choices)
        elif isinstance(f, models.JSONField):
            setattr(rules, f.attname, fastsql.loads(getattr(rules, f.attname)))
    table.rules = rules
    answer, request, phase, state, seat_rows, dealer_rows, credits, session_row = found[rules_end:]
    seats = {
        int(box): (int(player), str(name))
        for box, player, name in (fastsql.loads(seat_rows) if seat_rows else [])
    }
    stored_round = (phase, state) if phase is not None else None
    dealers = {
        int(dealer): str(name)
        for dealer, name in (fastsql.loads(dealer_rows) if dealer_rows else [])
    }
    session_found = tuple(fastsql.loads(session_row)) if session_row else None
    return _Locked(
        table,
        answer,
        request,
        stored_round,
        seats,
        dealers,
        session_found,
        None if credits is None or not dealer else bool(credits),
        accounts,
        bankroll,
        linked,
    )


def fingerprint(command: str, request: dict[str, Any] | None = None) -> str:
    """What a command asked for (its name and arguments), as kept with its idempotency key."""
    text = json.dumps(
        {"command": command, **(request or {})},
        sort_keys=True,
        separators=(",", ":"),
        default=repr,
    )
    return hashlib.sha256(text.encode()).hexdigest()


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
    received: dt.datetime | None = None,
    session: int | None = None,
    hold_actor: bool = False,
    meters: str = "",
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

    ``received``: when the command's frame reached the server's socket (a player's bet or
    decision is judged against its deadline by it: ``context.made_at``).

    ``hold_actor``: a player's command, which mostly moves the player's money (a wager, a
    Play): on PostgreSQL the player's account and the bankroll are locked with the table
    row, in its round trip, instead of a round trip of their own when the game first moves
    money (``Context._hold``); they are used only if the gaming day, week and month they
    read the player's tallies for are still those of the command's time (``ctx.now``).

    ``meters``: ``"lock"``, a dealer's command that may change the table's shared meters
    (no more bets, the settlement): on PostgreSQL the table's bankroll and its linked meters
    with their accounts are locked with the table row, in its round trip (``_lock_table``),
    instead of three to five statements of their own when the game first changes a meter;
    ``"links"``: which meters are linked (open betting's check), read with it.
    """
    asked = fingerprint(command, request) if key else ""
    hold = None
    postgres = fastsql.vendor() == "postgresql"
    if hold_actor and postgres:
        hold = guard.lock_dates(timezone.now())

    # Not inside a caller's transaction: the last round trip can carry the COMMIT too.
    outermost = connection.get_autocommit() and postgres
    try:
        with transaction.atomic(), fastsql.batched_writes():
            locked = _lock_table(table_id, actor, key, session, hold, meters)
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
            ctx = Context(table, actor, timezone.now(), received=received)
            ctx.stored_round, ctx.seats = locked.stored_round, locked.seats
            ctx.dealers = frozenset(locked.dealers)
            ctx.dealer_names = locked.dealers
            if locked.dealer_credits is not None:
                ctx.credits = (actor.removeprefix("dealer:"), locked.dealer_credits)
            ctx.session, ctx.session_row = session, locked.session
            if locked.accounts is not None and guard.lock_dates(ctx.now) == hold:
                ctx.hold_locked(*ledger.read_locked(table_id, [actor], locked.accounts, True))
            if locked.bankroll:
                [(bankroll, kind, name, balance)] = locked.bankroll
                ctx.bankroll = bankroll
                ctx.held.setdefault(bankroll, (kind, name, balance))
            if locked.meters is not None:
                ctx.linked = meter_store.read_linked(locked.meters, meters == "lock")
            response = body(ctx) or {}
            _protect(ctx)
            _save_round(ctx)
            _note_balances(ctx)
            version = _write_events(ctx)
            response = {"version": version, **response}
            if key:
                fastsql.insert_many(
                    CommandRecord,
                    [
                        "table_id",
                        "actor",
                        "key",
                        "command",
                        "request",
                        "response",
                        "created",
                        "session_id",
                    ],
                    [
                        (
                            table_id,
                            actor,
                            key,
                            command,
                            asked,
                            fastsql.dumps(response),
                            fastsql.when(ctx.now),
                            session,
                        )
                    ],
                    returning=False,
                )
            fastsql.flush(commit=outermost)
            committed = time.monotonic()
            views = _round_views(ctx, version)
            user_ids = _private_audience(ctx)
            if views:
                user_ids.update({name: uid for uid, name in ctx.seats.values()})
                user_ids.update({broadcast.dealer_key(uid): uid for uid in ctx.dealer_names})
            publication = Publication(
                table_id,
                version,
                ctx.round_row.pk if ctx.round_row else None,
                list(ctx.events),
                user_ids,
                views,
                committed,
            )
            if publish:
                transaction.on_commit(lambda: broadcast.publish(publication))
                return Result(version, response)
            return Result(version, response, publication=publication)
    except RefusedDuty as exc:
        # After the command's rollback: the refused attempt itself is in the audit log.
        duties.refused(exc.actor, command, exc.message, {"code": exc.code}, table_id=table_id)
        raise
    except EngineError as exc:
        raise ServiceError(exc.code, exc.message) from exc
    except ledger.InsufficientFunds as exc:
        raise ServiceError(exc.code, exc.message) from exc


def _protect(ctx: Context) -> None:
    """Player protection, in the command's transaction (table/protection/guard.py): a
    player's command from a session, or one that stakes money, is checked (after the
    stake's posting locked the player's account, with what the table row and that lock read:
    no statement of its own); every player's money moved goes onto their day's tally and
    their open sessions' figures since login."""
    staked = any(t.player == ctx.actor and guard.is_stake(t) for t in ctx.transfers)
    if staked or ctx.session is not None:

        def betting() -> bool:
            status = ctx.status()
            return bool(status is not None and status.betting)

        def boxes() -> list[Any]:
            return list(ctx.game.boxes(ctx.state)) if ctx.state is not None else []

        try:
            guard.enforce(
                ctx.actor,
                ctx.session,
                ctx.transfers,
                ctx.now,
                betting,
                boxes,
                ctx.session_row,
                ctx.locked.guard.get(ctx.actor),
            )
        except guard.Refused as exc:
            raise ServiceError(exc.code, exc.message) from exc
    ctx.since_login = guard.record(ctx.transfers, ctx.accounts, ctx.now, ctx.locked.sessions)


def _round_views(ctx: Context, version: int) -> dict[str, str]:
    """The spectators' view ("") and each seated player's own (every felt draws from round
    views), built once here from the state the command holds (after its commit on
    PostgreSQL), so that no socket reads the round from the database after a change. An
    assigned dealer's console's too; a logged-in watcher still builds its own in the read
    pool: one socket per table, not one per seat. The game builds them together
    (``Game.views``: what viewers see alike, once)."""
    game = ctx.game
    state = ctx.load_round()
    if state is None:
        return {"": broadcast.view_text(version, None)} | {
            name: broadcast.view_text(version, None) for _, name in ctx.seats.values()
        }
    keys = [""]
    viewers = [Actor.spectator()]
    for _, name in ctx.seats.values():
        if name not in keys:
            keys.append(name)
            viewers.append(Actor.player(name))
    seated = {uid for uid, _ in ctx.seats.values()}
    for uid, name in ctx.dealer_names.items():
        if uid not in seated:  # seated here, a dealer sees the table as a player
            keys.append(broadcast.dealer_key(uid))
            viewers.append(Actor.dealer(name))
    built = game.views(state, viewers)
    return {key: broadcast.view_text(version, view) for key, view in zip(keys, built, strict=True)}


_TO_PLAYER = to_player("")


def _private_audience(ctx: Context) -> dict[str, int]:
    """User ids of the players who get private events from this command. Only a player's
    audience goes to a user (``broadcast.frames``): an event for the dealer's eyes (the stub
    count, a void's procedure) is looked up for nobody."""
    names = {
        e.audience.removeprefix(_TO_PLAYER) for e in ctx.events if e.audience.startswith(_TO_PLAYER)
    }
    user_ids = {name: uid for uid, name in ctx.seats.values() if name in names}
    missing = names - set(user_ids)
    if missing:  # a player whose seat this command gave up or took
        user_ids.update(User.objects.filter(username__in=missing).values_list("username", "pk"))
    return user_ids


def player_name(user: User) -> str:
    return user.get_username()


def dealer_name(user: User | None) -> str:
    return f"dealer:{user.get_username()}" if user is not None else "clock"


def _as_dealer(
    user: User | None,
    body: Callable[[Context], dict[str, Any] | None],
    staff_may: bool = False,
) -> Callable[[Context], dict[str, Any] | None]:
    """``body``, run only for a dealer assigned to this table (checked under the table's
    lock, so a dealer taken off the table stops at the next command), or for the house's
    clock (no user). ``staff_may``: table staff (``table.change_table``, the admin) too."""

    def checked(ctx: Context) -> dict[str, Any] | None:
        if user is not None and user.pk in ctx.dealers:
            # Checked again as the duty is exercised, from the database (not the permissions
            # cached on a console's user since it connected): one who may credit deals nothing.
            # Whether they may credit came with the locked read when this dealer runs the
            # command (no statement of its own); else (the clock's time-out) it is asked here.
            read = ctx.credits
            known = read[1] if read is not None and read[0] == user.get_username() else None
            problem = duties.clash(user, credits=known)
            if problem:
                raise RefusedDuty("duties_combined", problem, user)
        if user is not None and not duties.can_deal(user, ctx.table.pk, ctx.dealers):
            if not (staff_may and user.has_perm("table.change_table")):
                raise RefusedDuty(
                    "not_your_table",
                    f"{user.get_username()} is not assigned to deal this table",
                    user,
                )
        ctx.dealer = user
        return body(ctx)

    return checked
