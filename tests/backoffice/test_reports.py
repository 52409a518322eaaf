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
from table.games import GAMES
from table.models import Account, Entry, Round, SettlementLine, WagerShift

from ..services.conftest import make_player
from .play import Source, make_table, play_round

NY = ZoneInfo("America/New_York")


def a_table() -> tuple[str, Any, Any, dict[str, Any]]:
    """A table of the default game (the registry's) under that game's default rules: the
    game's name, the Rules Submission, the table and the stored rules."""
    from table.games import default_game, game
    from table.models import RulesSubmission, Table

    name = default_game()
    g = game(name)
    stored = g.rules_to_dict(g.default_rules())
    sub = RulesSubmission.objects.create(name="r", game=name, choices=stored)
    return name, sub, Table.objects.create(name="T", rules=sub), stored


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


@pytest.mark.django_db
def test_the_band_by_hand_with_boxes_sharing_the_dealers_hand() -> None:
    """Round figures put in the game's place (variance 4 and covariance 1 per unit of Ante
    squared, edge 2%) so the band can be worked by hand: 10 rounds of two $10 boxes.

    Boxes: sum of Ante^2 = 20 x 1,000^2 = 2 x 10^7 cents^2; rounds: sum of (round's Ante)^2 =
    10 x 2,000^2 = 4 x 10^7. Variance of the house win = 4 x 2e7 + 1 x (4e7 - 2e7) = 10^8,
    sigma = 10,000 cents = $100. Handle $200, theoretical win 2% = $4, so the band is
    1 - (400 +- 1.96 x 10,000) / 20,000 = 0% to 196%; the players lost $6: RTP 97%, inside.
    Boxes taken as independent would give sigma = sqrt(8e7) = $89.44 (band 10.35% to 185.65%).
    """
    from table.games.base import Figure

    name, sub, table, stored = a_table()
    key = rollup.rules_key(stored)
    figure = Figure("main", "X", 0.02, "per unit of Ante", ("ante", "odds", "raise"), 4.0, 1.0)
    rollup._MATH[(name, key)] = rollup.Mathematics(
        (figure,), {w: figure for w in figure.wagers}, figure
    )
    day = dt.date(2026, 3, 2)

    def row(wager: str, lines: int, handle: int, handle_sq: int, net: int) -> None:
        WagerShift.objects.create(
            gaming_day=day, table=table, game=name, rules_submission=sub,
            rules_key=key, rules=stored, wager=wager, lines=lines, handle=handle,
            handle_sq=handle_sq, net=net,
        )  # fmt: skip

    try:
        row(rollup.ROUND, 10, 200_00, 10 * 20_00**2, -6_00)
        row("ante", 20, 200_00, 20 * 10_00**2, -6_00)
        row(rollup.MAIN, 20, 200_00, 20 * 10_00**2, -6_00)
        [group] = reports.build(day, day, "table").groups
        assert group.main is not None and group.main.correlated
        assert group.main.variance == pytest.approx(1e8)
        assert group.sigma == pytest.approx(100_00)
        assert group.theoretical == pytest.approx(4_00)
        low, high = group.band  # type: ignore[misc]
        assert (low, high) == (pytest.approx(0.0, abs=1e-12), pytest.approx(1.96))
        assert group.rtp == pytest.approx(0.97) and not group.outside
        assert "X: variance 4.0000, covariance of two boxes 1.0000" in group.main.spread_words
        # Were they independent: 4 x 2e7 only.
        figure_alone = Figure("main", "X", 0.02, "", ("ante", "odds", "raise"), 4.0)
        rollup._MATH[(name, key)] = rollup.Mathematics(
            (figure_alone,), {w: figure_alone for w in figure.wagers}, figure_alone
        )
        [alone] = reports.build(day, day, "table").groups
        assert alone.sigma == pytest.approx(8e7**0.5)
        assert alone.band[0] == pytest.approx(1 - (400 + 1.96 * 8e7**0.5) / 20_000)  # type: ignore[index]
        assert alone.main is not None and not alone.main.correlated
    finally:
        rollup._MATH.pop((name, key), None)


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
    tables = [make_table(f"Table {n}", name) for n, name in enumerate(GAMES, start=1)]
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
    assert settled.count() == 12 * len(GAMES)
    days = sorted({rollup.gaming_day_and_shift(r.finished_at)[0] for r in settled})
    report = reports.build(days[0], days[-1], "table")
    assert {g.label for g in report.groups} == {t.name for t, _ in tables}
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
    assert rollup.rebuild() == 12 * len(GAMES)
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


@pytest.mark.django_db(transaction=False)
def test_the_flag_shows_when_the_actual_return_lies_outside_its_band() -> None:
    """Generated play of every game: three players at a table, 12 rounds, the band from the
    games' exact spread with the boxes of a round sharing the dealer's hand. Players who
    bet only the required wagers and fold every hand get nothing back (RTP 0, whatever the
    shuffle) where the mathematics expects about 97%: flagged, below the band; at the tables
    played at random the flag is always "actual RTP not within the band"."""
    from table import services
    from table.models import Seat

    src = Source(2604)
    players = {n: make_player(n) for n in ("ann", "ben", "cat")}
    seats = {"ann": 1, "ben": 3, "cat": 5}
    played = [
        (make_table(f"{name} {how}", name), how == "folding")
        for name in GAMES
        for how in ("folding", "playing")
    ]
    for (table, _dealer), _fold in played:
        Seat.objects.filter(table=table).delete()
        for name, user in players.items():
            services.sit(table.pk, user, seats[name])
    for _ in range(12):
        for (table, dealer), fold in played:
            play_round(table, dealer, players, src, seats, fold=fold)
    settled = Round.objects.filter(phase="settled")
    days = sorted({rollup.gaming_day_and_shift(r.finished_at)[0] for r in settled})
    report = reports.build(days[0], days[-1], "table")
    assert len(report.groups) == 2 * len(GAMES)
    for group in [*report.groups, report.total]:
        assert group.main is not None and group.main.correlated, group.label
        assert not group.estimated
        low, high = group.band  # type: ignore[misc]
        assert group.outside == (not low <= group.rtp <= high)  # type: ignore[operator]
        if group.label.endswith("folding"):
            assert group.rtp == 0 and low > 0.2 and group.outside, group.label
    # The same boxes taken as independent would give a narrower band: the covariance widens it.
    folding = next(g for g in report.groups if g.label.endswith("folding"))
    assert folding.main is not None and folding.main.variance is not None
    spread = next(iter(folding.spread.values()))
    variance, covariance, boxes_sq, rounds_sq = spread
    assert rounds_sq > boxes_sq > 0 and covariance > 0
    assert folding.main.variance == pytest.approx(
        variance * boxes_sq + covariance * (rounds_sq - boxes_sq)
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", GAMES)
def test_the_rebuild_command_refiles_every_round(name: str) -> None:
    from io import StringIO

    from django.core.management import call_command

    src = Source(5)
    players = {"ann": make_player("ann")}
    table, dealer = make_table("Table", name)
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
    name, sub, table, stored = a_table()
    day = dt.date(2026, 3, 2)
    for shift in (2, 0, 1):
        WagerShift.objects.create(
            gaming_day=day,
            shift=shift,
            table=table,
            game=name,
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
