"""The back office's progressive meter report and player history (docs/backoffice.md).

Meters (§605a.7, §605a.8): each meter's amount and reserve now and at any past moment (the
liability the casino carries), the increments it took, every hit and what it paid, its seed
and every reseed, every reset (a 100% hit resets the meter to its reseed), from the meter's
append-only history (:class:`~table.models.MeterEvent`).

Player history (§811a.7): a player's sessions (their rounds at one table with no gap longer
than :data:`SESSION_GAP`), rounds and ledger for any period, and the recreation of a session
from its stored rounds: what the player saw of each, in order (:mod:`table.recall`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Max

from . import recall
from .games import game as game_named
from .models import Account, BoxRecord, Entry, MeterEvent, ProgressiveMeter, Round

#: Rounds further apart than this at a table are two sessions.
SESSION_GAP = dt.timedelta(minutes=30)


@dataclass
class MeterLine:
    meter: ProgressiveMeter
    amount: int = 0
    reserve: int = 0
    increments: int = 0  # amount + reserve taken from wagers, net of void reversals
    increment_count: int = 0
    paid: int = 0
    hits: list[MeterEvent] = field(default_factory=list)
    funding: list[MeterEvent] = field(default_factory=list)  # the seed and every reseed
    funded: int = 0
    resets: int = 0  # by staff (a 100% hit's reset is on the hit)

    @property
    def liability(self) -> int:
        return self.amount + self.reserve


def meter_report(first: dt.datetime, last: dt.datetime) -> list[MeterLine]:
    """Every meter: standing at ``last`` (its last change at or before it), and what it took
    in increments, paid and was funded with between ``first`` and ``last``."""
    out = []
    for meter in ProgressiveMeter.objects.order_by("name"):
        line = MeterLine(meter)
        at = (
            MeterEvent.objects.filter(meter=meter, created__lte=last)
            .order_by("-version")
            .values_list("amount_after", "reserve_after")
            .first()
        )
        if at is not None:
            line.amount, line.reserve = at
        events = MeterEvent.objects.filter(meter=meter, created__gt=first, created__lte=last)
        for e in events.select_related("table", "player", "actor").order_by("version"):
            change = e.amount_after + e.reserve_after - e.amount_before - e.reserve_before
            if e.kind == MeterEvent.INCREMENT:
                line.increments += change
                line.increment_count += 1
            elif e.kind == MeterEvent.REVERSAL:
                line.increments += change
            elif e.kind == MeterEvent.HIT:
                line.paid += e.paid
                line.hits.append(e)
            elif e.kind == MeterEvent.RESET:
                line.resets += 1
            line.funded += e.funded
            if e.kind in (MeterEvent.SEED, MeterEvent.RESET):
                line.funding.append(e)  # a hit's reseed is shown on the hit
        out.append(line)
    return out


def liability_at(moment: dt.datetime) -> int:
    """What every meter held at ``moment``: the casino's progressive liability then."""
    total = 0
    for meter in ProgressiveMeter.objects.all():
        at = (
            MeterEvent.objects.filter(meter=meter, created__lte=moment)
            .order_by("-version")
            .values_list("amount_after", "reserve_after")
            .first()
        )
        if at is not None:
            total += at[0] + at[1]
    return total


def meter_series(first: dt.datetime, last: dt.datetime, points: int = 400) -> dict[str, Any]:
    """Each meter's amount over the period: at the start, then after each change (every
    meter's), thinned to at most ``points`` moments (the last standing of each slice)."""
    moments = sorted(
        set(
            MeterEvent.objects.filter(created__gt=first, created__lte=last).values_list(
                "created", flat=True
            )
        )
    )
    if len(moments) > points:
        span = (last - first) / points
        moments = [first + span * (i + 1) for i in range(points)]
    moments = [first, *moments]
    zone = recall_zone()
    labels = [m.astimezone(zone).strftime("%m-%d %H:%M") for m in moments]
    series = []
    for meter in ProgressiveMeter.objects.order_by("name"):
        events = list(
            MeterEvent.objects.filter(meter=meter, created__lte=last)
            .order_by("version")
            .values_list("created", "amount_after")
        )
        values: list[int | None] = []
        i, current = 0, None
        for moment in moments:
            while i < len(events) and events[i][0] <= moment:
                current = events[i][1]
                i += 1
            values.append(current)
        series.append((meter.name, values))
    return {"labels": labels, "series": series}


