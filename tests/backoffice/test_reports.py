"""The back office's report (table/reports.py, table/rollup.py): hand-worked figures, and every
figure reconciled to the ledger to the cent on generated play of every game."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db.models import Sum

from table import ledger, reports, rollup
from table.models import Account, Entry, Round, SettlementLine, WagerShift

from ..services.conftest import make_player
from .play import Source, make_table, play_round

NY = ZoneInfo("America/New_York")


def test_the_gaming_day_starts_at_its_hour_in_the_casinos_zone(settings: Any) -> None:
    settings.TIME_ZONE = "America/New_York"
    settings.CASINO_GAMING_DAY_START = "06:00"
    settings.CASINO_SHIFTS = (("day", "06:00"), ("swing", "14:00"), ("graveyard", "22:00"))
    day = rollup.gaming_day_and_shift
    # 05:59 local on the 2nd is still the 1st's gaming day, in its graveyard shift.
    assert day(dt.datetime(2026, 3, 2, 5, 59, tzinfo=NY)) == (dt.date(2026, 3, 1), 2)
    assert day(dt.datetime(2026, 3, 2, 6, 0, tzinfo=NY)) == (dt.date(2026, 3, 2), 0)
    assert day(dt.datetime(2026, 3, 2, 13, 59, tzinfo=NY)) == (dt.date(2026, 3, 2), 0)
    assert day(dt.datetime(2026, 3, 2, 14, 0, tzinfo=NY)) == (dt.date(2026, 3, 2), 1)
    assert day(dt.datetime(2026, 3, 2, 23, 0, tzinfo=NY)) == (dt.date(2026, 3, 2), 2)
    # The same moment in UTC: 10:30 UTC is 05:30 in New York in winter.
    assert day(dt.datetime(2026, 1, 15, 10, 30, tzinfo=dt.UTC)) == (dt.date(2026, 1, 14), 2)
    begin, end = rollup.day_bounds(dt.date(2026, 3, 2), dt.date(2026, 3, 2))
    assert (begin.hour, end - begin) == (6, dt.timedelta(hours=24))


def test_a_rounds_roll_up_by_hand() -> None:
    """Two boxes of a Four Card Frenzy round under the default rules, worked by hand."""
    from table.games import game

    g = game("four_card_frenzy")
    rules = g.rules_to_dict(g.default_rules())
    lines = [
        (1, "ante", 10_00, 10_00),  # box 1: Ante wins 1 to 1,
        (1, "odds", 10_00, -10_00),  # the Odds lose,
        (1, "raise", 20_00, 20_00),  # a 2x Raise wins,
        (1, "prime", 5_00, 30_00),  # the Prime pays 6 to 1
        (2, "ante", 5_00, -5_00),  # box 2 folds: Ante and Odds lose
        (2, "odds", 5_00, -5_00),
    ]
    sums = rollup.sums_of_round("four_card_frenzy", rules, rollup.rules_key(rules), lines)
    assert sums[rollup.ROUND].lines == 1
    ante = sums["ante"]
    assert (ante.lines, ante.handle, ante.net, ante.paid, ante.wins) == (2, 15_00, 5_00, 10_00, 1)
    assert ante.handle_sq == 10_00**2 + 5_00**2
    # The main game per box: box 1 staked 10 units of Ante and won 20; box 2 5 and lost 10.
    main = sums[rollup.MAIN]
    assert (main.lines, main.handle, main.net) == (2, 15_00, 10_00)
    assert main.net_sq == 20_00**2 + 10_00**2
    assert main.net_handle == 20_00 * 10_00 + (-10_00) * 5_00
    assert sums["prime"].paid == 30_00 and sums["prime"].net == 30_00


@pytest.mark.django_db
def test_the_report_by_hand(settings: Any) -> None:
    """Rows written straight into the roll-up: the report's sums, hold and theoretical win
    are what the arithmetic says (the edges are the game's own figures)."""
    from table.games import game
    from table.models import RulesSubmission, Table

    g = game("four_card_frenzy")
    stored = g.rules_to_dict(g.default_rules())
    sub = RulesSubmission.objects.create(name="r", game="four_card_frenzy", choices=stored)
    table = Table.objects.create(name="T", rules=sub)
    key = rollup.rules_key(stored)
    day = dt.date(2026, 3, 2)

    def row(wager: str, lines: int, handle: int, handle_sq: int, net: int, paid: int) -> None:
        WagerShift.objects.create(
            gaming_day=day,
            table=table,
            game="four_card_frenzy",
            rules_submission=sub,
            rules_key=key,
            rules=stored,
            wager=wager,
            lines=lines,
            handle=handle,
            handle_sq=handle_sq,
            net=net,
            paid=paid,
        )

    row(rollup.ROUND, 100, 0, 0, 0, 0)
    row("ante", 100, 1000_00, 100 * 10_00**2, -50_00, 300_00)
    row("odds", 100, 1000_00, 100 * 10_00**2, -40_00, 200_00)
    row("raise", 60, 900_00, 60 * 15_00**2, 20_00, 400_00)
    row(rollup.MAIN, 100, 1000_00, 100 * 10_00**2, -70_00, 0)
    row("prime", 50, 250_00, 50 * 5_00**2, -30_00, 60_00)
    report = reports.build(day, day, "table")
    [group] = report.groups
    assert group.rounds == 100
    assert group.handle == 3150_00
    assert group.paid == 960_00
    assert group.house_win == 50_00 + 40_00 - 20_00 + 30_00
    assert group.hold == pytest.approx(100_00 / 3150_00)
    figures = {f.wager: f for f in g.math_report(g.default_rules())}
    main_edge = figures["Ante, Odds and Raise"].house_edge
    prime = figures["Prime"]
    assert group.theoretical == pytest.approx(1000_00 * main_edge + 250_00 * prime.house_edge)
    assert group.wagers["prime"].variance == pytest.approx(prime.variance * 50 * 5_00**2)
    assert group.main is not None and group.main.estimated
    # The players' decisions beside the optimal-play figure: 60 Raises on 100 boxes, $900 of
    # Raise on $1,000 of Ante.
    assert (group.main.decided, group.main.decision_rate) == (60, 0.6)
    assert group.main.decision_size == pytest.approx(0.9)
    assert "60.0% of boxes, 0.90x the Ante" in group.main.decisions_words
    assert group.rtp == pytest.approx(1 - 100_00 / 3150_00)
    low, high = group.band  # type: ignore[misc]
    assert low < group.theoretical_rtp < high  # type: ignore[operator]


def _ledger_player_net(round_ids: list[int]) -> int:
    return (
        Entry.objects.filter(
            transaction__round_id__in=round_ids, account__kind=Account.PLAYER
        ).aggregate(s=Sum("amount"))["s"]
        or 0
    )


@pytest.mark.django_db(transaction=False)
def test_every_figure_reconciles_to_the_ledger_on_generated_play() -> None:
    src = Source(2511)
    players = {n: make_player(n) for n in ("ann", "ben", "cat")}
    tables = [
        make_table("Frenzy", "four_card_frenzy"),
        make_table("Crazy", "crazy_4_poker"),
        make_table("HiLo", "five_card_hi_lo"),
    ]
    from table import services
    from table.models import Seat

    seats = {name: n * 2 - 1 for n, name in enumerate(players, start=1)}
    for table, _dealer in tables:
        Seat.objects.filter(table=table).delete()
        for name, user in players.items():
            services.sit(table.pk, user, seats[name])
    for _ in range(12):
        for table, dealer in tables:
            play_round(table, dealer, players, src, seats)
    assert ledger.verify() == []
    settled = Round.objects.filter(phase="settled")
    assert settled.count() == 36
    days = sorted({rollup.gaming_day_and_shift(r.finished_at)[0] for r in settled})
    report = reports.build(days[0], days[-1], "table")
    assert {g.label for g in report.groups} == {"Frenzy", "Crazy", "HiLo"}
    for group in report.groups:
        ids = list(settled.filter(table_id=int(group.key)).values_list("pk", flat=True))
        assert group.rounds == len(ids)
        # The house win is what the players' accounts lost on these rounds, to the cent.
        assert group.house_win == -_ledger_player_net(ids)
        lines = SettlementLine.objects.filter(round_id__in=ids).exclude(outcome="void")
        per_wager: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for wager, stake, net in lines.values_list("wager", "stake", "net"):
            per_wager[wager]["handle"] += stake
            per_wager[wager]["net"] += net
            per_wager[wager]["paid"] += max(net, 0)
        assert set(group.wagers) == set(per_wager)
        for wager, line in group.wagers.items():
            assert line.handle == per_wager[wager]["handle"], wager
            assert line.house_win == -per_wager[wager]["net"], wager
            assert line.paid == per_wager[wager]["paid"], wager
        assert group.theoretical > 0 and group.band is not None
    assert report.total.house_win == -_ledger_player_net(list(settled.values_list("pk", flat=True)))
    # The roll-up kept by the settlements is the one rebuilt from the settlement lines.
    kept = sorted(
        WagerShift.objects.values_list(
            "gaming_day",
            "shift",
            "table_id",
            "rules_key",
            "wager",
            "lines",
            "handle",
            "net",
            "paid",
        )
    )
    assert rollup.rebuild() == 36
    again = sorted(
        WagerShift.objects.values_list(
            "gaming_day",
            "shift",
            "table_id",
            "rules_key",
            "wager",
            "lines",
            "handle",
            "net",
            "paid",
        )
    )
    assert kept == again


@pytest.mark.django_db
def test_each_round_counts_under_the_paytable_in_force_when_it_was_played() -> None:
    """A table's rules change between rounds (Queens Up paytable A, then D): the report by
    paytable has both, each round's wagers under its own, and theoretical win is each one's
    handle x its own edge."""
    from table import services
    from table.games import game
    from table.models import RulesSubmission, Seat

    src = Source(99)
    players = {n: make_player(n) for n in ("ann", "ben")}
    seats = {"ann": 1, "ben": 4}
    table, dealer = make_table("Crazy", "crazy_4_poker")
    Seat.objects.filter(table=table).delete()
    for name, user in players.items():
        services.sit(table.pk, user, seats[name])
    for _ in range(4):
        play_round(table, dealer, players, src, seats)
    g = game("crazy_4_poker")
    other = RulesSubmission.objects.create(
        name="Queens Up D",
        game="crazy_4_poker",
        choices={**table.rules.choices, "queens_up_paytable": "D"},
    )
    services.change_rules(table.pk, other, dealer)
    table.refresh_from_db()
    assert table.rules_id == other.pk
    for _ in range(4):
        play_round(table, dealer, players, src, seats)
    settled = Round.objects.filter(phase="settled")
    days = sorted({rollup.gaming_day_and_shift(r.finished_at)[0] for r in settled})
    report = reports.build(days[0], days[-1], "paytable")
    assert len(report.groups) == 2

    def queens_edge(rules: Any) -> float:
        return next(f.house_edge for f in g.math_report(rules) if f.wagers == ("queens_up",))

    expected = {queens_edge(g.default_rules()), queens_edge(other.game_rules())}
    assert len(expected) == 2  # paytables A and D differ
    seen = set()
    for group in report.groups:
        queens = group.wagers["queens_up"]
        assert queens.handle > 0
        [edge] = [float(e.split(": ")[1].rstrip("%")) / 100 for e in queens.edges]
        seen.add(round(edge, 6))
        assert queens.theoretical == pytest.approx(queens.handle * edge, rel=1e-5)
    assert seen == {round(e, 6) for e in expected}
    assert sum(g.rounds for g in report.groups) == 8
    assert report.total.house_win == -_ledger_player_net(list(settled.values_list("pk", flat=True)))


@pytest.mark.django_db
def test_the_rebuild_command_refiles_every_round() -> None:
    from io import StringIO

    from django.core.management import call_command

    src = Source(5)
    players = {"ann": make_player("ann")}
    table, dealer = make_table("Frenzy", "four_card_frenzy")
    from table import services

    services.sit(table.pk, players["ann"], 2)
    for _ in range(3):
        play_round(table, dealer, players, src, {"ann": 2})
    kept = sorted(WagerShift.objects.values_list("wager", "lines", "handle", "net"))
    WagerShift.objects.all().delete()
    out = StringIO()
    call_command("rollup_rebuild", stdout=out)
    assert "from 3 settled rounds" in out.getvalue()
    assert sorted(WagerShift.objects.values_list("wager", "lines", "handle", "net")) == kept


@pytest.mark.django_db
def test_shifts_come_in_time_order() -> None:
    from table.games import game
    from table.models import RulesSubmission, Table

    g = game("four_card_frenzy")
    stored = g.rules_to_dict(g.default_rules())
    sub = RulesSubmission.objects.create(name="r", game="four_card_frenzy", choices=stored)
    table = Table.objects.create(name="T", rules=sub)
    day = dt.date(2026, 3, 2)
    for shift in (2, 0, 1):
        WagerShift.objects.create(
            gaming_day=day,
            shift=shift,
            table=table,
            game="four_card_frenzy",
            rules_submission=sub,
            rules_key=rollup.rules_key(stored),
            rules=stored,
            wager=rollup.ROUND,
            lines=1,
        )
    report = reports.build(day, day, "shift")
    assert [g.label for g in report.groups] == [
        "2026-03-02 day",
        "2026-03-02 swing",
        "2026-03-02 graveyard",
    ]
