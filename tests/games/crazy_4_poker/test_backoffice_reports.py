"""Crazy 4 Poker in the back office's report (table/reports.py): a rules change between rounds
counts each round under its own Queens Up paytable (the report for every game:
tests/backoffice/)."""

from __future__ import annotations

from typing import Any

import pytest

from table import reports, rollup
from table.models import Round
from tests.backoffice.play import Source, make_table, play_round
from tests.backoffice.test_reports import _ledger_player_net
from tests.services.conftest import make_player


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
