"""The back office's table games report: rounds, handle per wager type, paid, house win, hold,
theoretical win from the games' exact mathematics and the actual return against the
theoretical one with its confidence band, per table, game, paytable, gaming day or shift,
for any range of gaming days (docs/backoffice.md).

Read from the roll-up (:mod:`table.rollup`), which the settlements keep; every figure is a sum
of settlement lines, which are the ledger's postings of the round (a test proves it to the
cent on generated play). The mathematics is the game's own (``Game.math_report`` through
:func:`table.rollup.mathematics`): no game is named here.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Sum

from . import rollup
from .games import GAME_TITLES
from .games import game as game_named
from .models import RulesSubmission, Table, WagerShift

#: The band is theoretical win ± Z standard deviations (95%, two-sided).
Z = 1.96
GROUPS = ("table", "game", "paytable", "day", "shift")
SUMS = ("lines", "handle", "handle_sq", "net", "net_sq", "net_handle", "paid", "wins")


@dataclass
class WagerLine:
    """One wager type within a group of the report (or the main game as a whole)."""

    wager: str
    label: str
    lines: int = 0
    handle: int = 0
    paid: int = 0
    house_win: int = 0
    theoretical: float | None = None
    #: variance of the house win, in cents squared (None: no figure for this wager)
    variance: float | None = None
    estimated: bool = False  # the variance was estimated from the play, not exact
    #: the main game: the boxes of a round are counted as sharing the dealer's hand (the
    #: game's exact covariance of two boxes), not as independent
    correlated: bool = False
    #: the main game: the exact figures used, per paytable ("variance 9.79, covariance 1.60")
    spread_figures: set[str] = field(default_factory=set)
    edges: set[str] = field(default_factory=set)  # "paytable: edge" of each figure used
    #: The main game only: the players' actual decisions (their decision wager: the Raise,
    #: the Play), which the theoretical figure takes at optimal play.
    decided: int = 0  # boxes that made the decision wager
    decided_handle: int = 0

    @property
    def decision_rate(self) -> float | None:
        return self.decided / self.lines if self.lines else None

    @property
    def decision_size(self) -> float | None:
        """The decision wagers' handle per unit of the main game's handle (the Ante)."""
        return self.decided_handle / self.handle if self.handle else None

    @property
    def decisions_words(self) -> str:
        if not self.decided or self.decision_rate is None or self.decision_size is None:
            return ""
        return (
            f"the players made the decision wager in {self.decision_rate:.1%} of boxes, "
            f"{self.decision_size:.2f}x the Ante on average"
        )

    @property
    def hold(self) -> float | None:
        return self.house_win / self.handle if self.handle else None

    @property
    def spread_words(self) -> str:
        """How the main game's spread was figured, for the page and the CSV."""
        if self.estimated:
            return "spread estimated from play"
        if not self.spread_figures:
            return ""
        return (
            "spread exact, per unit of Ante squared: "
            + "; ".join(sorted(self.spread_figures))
            + (" (the boxes of a round share the dealer's hand)" if self.correlated else "")
        )

    @property
    def theoretical_hold(self) -> float | None:
        return (
            self.theoretical / self.handle if self.handle and self.theoretical is not None else None
        )

    @property
    def theoretical_cents(self) -> int | None:
        return None if self.theoretical is None else round(self.theoretical)


