"""Four-card hand values (§684a.6), the best four of five, and the bonus hand classes.

A hand value is an ``int``: ``category << 16`` plus up to four 4-bit ranks in order of
significance, so comparing two values compares the hands exactly as §684a.6(b),(c) do
(equal values are a tie, a "copy").

``evaluate_four`` is the plain, readable reference. ``best_four_value`` answers from a table
of all C(52,4) = 270,725 four-card hands built from it at import (a few tens of milliseconds),
which is what makes a single evaluation cost a handful of list look-ups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from table.games.cards import (
    ACE,
    DIAMONDS,
    FOUR,
    KING,
    QUEEN,
    RANK_NAMES,
    RANK_PLURALS,
    THREE,
    TWO,
    Card,
    is_red,
)
from table.games.errors import InvalidInput


class Category(IntEnum):
    """Four-card ranks of §684a.6(b), lowest first so that larger is better."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    STRAIGHT = 3
    FLUSH = 4
    THREE_OF_A_KIND = 5
    STRAIGHT_FLUSH = 6
    FOUR_OF_A_KIND = 7

    @property
    def key(self) -> str:
        """The name used in JSON: ``"three_of_a_kind"``."""
        return CATEGORY_KEYS[self]


CATEGORY_SHIFT: Final = 16
#: ``Category.key`` by category number, and so by ``value >> CATEGORY_SHIFT``.
CATEGORY_KEYS: Final = tuple(c.name.lower() for c in Category)


def _pack(category: Category, ranks: Sequence[int]) -> int:
    value = int(category) << CATEGORY_SHIFT
    for i, rank in enumerate(ranks):
        value |= rank << (12 - 4 * i)
    return value


_CATEGORIES: Final = tuple(Category)


#: Every four-card value is below this.
_VALUE_LIMIT: Final = len(Category) << CATEGORY_SHIFT


def _checked_value(value: object) -> int:
    """A four-card hand value (as made by this module), or :class:`InvalidInput`."""
    if type(value) is not int:
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise InvalidInput("bad_hand_value", f"not a four-card hand value: {value!r}")
        value = int(value)
    if not 0 <= value < _VALUE_LIMIT:
        raise InvalidInput("bad_hand_value", f"not a four-card hand value: {value!r}")
    return value


def category_of(value: int) -> Category:
    return _CATEGORIES[_checked_value(value) >> CATEGORY_SHIFT]


def _ranks_of(value: int) -> tuple[int, int, int, int]:
    return ((value >> 12) & 15, (value >> 8) & 15, (value >> 4) & 15, value & 15)


_INT_ONLY: Final = {int}


def _check_cards(cards: object, count: int, what: str) -> None:
    """Refuse anything but ``count`` distinct cards 0..51 with :class:`InvalidInput`."""
    if (
        isinstance(cards, list | tuple)
        and len(cards) == count
        and set(map(type, cards)) == _INT_ONLY
        and len(set(cards)) == count
        and min(cards) >= 0
        and max(cards) < 52
    ):
        return
    try:
        items = list(cards)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidInput("bad_cards", f"{what} must be a sequence of cards") from None
    for card in items:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            raise InvalidInput("bad_card", f"{what}: no such card {card!r}")
    if len(items) != count:
        raise InvalidInput("wrong_card_count", f"{what} needs {count} cards, got {len(items)}")
    if len(set(items)) != count:
        raise InvalidInput("duplicate_card", f"{what} has the same card twice")


#: The dealer qualifies with king high or better (§684a.11(c)(2)(i)).
KING_HIGH: Final = _pack(Category.HIGH_CARD, (KING, 0, 0, 0))
#: A Raise of 2x or 3x the Ante needs a pair of aces or better (§684a.11(b)(1)).
PAIR_OF_ACES: Final = _pack(Category.PAIR, (ACE, 0, 0, 0))


