"""The progressive meters' store: the games' meters in the database, shared by tables.

Which meters there are, which wagers feed them and pay from them, is each game's meter
catalogue (:meth:`table.games.base.Game.meter_catalogue`, all of them:
:func:`table.games.meter_catalogue`; one game's today); the arithmetic is every game's
(:mod:`table.games.progressive`), so the store and a game's settlement agree to the cent. This
module keeps the meters in :class:`~table.models.ProgressiveMeter` rows, books every change in the
append-only :class:`~table.models.MeterEvent` history and moves the money in the ledger.
Every function here runs inside the caller's ``transaction.atomic()`` (the table's command),
takes the meters' row locks in id order (:func:`lock_meters`, so two tables sharing meters
never deadlock) and publishes one meter frame per change after the transaction commits.

Money (docs/meters.md): each meter has its own ledger account whose balance is always the
meter's ``amount + reserve``.

* seed (a new meter): the house's ``house:progressive`` account → the meter's account;
* increment at "no more bets": the table's bankroll (which holds the locked wagers, the drop)
  → the meter's account, the increment's primary and reserve shares;
* reversal (a void round): the meter's account → that table's bankroll;
* hit: the meter's account → the winning player's account, the amount paid;
* reset to the reseed on a 100% hit: the hitting table's bankroll → the meter's account, the
  reseed (the reserve was already on the account: it only moves from ``reserve`` to
  ``amount``). The hitting table's bankroll is the house account its command already holds,
  so a reseed takes no lock every other table would queue on.

So ``verify_ledger`` balances whatever the meters do, and :func:`verify` checks each meter
against its account and its own history.

One room past 500 lines: every change of a meter takes the same locks, books the same history
and ledger postings and publishes the same frame; kept together so that no path forgets one.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.utils import timezone

from table.games import meter_catalogue
from table.games.base import MeterKind
from table.games.errors import InvalidInput
from table.games.progressive import (
    Increment,
    Meter,
    increment_for,
    pay_out,
    reverse_increment,
    share,
)

from . import fastsql, ledger, meter_outbox
from .models import Account, MeterEvent, ProgressiveMeter, Round, Table

log = logging.getLogger(__name__)

HOUSE_NAME = "house:progressive"
METER_ACCOUNT = Account.METER  # Account.kind of a meter's own account
HOUSE_ACCOUNT = Account.HOUSE  # Account.kind of the house account that funds the seeds


class MeterError(Exception):
    """Bad input or a broken rule: nothing was changed (the caller's transaction rolls back)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


def meter_group(meter_id: int) -> str:
    """The channel-layer group a meter's frames go to (docs/protocol.md, "meter")."""
    return f"meter.{meter_id}"


def _require_transaction() -> None:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("the meter services run inside the caller's transaction.atomic()")


def house_account() -> Account:
    account, _ = Account.objects.get_or_create(name=HOUSE_NAME, defaults={"kind": HOUSE_ACCOUNT})
    return account


# --- creating and locking --------------------------------------------------------------------


def create_meter(
    name: str, kind: str, paytable: str, wager: int, tables: Iterable[Table] = ()
) -> ProgressiveMeter:
    """A new meter at its seed (§657a.12(d)(3), (e)(3), (f)(4)), funded by the house, with its
    rates copied from the engine's paytable data."""
    found = meter_catalogue().get((kind, paytable))
    if found is None:
        raise MeterError("bad_meter", f"no paytable has a {kind} meter for paytable {paytable!r}")
    if wager not in found.stakes:
        raise MeterError(
            "bad_meter",
            f"the wager is {' or '.join(map(str, found.stakes))} cents, not {wager!r}",
        )
    spec = found.rates
    with transaction.atomic():
        account = Account.objects.create(kind=METER_ACCOUNT, name=f"meter:{name}")
        meter = ProgressiveMeter.objects.create(
            name=name,
            kind=kind,
            paytable=paytable,
            wager=wager,
            seed=spec.seed,
            reseed=spec.reseed,
            primary_rate=spec.primary,
            reserve_rate=spec.reserve,
            account=account,
        )
        meter.tables.set(list(tables))
        seed = spec.seed_amount(wager)
        house = house_account().pk
        ledger.post(
            [ledger.Posting(f"progressive seed: {name}", ((house, -seed), (account.pk, seed)))]
        )
        _book(meter, Meter(0, 0), Meter(seed, 0), MeterEvent.SEED, keep=True, funded=seed)
        _after_commit(meter, MeterEvent.SEED, None)
    return meter


def lock_meters(ids: Iterable[int]) -> dict[int, ProgressiveMeter]:
    """Lock these meters' rows (``SELECT ... FOR UPDATE``) in id order and return them by id.

    Every writer locks in the same order, so two tables linked to the same meters wait for
    each other instead of deadlocking; a meter read under its lock is the meter as it stands.
    """
    _require_transaction()
    wanted = sorted(set(ids))
    meters = {
        m.pk: m
        for m in ProgressiveMeter.objects.select_for_update().filter(pk__in=wanted).order_by("pk")
    }
    missing = [i for i in wanted if i not in meters]
    if missing:
        raise MeterError("unknown_meter", f"no meter with id {missing[0]}")
    return meters


@dataclass
class Linked:
    """A table's linked meters as one statement read them (``fastsql.table_meters``): the
    meters by id (in id order), each one's ledger account (kind, name, balance) for
    ``ledger.post``, the table's current round then and the meters that round has fed.
    ``locked``: read with the meters' and their accounts' row locks (a command's: what its
    meter changes are made on); else only what is linked (open betting's check)."""

    meters: dict[int, ProgressiveMeter]
    accounts: ledger.Held
    round_id: int | None
    fed: set[int]
    locked: bool


def read_linked(rows: Iterable[Sequence[Any]], locked: bool) -> Linked:
    """What :func:`linked` makes of the rows of ``fastsql.table_meters`` (also read in a
    command's locked read: table/services/command.py)."""
    out = Linked({}, {}, None, set(), locked)
    width = len(fastsql.METER_COLUMNS)
    for row in rows:
        meter = ProgressiveMeter.from_db("default", fastsql.METER_COLUMNS, row[:width])
        kind, name, balance, round_id, fed = row[width:]
        out.meters[meter.pk] = meter
        out.accounts[meter.account_id] = (kind, name, balance)
        out.round_id = round_id
        if fed:
            out.fed.add(meter.pk)
    return out


def _holding(held: ledger.Held | None, found: Linked) -> ledger.Held:
    """The accounts the command holds, with the meters' accounts locked with the meters (an
    account already held keeps what the command made of it)."""
    if held is None:
        return found.accounts  # kept up to date by ledger.post, for the next change
    for account_id, account in found.accounts.items():
        held.setdefault(account_id, account)
    return held


def linked(table_id: int, lock: bool = True) -> Linked:
    """The meters linked to a table, locked (``lock``) in id order with their accounts, in
    one statement."""
    if lock:
        _require_transaction()
    sql = fastsql.table_meters(fastsql.vendor(), lock)
    return read_linked(fastsql.rows(sql, [table_id] * 3), lock)


def table_meters(table: Table, found: Linked | None = None) -> dict[str, ProgressiveMeter]:
    """The meters linked to ``table``, locked, by kind (``found``: as the command already
    locked them). A table has at most one of each."""
    if found is None or not found.locked:
        found = linked(table.pk)
    by_kind: dict[str, ProgressiveMeter] = {}
    for meter in found.meters.values():
        if meter.kind in by_kind:
            raise MeterError(
                "bad_links",
                f"{table.name} is linked to two {meter.kind} meters "
                f"({by_kind[meter.kind].name}, {meter.name}): unlink one in the admin",
            )
        by_kind[meter.kind] = meter
    return by_kind


def _catalogued(meter: ProgressiveMeter) -> MeterKind:
    """The meter's entry in its game's meter catalogue."""
    found = meter_catalogue().get((meter.kind, meter.paytable))
    if found is None:
        raise MeterError(
            "bad_meter", f"no game has a {meter.kind} meter for paytable {meter.paytable!r}"
        )
    return found


def _family(kind: str, paytable: str) -> str:
    """The family a meter belongs to (e.g. its progressive paytable, "four_card A",
    "five_card C"), or "" for none (the hand-bonus meter)."""
    found = meter_catalogue().get((kind, paytable))
    return "" if found is None else found.family


def link_problems(
    meter_id: int | None, kind: str, paytable: str, wager: int, tables: Iterable[Table]
) -> list[str]:
    """Why a meter of this kind may not serve these tables: at most one meter of each kind,
    and every meter of a family from the same family and wager (a game's house
    interpretation, e.g. one progressive paytable and one wager per table)."""
    problems = []
    family = _family(kind, paytable)
    for table in tables:
        others = ProgressiveMeter.objects.filter(tables=table)
        if meter_id is not None:  # a meter being made has no id yet: no row is it
            others = others.exclude(pk=meter_id)
        for other in others:
            if other.kind == kind:
                problems.append(f"{table.name} already has a {kind} meter: {other.name}")
            elif family and _family(other.kind, other.paytable) not in ("", family):
                problems.append(
                    f"{table.name} is linked to {other.name} of another progressive paytable"
                )
            elif family and _family(other.kind, other.paytable) and other.wager != wager:
                problems.append(f"{table.name}'s progressive meters are for another wager")
    return problems


def rounds_in_play(table_ids: Iterable[int]) -> dict[int, str]:
    """The tables among ``table_ids`` with a round not yet settled or void, each with words
    for it ("Table 1's round 7 (decisions)")."""
    from table.games.base import SETTLED_PHASE, VOID_PHASE

    rows = Round.objects.filter(
        table_id__in=list(table_ids), table__current_round_id=models.F("pk")
    ).exclude(phase__in=(SETTLED_PHASE, VOID_PHASE))
    return {
        r.table_id: f"{r.table.name}'s round {r.number} ({r.phase})"
        for r in rows.select_related("table")
    }


def relink_problems(meter_id: int | None, before: Iterable[int], after: Iterable[int]) -> list[str]:
    """Why the tables of a meter may not change from ``before`` to ``after`` (table ids) now:
    a round depends on the meters it was opened with, from its increments at "no more bets"
    (§657a.10(a)(2)) to its payouts or its void's reversal (§657a.12, §657a.13); a table's
    links change only between rounds (issue 23: a round must always settle or void)."""
    changed = set(before) ^ set(after)
    if not changed:
        return []
    return [
        f"{words} is in play: the meters a round was opened with stay linked until it is "
        "settled or void. Change this table's links between rounds."
        for _, words in sorted(rounds_in_play(changed).items())
    ]


def refuse_relink_in_play(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: set[int] | None, **_: Any
) -> None:
    """``m2m_changed`` of a meter's tables, whatever makes the change (the admin, a shell, a
    command): a link added to or removed from a table with a round in play is refused."""
    if action not in ("pre_add", "pre_remove", "pre_clear"):
        return
    if reverse:  # table.progressivemeter_set: ``instance`` is the table
        tables = [instance.pk]
        if action == "pre_clear":
            pk_set = None
    else:
        if action == "pre_clear":
            pk_set = set(instance.tables.values_list("pk", flat=True))
        tables = list(pk_set or ())
    problems = relink_problems(None, tables, [])
    if problems:
        raise MeterError("round_in_play", problems[0])


# --- the history and the frames --------------------------------------------------------------


def _standing(meter: ProgressiveMeter) -> Meter:
    return Meter(meter.amount, meter.reserve)


#: A history row's columns as a command writes them (:func:`_book`), with each field's value
#: when the change does not give it (the model's defaults).
_EVENT_COLUMNS = {
    "table_id": None,
    "round_id": None,
    "round_number": None,
    "box": None,
    "player_id": None,
    "wager": "",
    "percent": None,
    "stakes": 0,
    "split": 1,
    "paid": 0,
    "funded": 0,
    "reseeded": False,
    "actor_id": None,
    "reason": "",
}
#: The foreign keys a change may name by their row (``table=``, ``round=``, ...).
_ROWS = {"table": "table_id", "round": "round_id", "player": "player_id", "actor": "actor_id"}


def _book(
    meter: ProgressiveMeter,
    before: Meter,
    after: Meter,
    kind: str,
    keep: bool = False,
    **fields: Any,
) -> MeterEvent | None:
    """Write the meter's new standing (its row is locked) and one history row.

    A table's command (an increment, a reversal, a hit) writes both through ``fastsql.write``:
    held for the command's batch of writes (its last round trip), in order with its ledger
    postings; nothing reads them back before the command commits. ``keep`` (a seed, a reset
    by staff: no table command): saved at once, the history row returned."""
    meter.version += 1
    meter.amount, meter.reserve = after.amount, after.reserve
    created = timezone.now()
    if keep:
        ProgressiveMeter.objects.filter(pk=meter.pk).update(
            amount=after.amount, reserve=after.reserve, version=meter.version
        )
        event = MeterEvent(
            meter=meter,
            version=meter.version,
            kind=kind,
            created=created,
            amount_before=before.amount,
            reserve_before=before.reserve,
            amount_after=after.amount,
            reserve_after=after.reserve,
            **fields,
        )
        event.save()
        return event
    fastsql.write(fastsql.meter_update(), [after.amount, after.reserve, meter.version, meter.pk])
    values = dict(_EVENT_COLUMNS)
    for name, value in fields.items():
        if name in _ROWS:
            values[_ROWS[name]] = value.pk if value is not None else None
        else:
            assert name in values, name
            values[name] = value
    fastsql.insert_many(
        MeterEvent,
        [
            "meter_id",
            "version",
            "kind",
            "created",
            "amount_before",
            "reserve_before",
            "amount_after",
            "reserve_after",
            *values,
        ],
        [
            (
                meter.pk,
                meter.version,
                kind,
                fastsql.when(created),
                before.amount,
                before.reserve,
                after.amount,
                after.reserve,
                *values.values(),
            )
        ],
        returning=False,
    )
    return None


def meter_frame(
    meter: ProgressiveMeter, cause: str | None = None, table: Table | None = None
) -> dict[str, Any]:
    """What a player sees of a meter (docs/protocol.md "meter"): the amount a 100% hit pays,
    with the meter's version so a client keeps the newest. The reserve is the house's."""
    frame: dict[str, Any] = {
        "type": "meter",
        "meter": meter.pk,
        "kind": meter.kind,
        "name": meter.name,
        "amount": meter.amount,
        "version": meter.version,
    }
    if cause is not None:
        frame["cause"] = cause
        frame["table"] = table.pk if table is not None else None
    return frame


def frame_message(frame: dict[str, Any]) -> dict[str, Any]:
    """The channel-layer message carrying a meter frame, serialised once for the group."""
    return {
        "type": "meter.frame",
        "text": json.dumps(frame, separators=(",", ":")),
        "meter": frame["meter"],
        "version": frame["version"],
        "cause": frame.get("cause"),
        "amount": frame["amount"],
    }


def publish(frame: dict[str, Any]) -> None:
    """A committed change's frame to the sockets watching the meter: through the process's
    outbox, which coalesces and does not wait (table.meter_outbox), or at once from outside
    an event loop's process."""
    if meter_outbox.offer(frame):
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(meter_group(frame["meter"]), frame_message(frame))
    except Exception:  # a lost frame is made good by the next one (it carries the amount)
        log.exception("could not publish version %s of meter %s", frame["version"], frame["meter"])


def table_meter_frames(table_id: int) -> list[dict[str, Any]]:
    """The meters of a table as they stand (committed), one frame each, for a socket's first
    snapshot; the frames that follow carry higher versions."""
    return [
        meter_frame(m) for m in ProgressiveMeter.objects.filter(tables__id=table_id).order_by("pk")
    ]


def _after_commit(meter: ProgressiveMeter, cause: str, table: Table | None) -> None:
    """One frame per change, sent only once the change is committed (never a rolled-back one)."""
    frame = meter_frame(meter, cause, table)
    transaction.on_commit(lambda: publish(frame))


# --- increments at "no more bets" and their reversal -----------------------------------------


def apply_increments(
    table: Table,
    round: Round,
    stakes: Mapping[str, Sequence[int]],
    held: ledger.Held | None = None,
    linked_now: Linked | None = None,
    bankroll: int | None = None,
) -> dict[str, Increment]:
    """Add this round's increments to the table's meters when betting closes (§657a.10(a)(2)).

    ``stakes``: by wager, every locked stake of it (folded boxes included: nobody has folded
    yet). Each stake adds its rates to every meter of the table its wager feeds (the meter's
    :attr:`~table.games.base.MeterKind.wagers`: e.g. a Five-Card C progressive wager
    feeds mega, major and minor, each hand-bonus wager the hand-bonus meter). The table's
    bankroll (the drop) funds them. Returns each meter's increment by kind. ``held``: the
    accounts the table's command already locked (``ledger.lock_for_table``); ``linked_now``: the
    table's meters as the command locked them (:func:`linked`), ``bankroll``: the id of the
    table's bankroll it holds (each read here otherwise).
    """
    _require_transaction()
    if round.table_id != table.pk:
        raise MeterError("bad_round", f"round {round.number} is not a round of {table.name}")
    if linked_now is None or not linked_now.locked:
        linked_now = linked(table.pk)
    meters = table_meters(table, linked_now)
    held = _holding(held, linked_now)
    fed_by = {kind: _catalogued(meter).wagers for kind, meter in meters.items()}
    feeds = {
        kind: [stake for wager in wagers for stake in stakes.get(wager, ())]
        for kind, wagers in fed_by.items()
    }
    for wager, some in stakes.items():
        if some and not any(wager in wagers for wagers in fed_by.values()):
            raise MeterError("no_meter", f"{table.name} has no meter linked for {wager} wagers")
    for kind, meter in meters.items():
        for stake in feeds[kind]:
            if stake != meter.wager:  # house interpretation 5: one fixed wager
                raise MeterError(
                    "bad_stake",
                    f"the {kind} meter is fed by {meter.wager}-cent wagers, not {stake!r}",
                )
    if linked_now.round_id == round.pk:
        already = bool(linked_now.fed)  # read with the meters' lock, for the table's current round
    else:
        already = MeterEvent.objects.filter(
            round=round, kind=MeterEvent.INCREMENT, meter__in=list(meters.values())
        ).exists()
    if already:
        raise MeterError("already_incremented", f"round {round.number} has fed its meters")
    if bankroll is None:
        bankroll = ledger.table_bankroll(table).pk
    increments: dict[str, Increment] = {}
    postings = []
    for kind, meter in sorted(meters.items(), key=lambda km: km[1].pk):
        fed = feeds[kind]
        if not fed:
            continue
        inc = increment_for(meter.spec(), fed)
        increments[kind] = inc
        before = _standing(meter)
        after = Meter(before.amount + inc.primary, before.reserve + inc.reserve)
        total = inc.primary + inc.reserve
        if total:
            postings.append(
                ledger.Posting(
                    f"progressive increment: {meter.name}",
                    ((bankroll, -total), (meter.account_id, total)),
                )
            )
        _book(
            meter,
            before,
            after,
            MeterEvent.INCREMENT,
            table=table,
            round=round,
            round_number=round.number,
            stakes=len(fed),
        )
        if linked_now.round_id == round.pk:
            linked_now.fed.add(meter.pk)
        _after_commit(meter, MeterEvent.INCREMENT, table)
    ledger.post(postings, table, round, held)
    return increments


def reverse_increments(round: Round, held: ledger.Held | None = None) -> dict[str, Increment]:
    """A void round takes its increments back out (§657a.13; the stakes go back separately).

    The primary share comes off the amount and the reserve share off the reserve. Should a
    linked table have hit the meter in between, the meter may hold less than that: the reserve
    share then comes off the amount (a reset moved the reserve there), and what a winner has
    already been paid stays paid: the meter goes no lower than 0 and the table's bankroll
    bears the difference (recorded as the reversal's shortfall in ``paid``). Reversing a round
    twice changes nothing the second time.
    """
    _require_transaction()
    increments = list(
        MeterEvent.objects.filter(round=round, kind=MeterEvent.INCREMENT).order_by("meter_id")
    )
    if not increments:
        return {}
    reversed_ = set(
        MeterEvent.objects.filter(round=round, kind=MeterEvent.REVERSAL).values_list(
            "meter_id", flat=True
        )
    )
    todo = [e for e in increments if e.meter_id not in reversed_]
    meters = lock_meters(e.meter_id for e in todo)
    # Re-read under the lock: a concurrent void of the same round may have got there first.
    done = set(
        MeterEvent.objects.filter(round=round, kind=MeterEvent.REVERSAL).values_list(
            "meter_id", flat=True
        )
    )
    out: dict[str, Increment] = {}
    postings = []
    bankroll = ledger.table_bankroll(round.table).pk
    for event in todo:
        if event.meter_id in done:
            continue
        meter = meters[event.meter_id]
        inc = Increment(
            event.amount_after - event.amount_before, event.reserve_after - event.reserve_before
        )
        before = _standing(meter)
        if before.amount >= inc.primary and before.reserve >= inc.reserve:
            after = reverse_increment(before, inc)
        else:
            from_reserve = min(before.reserve, inc.reserve)
            from_amount = min(before.amount, inc.primary + inc.reserve - from_reserve)
            after = Meter(before.amount - from_amount, before.reserve - from_reserve)
        back = before.amount + before.reserve - after.amount - after.reserve
        if back:
            postings.append(
                ledger.Posting(
                    f"progressive increment reversed (void): {meter.name}",
                    ((meter.account_id, -back), (bankroll, back)),
                )
            )
        _book(
            meter,
            before,
            after,
            MeterEvent.REVERSAL,
            table=round.table,
            round=round,
            round_number=round.number,
            stakes=event.stakes,
            paid=inc.primary + inc.reserve - back,
        )
        _after_commit(meter, MeterEvent.REVERSAL, round.table)
        out[meter.kind] = inc
    ledger.post(postings, round.table, round, held)
    return out


# --- hits ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """A winning meter wager, in settlement order (§657a.11(c): box 6 first).

    ``winners``: the (box, player username) paid; one for a player's own hand, or every box
    with a live dealer-hand wager for a jackpot on the dealer's hand (§657a.12(f)(2)), placed
    at the first of those boxes in settlement order.
    """

    meter: str  # the meter's kind: four_card, five_card, mega, major, minor, hand_bonus
    percent: int  # of the meter as it stands at this box's turn
    winners: tuple[tuple[int, str], ...]
    wager: str = "progressive"


@dataclass(frozen=True)
class Payment:
    box: int
    player: str
    wager: str
    meter: str
    paid: int
    reseeded: bool = False


@dataclass
class _Validated:
    hits: list[Hit] = field(default_factory=list)
    accounts: dict[str, int] = field(default_factory=dict)
    users: dict[str, Any] = field(default_factory=dict)


def _validate_hits(
    table: Table, meters: Mapping[str, ProgressiveMeter], hits: Sequence[Hit]
) -> _Validated:
    out = _Validated()
    seen: set[tuple[int, str]] = set()
    users = get_user_model()
    for hit in hits:
        if hit.meter not in meters:
            raise MeterError("no_meter", f"{table.name} has no {hit.meter} meter linked")
        if not isinstance(hit.percent, int) or not 1 <= hit.percent <= 100:
            raise MeterError("bad_hit", f"a hit pays 1-100% of its meter, not {hit.percent!r}")
        if not hit.winners:
            raise MeterError("bad_hit", "a hit needs at least one winning box")
        catalogued = _catalogued(meters[hit.meter])
        if len(hit.winners) > 1 and hit.wager not in catalogued.split:
            # Only a hand every box shares splits a meter (§657a.12(f)(2)).
            raise MeterError("bad_hit", f"a {hit.wager!r} jackpot is not split between boxes")
        if hit.wager not in catalogued.wagers:
            raise MeterError("bad_hit", f"a {hit.wager!r} wager is not paid from {hit.meter}")
        for box, player in hit.winners:
            if not isinstance(box, int) or not 1 <= box <= 6:
                raise MeterError("bad_hit", f"box {box!r} is not a box 1-6")
            if (box, hit.wager) in seen:
                raise MeterError("bad_hit", f"box {box}'s {hit.wager} wins once, not twice")
            seen.add((box, hit.wager))
            if player not in out.users:
                user = users.objects.filter(username=player).first()
                if user is None:
                    raise MeterError("bad_hit", f"no player {player!r}")
                out.users[player] = user
                out.accounts[player] = ledger.player_account(user).pk
        out.hits.append(hit)
    return out


@dataclass(frozen=True)
class Payout:
    """One payment out of a meter, as a game's settlement took it (``MeterChange`` of kind
    ``payout``): ``paid`` to ``box``'s ``wager`` (``percent`` of the meter, shared ``split``
    ways); ``reset``: the 100% payout that resets the meter (the last share of a split)."""

    meter: str
    box: int
    player: str
    wager: str
    paid: int
    percent: int | None
    reset: bool = False
    split: int = 1


def pay_hits(
    table: Table, round: Round, hits: Sequence[Hit], held: ledger.Held | None = None
) -> list[Payment]:
    """Pay each hit from its meter as it stands at that box's turn (§657a.12(d)(4), (e)(4)).

    ``hits`` in settlement order: a second winner of the same meter gets what the first left.
    X% pays X% of the amount rounded down and leaves the rest; 100% resets the meter to its
    reseed plus its reserve (house interpretation 6), the reseed funded by the house. A
    dealer-hand jackpot is taken once and split equally between its boxes; each share rounds
    down and the leftover cents stay on the meter (§657a.12(f)(2), interpretation 7). The
    amounts are counted with :mod:`table.games.progressive` and booked by :func:`pay_out`, the
    one path every payment out of a meter takes.
    """
    _require_transaction()
    found = linked(table.pk)
    meters = table_meters(table, found)
    checked = _validate_hits(table, meters, hits)
    standing = {kind: _standing(m) for kind, m in meters.items()}
    payouts: list[Payout] = []
    for hit in checked.hits:
        meter = meters[hit.meter]
        n = len(hit.winners)
        each = share(standing[hit.meter], hit.percent, n)
        standing[hit.meter] = pay_out(
            standing[hit.meter], meter.spec(), meter.wager, hit.percent, each * n
        )
        for i, (box, player) in enumerate(hit.winners):
            reset = i == n - 1 and hit.percent == 100
            payouts.append(Payout(hit.meter, box, player, hit.wager, each, hit.percent, reset, n))
    return book_payouts(table, round, payouts, held, found)


def book_payouts(
    table: Table,
    round: Round,
    payouts: Sequence[Payout],
    held: ledger.Held | None = None,
    linked_now: Linked | None = None,
    bankroll: int | None = None,
) -> list[Payment]:
    """Book each payment out of a meter in the order given, as the game's settlement took it:
    ``paid`` leaves the meter for the winner's account; a ``reset`` (a 100% payout) then sets
    the meter to its reseed plus its reserve, the reseed funded by the hitting table's
    bankroll. The amounts are the game's own (the same settlement ``settle_round`` runs, from
    these meters as they stand under their locks); nothing is re-derived here, so the table
    and ``settle_round`` cannot disagree (issue 23). Refused, with nothing changed: a meter not
    linked, a wager the meter does not pay, a split of a wager no box shares, a box paid
    twice, an unknown player, or more than the meter holds. ``held``, ``linked_now``,
    ``bankroll``: as :func:`apply_increments` takes them."""
    _require_transaction()
    if round.table_id != table.pk:
        raise MeterError("bad_round", f"round {round.number} is not a round of {table.name}")
    if linked_now is None or not linked_now.locked:
        linked_now = linked(table.pk)
    meters = table_meters(table, linked_now)
    held = _holding(held, linked_now)
    users = get_user_model()
    accounts: dict[str, int] = {}
    found: dict[str, Any] = {}
    seen = set(
        MeterEvent.objects.filter(round=round, kind=MeterEvent.HIT).values_list("box", "wager")
    )
    for p in payouts:
        if p.meter not in meters:
            raise MeterError("no_meter", f"{table.name} has no {p.meter} meter linked")
        catalogued = _catalogued(meters[p.meter])
        if p.wager not in catalogued.wagers:
            raise MeterError("bad_hit", f"a {p.wager!r} wager is not paid from {p.meter}")
        if p.split > 1 and p.wager not in catalogued.split:
            # Only a hand every box shares splits a meter (§657a.12(f)(2)).
            raise MeterError("bad_hit", f"a {p.wager!r} jackpot is not split between boxes")
        if not isinstance(p.box, int) or not 1 <= p.box <= 6:
            raise MeterError("bad_hit", f"box {p.box!r} is not a box 1-6")
        if p.percent is not None and not 1 <= p.percent <= 100:
            raise MeterError("bad_hit", f"a hit pays 1-100% of its meter, not {p.percent!r}")
        if p.reset and p.percent != 100:
            raise MeterError("bad_hit", "only a 100% payout resets its meter")
        if (p.box, p.wager) in seen:
            raise MeterError(
                "already_paid", f"box {p.box}'s {p.wager} of round {round.number} is paid"
            )
        seen.add((p.box, p.wager))
        if p.player not in found:
            user = users.objects.filter(username=p.player).first()
            if user is None:
                raise MeterError("bad_hit", f"no player {p.player!r}")
            found[p.player] = user
            accounts[p.player] = ledger.player_account(user).pk
    if bankroll is None:
        bankroll = ledger.table_bankroll(table).pk
    postings: list[ledger.Posting] = []
    payments: list[Payment] = []
    for i, p in enumerate(payouts):
        meter = meters[p.meter]
        spec = meter.spec()
        before = _standing(meter)
        try:
            after = pay_out(before, spec, meter.wager, 100 if p.reset else 0, p.paid)
        except InvalidInput as exc:
            raise MeterError("bad_hit", f"{meter.name}: {exc.message}") from None
        reseed = spec.reseed_amount(meter.wager) if p.reset else 0
        if p.paid:
            postings.append(
                ledger.Posting(
                    f"progressive hit: {meter.name}" + (f" {p.percent}%" if p.percent else ""),
                    ((meter.account_id, -p.paid), (accounts[p.player], p.paid)),
                    p.box,
                    p.wager,
                )
            )
        if reseed:
            postings.append(
                ledger.Posting(
                    f"progressive reseed: {meter.name}",
                    ((bankroll, -reseed), (meter.account_id, reseed)),
                )
            )
        _book(
            meter,
            before,
            after,
            MeterEvent.HIT,
            table=table,
            round=round,
            round_number=round.number,
            box=p.box,
            player=found[p.player],
            wager=p.wager,
            percent=p.percent,
            split=p.split,
            paid=p.paid,
            funded=reseed,
            reseeded=p.reset,
        )
        payments.append(Payment(p.box, p.player, p.wager, p.meter, p.paid, p.reset))
        following = payouts[i + 1] if i + 1 < len(payouts) else None
        if (
            p.split == 1
            or following is None
            or (following.meter, following.wager) != (p.meter, p.wager)
        ):
            _after_commit(meter, MeterEvent.HIT, table)  # one frame per hit, a split's once
    ledger.post(postings, table, round, held)
    return payments


# --- checks ------------------------------------------------------------------------------------


def verify() -> list[str]:
    """Every meter whose amount and reserve disagree with its ledger account or its history,
    as of one moment (``ledger.consistent_read``: a hit committed between reading a meter and
    its account is not a discrepancy)."""
    with ledger.consistent_read():
        return _discrepancies()


def _discrepancies() -> list[str]:
    problems = []
    for meter in ProgressiveMeter.objects.select_related("account"):
        if meter.account.balance != meter.amount + meter.reserve:
            problems.append(
                f"meter {meter.name} holds {meter.amount} + reserve {meter.reserve} but its "
                f"account shows {meter.account.balance}"
            )
        last = MeterEvent.objects.filter(meter=meter).order_by("-version").first()
        if last is None:
            problems.append(f"meter {meter.name} has no history")
            continue
        if (last.version, last.amount_after, last.reserve_after) != (
            meter.version,
            meter.amount,
            meter.reserve,
        ):
            problems.append(f"meter {meter.name} is not where its last history row left it")
        prev = None
        for event in MeterEvent.objects.filter(meter=meter).order_by("version").iterator():
            if prev is not None and (event.amount_before, event.reserve_before) != (
                prev.amount_after,
                prev.reserve_after,
            ):
                problems.append(
                    f"meter {meter.name} version {event.version} does not start where "
                    f"version {prev.version} ended"
                )
            prev = event
    return problems


# --- a reset by staff (§605a.8) --------------------------------------------------------------

RESET_PERMISSION = "table.reset_meter"


def reset_meter(meter_id: int, by: Any, reason: str) -> MeterEvent:
    """Reset a meter by hand to its reseed amount (§605a.8), the reserve kept: a secured act.

    Only staff holding ``table.reset_meter`` may, with a reason, and never while a linked
    table has a round in play (its increments and payouts depend on the meter). What the
    meter held above the reseed goes back to the house's account (below it, the house funds
    the difference), in the ledger; the meter's history keeps who and why, and the audit log
    has the reset, all in one transaction. Refused: nothing changes."""
    from . import duties

    reason = (reason or "").strip()
    if by is None or not by.has_perm(RESET_PERMISSION):
        raise MeterError("not_allowed", "resetting a meter needs the reset permission")
    if len(reason) < 5:
        raise MeterError("no_reason", "say why the meter is reset (at least a few words)")
    with transaction.atomic():
        meter = lock_meters([meter_id]).get(meter_id)
        if meter is None:
            raise MeterError("bad_meter", f"there is no meter {meter_id}")
        in_play = rounds_in_play(meter.tables.values_list("pk", flat=True))
        if in_play:
            words = sorted(in_play.values())[0]
            raise MeterError("round_in_play", f"{words} is in play: reset between rounds")
        before = _standing(meter)
        target = meter.spec().reseed_amount(meter.wager)
        change = target - before.amount  # > 0: the house funds; < 0: back to the house
        if change:
            house = house_account().pk
            ledger.post(
                [
                    ledger.Posting(
                        f"progressive reset by staff: {meter.name}",
                        ((house, -change), (meter.account_id, change)),
                    )
                ]
            )
        event = _book(
            meter,
            before,
            Meter(target, before.reserve),
            MeterEvent.RESET,
            keep=True,
            funded=max(change, 0),
            reseeded=True,
            actor=by,
            reason=reason[:200],
        )
        duties.record(
            by,
            "meter_reset",
            {
                "meter": meter.name,
                "reason": reason[:200],
                "amount_before": before.amount,
                "amount_after": target,
                "reserve": before.reserve,
            },
        )
        _after_commit(meter, MeterEvent.RESET, None)
    assert event is not None  # kept: saved at once
    return event
