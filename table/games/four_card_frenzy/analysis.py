"""Exact paytable mathematics by exhaustive enumeration (issue #7).

Every figure here is counted over every deal, with the engine's own tables and classifiers
(:data:`~table.games.four_card_frenzy.hands.FOUR_TABLE`,
:func:`~table.games.four_card_frenzy.hands.four_card_bonus_hand`,
:func:`~table.games.four_card_frenzy.hands.all_six_hand`, the
:mod:`~table.games.four_card_frenzy.paytables` data); nothing is
simulated, so the engine never needs ``random`` here either.

* **Prime**: the colours of all C(52,5) = 2,598,960 five-card hands.
* **Four Card Bonus**: the best four-card hand of all C(52,5) five-card hands.
* **All-Six Bonus**: all C(52,6) = 20,358,520 six-card sets (the player's five cards and the
  All-Six card are six cards drawn from one deck), classified with numpy and checked against
  :func:`~table.games.four_card_frenzy.hands.all_six_hand`.
* **Ante / Odds / Raise** under the player's optimal raise-or-fold decision, for every
  bad-beat table. For each of the 2,598,960 player hands the decision needs the outcome of all
  C(47,5) = 1,533,939 dealer hands from the other 47 cards (about 4 x 10^12 pairs). The
  counting is exact and fast:

  1. Player hands are reduced to their classes under the 24 permutations of the suits
     (134,459 classes, each with its weight): values, and so outcomes, do not depend on suit
     names.
  2. For a player hand P of value v, the number of dealer hands *avoiding* P with some
     property is, by inclusion-exclusion, the sum over the 32 subsets T of P of
     ``(-1)^|T|`` times the number of five-card hands *containing* T with the property.
  3. "Five-card hands containing T with value rank below r" is a table look-up: for T of up
     to three cards a dense cumulative table over (``index(T)``, r), for four cards a binary
     search among the sorted keys ``index(T) * R + rank(hand)`` - ``index`` being the
     combinatorial number system and ``rank`` the position of the hand's best-four value
     among the R = 2,150 distinct values.

  That gives, per player hand, the dealer hands that beat it, that do not qualify (below king
  high), and that do both - all the Ante, Raise and Odds settlement needs (a tie goes to
  the player). :func:`dealer_outcomes_brute_force` recounts one player hand over its
  1,533,939 dealer hands directly, to check the method.

  Each table's entry also has the whole distribution of a box's net per unit of Ante and two
  boxes' covariance in one round (:mod:`.spread`, for the back office's band).

All results are exact: counts are integers and house edges are :class:`fractions.Fraction`.

One room past 500 lines: the enumerations share their tables and indices; each section's method
is checked against the others (brute-force recounts).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, lcm
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from table.games.cards import ACE, DIAMONDS, NINE, TEN, Card
from table.games.common import exact as exact  # a fraction as text, "-1597/33686"

from .hands import (
    FOUR_TABLE,
    KING_HIGH,
    PAIR_OF_ACES,
    AllSixHand,
    BonusHand,
    Category,
    PrimeHand,
    all_six_hand,
    combinations_array,
    describe,
    four_card_bonus_hand,
    four_card_index,
)
from .paytables import (
    ALL_SIX_PAYTABLES,
    BAD_BEAT_PAYTABLES,
    FOUR_ACES,
    FOUR_CARD_BONUS_PAYTABLES,
    ODDS_PAYTABLE,
    PRIME_PAYTABLES,
    Paytable,
)

I64 = npt.NDArray[np.int64]
Progress = Callable[[str], None]

FIVE_CARD_HANDS: Final = comb(52, 5)  # 2,598,960
SIX_CARD_SETS: Final = comb(52, 6)  # 20,358,520
DEALER_HANDS: Final = comb(47, 5)  # 1,533,939 dealer hands beside one player hand
SUIT_CLASSES: Final = 134_459  # five-card hands up to a permutation of the suits

# C(n, k) for n < 53, k <= 5, as arrays for the combinatorial number system.
_BINOM: Final = np.array([[comb(n, k) for n in range(53)] for k in range(7)], dtype=np.int64)


def _quiet(_: str) -> None:
    return None


def subset_index(cards: npt.NDArray[np.integer[Any]]) -> I64:
    """Combinatorial-number-system index of sorted k-card rows: sum of C(card_j, j+1).

    For four cards it equals :func:`~table.games.four_card_frenzy.hands.four_card_index`; k-subsets
    of the
    deck get the indices 0 .. C(52,k)-1.
    """
    rows = cards.astype(np.int64)
    out = np.zeros(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[1]):
        out += _BINOM[j + 1][rows[:, j]]
    return out


def best_four_values(hands: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int32]:
    """Best four-card value of each sorted five-card row, from ``FOUR_TABLE``."""
    best: npt.NDArray[np.int32] | None = None
    for drop in range(5):
        keep = [i for i in range(5) if i != drop]
        v = FOUR_TABLE[four_card_index(hands[:, keep])]
        best = v if best is None else np.maximum(best, v)
    assert best is not None
    return best


# --- shared enumeration of every five-card hand ------------------------------------------


@dataclass
class FiveCardHands:
    """All C(52,5) five-card hands (sorted card rows, lexicographic) and their best four."""

    cards: npt.NDArray[np.int8]
    values: npt.NDArray[np.int32]
    distinct: npt.NDArray[np.int32]  # the distinct best-four values, ascending
    rank: npt.NDArray[np.int32]  # position of each hand's value in ``distinct``

    @classmethod
    def build(cls) -> FiveCardHands:
        cards = combinations_array(52, 5)
        values = best_four_values(cards)
        distinct, rank = np.unique(values, return_inverse=True)
        return cls(cards, values, distinct.astype(np.int32), rank.reshape(-1).astype(np.int32))

    def value_histogram(self) -> dict[int, int]:
        counts = np.bincount(self.rank, minlength=len(self.distinct))
        return {int(v): int(n) for v, n in zip(self.distinct, counts, strict=True)}


_FIVE: FiveCardHands | None = None


def five_card_hands() -> FiveCardHands:
    """The enumeration, built once per process (about a second)."""
    global _FIVE
    if _FIVE is None:
        _FIVE = FiveCardHands.build()
    return _FIVE


# --- paytable summaries --------------------------------------------------------------------


@dataclass(frozen=True)
class RowResult:
    label: str
    posted: str
    ratio: Fraction
    count: int  # winning deals for this row
    total: int  # all deals

    @property
    def probability(self) -> Fraction:
        return Fraction(self.count, self.total)

    @property
    def expected_return(self) -> Fraction:
        """This row's contribution to the return per unit wagered (probability x payout)."""
        return self.probability * self.ratio


