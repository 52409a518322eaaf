"""Five-card poker ranks for the Poker Bonus (§663a.6(b)) and the Poker Bonus paytables
(§663a.12(d)), including the count of every rank over all C(52,5) hands."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest

from table.games.cards import parse_card
from table.games.errors import InvalidInput
from table.games.five_card_hi_lo.paytables import poker_bonus_odds
from table.games.five_card_hi_lo.poker import PokerHand, PokerRank, poker_rank, poker_rank_trusted

H = PokerHand


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


@pytest.mark.parametrize(
    "text, hand",
    [
        ("AS KS QS JS TS", H.ROYAL_FLUSH),  # §663a.6(b)(1)
        ("9H KH QH JH TH", H.STRAIGHT_FLUSH),  # (2)
        ("AD 2D 3D 4D 5D", H.STRAIGHT_FLUSH),  # (2): the ace completes 2-3-4-5
        ("QC KC AC 2C 3C", H.FLUSH),  # (2): Q-K-A-2-3 is no straight flush
        ("7S 7H 7D 7C 2S", H.FOUR_OF_A_KIND),  # (3)
        ("7S 7H 7D 2C 2S", H.FULL_HOUSE),  # (4)
        ("2H 9H 4H JH KH", H.FLUSH),  # (5)
        ("AS KD QH JC TS", H.STRAIGHT),  # (6): 10-J-Q-K-A
        ("AS 2D 3H 4C 5S", H.STRAIGHT),  # (6): A-2-3-4-5
        ("6S 2D 3H 4C 5S", H.STRAIGHT),
        ("QS KD AH 2C 3S", H.HIGH_CARD),  # (6): no wrap
        ("JS QD KH AC 2S", H.HIGH_CARD),  # no wrap
        ("9S 9D 9H 4C 5S", H.THREE_OF_A_KIND),  # (7)
        ("9S 9D 4H 4C 5S", H.TWO_PAIR),  # (8)
        ("9S 9D 4H 3C 5S", H.PAIR),  # (9)
        ("9S 8D 4H 3C 5S", H.HIGH_CARD),
    ],
)
def test_ranks(text: str, hand: PokerHand) -> None:
    assert poker_rank(cards(text)).hand is hand


@pytest.mark.parametrize(
    "pair, a_pays, b_pays",
    [("5", False, False), ("6", False, True), ("7", True, True), ("A", True, True)],
)
def test_pair_line_7s_on_a_6s_on_b(pair: str, a_pays: bool, b_pays: bool) -> None:
    # §663a.6(b)(9), §663a.12(d): table A pays a pair of 7s or better, table B 6s or better.
    hand = cards(f"{pair}S {pair}D 2H 3C 9S")
    rank = poker_rank(hand)
    assert rank.hand is H.PAIR
    assert (poker_bonus_odds("A", rank) == 1) is a_pays
    assert (poker_bonus_odds("B", rank) == 1) is b_pays


@pytest.mark.parametrize(
    "hand, a, b",
    [
        (H.ROYAL_FLUSH, 250, 500),
        (H.STRAIGHT_FLUSH, 50, 100),
        (H.FOUR_OF_A_KIND, 25, 40),
        (H.FULL_HOUSE, 15, 15),
        (H.FLUSH, 10, 8),
        (H.STRAIGHT, 8, 6),
        (H.THREE_OF_A_KIND, 5, 4),
        (H.TWO_PAIR, 3, 3),
        (H.HIGH_CARD, None, None),
    ],
)
def test_poker_bonus_paytables(hand: PokerHand, a: int | None, b: int | None) -> None:
    assert poker_bonus_odds("A", PokerRank(hand)) == a  # §663a.12(d) paytable A
    assert poker_bonus_odds("B", PokerRank(hand)) == b  # paytable B


def test_unknown_poker_bonus_paytable() -> None:
    with pytest.raises(InvalidInput) as exc:
        poker_bonus_odds("C", PokerRank(H.FLUSH))
    assert exc.value.code == "unknown_paytable"


def test_bad_hands_refused() -> None:
    with pytest.raises(InvalidInput):
        poker_rank(cards("AS KS QS JS"))
    with pytest.raises(InvalidInput):
        poker_rank(cards("AS AS QS JS TS"))


def test_every_rank_counted_over_c_52_5() -> None:
    """The digest's counts over all 2,598,960 hands, by the engine's own evaluator."""
    counts: Counter[PokerHand] = Counter()
    pairs: Counter[int | None] = Counter()
    for hand in combinations(range(52), 5):
        rank = poker_rank_trusted(hand)
        counts[rank.hand] += 1
        if rank.hand is H.PAIR:
            pairs[rank.pair_rank] += 1
    assert sum(counts.values()) == comb(52, 5) == 2_598_960
    assert counts == {
        H.ROYAL_FLUSH: 4,
        H.STRAIGHT_FLUSH: 36,
        H.FOUR_OF_A_KIND: 624,
        H.FULL_HOUSE: 3_744,
        H.FLUSH: 5_108,
        H.STRAIGHT: 10_200,
        H.THREE_OF_A_KIND: 54_912,
        H.TWO_PAIR: 123_552,
        H.PAIR: 1_098_240,
        H.HIGH_CARD: 1_302_540,
    }
    assert pairs == {rank: 84_480 for rank in range(13)}
