"""Exhaustive checks: every five-card deal, every four-card hand."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from bench.games.four_card_frenzy.enumeration import (
    all_five_card_values,
    best_four_values,
    category_counts,
    non_qualifying,
)
from table.games.cards import card_code
from table.games.four_card_frenzy.hands import (
    FOUR_TABLE,
    best_four,
    best_four_value,
    combinations_array,
    evaluate_four,
    four_card_index,
    four_value,
    qualifies,
)

from . import reference

# RULES.md: the best four-card hand over all C(52,5) = 2,598,960 five-card deals.
EXPECTED_COUNTS = {
    "four_of_a_kind": 624,
    "straight_flush": 2_072,
    "three_of_a_kind": 58_656,
    "flush": 114_616,
    "straight": 101_808,
    "two_pair": 123_552,
    "pair": 1_047_552,
    "high_card": 1_150_080,
}


@pytest.fixture(scope="module")
def five_card_values() -> np.ndarray:
    return all_five_card_values()


def test_every_five_card_deal_category_counts(five_card_values: np.ndarray) -> None:
    assert len(five_card_values) == comb(52, 5) == 2_598_960
    assert category_counts(five_card_values) == EXPECTED_COUNTS
    assert sum(EXPECTED_COUNTS.values()) == 2_598_960


def test_dealer_hands_that_do_not_qualify(five_card_values: np.ndarray) -> None:
    # Below king high: high-card hands whose best four is queen high or lower.
    assert non_qualifying(five_card_values) == 396_480


def test_combinations_array_is_every_subset_once_in_order() -> None:
    rows = combinations_array(52, 5)
    assert rows.shape == (comb(52, 5), 5)
    assert (np.diff(rows.astype(np.int64), axis=1) > 0).all()
    key = np.zeros(len(rows), dtype=np.int64)
    for col in range(5):
        key = key * 52 + rows[:, col]
    assert (np.diff(key) > 0).all()  # strictly increasing: lexicographic, no repeats
    small = combinations_array(6, 3)
    assert [tuple(r) for r in small.tolist()] == list(itertools.combinations(range(6), 3))


def test_four_card_index_is_a_bijection_onto_the_table() -> None:
    rows = combinations_array(52, 4)
    index = four_card_index(rows)
    assert len(FOUR_TABLE) == comb(52, 4) == 270_725
    assert np.array_equal(np.sort(index), np.arange(comb(52, 4)))


def test_table_agrees_with_evaluate_four_on_a_sample() -> None:
    rng = np.random.default_rng(7)
    rows = np.sort(np.argsort(rng.random((20_000, 52)), axis=1)[:, :4], axis=1)
    table = FOUR_TABLE[four_card_index(rows)]
    for row, value in zip(rows.tolist(), table.tolist(), strict=True):
        assert evaluate_four(row) == value == four_value(row[::-1])


def test_every_four_card_hand_orders_like_the_independent_reference() -> None:
    """All 270,725 four-card hands: the engine's values and the reference's keys (written from
    §684a.6) must put the hands in the same order, ties included."""
    rows = combinations_array(52, 4)
    values = FOUR_TABLE[four_card_index(rows)]
    keys: dict[tuple[tuple[int, ...], bool], tuple[int, tuple[int, ...]]] = {}
    by_value: dict[int, tuple[int, tuple[int, ...]]] = {}
    ranks = (rows >> 2).tolist()
    flushes = ((rows & 3) == (rows[:, :1] & 3)).all(axis=1).tolist()
    for row, rank_list, flush, value in zip(
        rows.tolist(), ranks, flushes, values.tolist(), strict=True
    ):
        pattern = (tuple(rank_list), flush)
        key = keys.get(pattern)
        if key is None:
            key = keys[pattern] = reference.hand_key([card_code(c) for c in row])
        # Equal engine values <=> equal reference keys.
        assert by_value.setdefault(value, key) == key
    ordered = sorted(by_value)
    ref_keys = [by_value[v] for v in ordered]
    assert len(set(ref_keys)) == len(ref_keys)
    assert ref_keys == sorted(ref_keys)


def test_best_four_value_against_brute_force() -> None:
    rng = np.random.default_rng(2026)
    hands = np.argsort(rng.random((30_000, 52)), axis=1)[:, :5].tolist()
    for hand in hands:
        brute = max(evaluate_four(four) for four in itertools.combinations(hand, 4))
        assert best_four_value(hand) == brute
        chosen = best_four(hand)
        assert chosen.value == brute == evaluate_four(chosen.cards)


def test_vectorised_best_four_matches_the_scalar_one(five_card_values: np.ndarray) -> None:
    rows = combinations_array(52, 5)
    rng = np.random.default_rng(3)
    for i in rng.integers(0, len(rows), 5000).tolist():
        assert five_card_values[i] == best_four_value(rows[i].tolist())
    assert np.array_equal(best_four_values(rows[:1000]), five_card_values[:1000])


def test_qualifying_counts_by_brute_force_on_a_slice(five_card_values: np.ndarray) -> None:
    rows = combinations_array(52, 5)[::997]
    expected = sum(not qualifies(best_four_value(r)) for r in rows.tolist())
    assert non_qualifying(five_card_values[::997]) == expected


def test_four_aces_cannot_lose(five_card_values: np.ndarray) -> None:
    # No five-card deal is worth more than four aces, so they never lose (Appendix B note 2)
    # and the dealer can at most copy them - impossible with one deck.
    four_aces = best_four_value([48, 49, 50, 51, 0])
    assert int(five_card_values.max()) == four_aces
    assert int((five_card_values == four_aces).sum()) == 48  # four aces and any fifth card
