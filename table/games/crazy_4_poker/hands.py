"""Crazy 4 Poker hands (§657a.6): the four-card hand, the five-card hand, the six-card hand.

* **Four-card** (§657a.6(a)-(c)): the best four of the five cards, ranked exactly as in Four
  Card Frenzy, so the values, the table of every four-card hand and the best-four-of-five
  evaluator are :mod:`table.games.four_card_frenzy.hands`'s (a value is ``category << 16`` plus the
  ranks in
  order of significance; comparing values compares hands). :class:`FourCardHand` are the
  classes the paytables name (four aces apart, a pair of queens or better apart).
* **Five-card** (§657a.6(d)): all five cards, standard poker, the ace low in A-2-3-4-5.
  :func:`five_card_category` answers one hand from a few small tables;
  :func:`five_card_categories` classifies rows of hands with numpy.
* **Six-card** (§657a.6(e)): the five cards and the Six Card Bonus card, best five of six or
  the six-card royal flush A-K-Q-J-10-9 of one suit. The classes above three of a kind are Four
  Card Frenzy's All-Six classes (the same ladder), computed by its classifier
  (:func:`table.games.four_card_frenzy.hands.all_six_hand_trusted`, vectorised in
  :func:`table.games.four_card_frenzy.analysis.all_six_classes`); below three of a kind the best
  five of six
  is two pair, a pair or high card.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from table.games.cards import ACE, QUEEN, TEN, Card
from table.games.errors import InvalidInput
from table.games.four_card_frenzy.hands import (
    CATEGORY_KEYS,
    CATEGORY_SHIFT,
    KING_HIGH,
    PAIR_OF_ACES,
    AllSixHand,
    BestFour,
    Category,
    all_six_hand_trusted,
    best_four,
    best_four_value,
    category_of,
    qualifies,
)

__all__ = [
    "CATEGORY_KEYS",
    "KING_HIGH",
    "PAIR_OF_ACES",
    "BestFour",
    "Category",
    "FiveCardCategory",
    "FourCardHand",
    "SixCardHand",
    "best_four",
    "best_four_value",
    "check_hand",
    "dealer_qualifies",
    "five_card_categories",
    "five_card_category",
    "four_card_hand",
    "six_card_hand",
]

# --- four-card hands ------------------------------------------------------------------------


class FourCardHand(IntEnum):
    """The four-card classes the paytables of §657a.12(b)-(d) name, disjoint, lowest first."""

    NOTHING = 0
    PAIR_OF_QUEENS_OR_BETTER = 1  # Queens Up only (§657a.12(c))
    TWO_PAIR = 2
    STRAIGHT = 3
    FLUSH = 4
    THREE_OF_A_KIND = 5
    STRAIGHT_FLUSH = 6
    FOUR_OF_A_KIND = 7  # other than four aces
    FOUR_ACES = 8

    @property
    def key(self) -> str:
        return self.name.lower()


_BY_CATEGORY: Final = {
    Category.TWO_PAIR: FourCardHand.TWO_PAIR,
    Category.STRAIGHT: FourCardHand.STRAIGHT,
    Category.FLUSH: FourCardHand.FLUSH,
    Category.THREE_OF_A_KIND: FourCardHand.THREE_OF_A_KIND,
    Category.STRAIGHT_FLUSH: FourCardHand.STRAIGHT_FLUSH,
}


def four_card_hand(value: int) -> FourCardHand:
    """The paytable class of a four-card hand value (§657a.6(b))."""
    category = category_of(value)
    top = (value >> 12) & 15
    if category is Category.FOUR_OF_A_KIND:
        return FourCardHand.FOUR_ACES if top == ACE else FourCardHand.FOUR_OF_A_KIND
    if category is Category.PAIR:
        return FourCardHand.PAIR_OF_QUEENS_OR_BETTER if top >= QUEEN else FourCardHand.NOTHING
    return _BY_CATEGORY.get(category, FourCardHand.NOTHING)


def dealer_qualifies(value: int) -> bool:
    """The dealer qualifies with king high or better (§657a.11(c)(3), §657a.2(b)(7)(ii))."""
    return qualifies(value)


def four_card_category_key(value: int) -> str:
    return CATEGORY_KEYS[value >> CATEGORY_SHIFT]


# --- five-card hands ------------------------------------------------------------------------


class FiveCardCategory(IntEnum):
    """Five-card poker hands (§657a.6(d)), lowest first; below three of a kind pays nothing."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8  # other than a royal flush
    ROYAL_FLUSH = 9

    @property
    def key(self) -> str:
        return self.name.lower()


