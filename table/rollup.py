"""The back office's roll-up: each settled round's lines summed into its (gaming day, shift,
table, rules, wager) row (:class:`~table.models.WagerShift`), in the settlement's own
transaction, so a report of a month of a hundred tables reads a few thousand rows, not
millions of lines (docs/backoffice.md).

The gaming day and shift are the casino's (``TIME_ZONE``, ``CASINO_GAMING_DAY_START``,
``CASINO_SHIFTS``), of the moment the round was settled. Besides each wager's own row, a round
adds one to ``"*round"`` (the count of rounds) and each box one to ``"*main"``: the box's whole
main game (the wagers of the game's main figure, ``Figure.wagers``) as one result staked on
its first wager (the Ante), whose spread gives the main game's confidence band. The
``"*round"`` row also sums each round's main game as a whole (its Ante and net, and their
squares): the boxes of a round share the dealer's hand, and the band's covariance term needs
the sum over rounds of the square of each round's Ante.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction

from . import fastsql
from .games import game as game_named
from .games.base import Figure

ROUND, MAIN = "*round", "*main"
SUM_FIELDS = ("lines", "handle", "handle_sq", "net", "net_sq", "net_handle", "paid", "wins")


def _minutes(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)


def day_start() -> int:
    """Minutes after local midnight at which a gaming day starts."""
    return _minutes(settings.CASINO_GAMING_DAY_START)


def shifts() -> list[tuple[str, int]]:
    """The shifts as (name, minutes after the gaming day's start), in order."""
    start = day_start()
    return [(name, (_minutes(at) - start) % 1440) for name, at in settings.CASINO_SHIFTS]


def gaming_day_and_shift(when: dt.datetime) -> tuple[dt.date, int]:
    """The casino's gaming day of a moment and the number (0, 1, ...) of its shift."""
    local = when.astimezone(zone())
    shifted = local - dt.timedelta(minutes=day_start())
    into = shifted.hour * 60 + shifted.minute
    number = 0
    for n, (_name, begins) in enumerate(sorted(shifts(), key=lambda s: s[1])):
        if into >= begins:
            number = n
    return shifted.date(), number


def day_bounds(first: dt.date, last: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The moments the gaming days ``first`` to ``last`` (inclusive) begin and end."""
    tz = zone()
    start = dt.time(day_start() // 60, day_start() % 60)
    begin = dt.datetime.combine(first, start, tzinfo=tz)
    end = dt.datetime.combine(last + dt.timedelta(days=1), start, tzinfo=tz)
    return begin, end


def rules_key(rules: Any) -> str:
    """The digest of a round's frozen rules (rounds under equal rules share roll-up rows)."""
    text = json.dumps(rules, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Mathematics:
    """What the game's exact mathematics says of one set of rules, for the back office."""

    figures: tuple[Figure, ...]
    #: wager key -> the figure whose edge applies to its handle (the last naming it)
    by_wager: Mapping[str, Figure]
    #: the main game's figure (the first; its edge per unit of its first wager)
    main: Figure | None


_MATH: dict[tuple[str, str], Mathematics] = {}


def mathematics(game: str, rules: Mapping[str, Any], key: str | None = None) -> Mathematics:
    """The game's figures for these stored rules (``Game.math_report``), read once per rules."""
    key = key or rules_key(rules)
    found = _MATH.get((game, key))
    if found is None:
        g = game_named(game)
        figures = tuple(g.math_report(g.parse_rules(rules)))
        by_wager: dict[str, Figure] = {}
        for f in figures:
            for w in f.wagers:
                by_wager[w] = f
        # The main game is the first figure (``Game.math_report`` lists it first), per unit
        # of its first wager.
        main = figures[0] if figures and figures[0].wagers else None
        found = _MATH[(game, key)] = Mathematics(figures, by_wager, main)
    return found


@dataclass
class Sums:
    lines: int = 0
    handle: int = 0
    handle_sq: int = 0
    net: int = 0
    net_sq: int = 0
    net_handle: int = 0
    paid: int = 0
    wins: int = 0

    def add(self, stake: int, net: int) -> None:
        self.lines += 1
        self.handle += stake
        self.handle_sq += stake * stake
        self.net += net
        self.net_sq += net * net
        self.net_handle += net * stake
        if net > 0:
            self.paid += net
            self.wins += 1

    def merge(self, other: Sums) -> None:
        for name in SUM_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def values(self) -> tuple[int, ...]:
        return (
            self.lines,
            self.handle,
            self.handle_sq,
            self.net,
            self.net_sq,
            self.net_handle,
            self.paid,
            self.wins,
        )


def sums_of_round(
    game: str, rules: Mapping[str, Any], key: str, lines: Iterable[tuple[int, str, int, int]]
) -> dict[str, Sums]:
    """A round's roll-up: per wager, ``"*round"`` and ``"*main"``, from its settlement lines
    (box, wager, stake, net)."""
    math = mathematics(game, rules, key)
    main = math.main.wagers if math.main is not None else ()
    out: dict[str, Sums] = {ROUND: Sums(lines=1)}
    boxes: dict[int, list[int]] = {}
    for box, wager, stake, net in lines:
        out.setdefault(wager, Sums()).add(stake, net)
        if wager in main:
            unit_net = boxes.setdefault(box, [0, 0])
            if wager == main[0]:
                unit_net[0] += stake
            unit_net[1] += net
    # The round's main game as a whole (its boxes share the dealer's hand): the "*round"
    # row's handle is the round's Ante, its handle_sq that Ante squared, its net the boxes'
    # main-game nets together - the band's covariance term and a per-round (clustered)
    # spread need nothing more (docs/backoffice.md).
    round_unit = round_net = 0
    for unit, net in boxes.values():
        if unit:
            out.setdefault(MAIN, Sums()).add(unit, net)
            round_unit += unit
            round_net += net
    if round_unit:
        r = out[ROUND]
        r.handle, r.handle_sq = round_unit, round_unit * round_unit
        r.net, r.net_sq, r.net_handle = round_net, round_net * round_net, round_net * round_unit
    return out


def record_round(
    table_id: int,
    submission_id: int,
    game: str,
    rules: Mapping[str, Any],
    settled: dt.datetime,
    lines: Sequence[tuple[int, str, int, int]],
) -> None:
    """Add a settled round to its roll-up rows: one statement, with the settlement's writes."""
    key = rules_key(rules)
    day, shift = gaming_day_and_shift(settled)
    sums = sums_of_round(game, rules, key, lines)
    stored = fastsql.dumps(rules)
    params: list[Any] = []
    for wager, s in sorted(sums.items()):
        params += [day, shift, table_id, key, wager, game, submission_id, stored, *s.values()]
    fastsql.write(fastsql.rollup_upsert(fastsql.vendor(), len(sums)), params)


def rebuild() -> int:
    """Every roll-up row again from the settlement lines of the settled rounds (the rows are
    derived data), summed in memory and written in batches; returns the number of rounds
    read."""
    from .models import Round, SettlementLine, WagerShift

    done = 0
    sums: dict[tuple[Any, ...], Sums] = {}
    rules_of: dict[str, Any] = {}
    with transaction.atomic():
        WagerShift.objects.all().delete()
        rounds = (
            Round.objects.filter(finished_at__isnull=False)
            .exclude(phase="void")
            .order_by("pk")
            .values_list("pk", "table_id", "rules_submission_id", "game", "rules", "finished_at")
        )
        for chunk in _chunks(rounds.iterator(chunk_size=2000), 2000):
            ids = [r[0] for r in chunk]
            lines: dict[int, list[tuple[int, str, int, int]]] = {i: [] for i in ids}
            for round_id, box, wager, stake, net in (
                SettlementLine.objects.filter(round_id__in=ids)
                .exclude(outcome="void")
                .values_list("round_id", "box", "wager", "stake", "net")
            ):
                lines[round_id].append((box, wager, stake, net))
            for pk, table_id, submission_id, game, rules, finished in chunk:
                key = rules_key(rules)
                rules_of[key] = rules
                day, shift = gaming_day_and_shift(finished)
                for wager, s in sums_of_round(game, rules, key, lines[pk]).items():
                    kept = sums.setdefault(
                        (day, shift, table_id, key, wager, game, submission_id), Sums()
                    )
                    kept.merge(s)
                done += 1
        WagerShift.objects.bulk_create(
            (
                WagerShift(
                    gaming_day=day,
                    shift=shift,
                    table_id=table_id,
                    rules_key=key,
                    wager=wager,
                    game=game,
                    rules_submission_id=submission_id,
                    rules=rules_of[key],
                    **dict(zip(SUM_FIELDS, s.values(), strict=True)),
                )
                for (day, shift, table_id, key, wager, game, submission_id), s in sums.items()
            ),
            batch_size=1000,
        )
    return done


def _chunks(items: Iterable[Any], size: int) -> Iterable[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