@dataclass(frozen=True)
class SideBetResult:
    """One paytable's rows, hit frequency and house edge for one unit wagered."""

    kind: str
    name: str
    source: str
    rows: tuple[RowResult, ...]
    total: int

    @property
    def hit_frequency(self) -> Fraction:
        return Fraction(sum(r.count for r in self.rows), self.total)

    @property
    def expected_value(self) -> Fraction:
        """Net result per unit wagered: winnings on hits, minus the stake on misses."""
        return sum((r.expected_return for r in self.rows), Fraction(0)) - (1 - self.hit_frequency)

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_value


def summarise(table: Paytable, class_counts: Mapping[Any, int], total: int) -> SideBetResult:
    """Rows of ``table`` with the number of deals each pays, from per-class counts."""
    if sum(class_counts.values()) != total:
        raise ValueError(f"class counts add up to {sum(class_counts.values())}, not {total}")
    rows = tuple(
        RowResult(
            row.label,
            row.payout.posted,
            row.payout.ratio,
            sum(n for hand, n in class_counts.items() if hand in row.hands),
            total,
        )
        for row in table.rows
    )
    paid = set().union(*(row.hands for row in table.rows))
    unknown = [h for h in paid if h not in class_counts]
    if unknown:
        raise ValueError(f"{table.name}: no count for the hand classes {unknown}")
    return SideBetResult(table.kind.value, table.name, table.source, rows, total)


# --- Prime ------------------------------------------------------------------------------------


def prime_class_counts(five: FiveCardHands | None = None) -> dict[PrimeHand, int]:
    """Prime classes over all five-card hands, counted from the cards' colours."""
    cards = (five or five_card_hands()).cards
    suits = cards & 3
    red = ((suits == DIAMONDS) | (suits == 2)).sum(axis=1)  # diamonds and hearts
    per_red = np.bincount(red, minlength=6)
    # Same colour: max(red, black) = 5 -> five, 4 -> four, else nothing.
    return {
        PrimeHand.FIVE_SAME_COLOUR: int(per_red[0] + per_red[5]),
        PrimeHand.FOUR_SAME_COLOUR: int(per_red[1] + per_red[4]),
        PrimeHand.NOTHING: int(per_red[2] + per_red[3]),
    }


def prime_results(five: FiveCardHands | None = None) -> list[SideBetResult]:
    counts = prime_class_counts(five)
    return [summarise(t, counts, FIVE_CARD_HANDS) for t in PRIME_PAYTABLES.values()]


# --- Four Card Bonus ------------------------------------------------------------------------


def four_card_bonus_class_counts(five: FiveCardHands | None = None) -> dict[BonusHand, int]:
    """Four Card Bonus classes of the best four-card hand of every five-card hand."""
    counts: dict[BonusHand, int] = dict.fromkeys(BonusHand, 0)
    for value, n in (five or five_card_hands()).value_histogram().items():
        counts[four_card_bonus_hand(value)] += n
    return counts


def four_card_bonus_results(five: FiveCardHands | None = None) -> list[SideBetResult]:
    counts = four_card_bonus_class_counts(five)
    return [summarise(t, counts, FIVE_CARD_HANDS) for t in FOUR_CARD_BONUS_PAYTABLES.values()]


# --- All-Six Bonus ----------------------------------------------------------------------------

_SIX_ROYAL_BITS: Final = sum(1 << r for r in range(NINE, ACE + 1))
_ROYAL_BITS: Final = sum(1 << r for r in range(TEN, ACE + 1))


def _five_straight_table() -> npt.NDArray[np.bool_]:
    """For every 13-bit rank mask: does it hold five ranks in a row (A-2-3-4-5 counts)?"""
    masks = np.arange(1 << 13, dtype=np.int64)
    out: npt.NDArray[np.bool_] = (masks & 0b1000000001111) == 0b1000000001111
    for low in range(9):
        run = 0b11111 << low
        out |= (masks & run) == run
    return out


_STRAIGHT5: Final = _five_straight_table()
_POPCOUNT: Final = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int8)


def _run_shape_table() -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """For the 5 "equal to the next" flags of six sorted ranks: the largest and second-largest
    multiplicity of a rank."""
    largest = np.zeros(32, dtype=np.int8)
    second = np.zeros(32, dtype=np.int8)
    for flags in range(32):
        runs, run = [], 1
        for i in range(5):
            if flags >> i & 1:
                run += 1
            else:
                runs.append(run)
                run = 1
        runs.append(run)
        runs.sort(reverse=True)
        runs.append(0)  # six equal ranks cannot happen; keep the table total
        largest[flags], second[flags] = runs[0], runs[1]
    return largest, second


_LARGEST, _SECOND = _run_shape_table()


def all_six_classes(six: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int8]:
    """:class:`AllSixHand` of each six-card row (cards sorted ascending), vectorised.

    Same order of tests as :func:`~table.games.four_card_frenzy.hands.all_six_hand`: six-card royal
    flush,
    royal flush, straight flush, four of a kind, full house, flush, straight, three of a kind.
    """
    rows = six.astype(np.int16)
    ranks = rows >> 2
    suits = rows & 3
    bit = np.left_shift(np.int16(1), ranks).astype(np.int16)
    rank_mask = np.bitwise_or.reduce(bit, axis=1)
    # Sorted cards have sorted ranks: equal neighbours give the multiplicities.
    flags = np.zeros(len(rows), dtype=np.int64)
    for i in range(5):
        flags |= (ranks[:, i] == ranks[:, i + 1]).astype(np.int64) << i
    largest, second = _LARGEST[flags], _SECOND[flags]

    out = np.zeros(len(rows), dtype=np.int8)
    done = np.zeros(len(rows), dtype=bool)

    def assign(cond: npt.NDArray[np.bool_], cls: AllSixHand) -> None:
        hit = cond & ~done
        out[hit] = int(cls)
        done[hit] = True

    suit_masks = [np.bitwise_or.reduce(np.where(suits == s, bit, 0), axis=1) for s in range(4)]
    for s, mask in enumerate(suit_masks):
        six_royal = (mask & _SIX_ROYAL_BITS) == _SIX_ROYAL_BITS
        cls = (
            AllSixHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS
            if s == DIAMONDS
            else AllSixHand.SIX_CARD_ROYAL_FLUSH
        )
        assign(six_royal, cls)
    assign(np.logical_or.reduce([(m & _ROYAL_BITS) == _ROYAL_BITS for m in suit_masks]),
           AllSixHand.ROYAL_FLUSH)  # fmt: skip
    assign(np.logical_or.reduce([_STRAIGHT5[m] for m in suit_masks]), AllSixHand.STRAIGHT_FLUSH)
    assign(largest >= 4, AllSixHand.FOUR_OF_A_KIND)
    assign((largest == 3) & (second >= 2), AllSixHand.FULL_HOUSE)
    assign(np.logical_or.reduce([_POPCOUNT[m] >= 5 for m in suit_masks]), AllSixHand.FLUSH)
    assign(_STRAIGHT5[rank_mask], AllSixHand.STRAIGHT)
    assign(largest == 3, AllSixHand.THREE_OF_A_KIND)
    return out