_ROYAL_BITS: Final = sum(1 << r for r in range(TEN, ACE + 1))
_WHEEL_BITS: Final = 0b1000000001111  # A-2-3-4-5: §657a.6(a) lets the ace complete 2-3-4


def _straight_masks() -> frozenset[int]:
    return frozenset({_WHEEL_BITS, *(0b11111 << low for low in range(9))})


#: The ten five-rank runs as 13-bit rank masks.
FIVE_RUNS: Final = _straight_masks()

#: Category of five cards by the sorted multiplicities of their ranks (no straight, no flush).
_BY_SHAPE: Final = {
    (1, 1, 1, 1, 1): FiveCardCategory.HIGH_CARD,
    (2, 1, 1, 1): FiveCardCategory.PAIR,
    (2, 2, 1): FiveCardCategory.TWO_PAIR,
    (3, 1, 1): FiveCardCategory.THREE_OF_A_KIND,
    (3, 2): FiveCardCategory.FULL_HOUSE,
    (4, 1): FiveCardCategory.FOUR_OF_A_KIND,
}


def check_hand(cards: object, count: int, what: str) -> tuple[Card, ...]:
    """``count`` distinct cards 0..51 as a tuple, or :class:`InvalidInput`."""
    if not isinstance(cards, list | tuple):
        raise InvalidInput("bad_cards", f"{what} must be a list of cards")
    for card in cards:
        if type(card) is not int or not 0 <= card < 52:
            raise InvalidInput("bad_card", f"{what}: no such card {card!r}")
    if len(cards) != count:
        raise InvalidInput("wrong_card_count", f"{what} has {len(cards)} cards, not {count}")
    if len(set(cards)) != count:
        raise InvalidInput("duplicate_card", f"{what} has the same card twice")
    return tuple(cards)


def five_card_category(cards: Sequence[Card]) -> FiveCardCategory:
    """The five-card poker hand of exactly five distinct cards (§657a.6(d))."""
    return five_card_category_trusted(check_hand(cards, 5, "a five-card hand"))


def five_card_category_trusted(cards: Sequence[Card]) -> FiveCardCategory:
    """:func:`five_card_category` of five cards the caller has already checked."""
    counts = [0] * 13
    mask = 0
    for c in cards:
        counts[c >> 2] += 1
        mask |= 1 << (c >> 2)
    flush = len({c & 3 for c in cards}) == 1
    if mask.bit_count() == 5:
        if mask in FIVE_RUNS:
            if not flush:
                return FiveCardCategory.STRAIGHT
            return (
                FiveCardCategory.ROYAL_FLUSH
                if mask == _ROYAL_BITS
                else FiveCardCategory.STRAIGHT_FLUSH
            )
        return FiveCardCategory.FLUSH if flush else FiveCardCategory.HIGH_CARD
    return _BY_SHAPE[tuple(sorted((n for n in counts if n), reverse=True))]


def _shape_table() -> npt.NDArray[np.int8]:
    """Category by the four "equal to the next" flags of five sorted ranks."""
    out = np.zeros(16, dtype=np.int8)
    for flags in range(16):
        runs, run = [], 1
        for i in range(4):
            if flags >> i & 1:
                run += 1
            else:
                runs.append(run)
                run = 1
        runs.append(run)
        # Five equal ranks cannot be dealt; keep the table total.
        out[flags] = int(_BY_SHAPE.get(tuple(sorted(runs, reverse=True)), 0))
    return out


