"""The main game's spread (table/games/four_card_frenzy/spread.py): the published distribution
of a box's net per unit of Ante at optimal play gives back the published house edge exactly
and sums to 1; the inclusion-exclusion that sums the player hands beside a dealer hand agrees
with brute force; the game's figures carry the variance and covariance to the back office."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pytest

from table.games import game
from table.games.common import net_distribution_moments
from table.games.four_card_frenzy import analysis, spread
from table.games.four_card_frenzy.paytables import BAD_BEAT_PAYTABLES
from table.paytable_report import load_report

DEALS = comb(52, 5) * comb(47, 5)


@pytest.fixture(scope="module")
def section() -> dict[str, Any]:
    found: dict[str, Any] = load_report()["wagers"]["bad_beat"]
    return found


def test_each_tables_distribution_sums_to_one_and_gives_back_its_house_edge(
    section: dict[str, Any],
) -> None:
    assert set(section["paytables"]) == set(BAD_BEAT_PAYTABLES)
    for name, entry in section["paytables"].items():
        d = entry["net_distribution"]
        assert d["population"] == DEALS, name
        assert sum(o["count"] for o in d["outcomes"]) == DEALS
        assert sum(o["probability"] for o in d["outcomes"]) == pytest.approx(1, abs=1e-12)
        mean, variance, covariance = net_distribution_moments(d, entry["house_edge_exact"])
        assert mean == -Fraction(entry["house_edge_exact"])
        assert covariance is not None and 0 < covariance < variance
        # A fold loses the Ante and the Odds: -2 in every deal of a folded hand (and some
        # beaten 3x Raises whose bad beat pays 2 to 1).
        fold = next(o for o in d["outcomes"] if o["net"] == "-2")
        assert fold["probability"] >= entry["decisions"]["fold"] - 1e-15
        # The best: the top Odds win with a 3x Raise against a qualifying dealer (1 + 3 +
        # Odds), or the top bad beat (-1 - 3 + bad-beat payout), whichever pays more.
        top_odds = max(Fraction(str(r["ratio"])) for r in entry["odds_rows"])
        top_beat = max(Fraction(str(r["ratio"])) for r in entry["rows"])
        best = max(Fraction(o["net"]) for o in d["outcomes"])
        assert best == max(4 + top_odds, -4 + top_beat), name


def test_a_distribution_that_misses_the_house_edge_is_refused(section: dict[str, Any]) -> None:
    entry = section["paytables"]["A"]
    d = dict(entry["net_distribution"])
    outcomes = [dict(o) for o in d["outcomes"]]
    outcomes[0]["count"] -= 1
    outcomes[-1]["count"] += 1
    with pytest.raises(ValueError, match="stated mean"):
        net_distribution_moments({**d, "outcomes": outcomes}, entry["house_edge_exact"])
    with pytest.raises(ValueError, match="minus the house edge"):
        net_distribution_moments(d, "1/100")


def test_the_games_figure_carries_the_spread_to_the_back_office(section: dict[str, Any]) -> None:
    g = game("four_card_frenzy")
    for name in ("A", "BB-6"):
        rules = g.parse_rules({**g.rules_to_dict(g.default_rules()), "bad_beat_paytable": name})
        main = g.math_report(rules)[0]
        d = section["paytables"][name]["net_distribution"]
        assert main.variance == d["variance"] and main.covariance == d["covariance"]


@pytest.mark.slow
def test_sums_beside_a_dealer_hand_equal_brute_force() -> None:
    """Any weight per player hand (random integers here), summed over the hands that avoid a
    dealer hand and rank below a cut: inclusion-exclusion against every hand checked."""
    five = analysis.five_card_hands()
    layout = spread.Layout.build(five)
    rng = np.random.default_rng(2511)
    weight = rng.integers(-40, 41, size=len(five.cards)).astype(np.int64)
    sums = spread.WeightedSums(layout, weight)
    rows = rng.choice(len(five.cards), 5, replace=False).astype(np.int64)
    cuts = [five.rank[rows].astype(np.int64), rng.integers(0, layout.ranks + 1, 5)]
    fast = sums.avoiding(rows, cuts)
    for i, row in enumerate(rows.tolist()):
        dealer = five.cards[row]
        avoids = ~np.isin(five.cards, dealer).any(axis=1)
        for cut, got in zip(cuts, fast, strict=True):
            below = five.rank < int(cut[i])
            assert int(got[i]) == int(weight[avoids & below].sum())


@pytest.mark.slow
def test_sampled_covariance_with_card_removal() -> None:
    classes = analysis.player_classes()
    result = analysis.main_game_result(classes, BAD_BEAT_PAYTABLES["A"])
    estimate, error, mean = spread.sampled_box_covariance(result, 200_000)
    assert mean == pytest.approx(float(result.expected_value))
    published = load_report()["wagers"]["bad_beat"]["paytables"]["A"]["net_distribution"]
    assert error < 0.02
    assert (
        published["covariance"] - 5 * error < estimate + 0.014 < published["covariance"] + 5 * error
    )