def evaluate_four(cards: Sequence[Card]) -> int:
    """Value of exactly four distinct cards under §684a.6(b),(c). The reference evaluator."""
    _check_cards(cards, 4, "a four-card hand")
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    counts = Counter(ranks)
    # Ranks grouped by how many times they appear, then by rank: quads/trips/pairs first.
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)

    straight_high: int | None = None
    if len(counts) == 4:
        if ranks[0] - ranks[3] == 3:
            straight_high = ranks[0]
        elif ranks == [ACE, FOUR, THREE, TWO]:
            # §684a.6(a): the ace may complete A-2-3-4, the lowest straight; no Q-K-A-2.
            straight_high = FOUR

    if shape[0] == 4:
        return _pack(Category.FOUR_OF_A_KIND, grouped[:1])
    if straight_high is not None and flush:
        return _pack(Category.STRAIGHT_FLUSH, (straight_high,))
    if shape[0] == 3:
        return _pack(Category.THREE_OF_A_KIND, grouped)
    if flush:
        return _pack(Category.FLUSH, ranks)
    if straight_high is not None:
        return _pack(Category.STRAIGHT, (straight_high,))
    if shape == [2, 2]:
        return _pack(Category.TWO_PAIR, grouped)
    if shape[0] == 2:
        return _pack(Category.PAIR, grouped)
    return _pack(Category.HIGH_CARD, ranks)


# --- the table of every four-card hand -------------------------------------------------

# Combinatorial number system: sorted cards a<b<c<d have index a + C(b,2) + C(c,3) + C(d,4).
_B2: Final = [comb(i, 2) for i in range(52)]
_B3: Final = [comb(i, 3) for i in range(52)]
_B4: Final = [comb(i, 4) for i in range(52)]


def combinations_array(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n) as rows of increasing ints, in lexicographic order."""
    rows = np.arange(n, dtype=np.int8).reshape(-1, 1)
    for _ in range(k - 1):
        last = rows[:, -1].astype(np.int64)
        extend = n - 1 - last  # how many larger elements each row can take
        keep = extend > 0
        rows, last, extend = rows[keep], last[keep], extend[keep]
        repeated = np.repeat(rows, extend, axis=0)
        starts = np.repeat(last + 1 - np.cumsum(extend) + extend, extend)
        new = (np.arange(int(extend.sum())) + starts).astype(np.int8)
        rows = np.concatenate([repeated, new.reshape(-1, 1)], axis=1)
    return rows


def four_card_index(rows: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Table index of sorted four-card rows (vectorised)."""
    r = rows.astype(np.int64)
    b2 = np.array(_B2, dtype=np.int64)
    b3 = np.array(_B3, dtype=np.int64)
    b4 = np.array(_B4, dtype=np.int64)
    return r[:, 0] + b2[r[:, 1]] + b3[r[:, 2]] + b4[r[:, 3]]


def _build_four_table() -> tuple[npt.NDArray[np.int32], list[int]]:
    """Value of every four-card hand, evaluated once per (rank pattern, flush) pair.

    Also as a list, for look-ups one hand at a time, in which the hands of one pattern share
    one int object: a few thousand ints stay in the CPU cache where 270,725 would not.
    """
    rows = combinations_array(52, 4)
    ranks = rows >> 2
    suits = rows & 3
    flush = (suits == suits[:, :1]).all(axis=1)
    key = ((ranks[:, 0].astype(np.int64) * 13 + ranks[:, 1]) * 13 + ranks[:, 2]) * 13 + ranks[:, 3]
    key = key * 2 + flush
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    values = np.array([evaluate_four([int(c) for c in rows[i]]) for i in first], dtype=np.int32)
    pattern = np.empty(comb(52, 4), dtype=np.int64)  # each hand's (rank pattern, flush) pair
    pattern[four_card_index(rows)] = inverse.reshape(-1)
    shared = values.tolist()
    return values[pattern], list(map(shared.__getitem__, pattern.tolist()))


FOUR_TABLE, _T = _build_four_table()


