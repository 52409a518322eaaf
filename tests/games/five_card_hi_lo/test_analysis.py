"""The exact mathematics of :mod:`table.games.five_card_hi_lo.analysis`, checked against
independent counts: card-level enumeration of every dealer hand for sample player hands, the
digest's figures, and the Ante Bonus rows' exact hand counts."""

from __future__ import annotations

from fractions import Fraction
from itertools import chain, combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.games.cards import parse_card
from table.games.five_card_hi_lo import analysis
from table.games.five_card_hi_lo.analysis import (
    DEALS,
    Choice,
    ante_figures,
    decisions,
    poker_bonus_figures,
    poker_hand_counts,
    setting_outcomes,
    simple_choice,
    strategy_expected,
    tie_figures,
)
from table.games.five_card_hi_lo.enumeration import tables, value_class
from table.games.five_card_hi_lo.hands import HIGH_POINTS, possible_settings
from table.games.five_card_hi_lo.poker import PokerHand


def counts_of(cards: list[int]) -> tuple[int, ...]:
    classes = [value_class(c >> 2) for c in cards]
    return tuple(classes.count(i) for i in range(10))


@pytest.fixture(scope="module")
def dealer_index_combos() -> np.ndarray:  # type: ignore[type-arg]
    flat = np.fromiter(
        chain.from_iterable(combinations(range(47), 5)), dtype=np.int8, count=5 * comb(47, 5)
    )
    return flat.reshape(-1, 5)


@pytest.mark.parametrize(
    "text",
    ["AS JD TH 9C 2S", "KS QD 5H 4C 3S", "AS AD AH KC 2S", "AS AD 7H 7C 3S", "9S 9D 9H 2C 2S"],
)
def test_outcomes_agree_with_card_level_enumeration_of_every_dealer_hand(
    text: str,
    dealer_index_combos: np.ndarray,  # type: ignore[type-arg]
) -> None:
    """All C(47,5) dealer hands, each set the house way card by card, for both settings."""
    player = [parse_card(t) for t in text.split()]
    rest = np.array([c for c in range(52) if c not in player], dtype=np.int64)
    dealer = rest[dealer_index_combos]
    values = np.array(HIGH_POINTS, dtype=np.int64)[dealer >> 2]
    values = -np.sort(-values, axis=1)
    high = values[:, :3].sum(axis=1)
    low = np.where(values[:, 3:] == 11, 1, values[:, 3:]).sum(axis=1)  # a fourth ace low
    t = tables()
    i = t.classes.index(counts_of(player))
    outcomes = setting_outcomes()
    for setting, (win, lose) in zip(possible_settings(player), outcomes, strict=False):
        h, lo = setting.totals
        wins = int(((h > high) & (lo < low)).sum())
        losses = int(((h <= high) & (lo >= low)).sum())
        # The class row counts every player hand of the class: divide by the class weight.
        assert wins * int(t.weight[i]) == int(win[i])
        assert losses * int(t.weight[i]) == int(lose[i])


def test_table_differences_are_exactly_the_bonus_rows() -> None:
    # Every hand with three or more aces plays under every table, so two tables differ only
    # by the Ante Bonus: 4 hands of four aces and a 2, 44 of other four aces, 4,512 of three.
    a, b, c, d = (ante_figures(x).expected for x in "ABCD")
    hands = comb(52, 5)
    assert a - b == Fraction(500 * 4 + 50 * 44 + 5 * 4512, hands)
    assert b - c == Fraction(300 * 4, hands)
    assert c - d == Fraction(100 * 4, hands)


