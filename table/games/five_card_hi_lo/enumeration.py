"""Exact counts over every deal, by value classes.

A hand's totals, settings and Ante Bonus depend only on how many cards it holds of each value
class: 2, 3, ..., 9 (four cards each), ten-valued (10, J, Q, K: sixteen cards) and ace (four).
So the C(52,5) hands fall into 1,993 classes, weighted by products of binomial coefficients,
and the C(52,5)·C(47,5) player/dealer deals into pairs of classes, the dealer's weight counting
only the cards the player's class leaves (card removal). Everything here is exact integers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Final

import numpy as np
import numpy.typing as npt

from table.games.cards import ACE, TWO
from table.games.cards import TEN as TEN_RANK

#: Class index -> the cards of that class in one deck, and their high/low points.
CLASS_SIZES: Final = (4, 4, 4, 4, 4, 4, 4, 4, 16, 4)
CLASS_HIGH: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
CLASS_LOW: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
TWO_CLASS: Final = 0
TEN_CLASS: Final = 8
ACE_CLASS: Final = 9
N_CLASSES: Final = 10

Counts = tuple[int, ...]
IntArray = npt.NDArray[np.int64]


def value_class(rank: int) -> int:
    """The value class of a card rank (2 = 0 ... ace = 12)."""
    if rank == ACE:
        return ACE_CLASS
    if rank >= TEN_RANK:
        return TEN_CLASS
    return rank - TWO


def _compositions(total: int, parts: int) -> Iterator[Counts]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def hand_classes() -> list[Counts]:
    """Every value class of a five-card hand (a count per class, summing to 5)."""
    return [
        c
        for c in _compositions(5, N_CLASSES)
        if all(k <= size for k, size in zip(c, CLASS_SIZES, strict=True))
    ]


def class_weight(counts: Counts, sizes: Counts = CLASS_SIZES) -> int:
    """How many hands of a deck with ``sizes`` cards per class fall in the class."""
    w = 1
    for k, size in zip(counts, sizes, strict=True):
        w *= comb(size, k)
    return w


def _values_desc(counts: Counts) -> list[int]:
    out: list[int] = []
    for cls in range(N_CLASSES - 1, -1, -1):
        out += [CLASS_HIGH[cls]] * counts[cls]
    return out


def aces_high_totals(counts: Counts) -> tuple[int, int]:
    """(high, low) of the aces-high setting and of the dealer's house way (§663a.11(d), (e)):
    the three highest values high; a fourth ace can only be low, where it counts 1."""
    values = _values_desc(counts)
    low = [1 if v == 11 else v for v in values[3:]]
    return sum(values[:3]), sum(low)


def ace_low_totals(counts: Counts) -> tuple[int, int] | None:
    """(high, low) with one ace low (§663a.11(d)), or None unless the hand has 1-3 aces."""
    aces = counts[ACE_CLASS]
    if not 1 <= aces <= 3:
        return None
    rest = list(counts)
    rest[ACE_CLASS] -= 1
    values = _values_desc(tuple(rest))
    return sum(values[:3]), 1 + values[3]


@dataclass(frozen=True, slots=True)
class ClassTables:
    classes: tuple[Counts, ...]
    counts: IntArray  # (n, 10)
    weight: IntArray  # hands per class over C(52,5)
    high: IntArray  # aces-high / house-way totals
    low: IntArray
    alt_high: IntArray  # the ace-low setting's totals, or -1
    alt_low: IntArray
    pair_weight: IntArray  # (n, n): deals with the player in class i and the dealer in j


@cache
def tables() -> ClassTables:
    classes = tuple(hand_classes())
    counts = np.array(classes, dtype=np.int64)
    weight = np.array([class_weight(c) for c in classes], dtype=np.int64)
    totals = [aces_high_totals(c) for c in classes]
    alts = [ace_low_totals(c) or (-1, -1) for c in classes]
    # binom[n, k] = C(n, k) for the cards a class has left after the player's hand.
    binom = np.array([[comb(n, k) for k in range(6)] for n in range(17)], dtype=np.int64)
    sizes = np.array(CLASS_SIZES, dtype=np.int64)
    pair = np.empty((len(classes), len(classes)), dtype=np.int64)
    cols = np.arange(N_CLASSES)
    for i in range(len(classes)):
        left = sizes - counts[i]
        # C(left_c, d_c) per class; a dealer count above what is left gives C(n, k) = 0.
        safe = np.minimum(counts, 5)
        factors = binom[left[cols][None, :], safe]
        pair[i] = weight[i] * np.prod(factors, axis=1)
    return ClassTables(
        classes,
        counts,
        weight,
        np.array([t[0] for t in totals], dtype=np.int64),
        np.array([t[1] for t in totals], dtype=np.int64),
        np.array([a[0] for a in alts], dtype=np.int64),
        np.array([a[1] for a in alts], dtype=np.int64),
        pair,
    )


@dataclass(frozen=True, slots=True)
class DealCounts:
    """Deals over C(52,5)·C(47,5), player and dealer both set the house way, every box plays."""

    total: int
    win: int
    lose: int
    push: int
    high_tie_only: int
    low_tie_only: int
    both_tie: int


def house_way_deal_counts() -> DealCounts:
    t = tables()
    ph, pl = t.high[:, None], t.low[:, None]
    dh, dl = t.high[None, :], t.low[None, :]
    w = t.pair_weight
    win = (ph > dh) & (pl < dl)  # §663a.11(g)(1)
    lose = (ph <= dh) & (pl >= dl)  # §663a.11(g)(2)
    high_tie = ph == dh
    low_tie = pl == dl

    def total(mask: npt.NDArray[np.bool_]) -> int:
        return int(w[mask].sum())

    everything = int(w.sum())
    wins, losses = total(win), total(lose)
    return DealCounts(
        everything,
        wins,
        losses,
        everything - wins - losses,
        total(high_tie & ~low_tie),
        total(low_tie & ~high_tie),
        total(high_tie & low_tie),
    )


def house_way_pairs() -> dict[tuple[int, int], int]:
    """How many of the C(52,5) hands the house way sets to each (high, low) total."""
    t = tables()
    out: dict[tuple[int, int], int] = {}
    for h, lo, w in zip(t.high.tolist(), t.low.tolist(), t.weight.tolist(), strict=True):
        out[(h, lo)] = out.get((h, lo), 0) + w
    return out
