"""Exact Crazy 4 Poker mathematics (table/games/crazy_4_poker/analysis.py).

The seeds carry no published figures for this game. The main game's house edge (3.42% of the
Ante) and element of risk (1.09%), and the "play with K-Q-8-4 or better" strategy, are the
figures widely published for Crazy 4 Poker; the test holds the exact fraction computed here.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from table.games.crazy_4_poker import analysis as a
from table.games.crazy_4_poker.hands import best_four, dealer_qualifies
from table.games.crazy_4_poker.settlement import Wagers, main_game
from table.games.four_card_frenzy.analysis import ContainmentIndex, five_card_hands, hand_words
from table.games.four_card_frenzy.hands import combinations_array

from .helpers import cards

PLAYERS = ["AS AH 3D 5C 8H", "KS QH 8D 4C 2H", "5H 6S 7C 8D KH", "QS JH 9D 7C 5D", "2S 2H 2D 2C 9S"]


@pytest.mark.parametrize("hand", PLAYERS)
def test_choice_values_equal_the_settlement_engine(hand: str) -> None:
    """The counted formulas settle a hand exactly as settlement.main_game does, over a
    strided sample of its dealer hands."""
    player = sorted(cards(hand))
    rest = np.array([c for c in range(52) if c not in player], dtype=np.int8)
    dealers = rest[combinations_array(47, 5)[::997]]
    p = best_four(player)
    counts = {"nq": 0, "beats": 0, "ties": 0, "loses": 0}
    engine = {1: 0, 3: 0}
    for row in dealers:
        d = best_four([int(c) for c in row])
        q = dealer_qualifies(d.value)
        key = (
            "nq"
            if not q
            else "beats"
            if d.value > p.value
            else "ties"
            if d.value == p.value
            else "loses"
        )
        counts[key] += 1
        for m in engine:
            lines = main_game(p, d, q, Wagers(ante=2, super_bonus=2, play=2 * m))
            engine[m] += sum(line.net for line in lines)  # stakes of 2: 3 to 2 stays whole
    one = np.array([1], dtype=np.int64)
    classes = a.PlayerClasses(
        one, one, np.array([p.value], dtype=np.int64), counts["nq"] * one, counts["beats"] * one,
        counts["ties"] * one, counts["loses"] * one, {},
    )  # fmt: skip
    cv = a.choice_values(classes)
    assert int(cv.one[0]) == engine[1]  # both in halves of an Ante
    if p.value >= best_four(list(cards("AS AH 2C 3D 4H"))).value:
        assert int(cv.three[0]) == engine[3]
    assert int(cv.fold[0]) == -4 * len(dealers)


def test_side_wager_figures() -> None:
    s = a.side_wagers_five_card()
    figures = {(k, w.name): a.percent(w.house_edge) for k, ws in s.items() for w in ws}
    assert {k: v for k, v in figures.items() if k[0] == "queens_up"} == {
        ("queens_up", "A"): "3.0606%",
        ("queens_up", "B"): "4.5203%",
        ("queens_up", "C"): "5.3175%",
        ("queens_up", "D"): "6.7772%",
    }
    qu = s["queens_up"][0]
    assert [r.count for r in qu.rows] == [624, 2072, 58656, 114616, 101808, 123552, 242916]
    assert qu.hit_frequency == Fraction(644_244, 2_598_960)
    # Progressive and hand-bonus hit frequencies (meter rows have no fixed return).
    hits = {(k, w.name): a.percent(w.hit_frequency) for k, ws in s.items() for w in ws}
    assert hits[("four_card_progressive", "A")] == "2.3606%"
    assert hits[("five_card_progressive", "C")] == "2.8715%"
    assert hits[("hand_bonus", "")] == "0.3661%"
    assert [r.count for r in s["hand_bonus"][0].rows] == [4, 36, 624, 3744, 5108]


@pytest.mark.slow
def test_six_card_bonus_figures() -> None:
    # The same tables as Four Card Frenzy's All-Six Bonus (docs/paytables.md): same edges.
    edges = [a.percent(w.house_edge) for w in a.six_card_bonus_wagers()]
    assert edges == ["10.2248%", "15.2790%", "6.7413%", "8.5614%", "18.0981%"]


@pytest.fixture(scope="module")
def index() -> ContainmentIndex:
    return ContainmentIndex.build(five_card_hands())


@pytest.mark.slow
def test_fast_dealer_counts_equal_brute_force(index: ContainmentIndex) -> None:
    for hand in PLAYERS:
        player = sorted(cards(hand))
        fast = a.dealer_counts(index, np.array([player]))
        assert a.DealerCounts(*(int(x[0]) for x in fast)) == a.dealer_counts_brute_force(player)


@pytest.mark.slow
def test_main_game_under_optimal_strategy(index: ContainmentIndex) -> None:
    classes = a.player_classes(index=index)
    assert classes.total_weight == 2_598_960
    assert set((classes.no_qualify + classes.beats + classes.ties + classes.loses).tolist()) == {
        1_533_939
    }
    game = a.main_game(classes)
    assert game.expected_value == Fraction(-264_142_729, 7_726_058_340)
    # The published distribution of a box's net, counted again from the dealer counts.
    from table.games.crazy_4_poker.spread import main_distribution
    from table.paytable_report import load_game_report

    published = load_game_report("crazy_4_poker")["main_game"]["net_distribution"]
    assert {Fraction(o["net"]): o["count"] for o in published["outcomes"]} == (
        main_distribution(classes, game)
    )
    # Card removal between two boxes (docs/backoffice.md: 1.5849 +- 0.0017 sampled over
    # 5,000,000 rounds, 0.014 below the published covariance, which neglects it).
    from table.games.crazy_4_poker.spread import sampled_box_covariance

    estimate, error = sampled_box_covariance(classes, game, 100_000)
    assert error < 0.03
    assert abs(estimate + 0.014 - published["covariance"]) < 5 * error
    assert a.percent(game.house_edge, 2) == "3.42%"
    assert a.percent(game.element_of_risk, 2) == "1.09%"
    assert sum(game.by_wager.values()) == game.expected_value
    assert game.decisions["play_3x"] + game.decisions["play_1x"] + game.decisions["fold"] == 1
    words = " ".join(a.strategy_words(classes, game))
    assert "Play 3x with a pair of aces or better" in words
    assert "K-Q-8-4" in words
    # The simple version, 1x from K-Q-8-4 (the one usually published), costs almost nothing.
    threshold, simple = a.best_simple_strategy(classes, game)
    assert hand_words(threshold) == "K-Q-8-4 high"
    assert Fraction(0) < simple.house_edge - game.house_edge < Fraction(1, 100_000)
    # Any other strategy does worse: always 1x, never 3x, never fold.
    for other in (
        np.where(game.choice == a.PLAY_3X, a.PLAY_1X, game.choice),
        np.full(len(game.choice), a.PLAY_1X),
    ):
        assert a.main_game(classes, other.astype(np.int64)).expected_value < game.expected_value