def test_optimal_play_beats_every_other_strategy() -> None:
    optimal = ante_figures("A").expected
    assert optimal >= strategy_expected("A", simple_choice)
    assert optimal > strategy_expected("A", lambda counts: Choice.ACES_HIGH)
    assert optimal > strategy_expected("A", lambda counts: Choice.FOLD) == -1
    chosen = decisions("A")
    assert strategy_expected("A", lambda counts: chosen[counts].choice) == optimal


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 1992), st.sampled_from([Choice.FOLD, Choice.ACES_HIGH, Choice.ACE_LOW]))
def test_no_single_change_improves_the_optimum(index: int, other: str) -> None:
    t = tables()
    chosen = decisions("A")
    target = t.classes[index]
    if other == Choice.ACE_LOW and t.alt_high[index] < 0:
        other = Choice.ACES_HIGH
    changed = strategy_expected(
        "A", lambda counts: other if counts == target else chosen[counts].choice
    )
    assert changed <= ante_figures("A").expected


def test_figures_hold_together() -> None:
    for letter in "ABCD":
        f = ante_figures(letter)
        assert f.house_edge == -f.expected > 0
        assert f.element_of_risk == f.house_edge / (1 + f.play_rate)
        assert f.win + f.push + f.lose + f.fold == 1
        assert f.fold == 1 - f.play_rate
    # Interpretation 1 table A: the house edge per Ante is 2.76%, element of risk 1.40%.
    assert round(float(ante_figures("A").house_edge), 4) == 0.0276
    assert round(float(ante_figures("A").element_of_risk), 4) == 0.0140


def test_strategy_in_words() -> None:
    chosen = decisions("A")
    t = tables()
    for counts, decision in chosen.items():
        if counts[9]:
            assert decision.choice != Choice.FOLD  # any ace: always play
    # The simple rule agrees with the optimum on more than 99% of hands and costs < 0.01%.
    agree = sum(d.hands for c, d in chosen.items() if simple_choice(c) == d.choice)
    assert agree / int(t.weight.sum()) > 0.99
    assert ante_figures("A").expected - strategy_expected("A", simple_choice) < Fraction(1, 10_000)


def test_tie_figures_match_the_digest_counts() -> None:
    tie = tie_figures()
    assert tie.high_only == Fraction(315_687_975_472, DEALS)
    assert tie.low_only == Fraction(275_796_038_944, DEALS)
    assert tie.both == Fraction(32_968_868_624, DEALS)
    wins = 315_687_975_472 + 275_796_038_944 + 32_968_868_624
    expected = 4 * 315_687_975_472 + 4 * 275_796_038_944 + 20 * 32_968_868_624 - (DEALS - wins)
    assert tie.expected == Fraction(expected, DEALS)
    # Folding loses the Tie Wager: with the player's best Ante play it is worth less.
    assert tie_figures(optimal_ante_play=True).expected < tie.expected


def test_poker_bonus_figures_from_the_digest_counts() -> None:
    counts = poker_hand_counts()
    by_hand: dict[PokerHand, int] = {}
    for (hand, _), n in counts.items():
        by_hand[hand] = by_hand.get(hand, 0) + n
    assert by_hand[PokerHand.FLUSH] == 5_108 and by_hand[PokerHand.STRAIGHT] == 10_200
    assert sum(by_hand.values()) == comb(52, 5)
    rest = {
        "royal": (4, 250, 500),
        "sf": (36, 50, 100),
        "quads": (624, 25, 40),
        "fh": (3_744, 15, 15),
        "flush": (5_108, 10, 8),
        "straight": (10_200, 8, 6),
        "trips": (54_912, 5, 4),
        "two pair": (123_552, 3, 3),
    }
    for letter, column, pairs in (("A", 1, 8), ("B", 2, 9)):  # 7s-aces: 8 ranks; 6s-aces: 9
        wins = sum(n for n, *_ in rest.values()) + pairs * 84_480
        net = sum(row[0] * row[column] for row in rest.values()) + pairs * 84_480
        expected = Fraction(net - (comb(52, 5) - wins), comb(52, 5))
        assert poker_bonus_figures(letter).expected == expected


def test_report_lists_every_figure() -> None:
    report = analysis.report()
    for key in ("ante_bonus_A", "ante_bonus_D", "tie_house_way", "poker_bonus_B"):
        assert key in report
