"""Four Card Frenzy in the back office's report (table/reports.py, table/rollup.py): a round's
roll-up and a report worked by hand (the report for every game: tests/backoffice/)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from table import reports, rollup
from table.models import WagerShift


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
    # The round's main game as a whole: $15 of Ante, +20 - 10 = +$10, for the covariance.
    r = sums[rollup.ROUND]
    assert (r.handle, r.handle_sq, r.net, r.net_sq) == (15_00, 15_00**2, 10_00, 10_00**2)
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

    # One box a round ($10 of Ante each): the round's Ante squared is the box's.
    row(rollup.ROUND, 100, 1000_00, 100 * 10_00**2, -70_00, 0)
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
    # The main game's spread is the game's exact one (its published distribution), and with
    # one box a round no two boxes share a dealer's hand.
    main = figures["Ante, Odds and Raise"]
    assert main.variance is not None and main.covariance is not None
    assert group.main is not None and not group.main.estimated and not group.main.correlated
    assert group.main.variance == pytest.approx(main.variance * 100 * 10_00**2)
    assert group.sigma**2 == pytest.approx(
        main.variance * 100 * 10_00**2 + prime.variance * 50 * 5_00**2
    )
    # The players' decisions beside the optimal-play figure: 60 Raises on 100 boxes, $900 of
    # Raise on $1,000 of Ante.
    assert (group.main.decided, group.main.decision_rate) == (60, 0.6)
    assert group.main.decision_size == pytest.approx(0.9)
    assert "60.0% of boxes, 0.90x the Ante" in group.main.decisions_words
    assert group.rtp == pytest.approx(1 - 100_00 / 3150_00)
    low, high = group.band  # type: ignore[misc]
    assert low < group.theoretical_rtp < high  # type: ignore[operator]