def four_value(cards: Sequence[Card]) -> int:
    """Value of four distinct cards (table look-up)."""
    try:
        a, b, c, d = sorted(cards)
        # The chained test also refuses duplicates and cards outside 0..51.
        if 0 <= a < b < c < d < 52:
            return _T[a + _B2[b] + _B3[c] + _B4[d]]
    except (TypeError, ValueError, IndexError):
        pass
    _check_cards(cards, 4, "a four-card hand")
    raise InvalidInput("bad_cards", "a four-card hand must be a list of four cards")


def best_four_value(cards: Sequence[Card]) -> int:
    """Value of the best four-card hand among five distinct cards (§684a.6, §684a.11(b))."""
    try:
        a, b, c, d, e = sorted(cards)
        if 0 <= a < b < c < d < e < 52:
            t, b2, b3, b4 = _T, _B2, _B3, _B4
            return max(
                t[a + b2[b] + b3[c] + b4[d]],
                t[a + b2[b] + b3[c] + b4[e]],
                t[a + b2[b] + b3[d] + b4[e]],
                t[a + b2[c] + b3[d] + b4[e]],
                t[b + b2[c] + b3[d] + b4[e]],
            )
    except (TypeError, ValueError, IndexError):
        pass
    _check_cards(cards, 5, "the best four-card hand")
    raise InvalidInput("bad_cards", "the best four-card hand must be a list of five cards")


@dataclass(frozen=True, slots=True)
class BestFour:
    """The best four of five cards, in the order they were dealt, and the card left out."""

    value: int
    cards: tuple[Card, ...]
    unused: Card

    @property
    def category(self) -> Category:
        return category_of(self.value)

    @property
    def name(self) -> str:
        return describe(self.value)


def best_four(cards: Sequence[Card]) -> BestFour:
    """The best four-card hand of five distinct cards, keeping the dealt order.

    Where two choices are worth the same (K♠ K♥ 5♣ 5♦ 5♥ keeps either king) the card left
    out is the latest dealt of the equal choices, so the answer never depends on chance.
    """
    try:
        a, b, c, d, e = s = sorted(cards)
        # The chained test also refuses duplicates and cards outside 0..51.
        if not 0 <= a < b < c < d < e < 52 or not isinstance(cards, list | tuple):
            raise ValueError
        t, b2, b3, b4 = _T, _B2, _B3, _B4
        # Partial index sums shared by several of the five four-card hands.
        de = b3[d] + b4[e]
        cde = b2[c] + de
        ab = a + b2[b]
        abc = ab + b3[c]
        # values[j]: the four cards other than the j-th lowest.
        values = (t[b + cde], t[a + cde], t[ab + de], t[abc + b4[e]], t[abc + b4[d]])
    except (TypeError, ValueError, IndexError):
        _check_cards(cards, 5, "the best four-card hand")
        raise InvalidInput(
            "bad_cards", "the best four-card hand must be a list of five cards"
        ) from None
    best_value = max(values)
    if values.count(best_value) == 1:
        best_drop = cards.index(s[values.index(best_value)])
    else:
        # Of equal choices the card left out is the latest dealt.
        best_drop = max(cards.index(s[j]) for j in range(5) if values[j] == best_value)
    kept = (*cards[:best_drop], *cards[best_drop + 1 :])
    return BestFour(best_value, kept, cards[best_drop])


def qualifies(value: int) -> bool:
    """Dealer's hand is king high or better (§684a.11(c)(2))."""
    return _checked_value(value) >= KING_HIGH


def max_raise_multiple(value: int) -> int:
    """1 for a pair of kings or lower, 3 for a pair of aces or better (§684a.11(b)(1))."""
    return 3 if _checked_value(value) >= PAIR_OF_ACES else 1