@dataclass
class Group:
    """One row of the report: a table, game, paytable, gaming day or shift."""

    key: str
    label: str
    rounds: int = 0
    wagers: dict[str, WagerLine] = field(default_factory=dict)
    main: WagerLine | None = None
    #: The main game's exact spread per set of rules, summed in :func:`_finish`: rules key ->
    #: [variance per unit², covariance of two boxes per unit², sum over boxes of the Ante²,
    #: sum over rounds of the round's whole Ante²].
    spread: dict[str, list[float]] = field(default_factory=dict)
    spread_names: dict[str, str] = field(default_factory=dict)  # rules key -> its paytable

    @property
    def handle(self) -> int:
        return sum(w.handle for w in self.wagers.values())

    @property
    def paid(self) -> int:
        return sum(w.paid for w in self.wagers.values())

    @property
    def house_win(self) -> int:
        return sum(w.house_win for w in self.wagers.values())

    @property
    def hold(self) -> float | None:
        return self.house_win / self.handle if self.handle else None

    def _figured(self) -> list[WagerLine]:
        """The lines theoretical win is known for: the main game and each side wager."""
        return [
            w
            for w in [self.main, *self.wagers.values()]
            if w is not None and w.theoretical is not None
        ]

    @property
    def theoretical(self) -> float:
        return sum(w.theoretical or 0.0 for w in self._figured())

    @property
    def theoretical_hold(self) -> float | None:
        return self.theoretical / self.handle if self.handle else None

    @property
    def theoretical_cents(self) -> int:
        return round(self.theoretical)

    @property
    def rtp(self) -> float | None:
        hold = self.hold
        return None if hold is None else 1 - hold

    @property
    def theoretical_rtp(self) -> float | None:
        hold = self.theoretical_hold
        return None if hold is None else 1 - hold

    @property
    def sigma(self) -> float:
        """Standard deviation of the house win (cents) the exact mathematics expects."""
        return math.sqrt(sum(w.variance or 0.0 for w in self._figured()))

    @property
    def band(self) -> tuple[float, float] | None:
        """The actual return's 95% band (low, high) around the theoretical return."""
        if not self.handle:
            return None
        theo, spread = self.theoretical, Z * self.sigma
        return 1 - (theo + spread) / self.handle, 1 - (theo - spread) / self.handle

    @property
    def outside(self) -> bool:
        """The actual return lies outside its band: worth a look (GLI-19 App. A §6.2)."""
        band, rtp = self.band, self.rtp
        return band is not None and rtp is not None and not band[0] <= rtp <= band[1]

    @property
    def estimated(self) -> bool:
        return any(w.estimated for w in self._figured())


@dataclass
class Report:
    first: dt.date
    last: dt.date
    by: str
    groups: list[Group]
    total: Group


def _shift_name(number: int) -> str:
    names = [n for n, _ in sorted(rollup.shifts(), key=lambda s: s[1])]
    return names[number] if 0 <= number < len(names) else str(number)


def _labels(game: str) -> dict[str, str]:
    g = game_named(game)
    return {w.key: w.label for w in g.wagers(g.default_rules())}


def _decision_wagers(game: str, rules: Any) -> set[str]:
    """The wagers a player makes at their decision (``WagerSpec.placed == "decision"``)."""
    g = game_named(game)
    return {w.key for w in g.wagers(g.parse_rules(rules)) if w.placed == "decision"}


def _paytable_words(game: str, rules: dict[str, Any], key: str) -> str:
    figures = rollup.mathematics(game, rules, key).figures
    tables = ", ".join(f"{f.wager} {f.paytable}" for f in figures)
    return f"{GAME_TITLES.get(game, game)}: {tables}"