def recall_zone() -> Any:
    from .rollup import zone

    return zone()


# --- players --------------------------------------------------------------------------------


@dataclass
class Session:
    table: str
    begin: dt.datetime
    end: dt.datetime
    rounds: list[int] = field(default_factory=list)  # round ids, in order
    net: int = 0

    @property
    def key(self) -> str:
        return ",".join(str(r) for r in self.rounds)


@cache
def _wager_order(game_key: str) -> tuple[dict[str, int], dict[str, str]]:
    """A game's wagers as a box places them (its ``WagerSpec``s: the bet's in the game's
    order, then the decision's) by place, and their names."""
    g = game_named(game_key)
    specs = g.wagers(g.default_rules())
    placed = [w for w in specs if w.placed != "decision"] + [
        w for w in specs if w.placed == "decision"
    ]
    return {w.key: n for n, w in enumerate(placed)}, {w.key: w.label for w in specs}


def placed_wagers(game_key: str, wagers: dict[str, int]) -> list[tuple[str, int]]:
    """A box record's wagers by name, in the order the box placed them: the record keeps them
    as a JSON object, which PostgreSQL (jsonb) gives back with its keys sorted ("tie, ante,
    play"); the round's own load orders its boxes' the same way (``SkeletonRound.PLACED_ORDER``)."""
    place, names = _wager_order(game_key)
    ordered = sorted(wagers.items(), key=lambda item: place.get(item[0], len(place)))
    return [(names.get(key, key.replace("_", " ")), amount) for key, amount in ordered]


def player_history(
    username: str, first: dt.datetime, last: dt.datetime
) -> tuple[Any, list[Session], list[dict[str, Any]], list[dict[str, Any]]]:
    """A player's sessions, rounds (their boxes) and ledger entries between two moments."""
    user = get_user_model().objects.get(username=username)
    boxes = (
        BoxRecord.objects.filter(
            player=user, round__finished_at__gt=first, round__finished_at__lte=last
        )
        .select_related("round", "round__table")
        .order_by("round__finished_at", "round_id", "box")
    )
    rounds: list[dict[str, Any]] = []
    sessions: list[Session] = []
    by_table: dict[int, Session] = {}
    for b in boxes:
        r = b.round
        assert r.finished_at is not None
        rounds.append(
            {
                "round": r,
                "box": b.box,
                "cards": b.cards,
                "hand": b.hand,
                "wagers": placed_wagers(r.game, b.wagers),
                "net": b.net,
            }
        )
        s = by_table.get(r.table_id)
        if s is None or r.opened_at - s.end > SESSION_GAP:
            s = by_table[r.table_id] = Session(r.table.name, r.opened_at, r.finished_at)
            sessions.append(s)
        if not s.rounds or s.rounds[-1] != r.pk:
            s.rounds.append(r.pk)
        s.end = max(s.end, r.finished_at)
        s.net += b.net
    account = Account.objects.filter(user=user).first()
    entries: list[dict[str, Any]] = []
    if account is not None:
        for e in (
            Entry.objects.filter(
                account=account, transaction__created__gt=first, transaction__created__lte=last
            )
            .select_related("transaction", "transaction__table", "transaction__round")
            .order_by("transaction__created", "id")
        ):
            t = e.transaction
            entries.append(
                {
                    "when": t.created,
                    "memo": t.memo,
                    "table": t.table.name if t.table else "",
                    "round": t.round.number if t.round else None,
                    "round_id": t.round_id,
                    "box": t.box,
                    "wager": t.wager,
                    "amount": e.amount,
                }
            )
    return user, sessions, rounds, entries


def recreate_session(username: str, round_ids: list[int]) -> list[dict[str, Any]]:
    """What the player saw of each round of a session, in order: the round as recall shows
    it to that player (the face-up cards and their own boxes) and the events they received."""
    rows = (
        Round.objects.select_related("table", "rules_submission")
        .filter(pk__in=round_ids, box_records__player__username=username)
        .distinct()
    )
    by_id = {r.pk: r for r in rows}
    out = []
    for pk in round_ids:
        row = by_id.get(pk)
        if row is None:
            continue
        record = recall.round_record(row, viewer=username, full=False)
        record["viewer"] = username
        out.append(recall.decorate(record, row, full=False))
    return out


def latest_meter_change() -> dt.datetime | None:
    found: dt.datetime | None = MeterEvent.objects.aggregate(m=Max("created"))["m"]
    return found