def all_six_class_counts(progress: Progress = _quiet) -> dict[AllSixHand, int]:
    """All-Six classes over all C(52,6) six-card sets, in chunks by the highest card."""
    counts = np.zeros(len(AllSixHand), dtype=np.int64)
    for top in range(5, 52):
        # Every set whose highest card is ``top``: five lower cards, then ``top``.
        low = combinations_array(top, 5)
        six = np.concatenate([low, np.full((len(low), 1), top, dtype=np.int8)], axis=1)
        counts += np.bincount(all_six_classes(six), minlength=len(AllSixHand))
        if top % 10 == 1:
            progress(f"  all-six: sets up to card {top + 1} of 52 classified")
    return {cls: int(counts[cls]) for cls in AllSixHand}


def validate_all_six_classifier(rows: npt.NDArray[np.integer[Any]]) -> int:
    """Compare :func:`all_six_classes` with :func:`all_six_hand` on ``rows``; mismatches."""
    fast = all_six_classes(np.sort(rows, axis=1))
    slow = [int(all_six_hand([int(c) for c in row])) for row in rows]
    return int(np.count_nonzero(fast != np.array(slow, dtype=np.int8)))


def strided_six_sample(count: int) -> npt.NDArray[np.int8]:
    """``count`` six-card sets spread evenly over the lexicographic order of all C(52,6),
    plus every set holding a six-card royal flush (the rarest classes), deterministically."""
    out: list[list[int]] = []
    step = SIX_CARD_SETS // count
    for i in range(count):
        out.append(_unrank_lex(i * step + (i * 7919) % step, 52, 6))
    for suit in range(4):
        royal = [r * 4 + suit for r in range(NINE, ACE + 1)]
        out.append(royal)
    return np.array(out, dtype=np.int8)


def _unrank_lex(index: int, n: int, k: int) -> list[int]:
    """The ``index``-th k-subset of range(n) in lexicographic order."""
    out: list[int] = []
    card = 0
    while k:
        block = comb(n - card - 1, k - 1)
        if index < block:
            out.append(card)
            k -= 1
        else:
            index -= block
        card += 1
    return out


def all_six_results(counts: Mapping[AllSixHand, int] | None = None) -> list[SideBetResult]:
    counts = counts if counts is not None else all_six_class_counts()
    return [summarise(t, counts, SIX_CARD_SETS) for t in ALL_SIX_PAYTABLES.values()]


# --- Ante / Odds / Raise: dealer outcome counts ----------------------------------------------


@dataclass(frozen=True)
class DealerCounts:
    """Dealer hands from the 47 unseen cards, counted against a player hand.

    ``beats``: dealer value above the player's (the player loses; a tie goes to the player).
    ``no_qualify``: dealer below king high (Ante pushes). ``beats_no_qualify``: both.
    """

    beats: int
    no_qualify: int
    beats_no_qualify: int
    total: int = DEALER_HANDS


def dealer_outcomes_brute_force(player: Sequence[Card]) -> DealerCounts:
    """Count all C(47,5) dealer hands one by one (vectorised): the reference for the fast way."""
    cards = sorted(player)
    if len(cards) != 5 or len(set(cards)) != 5:
        raise ValueError("a player hand is five distinct cards")
    pv = int(best_four_values(np.array([cards], dtype=np.int8))[0])
    rest = np.array([c for c in range(52) if c not in cards], dtype=np.int8)
    dealer = rest[combinations_array(47, 5)]
    values = best_four_values(dealer)
    beats = values > pv
    no_q = values < KING_HIGH
    return DealerCounts(
        int(beats.sum()), int(no_q.sum()), int((beats & no_q).sum()), int(len(values))
    )


_SUBSET_MASKS: Final = [
    tuple(i for i in range(5) if mask >> i & 1) for mask in range(1, 32)
]  # the 31 non-empty subsets of a five-card hand, as column positions