def build(
    first: dt.date,
    last: dt.date,
    by: str = "table",
    tables: Iterable[int] | None = None,
    game: str | None = None,
) -> Report:
    """The report of the gaming days ``first`` to ``last`` (inclusive), one group per ``by``."""
    if by not in GROUPS:
        raise ValueError(f"a report is by one of {', '.join(GROUPS)}, not {by!r}")
    if last < first:
        raise ValueError("the last gaming day is before the first")
    rows = WagerShift.objects.filter(gaming_day__gte=first, gaming_day__lte=last)
    if tables is not None:
        rows = rows.filter(table_id__in=list(tables))
    if game:
        rows = rows.filter(game=game)
    # Summed in the database to one row per group, rules and wager.
    keys = (["table_id"] if by == "table" else []) + ["game", "rules_key", "wager"]
    if by == "day":
        keys.append("gaming_day")
    if by == "shift":
        keys += ["gaming_day", "shift"]
    summed = list(rows.values(*keys).annotate(**{f"s_{s}": Sum(s) for s in SUMS}).order_by(*keys))
    rules_of = _rules_of({r["rules_key"] for r in summed})
    table_names = dict(Table.objects.values_list("pk", "name"))
    groups: dict[str, Group] = {}
    total = Group("total", "Total")
    labels: dict[str, dict[str, str]] = {}
    for r in summed:
        game_name, key, wager = r["game"], r["rules_key"], r["wager"]
        rules = rules_of[key]
        if by == "table":
            gkey, glabel = str(r["table_id"]), table_names.get(r["table_id"], str(r["table_id"]))
        elif by == "game":
            gkey, glabel = game_name, GAME_TITLES.get(game_name, game_name)
        elif by == "paytable":
            gkey, glabel = key, _paytable_words(game_name, rules, key)
        elif by == "day":
            gkey = glabel = r["gaming_day"].isoformat()
        else:
            gkey = f"{r['gaming_day'].isoformat()} {r['shift']}"
            glabel = f"{r['gaming_day'].isoformat()} {_shift_name(r['shift'])}"
        group = groups.get(gkey)
        if group is None:
            group = groups[gkey] = Group(gkey, glabel)
        if game_name not in labels:
            labels[game_name] = _labels(game_name)
        for target in (group, total):
            _add(target, game_name, rules, key, wager, r, labels[game_name])
    for g in [*groups.values(), total]:
        _finish(g)
    # Days and shifts in time order (a shift's key is its day and number), the rest by name.
    ordered = sorted(
        groups.values(), key=lambda g: g.key if by in ("day", "shift") else g.label.lower()
    )
    return Report(first, last, by, ordered, total)