_SHAPE: Final = _shape_table()
_RUN_TABLE: Final = np.zeros(1 << 13, dtype=bool)
_RUN_TABLE[list(FIVE_RUNS)] = True


def five_card_categories(rows: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int8]:
    """:class:`FiveCardCategory` of each row of five distinct cards, vectorised."""
    cards = np.sort(np.asarray(rows, dtype=np.int16), axis=1)
    ranks = cards >> 2
    suits = cards & 3
    flags = np.zeros(len(cards), dtype=np.int64)
    for i in range(4):
        flags |= (ranks[:, i] == ranks[:, i + 1]).astype(np.int64) << i
    out = _SHAPE[flags]
    distinct = flags == 0
    mask = np.bitwise_or.reduce(np.left_shift(1, ranks.astype(np.int64)), axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    run = distinct & _RUN_TABLE[mask]
    out = np.where(distinct & flush, np.int8(FiveCardCategory.FLUSH), out)
    out = np.where(run & ~flush, np.int8(FiveCardCategory.STRAIGHT), out)
    out = np.where(run & flush, np.int8(FiveCardCategory.STRAIGHT_FLUSH), out)
    out = np.where(run & flush & (mask == _ROYAL_BITS), np.int8(FiveCardCategory.ROYAL_FLUSH), out)
    return out.astype(np.int8)


# --- six-card hands -------------------------------------------------------------------------


class SixCardHand(IntEnum):
    """The best hand of the five cards and the Six Card Bonus card (§657a.6(e)), lowest first.

    Three of a kind and above pay (§657a.11(g)); the six-card royal flush in diamonds is apart
    because paytable E pays it apart (§657a.12(g)).
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9
    SIX_CARD_ROYAL_FLUSH = 10  # A-K-Q-J-10-9 of clubs, hearts or spades
    SIX_CARD_ROYAL_FLUSH_DIAMONDS = 11

    @property
    def key(self) -> str:
        """The contract's name: both six-card royal flushes are ``six_card_royal_flush``."""
        if self is SixCardHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS:
            return "six_card_royal_flush"
        return self.name.lower()


#: Four Card Frenzy's All-Six class -> the six-card hand (same ladder, three of a kind up).
FROM_ALL_SIX: Final = {
    AllSixHand.THREE_OF_A_KIND: SixCardHand.THREE_OF_A_KIND,
    AllSixHand.STRAIGHT: SixCardHand.STRAIGHT,
    AllSixHand.FLUSH: SixCardHand.FLUSH,
    AllSixHand.FULL_HOUSE: SixCardHand.FULL_HOUSE,
    AllSixHand.FOUR_OF_A_KIND: SixCardHand.FOUR_OF_A_KIND,
    AllSixHand.STRAIGHT_FLUSH: SixCardHand.STRAIGHT_FLUSH,
    AllSixHand.ROYAL_FLUSH: SixCardHand.ROYAL_FLUSH,
    AllSixHand.SIX_CARD_ROYAL_FLUSH: SixCardHand.SIX_CARD_ROYAL_FLUSH,
    AllSixHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS: SixCardHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS,
}


def six_card_hand(cards: Sequence[Card]) -> SixCardHand:
    """Best hand of six distinct cards: the player's five and the Six Card Bonus card."""
    return six_card_hand_trusted(check_hand(cards, 6, "the Six Card Bonus hand"))


def six_card_hand_trusted(cards: Sequence[Card]) -> SixCardHand:
    found = FROM_ALL_SIX.get(all_six_hand_trusted(cards))
    if found is not None:
        return found
    # Below three of a kind (no straight, flush, trips): the pairs decide the best five.
    pairs = len(cards) - len({c >> 2 for c in cards})
    return (SixCardHand.HIGH_CARD, SixCardHand.PAIR)[pairs] if pairs < 2 else SixCardHand.TWO_PAIR