def describe(value: int) -> str:
    """Plain-words name of a four-card hand value: ``"Pair of aces"``."""
    value = _checked_value(value)
    cat = category_of(value)
    r = _ranks_of(value)
    if cat is Category.FOUR_OF_A_KIND:
        return f"Four {RANK_PLURALS[r[0]]}"
    if cat is Category.STRAIGHT_FLUSH:
        return f"Straight flush, {RANK_NAMES[r[0]]} high"
    if cat is Category.THREE_OF_A_KIND:
        return f"Three {RANK_PLURALS[r[0]]}"
    if cat is Category.FLUSH:
        return f"Flush, {RANK_NAMES[r[0]]} high"
    if cat is Category.STRAIGHT:
        return f"Straight, {RANK_NAMES[r[0]]} high"
    if cat is Category.TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}"
    if cat is Category.PAIR:
        return f"Pair of {RANK_PLURALS[r[0]]}"
    return f"{RANK_NAMES[r[0]].capitalize()} high"


# --- bonus hand classes ------------------------------------------------------------------


class BonusHand(IntEnum):
    """Four Card Bonus classes (§684a.6(d), §684a.12(e); manufacturer's Appendix C).

    Disjoint, so each paytable row names the classes it pays.
    """

    NOTHING = 0
    PAIR_OF_QUEENS_OR_BETTER = 1  # pays only on the manufacturer's FC tables ("QQ-AA")
    TWO_PAIR = 2  # other than two aces and two queens
    TWO_ACES_TWO_QUEENS = 3
    STRAIGHT = 4
    FLUSH = 5
    THREE_OF_A_KIND = 6  # other than three aces
    THREE_ACES = 7
    STRAIGHT_FLUSH = 8  # other than a royal flush
    ROYAL_FLUSH = 9  # A-K-Q-J of one suit, §684a.6(d)(2)
    FOUR_OF_A_KIND = 10  # other than four aces
    FOUR_ACES = 11


def four_card_bonus_hand(value: int) -> BonusHand:
    """The Four Card Bonus class of a best four-card hand value."""
    value = _checked_value(value)
    bonus = _BONUS_HANDS.get(value)  # every value a hand can have is in the table
    return _bonus_class(value) if bonus is None else bonus


def _bonus_class(value: int) -> BonusHand:
    cat = category_of(value)
    top, second = _ranks_of(value)[:2]
    if cat is Category.FOUR_OF_A_KIND:
        return BonusHand.FOUR_ACES if top == ACE else BonusHand.FOUR_OF_A_KIND
    if cat is Category.STRAIGHT_FLUSH:
        return BonusHand.ROYAL_FLUSH if top == ACE else BonusHand.STRAIGHT_FLUSH
    if cat is Category.THREE_OF_A_KIND:
        return BonusHand.THREE_ACES if top == ACE else BonusHand.THREE_OF_A_KIND
    if cat is Category.FLUSH:
        return BonusHand.FLUSH
    if cat is Category.STRAIGHT:
        return BonusHand.STRAIGHT
    if cat is Category.TWO_PAIR:
        if top == ACE and second == QUEEN:
            return BonusHand.TWO_ACES_TWO_QUEENS
        return BonusHand.TWO_PAIR
    if cat is Category.PAIR and top >= QUEEN:
        return BonusHand.PAIR_OF_QUEENS_OR_BETTER
    return BonusHand.NOTHING


#: The Four Card Bonus class of every value in the four-card table (a few thousand).
_BONUS_HANDS: Final = {value: _bonus_class(value) for value in np.unique(FOUR_TABLE).tolist()}


class PrimeHand(IntEnum):
    """Prime Wager classes (§684a.7(d)(2), §684a.12(d))."""

    NOTHING = 0
    FOUR_SAME_COLOUR = 1
    FIVE_SAME_COLOUR = 2


def prime_hand(cards: Sequence[Card]) -> PrimeHand:
    """How many of the player's five cards share a colour."""
    _check_cards(cards, 5, "the Prime Wager's hand")
    return prime_hand_trusted(cards)