def _rules_of(keys: set[str]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key in keys:
        found[key] = (
            WagerShift.objects.filter(rules_key=key).values_list("rules", flat=True).first()
        )
    return found


def _add(
    group: Group,
    game: str,
    rules: Any,
    key: str,
    wager: str,
    r: dict[str, Any],
    labels: dict[str, str],
) -> None:
    """Add one (rules, wager) sum to a group, with its theoretical win and variance."""
    s = {name: int(r[f"s_{name}"] or 0) for name in SUMS}
    math_ = rollup.mathematics(game, rules, key)
    if wager == rollup.ROUND:
        group.rounds += s["lines"]
        if math_.main is not None and math_.main.variance is not None:
            _spread(group, key, math_.main)[3] += s["handle_sq"]
        return
    main = math_.main
    if main is not None and wager in main.wagers and wager in _decision_wagers(game, rules):
        decided = _main_line(group, main, labels)
        decided.decided += s["lines"]
        decided.decided_handle += s["handle"]
    if wager == rollup.MAIN:
        figure = math_.main
        if figure is None:
            return
        line = _main_line(group, figure, labels)
    else:
        found = group.wagers.get(wager)
        if found is None:
            found = group.wagers[wager] = WagerLine(
                wager, labels.get(wager, wager.replace("_", " "))
            )
        line = found
        figure = math_.by_wager.get(wager)
        if figure is not None and figure is math_.main:
            figure = None  # a main-game wager: its theoretical win is the main game's
    line.lines += s["lines"]
    line.handle += s["handle"]
    line.paid += s["paid"]
    line.house_win -= s["net"]
    if figure is None:
        return
    edge = figure.house_edge
    line.edges.add(f"{figure.paytable}: {edge:.4%}")
    line.theoretical = (line.theoretical or 0.0) + s["handle"] * edge
    if figure.variance is not None and wager == rollup.MAIN:
        # The main game's boxes of one round share the dealer's hand: summed in _finish
        # with the rounds' Antes.
        _spread(group, key, figure)[2] += s["handle_sq"]
        return
    if figure.variance is not None:
        var = figure.variance * s["handle_sq"]
    else:
        # Estimated around the theoretical mean from the play: sum of (net + edge x stake)^2.
        line.estimated = True
        var = max(0.0, s["net_sq"] + 2 * edge * s["net_handle"] + edge * edge * s["handle_sq"])
    line.variance = (line.variance or 0.0) + var


def _spread(group: Group, key: str, figure: Any) -> list[float]:
    found = group.spread.get(key)
    if found is None:
        found = group.spread[key] = [figure.variance, figure.covariance or 0.0, 0.0, 0.0]
        group.spread_names[key] = figure.paytable
    return found


def _finish(group: Group) -> None:
    """The main game's variance of the house win, exactly (docs/backoffice.md): a round of
    boxes with Antes u_1..u_n has variance Var x sum(u_i^2) + Cov x sum over i != j of
    u_i u_j, and sum over i != j of u_i u_j = (sum u_i)^2 - sum(u_i^2); summed over rounds
    from the roll-up (``"*main"``'s handle_sq, ``"*round"``'s handle_sq)."""
    line = group.main
    if line is None or not group.spread:
        return
    total = 0.0
    for key, (variance, covariance, boxes_sq, rounds_sq) in group.spread.items():
        # Rows filed before the rounds' Antes were kept have no rounds_sq: those boxes count
        # as independent until `manage.py rollup_rebuild`.
        total += variance * boxes_sq + covariance * max(0.0, rounds_sq - boxes_sq)
        line.correlated = line.correlated or bool(covariance and rounds_sq > boxes_sq)
        line.spread_figures.add(
            f"{group.spread_names[key]}: variance {variance:.4f}, covariance of two boxes "
            f"{covariance:.4f}"
        )
    line.variance = (line.variance or 0.0) + total


def _main_line(group: Group, figure: Any, labels: dict[str, str]) -> WagerLine:
    if group.main is None:
        first = figure.wagers[0]
        group.main = WagerLine(rollup.MAIN, f"Main game (per unit of {labels.get(first, first)})")
    return group.main


def rules_submission_names() -> dict[int, str]:
    return dict(RulesSubmission.objects.values_list("pk", "name"))


def csv_rows(report: Report) -> Sequence[Sequence[Any]]:
    """The report as CSV rows: one per group and wager type, then the group's totals."""
    head = [
        report.by,
        "wager",
        "rounds",
        "wagers",
        "handle",
        "paid",
        "house win",
        "hold %",
        "theoretical win",
        "theoretical hold %",
        "actual RTP %",
        "theoretical RTP %",
        "band low %",
        "band high %",
        "outside band",
        "variance",
        "main game decisions",
    ]
    out: list[list[Any]] = [head]

    def money(c: float | int | None) -> str:
        return "" if c is None else f"{c / 100:.2f}"

    def pct(x: float | None) -> str:
        return "" if x is None else f"{100 * x:.4f}"

    for g in [*report.groups, report.total]:
        for w in [*g.wagers.values(), *([g.main] if g.main else [])]:
            out.append(
                [
                    g.label,
                    w.label,
                    "",
                    w.lines,
                    money(w.handle),
                    money(w.paid),
                    money(w.house_win),
                    pct(w.hold),
                    money(w.theoretical),
                    pct(w.theoretical_hold),
                    "",
                    "",
                    "",
                    "",
                    "",
                    w.spread_words or ("exact" if w.variance is not None else ""),
                    w.decisions_words,
                ]
            )
        band = g.band
        out.append(
            [
                g.label,
                "all wagers",
                g.rounds,
                "",
                money(g.handle),
                money(g.paid),
                money(g.house_win),
                pct(g.hold),
                money(g.theoretical),
                pct(g.theoretical_hold),
                pct(g.rtp),
                pct(g.theoretical_rtp),
                pct(band[0] if band else None),
                pct(band[1] if band else None),
                "yes" if g.outside else "no",
                "estimated" if g.estimated else "exact",
                "",
            ]
        )
    return out