@dataclass
class ContainmentIndex:
    """How many five-card hands contain a given card set T and have a best-four value rank
    below r, for any T of up to four cards.

    * |T| <= 3: a dense table ``below[k][index(T), r]`` (cumulative counts over the R value
      ranks; 22,100 x 2,151 entries for three cards).
    * |T| = 4: the 12,994,800 keys ``index(T) * R + rank(H)``, sorted, searched in binary.
    """

    five: FiveCardHands
    below: dict[int, npt.NDArray[np.int32]] = field(default_factory=dict)
    keys4: I64 = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def ranks(self) -> int:
        return len(self.five.distinct)

    @property
    def king_rank(self) -> int:
        """Value ranks at or above this qualify (king high or better)."""
        return int(np.searchsorted(self.five.distinct, KING_HIGH, side="left"))

    @classmethod
    def build(cls, five: FiveCardHands, progress: Progress = _quiet) -> ContainmentIndex:
        index = cls(five)
        r_count = index.ranks
        rank = five.rank.astype(np.int64)
        for k in range(5):
            masks = [m for m in _SUBSET_MASKS if len(m) == k]
            if k == 0:
                keys = rank
            else:
                keys = np.concatenate(
                    [subset_index(five.cards[:, list(m)]) * r_count + rank for m in masks]
                )
            if k == 4:
                keys.sort()
                index.keys4 = keys
            else:
                hist = np.bincount(keys, minlength=comb(52, k) * r_count)
                table = np.zeros((comb(52, k), r_count + 1), dtype=np.int32)
                np.cumsum(hist.reshape(-1, r_count), axis=1, out=table[:, 1:])
                index.below[k] = table
            progress(f"  main game: {len(keys):,} ({k}-card subset, hand) pairs indexed")
        return index

    def _below(self, k: int, idx: I64, r: I64 | int) -> I64:
        """Hands containing the k-subsets ``idx`` with value rank below ``r``."""
        if k < 4:
            out: I64 = self.below[k][idx, r].astype(np.int64)
            return out
        keys, r_count = self.keys4, self.ranks
        upper = np.searchsorted(keys, idx * r_count + r, side="left").astype(np.int64)
        lower = np.searchsorted(keys, idx * r_count, side="left").astype(np.int64)
        return upper - lower

    def counts(self, hands: npt.NDArray[np.integer[Any]]) -> tuple[I64, I64, I64]:
        """(beats, no_qualify, beats_no_qualify) for each sorted five-card row, exactly.

        Inclusion-exclusion: dealer hands avoiding P = sum over T subset of P of
        (-1)^|T| x (five-card hands containing T).
        """
        rows = hands.astype(np.int64)
        prank = best_four_ranks(self.five, rows)
        r_count, kr = self.ranks, self.king_rank
        beats = np.zeros(len(rows), dtype=np.int64)
        no_q = np.zeros(len(rows), dtype=np.int64)
        beats_nq = np.zeros(len(rows), dtype=np.int64)
        for m in [(), *_SUBSET_MASKS]:
            k = len(m)
            sign = -1 if k % 2 else 1
            if k == 5:
                # T = P: the only hand containing P is P itself, which never beats P.
                no_q += sign * (prank < kr)
                continue
            idx = subset_index(rows[:, list(m)]) if k else np.zeros(len(rows), dtype=np.int64)
            total = self._below(k, idx, r_count)
            up_to_player = self._below(k, idx, prank + 1)
            below_king = self._below(k, idx, kr)
            beats += sign * (total - up_to_player)
            no_q += sign * below_king
            beats_nq += sign * np.maximum(below_king - up_to_player, 0)
        return beats, no_q, beats_nq


def best_four_ranks(five: FiveCardHands, rows: npt.NDArray[np.integer[Any]]) -> I64:
    values = best_four_values(rows)
    return np.searchsorted(five.distinct, values).astype(np.int64)


def dealer_outcomes(player: Sequence[Card], index: ContainmentIndex) -> DealerCounts:
    """The fast count for one player hand (inclusion-exclusion over its 32 subsets)."""
    row = np.array([sorted(player)], dtype=np.int64)
    beats, no_q, beats_nq = index.counts(row)
    return DealerCounts(int(beats[0]), int(no_q[0]), int(beats_nq[0]))


def suit_pattern(cards: npt.NDArray[np.integer[Any]]) -> I64:
    """A key equal for two hands exactly when a permutation of the suits maps one onto the
    other: the four per-suit 13-bit rank masks, sorted, packed into one integer."""
    rows = cards.astype(np.int64)
    bits = np.left_shift(np.int64(1), rows >> 2)
    masks = np.stack([(bits * ((rows & 3) == s)).sum(axis=1) for s in range(4)], axis=1)
    masks.sort(axis=1)
    key = np.zeros(len(rows), dtype=np.int64)
    for s in range(4):
        key = (key << 13) | masks[:, s]
    return key


def suit_classes(five: FiveCardHands) -> tuple[I64, I64]:
    """Representatives of the five-card hands up to suit permutation, and their weights.

    Returns (row numbers into ``five.cards``, number of hands in each class); the
    representative is the class's first hand in lexicographic order.
    """
    _, first, weights = np.unique(suit_pattern(five.cards), return_index=True, return_counts=True)
    order = np.argsort(first)
    return first[order].astype(np.int64), weights[order].astype(np.int64)


# --- Ante / Odds / Raise: strategy and house edge --------------------------------------------


@dataclass
class PlayerClasses:
    """Every player hand class with its weight and its dealer outcome counts."""

    rows: I64  # representative's row in FiveCardHands.cards
    weight: I64
    value: npt.NDArray[np.int32]
    beats: I64
    no_qualify: I64
    beats_no_qualify: I64
    seconds: dict[str, float]

    @property
    def total_weight(self) -> int:
        return int(self.weight.sum())

    def odds_classes(self) -> npt.NDArray[np.str_]:
        """The Odds / bad-beat row class of each hand class, as text ("four_aces", "3")."""
        distinct, inverse = np.unique(self.value, return_inverse=True)
        names = np.array([str(odds_class(int(v))) for v in distinct])
        out: npt.NDArray[np.str_] = names[inverse.reshape(-1)]
        return out