_RED: Final = tuple(int(is_red(c)) for c in range(52))
#: The Prime class by how many of the five cards are red: five or four of one colour pay.
_PRIME_BY_RED: Final = (
    PrimeHand.FIVE_SAME_COLOUR,
    PrimeHand.FOUR_SAME_COLOUR,
    PrimeHand.NOTHING,
    PrimeHand.NOTHING,
    PrimeHand.FOUR_SAME_COLOUR,
    PrimeHand.FIVE_SAME_COLOUR,
)


def prime_hand_trusted(cards: Sequence[Card]) -> PrimeHand:
    """:func:`prime_hand` of five cards the caller has already checked."""
    return _PRIME_BY_RED[sum(map(_RED.__getitem__, cards))]


class AllSixHand(IntEnum):
    """All-Six Bonus classes (§684a.6(e), §684a.12(f)), from the best of six cards."""

    NOTHING = 0
    THREE_OF_A_KIND = 1
    STRAIGHT = 2
    FLUSH = 3
    FULL_HOUSE = 4
    FOUR_OF_A_KIND = 5
    STRAIGHT_FLUSH = 6
    ROYAL_FLUSH = 7
    SIX_CARD_ROYAL_FLUSH = 8  # A-K-Q-J-10-9 of clubs, hearts or spades
    SIX_CARD_ROYAL_FLUSH_DIAMONDS = 9


_ROYAL_RANKS: Final = 0b1111100000000  # T J Q K A
_SIX_ROYAL_RANKS: Final = 0b1111110000000  # 9 T J Q K A
_WHEEL: Final = 0b1000000001111  # A 2 3 4 5: the ace plays low in a five-card straight


#: Every five-card run as a rank bit mask: the wheel A-2-3-4-5 first, then 2-6 ... 10-A.
_FIVE_RUNS: Final = (_WHEEL, *(0b11111 << low for low in range(9)))


def _has_five_straight(rank_bits: int) -> bool:
    for run in _FIVE_RUNS:
        if rank_bits & run == run:
            return True
    return False


def all_six_hand(cards: Sequence[Card]) -> AllSixHand:
    """Best All-Six class of the player's five cards plus the All-Six card (§684a.11(d)(3))."""
    _check_cards(cards, 6, "the All-Six Bonus hand")
    return all_six_hand_trusted(cards)


def all_six_hand_trusted(cards: Sequence[Card]) -> AllSixHand:
    """:func:`all_six_hand` of six cards the caller has already checked."""
    suit_bits = [0, 0, 0, 0]
    rank_counts = [0] * 13
    all_ranks = 0
    for c in cards:
        rank_bit = 1 << (c >> 2)
        suit_bits[c & 3] |= rank_bit
        all_ranks |= rank_bit
        rank_counts[c >> 2] += 1
    # Five or six of the six cards in one suit (only one suit can have that many).
    flush = False
    for suit, bits in enumerate(suit_bits):
        if bits.bit_count() >= 5:
            if bits & _SIX_ROYAL_RANKS == _SIX_ROYAL_RANKS:
                if suit == DIAMONDS:
                    return AllSixHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS
                return AllSixHand.SIX_CARD_ROYAL_FLUSH
            if bits & _ROYAL_RANKS == _ROYAL_RANKS:
                return AllSixHand.ROYAL_FLUSH
            if _has_five_straight(bits):
                return AllSixHand.STRAIGHT_FLUSH
            flush = True
    most = max(rank_counts)
    if most >= 4:
        return AllSixHand.FOUR_OF_A_KIND
    if most == 3 and sorted(rank_counts)[-2] >= 2:
        return AllSixHand.FULL_HOUSE
    if flush:
        return AllSixHand.FLUSH
    if all_ranks.bit_count() >= 5 and _has_five_straight(all_ranks):
        return AllSixHand.STRAIGHT
    if most == 3:
        return AllSixHand.THREE_OF_A_KIND
    return AllSixHand.NOTHING
