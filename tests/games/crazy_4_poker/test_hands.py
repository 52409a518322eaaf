"""Crazy 4 Poker hands (§657a.6): rules by example, and every hand counted by enumeration."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from table.games.crazy_4_poker.hands import (
    FROM_ALL_SIX,
    FiveCardCategory,
    FourCardHand,
    SixCardHand,
    best_four,
    dealer_qualifies,
    five_card_categories,
    five_card_category,
    four_card_category_key,
    four_card_hand,
    six_card_hand,
)
from table.games.errors import InvalidInput
from table.games.four_card_frenzy.analysis import (
    all_six_class_counts,
    best_four_values,
    strided_six_sample,
)
from table.games.four_card_frenzy.hands import combinations_array

from .helpers import cards


def value(text: str) -> int:
    return best_four(list(cards(text))).value


# --- four-card hands: §657a.6(a)-(c) ------------------------------------------------------------


@pytest.mark.parametrize(
    "text, category",
    [
        ("AS AH AD AC 2S", "four_of_a_kind"),
        ("AS 2S 3S 4S 9D", "straight_flush"),  # §657a.6(b)(2): A-2-3-4 is the lowest
        ("QS KS AS 2S 7D", "flush"),  # §657a.6(a): no K-A-2-3 / Q-K-A-2 sequence
        ("QS KH AD 2C 7D", "high_card"),
        ("AS 2H 3D 4C 9D", "straight"),
        ("7S 7H 7D 2C 9D", "three_of_a_kind"),
        ("7S 7H 9D 9C 2D", "two_pair"),
        ("7S 7H 9D TC 2D", "pair"),
    ],
)
def test_four_card_categories(text: str, category: str) -> None:
    assert four_card_category_key(value(text)) == category


def test_only_the_best_four_play() -> None:
    # §657a.2(b)(7)(i), §657a.6(c): the fifth card never counts.
    assert value("9S 9H AD 7C 2D") == value("9D 9C AS 7H 3D")
    assert best_four(list(cards("9S 9H AD 7C 2D"))).unused == cards("2D")[0]


def test_ranking_within_a_category() -> None:
    # §657a.6(c): the highest card not in the other hand.
    assert value("AS 2S 3S 4S 9D") < value("5H 6H 7H 8H 2C")
    assert value("AS AH AD AC 2S") > value("KS KH KD KC 2S")
    assert value("7S 7H 9D 9C 2D") > value("9S 9H 3D 3C 2H")  # two pair: higher, then lower
    assert value("7S 7H 9D 9C 2D") < value("TS TH 3D 3C 2H")


def test_dealer_qualifies_with_king_high() -> None:
    # §657a.11(c)(3), §657a.2(b)(7)(ii)
    assert dealer_qualifies(value("KS 8H 5D 3C 2D"))
    assert not dealer_qualifies(value("QS JH 9D 7C 6D"))
    assert dealer_qualifies(value("2S 2H 3D 4C 6D"))


@pytest.mark.parametrize(
    "text, hand",
    [
        ("AS AH AD AC 2S", FourCardHand.FOUR_ACES),
        ("KS KH KD KC 2S", FourCardHand.FOUR_OF_A_KIND),
        ("QS QH 3D 5C 8S", FourCardHand.PAIR_OF_QUEENS_OR_BETTER),
        ("AS AH 3D 5C 8S", FourCardHand.PAIR_OF_QUEENS_OR_BETTER),
        ("JS JH 3D 5C 8S", FourCardHand.NOTHING),
        ("KS QH 8D 5C 2S", FourCardHand.NOTHING),
    ],
)
def test_four_card_paytable_classes(text: str, hand: FourCardHand) -> None:
    assert four_card_hand(value(text)) is hand


# --- five-card hands: §657a.6(d) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, category",
    [
        ("AH KH QH JH TH", FiveCardCategory.ROYAL_FLUSH),
        ("9H KH QH JH TH", FiveCardCategory.STRAIGHT_FLUSH),
        ("AD 2D 3D 4D 5D", FiveCardCategory.STRAIGHT_FLUSH),  # §657a.6(a): the ace low
        ("7S 7H 7D 7C 2D", FiveCardCategory.FOUR_OF_A_KIND),
        ("7S 7H 7D 2C 2D", FiveCardCategory.FULL_HOUSE),
        ("AS 9S 7S 4S 2S", FiveCardCategory.FLUSH),
        ("AS 2H 3D 4C 5D", FiveCardCategory.STRAIGHT),
        ("TS JH QD KC AD", FiveCardCategory.STRAIGHT),
        ("JS QH KD AC 2D", FiveCardCategory.HIGH_CARD),  # no wrap
        ("7S 7H 7D 2C 9D", FiveCardCategory.THREE_OF_A_KIND),
        ("7S 7H 9D 9C 2D", FiveCardCategory.TWO_PAIR),
        ("7S 7H 9D TC 2D", FiveCardCategory.PAIR),
        ("7S 8H 9D JC 2D", FiveCardCategory.HIGH_CARD),
    ],
)
def test_five_card_categories(text: str, category: FiveCardCategory) -> None:
    assert five_card_category(cards(text)) is category
    assert five_card_categories(np.array([cards(text)]))[0] == int(category)


def test_five_card_refuses_bad_hands() -> None:
    with pytest.raises(InvalidInput):
        five_card_category(cards("AS KS QS JS"))
    with pytest.raises(InvalidInput):
        five_card_category((1, 1, 2, 3, 4))


# --- six-card hands: §657a.6(e) -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, hand",
    [
        ("AD KD QD JD TD 9D", SixCardHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS),
        ("AS KS QS JS TS 9S", SixCardHand.SIX_CARD_ROYAL_FLUSH),
        ("AS KS QS JS TS 8S", SixCardHand.ROYAL_FLUSH),
        ("9S KS QS JS TS 2D", SixCardHand.STRAIGHT_FLUSH),
        ("7S 7H 7D 7C 2D 2S", SixCardHand.FOUR_OF_A_KIND),
        ("7S 7H 7D 2C 2D 9S", SixCardHand.FULL_HOUSE),
        ("7S 7H 7D 2C 2D 2S", SixCardHand.FULL_HOUSE),  # two trips: a full house
        ("AS 9S 7S 4S 2S 2D", SixCardHand.FLUSH),
        ("AS 2H 3D 4C 5D 5S", SixCardHand.STRAIGHT),
        ("7S 7H 7D 2C 9D JS", SixCardHand.THREE_OF_A_KIND),
        ("7S 7H 9D 9C 2D 2S", SixCardHand.TWO_PAIR),  # three pairs: the best five are two pair
        ("7S 7H 9D TC 2D 4S", SixCardHand.PAIR),
        ("7S 8H 9D JC 2D 4S", SixCardHand.HIGH_CARD),
    ],
)
def test_six_card_hands(text: str, hand: SixCardHand) -> None:
    assert six_card_hand(cards(text)) is hand


def test_six_card_royal_keys() -> None:
    assert SixCardHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS.key == "six_card_royal_flush"
    assert SixCardHand.SIX_CARD_ROYAL_FLUSH.key == "six_card_royal_flush"
    assert SixCardHand.FULL_HOUSE.key == "full_house"


# --- full enumeration -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def five_card_rows() -> np.ndarray:
    return combinations_array(52, 5)


def test_four_card_counts_over_every_deal(five_card_rows: np.ndarray) -> None:
    values = best_four_values(five_card_rows)
    counts = np.bincount(values >> 16, minlength=8)
    assert {four_card_category_key(c << 16): int(n) for c, n in enumerate(counts)} == {
        "four_of_a_kind": 624,
        "straight_flush": 2_072,
        "three_of_a_kind": 58_656,
        "flush": 114_616,
        "straight": 101_808,
        "two_pair": 123_552,
        "pair": 1_047_552,
        "high_card": 1_150_080,
    }
    top = (values >> 12) & 15
    assert int(((values >> 16 == 7) & (top == 12)).sum()) == 48  # four aces
    assert int(((values >> 16 == 1) & (top >= 10)).sum()) == 242_916  # pair of Q, K or A


def test_five_card_counts_over_every_deal(five_card_rows: np.ndarray) -> None:
    counts = np.bincount(five_card_categories(five_card_rows), minlength=10)
    assert len(five_card_rows) == comb(52, 5)
    assert [int(n) for n in counts[::-1]] == [
        4,
        36,
        624,
        3_744,
        5_108,
        10_200,
        54_912,
        123_552,
        1_098_240,
        1_302_540,
    ]


def test_five_card_vectorised_agrees_with_the_scalar_evaluator(five_card_rows: np.ndarray) -> None:
    # Every 13th deal (about 200,000) and every one of the rare hands.
    fast = five_card_categories(five_card_rows)
    pick = np.concatenate([np.arange(0, len(five_card_rows), 13), np.flatnonzero(fast >= 6)])
    slow = [int(five_card_category(tuple(int(c) for c in five_card_rows[i]))) for i in pick]
    assert np.array_equal(fast[pick], np.array(slow, dtype=np.int8))


def test_six_card_counts_over_every_set() -> None:
    # All C(52,6) = 20,358,520 six-card sets (Four Card Frenzy's vectorised All-Six classifier,
    # the same ladder as §657a.6(e)).
    every = all_six_class_counts()
    assert sum(every.values()) == comb(52, 6) == 20_358_520
    counts = {FROM_ALL_SIX[cls]: n for cls, n in every.items() if cls in FROM_ALL_SIX}
    assert counts == {
        SixCardHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS: 1,
        SixCardHand.SIX_CARD_ROYAL_FLUSH: 3,
        SixCardHand.ROYAL_FLUSH: 184,
        SixCardHand.STRAIGHT_FLUSH: 1_656,
        SixCardHand.FOUR_OF_A_KIND: 14_664,
        SixCardHand.FULL_HOUSE: 165_984,
        SixCardHand.FLUSH: 205_792,
        SixCardHand.STRAIGHT: 361_620,
        SixCardHand.THREE_OF_A_KIND: 732_160,
    }


def test_six_card_scalar_agrees_with_the_enumerated_classifier() -> None:
    from table.games.four_card_frenzy.analysis import all_six_classes

    rows = strided_six_sample(20_000)
    fast = all_six_classes(np.sort(rows, axis=1))
    for row, cls in zip(rows, fast, strict=True):
        hand = six_card_hand(tuple(int(c) for c in row))
        expected = [k for k, v in FROM_ALL_SIX.items() if int(k) == int(cls)]
        if expected:
            assert hand is FROM_ALL_SIX[expected[0]]
        else:
            assert hand <= SixCardHand.TWO_PAIR