def player_classes(
    five: FiveCardHands | None = None,
    progress: Progress = _quiet,
    index: ContainmentIndex | None = None,
) -> PlayerClasses:
    """The expensive part: dealer outcome counts for all 134,459 player hand classes."""
    five = five or five_card_hands()
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    reps, weights = suit_classes(five)
    seconds["suit_classes"] = time.perf_counter() - t0
    progress(f"  main game: {len(reps):,} player hand classes up to suit permutation")
    t0 = time.perf_counter()
    index = index or ContainmentIndex.build(five, progress)
    seconds["containment_index"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    parts: list[tuple[I64, I64, I64]] = []
    chunk = 20_000
    for start in range(0, len(reps), chunk):
        parts.append(index.counts(five.cards[reps[start : start + chunk]]))
        progress(f"  main game: counted {min(start + chunk, len(reps)):,} of {len(reps):,} classes")
    seconds["dealer_counts"] = time.perf_counter() - t0
    beats, no_q, beats_nq = (np.concatenate([p[i] for p in parts]) for i in range(3))
    return PlayerClasses(reps, weights, five.values[reps], beats, no_q, beats_nq, seconds)


RAISE_CHOICES: Final = ("fold", "raise_1x", "raise_3x")
FOLD, RAISE_1X, RAISE_3X = range(3)


def odds_class(value: int) -> object:
    """The Odds / bad-beat row class of a four-card value: four aces apart from quads."""
    category = Category(value >> 16)
    if category is Category.FOUR_OF_A_KIND and value >> 12 & 15 == ACE:
        return FOUR_ACES
    return category


@dataclass(frozen=True)
class ChoiceValues:
    """Expected nets of each choice for each player hand, in units of 1 / (DEALER_HANDS *
    scale) of the Ante (the Odds equal to the Ante), as exact integers.

    ``three`` is the lowest int64 where a 3x Raise is not allowed (below a pair of aces).
    """

    scale: int
    ante: I64  # the Ante's net when the player raises
    odds: I64  # the Odds' net when the player raises
    raise_unit: I64  # the Raise's net per unit of Ante raised
    fold: I64
    one: I64
    three: I64

    def best(self) -> tuple[I64, I64]:
        """The optimal choice (FOLD, RAISE_1X, RAISE_3X) and its value; an exact tie takes the
        smaller bet."""
        choice = np.zeros(len(self.fold), dtype=np.int64)
        best = self.fold.copy()
        choice[self.one > best] = RAISE_1X
        best = np.maximum(best, self.one)
        choice[self.three > best] = RAISE_3X
        best = np.maximum(best, self.three)
        return choice, best


def choice_values(
    values: npt.NDArray[np.integer[Any]],
    beats: I64,
    no_qualify: I64,
    beats_no_qualify: I64,
    bad_beat: Paytable,
) -> ChoiceValues:
    """Ante, Raise and Odds settled against every dealer hand at once (§684a.11(c)):

    * Ante: push if the dealer does not qualify, else win if the player is not beaten.
    * Raise: win if the player is not beaten (qualified or not), lose otherwise.
    * Odds: a straight or better is paid by the Odds table when not beaten and by the bad-beat
      table when beaten; two pair or lower pushes when not beaten and loses when beaten.
    """
    n = DEALER_HANDS
    win_ratio = {h: row.payout.ratio for row in ODDS_PAYTABLE.rows for h in row.hands}
    lose_ratio = {h: row.payout.ratio for row in bad_beat.rows for h in row.hands}
    scale = lcm(*(r.denominator for r in (*win_ratio.values(), *lose_ratio.values())))
    value = np.asarray(values, dtype=np.int64)
    distinct, inverse = np.unique(value, return_inverse=True)
    win_pay_d = np.zeros(len(distinct), dtype=np.int64)
    lose_pay_d = np.full(len(distinct), -scale, dtype=np.int64)
    for i, v in enumerate(distinct.tolist()):
        if v >> 16 >= Category.STRAIGHT:
            win_pay_d[i] = int(win_ratio[odds_class(v)] * scale)
            lose_pay_d[i] = int(lose_ratio[odds_class(v)] * scale)
    win_pay, lose_pay = win_pay_d[inverse], lose_pay_d[inverse]
    lose = beats
    win = n - lose
    nq_win = no_qualify - beats_no_qualify
    q_lose = lose - beats_no_qualify
    q_win = win - nq_win
    ante = (q_win - q_lose) * scale
    raise_unit = (win - lose) * scale
    odds = win * win_pay + lose * lose_pay
    three = np.where(
        value >= PAIR_OF_ACES, ante + odds + 3 * raise_unit, np.iinfo(np.int64).min
    ).astype(np.int64)
    return ChoiceValues(
        scale=scale,
        ante=ante,
        odds=odds,
        raise_unit=raise_unit,
        fold=np.full(len(value), -2 * n * scale, dtype=np.int64),
        one=ante + odds + raise_unit,
        three=three,
    )


@dataclass(frozen=True, eq=False)
class MainGameResult:
    """Ante / Odds / Raise with one bad-beat table, per unit Ante (and Odds) under a strategy."""

    bad_beat: Paytable
    classes: PlayerClasses
    choice: I64  # FOLD, RAISE_1X or RAISE_3X for each player hand class
    expected_value: Fraction  # per unit Ante, the Odds wager also one unit
    average_raise: Fraction  # in units of the Ante, folds counting 0
    decisions: dict[str, Fraction]  # probability of each choice
    by_wager: dict[str, Fraction]  # expected net of the Ante, Raise and Odds wagers
    bad_beat_rows: tuple[RowResult, ...]
    odds_rows: tuple[RowResult, ...]
    ties: int  # player hands where two choices are exactly equal (the smaller bet is taken)

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit Ante."""
        return -self.expected_value

    @property
    def house_edge_per_initial_wager(self) -> Fraction:
        """Expected loss per unit of the Ante and Odds together (two units)."""
        return self.house_edge / 2

    @property
    def average_total_wager(self) -> Fraction:
        return 2 + self.average_raise

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss per unit of the total amount wagered (Ante + Odds + Raise)."""
        return self.house_edge / self.average_total_wager

    @property
    def bad_beat_frequency(self) -> Fraction:
        return sum((r.probability for r in self.bad_beat_rows), Fraction(0))

    def decisions_by_value(self) -> dict[int, list[int]]:
        """Best-four value -> hands folded, raised 1x, raised 3x."""
        out: dict[int, list[int]] = {}
        for v, c, w in zip(
            self.classes.value.tolist(),
            self.choice.tolist(),
            self.classes.weight.tolist(),
            strict=True,
        ):
            out.setdefault(int(v), [0, 0, 0])[c] += int(w)
        return dict(sorted(out.items()))


def main_game_result(
    classes: PlayerClasses, bad_beat: Paytable, strategy: I64 | None = None
) -> MainGameResult:
    """Figures for one bad-beat table: under the optimal choice for every player hand class,
    or under ``strategy`` (a choice per class) when given."""
    n = DEALER_HANDS
    cv = choice_values(
        classes.value, classes.beats, classes.no_qualify, classes.beats_no_qualify, bad_beat
    )
    scale = cv.scale
    optimal, best = cv.best()
    ties = int(
        classes.weight[
            (cv.fold == best).astype(np.int64) + (cv.one == best) + (cv.three == best) > 1
        ].sum()
    )
    if strategy is None:
        choice = optimal
    else:
        choice = strategy.astype(np.int64)
        if np.any(cv.three[choice == RAISE_3X] == np.iinfo(np.int64).min):
            raise ValueError("a 3x Raise needs a pair of aces or better")
        best = np.where(choice == RAISE_3X, cv.three, np.where(choice == RAISE_1X, cv.one, cv.fold))

    w = classes.weight
    total_weight = classes.total_weight
    denom = total_weight * n * scale
    raised = choice > FOLD
    multiple = np.where(choice == RAISE_3X, 3, np.where(choice == RAISE_1X, 1, 0))
    ante_net = int((w * np.where(raised, cv.ante, -n * scale)).sum())
    odds_net = int((w * np.where(raised, cv.odds, -n * scale)).sum())
    raise_net = int((w * multiple * cv.raise_unit).sum())
    total = int((w * best).sum())
    if total != ante_net + odds_net + raise_net:
        raise AssertionError("the wagers do not add up")

    value = classes.value.astype(np.int64)
    big = (value >> 16) >= int(Category.STRAIGHT)
    klass = classes.odds_classes()

    def rows_for(table: Paytable, counts: I64) -> tuple[RowResult, ...]:
        out = []
        for row in table.rows:
            in_row = np.isin(klass, [str(h) for h in row.hands]) & raised & big
            out.append(
                RowResult(
                    row.label,
                    row.payout.posted,
                    row.payout.ratio,
                    int((w * counts)[in_row].sum()),
                    total_weight * n,
                )
            )
        return tuple(out)

    return MainGameResult(
        bad_beat=bad_beat,
        classes=classes,
        choice=choice,
        expected_value=Fraction(total, denom),
        average_raise=Fraction(int((w * multiple).sum()), total_weight),
        decisions={
            name: Fraction(int(w[choice == i].sum()), total_weight)
            for i, name in enumerate(RAISE_CHOICES)
        },
        by_wager={
            "ante": Fraction(ante_net, denom),
            "raise": Fraction(raise_net, denom),
            "odds": Fraction(odds_net, denom),
        },
        bad_beat_rows=rows_for(bad_beat, classes.beats),
        odds_rows=rows_for(ODDS_PAYTABLE, n - classes.beats),
        ties=ties,
    )


def main_game_results(
    classes: PlayerClasses, tables: Iterable[Paytable] | None = None
) -> list[MainGameResult]:
    return [main_game_result(classes, t) for t in (tables or BAD_BEAT_PAYTABLES.values())]


def threshold_strategy(classes: PlayerClasses, raise_from: int) -> I64:
    """Raise 3x with a pair of aces or better, 1x from ``raise_from`` up, fold below."""
    value = classes.value.astype(np.int64)
    return np.where(
        value >= PAIR_OF_ACES, RAISE_3X, np.where(value >= raise_from, RAISE_1X, FOLD)
    ).astype(np.int64)


# --- the strategy in words ---------------------------------------------------------------

_RANK_WORDS: Final = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def hand_words(value: int) -> str:
    """A four-card value in plain words: "K-Q-8-4 high", "a pair of aces", "three kings"."""
    category = Category(value >> 16)
    if category is Category.HIGH_CARD:
        ranks = [(value >> s) & 15 for s in (12, 8, 4, 0)]
        return "-".join(_RANK_WORDS[r] for r in ranks) + " high"
    text = describe(value)
    text = text[0].lower() + text[1:]
    return "a " + text if category in (Category.PAIR, Category.FLUSH, Category.STRAIGHT) else text


@dataclass(frozen=True)
class Strategy:
    """The optimal strategy read off the decisions, with a simple threshold version."""

    raise_3x_from: int  # lowest value from which every hand raises 3x
    raise_from: int  # lowest value from which every hand raises (1x or 3x)
    mixed: dict[int, tuple[int, int]]  # values below raise_from sometimes raised: (raised, all)
    words: list[str]
    simple_raise_from: int  # best single threshold for the 1x Raise
    simple_house_edge: Fraction
    optimal_house_edge: Fraction

    @property
    def simple_cost(self) -> Fraction:
        return self.simple_house_edge - self.optimal_house_edge


def _fifth_card_words(classes: PlayerClasses, rows: I64, raise_mask: npt.NDArray[np.bool_],
                      five: FiveCardHands) -> str:  # fmt: skip
    """How the decision for one best-four hand depends on the card left out and the suits."""
    by_kicker: dict[int, list[tuple[int, bool, int]]] = {}
    for i in rows.tolist():
        cards = five.cards[classes.rows[i]].astype(np.int64)
        value = int(classes.value[i])
        # The card left out: the one whose removal keeps the best value (lowest such card).
        fifth = next(
            int(c)
            for c in cards.tolist()
            if int(best_four_values_of_four(cards[cards != c])) == value
        )
        suits = len({int(c) & 3 for c in cards.tolist()})
        by_kicker.setdefault(fifth >> 2, []).append(
            (suits, bool(raise_mask[i]), int(classes.weight[i]))
        )
    parts = []
    for rank in sorted(by_kicker, reverse=True):
        items = by_kicker[rank]
        yes = sum(w for _, r, w in items if r)
        total = sum(w for _, _, w in items)
        card = f"a {_RANK_WORDS[rank]}" if rank != 6 else "an 8"
        card = "an A" if rank == ACE else card
        if yes == total:
            parts.append(f"raise with {card} beside it")
        elif yes == 0:
            parts.append(f"fold with {card}")
        else:
            raise_suits = {s for s, r, _ in items if r}
            fold_suits = {s for s, r, _ in items if not r}
            if not raise_suits & fold_suits:
                parts.append(
                    f"with {card}, raise when the five cards show "
                    f"{' or '.join(str(s) for s in sorted(raise_suits))} suits and fold when "
                    f"they show {' or '.join(str(s) for s in sorted(fold_suits))}"
                )
            else:
                parts.append(
                    f"with {card} it depends on which cards share a suit "
                    f"(raise in {yes:,} of {total:,} hands)"
                )
    return "; ".join(parts)


def best_four_values_of_four(cards: npt.NDArray[np.integer[Any]]) -> int:
    row = np.sort(np.asarray(cards, dtype=np.int64)).reshape(1, 4)
    return int(FOUR_TABLE[four_card_index(row)][0])


def describe_strategy(result: MainGameResult, five: FiveCardHands | None = None) -> Strategy:
    """The optimal strategy of ``result`` in a few sentences, and the best simple threshold."""
    five = five or five_card_hands()
    classes = result.classes
    decided = result.decisions_by_value()
    values = list(decided)

    def lowest_always(min_choice: int) -> int:
        lowest = values[-1]
        for v in reversed(values):
            if sum(decided[v][min_choice:]) != sum(decided[v]):
                break
            lowest = v
        return lowest

    raise_3x_from = lowest_always(RAISE_3X)
    raise_from = lowest_always(RAISE_1X)
    mixed = {
        v: (sum(decided[v][RAISE_1X:]), sum(decided[v]))
        for v in values
        if v < raise_from and sum(decided[v][RAISE_1X:]) > 0
    }
    three_below = [v for v in values if v < raise_3x_from and decided[v][RAISE_3X]]

    lowest_allowed = min(v for v in values if v >= PAIR_OF_ACES)
    words = [
        f"Raise 3x with {hand_words(raise_3x_from)} or better"
        + (" - every hand allowed to." if raise_3x_from == lowest_allowed else ".")
    ]
    if three_below:
        words.append(
            f"Also raise 3x with some hands from {hand_words(three_below[0])} up "
            f"({len(three_below)} best-four hands, depending on the other cards)."
        )
    below_3x = max((v for v in values if v < raise_3x_from), default=raise_from)
    lowest_1x, highest_1x = hand_words(raise_from), hand_words(below_3x)
    words.append(f"Raise 1x with {lowest_1x} or better, up to {highest_1x}.")
    for v, (yes, total) in mixed.items():
        rows = np.flatnonzero(classes.value == v)
        detail = _fifth_card_words(classes, rows, result.choice > FOLD, five)
        words.append(f"{hand_words(v)} is borderline ({yes:,} of {total:,} hands raise): {detail}.")
    folded = [v for v in values if decided[v][FOLD]]
    if folded:
        always_fold = [v for v in folded if v not in mixed]
        words.append(
            f"Fold everything else: {hand_words(max(always_fold))} and lower"
            + (" except the borderline hands above." if mixed else ".")
        )
    else:
        words.append("Never fold.")

    # The best single threshold for the 1x Raise, searched around the optimal boundary.
    lowest = min([raise_from, *mixed])
    candidates = [v for v in values if lowest <= v <= raise_from]
    cv = choice_values(
        classes.value, classes.beats, classes.no_qualify, classes.beats_no_qualify, result.bad_beat
    )
    by_choice = np.stack([cv.fold, cv.one, cv.three])
    denom = classes.total_weight * DEALER_HANDS * cv.scale
    simple: dict[int, Fraction] = {}
    for t in candidates:
        choice = threshold_strategy(classes, t)
        chosen = np.take_along_axis(by_choice, choice.reshape(1, -1), axis=0)[0]
        simple[t] = -Fraction(int((classes.weight * chosen).sum()), denom)
    simple_from = min(simple, key=lambda t: simple[t])
    words.append(
        f"A simple version loses almost nothing: raise 1x with {hand_words(simple_from)} or "
        f"better (3x from a pair of aces), fold below; it costs "
        f"{float(simple[simple_from] - result.house_edge) * 100:.4f}% of the Ante."
    )
    return Strategy(
        raise_3x_from=raise_3x_from,
        raise_from=raise_from,
        mixed=mixed,
        words=words,
        simple_raise_from=simple_from,
        simple_house_edge=simple[simple_from],
        optimal_house_edge=result.house_edge,
    )


# --- the report document (JSON-ready) ------------------------------------------------------

REPORT_SCHEMA: Final = 1
SECTIONS: Final = ("prime", "four_card_bonus", "all_six", "bad_beat")
SECTION_TITLES: Final = {
    "prime": "Prime Wager",
    "four_card_bonus": "Four Card Bonus Wager",
    "all_six": "All-Six Bonus Wager",
    "bad_beat": "Ante, Odds and Raise (the main game), one entry per bad-beat table",
}


def _row_json(row: RowResult) -> dict[str, Any]:
    p = row.probability
    return {
        "label": row.label,
        "payout": row.posted,
        "ratio": float(row.ratio),
        "combinations": row.count,
        "probability": float(p),
        "one_in": float(1 / p) if p else None,
        "return": float(row.expected_return),
    }


def side_bet_json(result: SideBetResult) -> dict[str, Any]:
    """One side-bet paytable: rows with probability and return, hit frequency, house edge."""
    return {
        "name": result.name,
        "source": result.source,
        "population": result.total,
        "rows": [_row_json(r) for r in result.rows],
        "hit_combinations": sum(r.count for r in result.rows),
        "hit_frequency": float(result.hit_frequency),
        "return_to_player": float(1 + result.expected_value),
        "house_edge": float(result.house_edge),
        "house_edge_exact": exact(result.house_edge),
    }


def four_card_bonus_counterparts(results: Sequence[SideBetResult]) -> dict[str, str]:
    """Pennsylvania table -> the manufacturer table paying the same from two pair up.

    The two families differ in the bottom rows only: the manufacturer's also pays a pair of
    queens to aces ("QQ-AA") 1 to 1, where §684a.12(e) pays "two aces and two queens" 1 to 1.
    """
    out: dict[str, str] = {}
    tables = {r.name: FOUR_CARD_BONUS_PAYTABLES[r.name] for r in results}
    for name, table in tables.items():
        if not table.source.startswith("§"):
            continue
        top = [row.payout.ratio for row in table.rows[:8]]
        for other, t in tables.items():
            if not t.source.startswith("§") and [row.payout.ratio for row in t.rows[:8]] == top:
                out[name] = other
                break
    return out


def main_game_json(result: MainGameResult, strategy: Strategy) -> dict[str, Any]:
    """One bad-beat table: the main game's house edge, element of risk and strategy."""
    population = result.classes.total_weight * DEALER_HANDS
    return {
        "name": result.bad_beat.name,
        "source": result.bad_beat.source,
        "population": population,
        "rows": [_row_json(r) for r in result.bad_beat_rows],
        "hit_frequency": float(result.bad_beat_frequency),
        "hit_frequency_of": "a bad-beat payout (the player raised with a straight or better "
        "and the dealer beat it)",
        "odds_rows": [_row_json(r) for r in result.odds_rows],
        "house_edge": float(result.house_edge),
        "house_edge_exact": exact(result.house_edge),
        "house_edge_per": "unit of Ante (the Odds wager is an equal second unit)",
        "house_edge_per_initial_wager": float(result.house_edge_per_initial_wager),
        "element_of_risk": float(result.element_of_risk),
        "element_of_risk_exact": exact(result.element_of_risk),
        "average_raise": float(result.average_raise),
        "average_total_wager": float(result.average_total_wager),
        "decisions": {k: float(v) for k, v in result.decisions.items()},
        "expected_net_by_wager": {k: float(v) for k, v in result.by_wager.items()},
        "exact_ties": result.ties,
        "strategy": {
            "words": strategy.words,
            "raise_3x_from": hand_words(strategy.raise_3x_from),
            "raise_1x_from": hand_words(strategy.raise_from),
            "borderline": [
                {"hand": hand_words(v), "raised": yes, "hands": total}
                for v, (yes, total) in strategy.mixed.items()
            ],
            "simple": {
                "raise_1x_from": hand_words(strategy.simple_raise_from),
                "raise_3x_from": hand_words(PAIR_OF_ACES),
                "house_edge": float(strategy.simple_house_edge),
                "cost": float(strategy.simple_cost),
            },
        },
    }


def prime_section(progress: Progress = _quiet) -> dict[str, Any]:
    t0 = time.perf_counter()
    results = prime_results()
    seconds = time.perf_counter() - t0
    progress(f"prime: {seconds:.1f} s")
    return {
        "title": SECTION_TITLES["prime"],
        "population": f"all C(52,5) = {FIVE_CARD_HANDS:,} five-card hands",
        "unit": "per unit wagered",
        "seconds": round(seconds, 2),
        "paytables": {r.name: side_bet_json(r) for r in results},
    }


def four_card_bonus_section(progress: Progress = _quiet) -> dict[str, Any]:
    t0 = time.perf_counter()
    results = four_card_bonus_results()
    seconds = time.perf_counter() - t0
    progress(f"four card bonus: {seconds:.1f} s")
    paytables = {r.name: side_bet_json(r) for r in results}
    for name, other in four_card_bonus_counterparts(results).items():
        paytables[name]["manufacturer_counterpart"] = other
    return {
        "title": SECTION_TITLES["four_card_bonus"],
        "population": f"all C(52,5) = {FIVE_CARD_HANDS:,} five-card hands, best four cards",
        "unit": "per unit wagered",
        "seconds": round(seconds, 2),
        "paytables": paytables,
    }


def all_six_section(progress: Progress = _quiet, sample: int = 50_000) -> dict[str, Any]:
    t0 = time.perf_counter()
    rows = strided_six_sample(sample)
    mismatches = validate_all_six_classifier(rows)
    if mismatches:
        raise AssertionError(f"the vectorised All-Six classifier disagrees on {mismatches} sets")
    validated = time.perf_counter() - t0
    progress(f"all-six: classifier agrees with all_six_hand on {len(rows):,} sets")
    t0 = time.perf_counter()
    counts = all_six_class_counts(progress)
    results = all_six_results(counts)
    seconds = time.perf_counter() - t0
    progress(f"all-six: {seconds:.1f} s")
    return {
        "title": SECTION_TITLES["all_six"],
        "population": f"all C(52,6) = {SIX_CARD_SETS:,} six-card sets",
        "unit": "per unit wagered",
        "seconds": round(seconds, 2),
        "validation": {
            "sets_checked_against_all_six_hand": len(rows),
            "mismatches": mismatches,
            "seconds": round(validated, 2),
        },
        "class_counts": {cls.name.lower(): n for cls, n in counts.items()},
        "paytables": {r.name: side_bet_json(r) for r in results},
    }


def bad_beat_section(progress: Progress = _quiet) -> dict[str, Any]:
    t0 = time.perf_counter()
    five = five_card_hands()
    classes = player_classes(five, progress)
    counted = time.perf_counter() - t0
    progress(f"main game: dealer outcomes of every player hand counted in {counted:.1f} s")
    t0 = time.perf_counter()
    paytables: dict[str, Any] = {}
    for table in BAD_BEAT_PAYTABLES.values():
        result = main_game_result(classes, table)
        strategy = describe_strategy(result, five)
        paytables[table.name] = main_game_json(result, strategy)
        progress(
            f"main game {table.name}: house edge {float(result.house_edge) * 100:.4f}% per Ante"
        )
    evaluated = time.perf_counter() - t0
    # The back office's band: each table's whole distribution and two boxes' covariance.
    from table.games.common import net_distribution_json

    from .spread import Layout, frenzy_spread, hand_class_of_every_hand

    t0 = time.perf_counter()
    layout, class_of = Layout.build(five), hand_class_of_every_hand(five)
    for table in BAD_BEAT_PAYTABLES.values():
        spread = frenzy_spread(main_game_result(classes, table), layout, class_of)
        paytables[table.name]["net_distribution"] = net_distribution_json(
            spread.counts, spread.covariance
        )
        progress(f"main game {table.name}: distribution and covariance of two boxes")
    del layout
    spread_seconds = time.perf_counter() - t0
    return {
        "title": SECTION_TITLES["bad_beat"],
        "population": (
            f"all {FIVE_CARD_HANDS:,} player hands x {DEALER_HANDS:,} dealer hands "
            f"(= {FIVE_CARD_HANDS * DEALER_HANDS:,} deals), player hands reduced to "
            f"{len(classes.rows):,} classes up to suit permutation"
        ),
        "unit": "per unit of Ante; element of risk per unit of Ante + Odds + Raise",
        "seconds": round(counted + evaluated + spread_seconds, 2),
        "seconds_detail": {
            **{k: round(v, 2) for k, v in classes.seconds.items()},
            "strategy_and_figures_all_tables": round(evaluated, 2),
            "distribution_and_covariance_all_tables": round(spread_seconds, 2),
        },
        "paytables": paytables,
    }


SECTION_BUILDERS: Final[dict[str, Callable[[Progress], dict[str, Any]]]] = {
    "prime": prime_section,
    "four_card_bonus": four_card_bonus_section,
    "all_six": all_six_section,
    "bad_beat": bad_beat_section,
}

METHOD: Final = (
    "Exhaustive enumeration with the engine's own hand tables and classifiers "
    "(table.games.four_card_frenzy.hands, table.games.four_card_frenzy.paytables); no "
    "simulation. See "
    "table/games/four_card_frenzy/analysis.py."
)


def build_report(
    sections: Iterable[str] = SECTIONS,
    previous: Mapping[str, Any] | None = None,
    progress: Progress = _quiet,
) -> dict[str, Any]:
    """The whole report; sections not asked for are kept from ``previous``."""
    wagers: dict[str, Any] = dict(previous.get("wagers", {})) if previous else {}
    for name in sections:
        if name not in SECTION_BUILDERS:
            raise ValueError(f"unknown section {name!r} (choose from {', '.join(SECTIONS)})")
        wagers[name] = SECTION_BUILDERS[name](progress)
    return {
        "schema": REPORT_SCHEMA,
        "generated_by": "python manage.py paytable_report",
        "method": METHOD,
        "wagers": {k: wagers[k] for k in SECTIONS if k in wagers},
    }
