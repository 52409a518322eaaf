"""The main game's spread, for the back office's confidence band (docs/backoffice.md): the whole
distribution of a box's net per unit of Ante at the optimal play, and the covariance of two
boxes' nets in one round, both exact, for the games played best four of five against the
dealer's best four of five (Four Card Frenzy here, Crazy 4 Poker through its own analysis).

* **The distribution** needs nothing new: the enumeration already counts, for each of the
  134,459 player hand classes, how many of the 1,533,939 dealer hands beat it, tie it, do not
  qualify...; each of those counts settles to one net at the class's optimal choice.
* **The covariance** of two boxes sharing the dealer's hand D is, when the boxes are
  independent given D, ``Var_D(E[X | D])``: it needs, for every dealer hand, the sum of the
  nets of all C(47,5) player hands from the other cards. That is the enumeration turned
  around, with the same inclusion-exclusion over the dealer's 32 subsets
  (:class:`~.analysis.ContainmentIndex`), only summing a weight per player hand (its net
  against a dealer above or below it) instead of counting hands: :class:`WeightedSums`.
  Dealer hands are reduced to their suit classes (a player's choice depends only on his
  hand's class, so E[X | D] does too). Card removal *between* the two boxes is neglected:
  docs/backoffice.md says by how little it matters.

Every sum is an exact integer; the covariance is a :class:`fractions.Fraction`. Checked
against the published house edge (the dealer-weighted sum of E[X | D] must give it back
exactly) and against direct recounts of single dealer hands in the tests.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from .analysis import (
    _SUBSET_MASKS,
    DEALER_HANDS,
    FIVE_CARD_HANDS,
    FOLD,
    I64,
    RAISE_3X,
    FiveCardHands,
    best_four_values,
    odds_class,
    subset_index,
    suit_classes,
    suit_pattern,
)
from .hands import KING_HIGH, Category
from .paytables import ODDS_PAYTABLE


def hand_class_of_every_hand(five: FiveCardHands) -> I64:
    """For each of the C(52,5) hands, the position of its suit class in
    :func:`~.analysis.suit_classes`' order (classes by their first hand)."""
    _, first, inverse = np.unique(suit_pattern(five.cards), return_index=True, return_inverse=True)
    order = np.argsort(first)
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order))
    out: I64 = position[inverse.reshape(-1)]
    return out


@dataclass
class Layout:
    """Each hand's (k-subset, value rank) keys, built once and shared by every weight."""

    five: FiveCardHands
    keys: dict[int, I64]  # k = 1..3: index(T) * R + rank(H), every hand under every mask
    order4: I64  # the sort of the four-card keys
    keys4: I64  # sorted
    memo: dict[str, list[I64]] = field(default_factory=dict)

    @property
    def ranks(self) -> int:
        return len(self.five.distinct)

    @classmethod
    def build(cls, five: FiveCardHands) -> Layout:
        r = len(five.distinct)
        rank = five.rank.astype(np.int64)
        keys: dict[int, I64] = {}
        for k in (1, 2, 3, 4):
            masks = [m for m in _SUBSET_MASKS if len(m) == k]
            keys[k] = np.concatenate(
                [subset_index(five.cards[:, list(m)]) * r + rank for m in masks]
            )
        order4 = np.argsort(keys[4], kind="stable")
        keys4 = keys.pop(4)[order4]
        return cls(five, keys, order4, keys4)


class WeightedSums:
    """For one weight per hand: the sum of the weights of the five-card hands containing a
    card set T with value rank below r, for any T of up to four cards
    (:class:`~.analysis.ContainmentIndex`'s counts, weighted)."""

    def __init__(self, layout: Layout, weight: I64) -> None:
        self.layout = layout
        self.weight = weight.astype(np.int64)
        r = layout.ranks
        rank = layout.five.rank.astype(np.int64)
        self.below: dict[int, I64] = {}
        zero = np.zeros(r + 1, dtype=np.int64)
        hist0 = np.rint(np.bincount(rank, weights=self.weight, minlength=r)).astype(np.int64)
        np.cumsum(hist0, out=zero[1:])
        self.below[0] = zero.reshape(1, -1)
        for k in (1, 2, 3):
            n_masks = comb(5, k)
            # Each bin sums at most C(51, 4) weights of a few thousand: exact in a float64.
            hist = np.bincount(
                layout.keys[k], weights=np.tile(self.weight, n_masks), minlength=comb(52, k) * r
            )
            table = np.zeros((comb(52, k), r + 1), dtype=np.int64)
            np.cumsum(np.rint(hist).astype(np.int64).reshape(-1, r), axis=1, out=table[:, 1:])
            self.below[k] = table
        prefix = np.zeros(len(layout.keys4) + 1, dtype=np.int64)
        np.cumsum(np.tile(self.weight, 5)[layout.order4], out=prefix[1:])
        self.prefix4 = prefix

    def _below(self, k: int, idx: I64, r: I64) -> I64:
        if k < 4:
            out: I64 = self.below[k][idx, r]
            return out
        keys, n = self.layout.keys4, self.layout.ranks
        upper = np.searchsorted(keys, idx * n + r, side="left")
        lower = np.searchsorted(keys, idx * n, side="left")
        diff: I64 = self.prefix4[upper] - self.prefix4[lower]
        return diff

    def avoiding(self, rows: I64, cuts: Sequence[I64]) -> list[I64]:
        """For each five-card hand ``rows`` (row numbers of the enumeration) and each cut
        (a value rank per row): the sum of the weights of the hands that avoid its cards and
        rank below the cut. Inclusion-exclusion over the hand's 32 subsets."""
        cards = self.layout.five.cards[rows].astype(np.int64)
        own_rank = self.layout.five.rank[rows].astype(np.int64)
        out = [np.zeros(len(rows), dtype=np.int64) for _ in cuts]
        for m in [(), *_SUBSET_MASKS]:
            k = len(m)
            sign = -1 if k % 2 else 1
            if k == 5:  # T = the hand itself: only it contains it
                for o, cut in zip(out, cuts, strict=True):
                    o += sign * self.weight[rows] * (own_rank < cut)
                continue
            idx = subset_index(cards[:, list(m)]) if k else np.zeros(len(rows), dtype=np.int64)
            for o, cut in zip(out, cuts, strict=True):
                o += sign * self._below(k, idx, cut)
        return out


def avoiding_sums(
    layout: Layout, weight: I64, rows: I64, cuts: Sequence[I64], chunk: int = 20_000
) -> list[I64]:
    """:meth:`WeightedSums.avoiding` for one weight, in chunks of dealer hands (remembered:
    paytables that share a weight share its sums)."""
    key = hashlib.sha256(
        b"".join(np.ascontiguousarray(a, dtype=np.int64).tobytes() for a in (weight, rows, *cuts))
    ).hexdigest()
    if key in layout.memo:
        return layout.memo[key]
    sums = WeightedSums(layout, weight)
    parts: list[list[I64]] = []
    for start in range(0, len(rows), chunk):
        sl = slice(start, start + chunk)
        parts.append(sums.avoiding(rows[sl], [c[sl] for c in cuts]))
    found = [np.concatenate([p[i] for p in parts]) for i in range(len(cuts))]
    layout.memo[key] = found
    return found


def distribution(
    weight: I64, outcomes: Sequence[tuple[I64, I64]], scale: int
) -> dict[Fraction, int]:
    """Net (per unit) -> deals, from (count per class, net per class x ``scale``) pairs and
    each class's weight (hands in it)."""
    nets = np.concatenate([net for _, net in outcomes]).astype(np.int64)
    counts = np.concatenate([weight * count for count, _ in outcomes]).astype(np.int64)
    order = np.argsort(nets, kind="stable")
    nets, counts = nets[order], counts[order]
    starts = np.flatnonzero(np.r_[True, nets[1:] != nets[:-1]])
    totals = np.add.reduceat(counts, starts)
    return {
        Fraction(int(x), scale): int(n)
        for x, n in zip(nets[starts].tolist(), totals.tolist(), strict=True)
        if n
    }


def covariance(
    dealer_weight: I64, conditional_sums: I64, total: int, scale: int
) -> tuple[Fraction, Fraction]:
    """(Var_D(E[X | D]), E[X]) from each dealer class's weight and the sum over the
    C(47,5) player hands beside it of their net x ``scale``; ``total`` is the enumeration's
    sum of all nets x ``scale`` (the house edge's numerator), which the dealer-weighted sums
    must give back exactly."""
    w = [int(x) for x in dealer_weight.tolist()]
    s = [int(x) for x in conditional_sums.tolist()]
    if sum(wi * si for wi, si in zip(w, s, strict=True)) != total:
        raise AssertionError("the sums given the dealer's hand do not give back the house edge")
    unit = DEALER_HANDS * scale
    mean = Fraction(total, FIVE_CARD_HANDS * unit)
    second = Fraction(sum(wi * si * si for wi, si in zip(w, s, strict=True)),
                      FIVE_CARD_HANDS * unit * unit)  # fmt: skip
    return second - mean * mean, mean


def per_hand(values_per_class: npt.NDArray[Any], class_of: I64) -> I64:
    """A per-class array spread over every hand."""
    out: I64 = np.asarray(values_per_class, dtype=np.int64)[class_of]
    return out


# --- Four Card Frenzy: Ante, Odds and Raise -----------------------------------------------------


@dataclass(frozen=True)
class MainSpread:
    counts: dict[Fraction, int]  # net per unit Ante -> deals
    covariance: Fraction
    mean: Fraction
    seconds: dict[str, float]


def _pays(values: npt.NDArray[Any], bad_beat: Any) -> tuple[int, I64, I64]:
    """(scale, Odds winnings when not beaten, Odds result when beaten) per class, x scale:
    :func:`~.analysis.choice_values`' settlement of the Odds (§684a.11(c))."""
    win_ratio = {h: row.payout.ratio for row in ODDS_PAYTABLE.rows for h in row.hands}
    lose_ratio = {h: row.payout.ratio for row in bad_beat.rows for h in row.hands}
    scale = lcm(*(r.denominator for r in (*win_ratio.values(), *lose_ratio.values())))
    value = np.asarray(values, dtype=np.int64)
    distinct, inverse = np.unique(value, return_inverse=True)
    win = np.zeros(len(distinct), dtype=np.int64)
    lose = np.full(len(distinct), -scale, dtype=np.int64)
    for i, v in enumerate(distinct.tolist()):
        if v >> 16 >= Category.STRAIGHT:
            win[i] = int(win_ratio[odds_class(v)] * scale)
            lose[i] = int(lose_ratio[odds_class(v)] * scale)
    return scale, win[inverse.reshape(-1)], lose[inverse.reshape(-1)]


def frenzy_distribution(result: Any) -> dict[Fraction, int]:
    """Net per unit Ante -> deals at ``result``'s choices (:func:`frenzy_spread`)."""
    c = result.classes
    n = DEALER_HANDS
    scale, wp, lp = _pays(c.value, result.bad_beat)
    raised = result.choice > FOLD
    k = np.where(result.choice == RAISE_3X, 3, 1) * scale
    win = n - c.beats
    nq_win = c.no_qualify - c.beats_no_qualify

    def played(x: I64) -> I64:
        out: I64 = np.where(raised, x, 0)
        return out

    return distribution(
        c.weight,
        [
            (np.where(raised, 0, n), np.full(len(c.weight), -2 * scale, dtype=np.int64)),
            (played(c.beats - c.beats_no_qualify), -scale - k + lp),
            (played(c.beats_no_qualify), -k + lp),
            (played(win - nq_win), scale + k + wp),
            (played(nq_win), k + wp),
        ],
        scale,
    )


def frenzy_spread(result: Any, layout: Layout, class_of: I64) -> MainSpread:
    """Ante, Odds and Raise at ``result``'s choices (a :class:`~.analysis.MainGameResult`):
    fold -2 (Ante and Odds); a Raise of k: beaten by a qualifying dealer -1 - k + Odds
    (bad beat), beaten by one who does not qualify -k + Odds, not beaten (a tie goes to the
    player) +1 + k + Odds or, dealer not qualifying, k + Odds (§684a.11(c))."""
    t0 = time.perf_counter()
    counts = frenzy_distribution(result)
    scale, wp, lp = _pays(result.classes.value, result.bad_beat)
    raised = result.choice > FOLD
    k = np.where(result.choice == RAISE_3X, 3, 1) * scale
    total = int(sum(x * scale * m for x, m in counts.items()))
    seconds = {"distribution": time.perf_counter() - t0}

    # E[X | D] x C(47,5) x scale for each dealer class D of rank d (qualifying: q = 1):
    #   all(fold + not-beaten) + q all(raised) + below_d(beaten - not-beaten) - 2q below_d(raised)
    t0 = time.perf_counter()
    reps, dealer_weight = suit_classes(layout.five)
    d = layout.five.rank[reps].astype(np.int64)
    q = (layout.five.values[reps] >= _king_high()).astype(np.int64)
    everything = np.full(len(reps), layout.ranks, dtype=np.int64)
    w_fold_or_win = per_hand(np.where(raised, k + wp, -2 * scale), class_of)
    w_raised = per_hand(np.where(raised, scale, 0), class_of)
    w_beaten = per_hand(np.where(raised, (-k + lp) - (k + wp), 0), class_of)
    (a,) = avoiding_sums(layout, w_fold_or_win, reps, [everything])
    r_all, r_below = avoiding_sums(layout, w_raised, reps, [everything, d])
    (b,) = avoiding_sums(layout, w_beaten, reps, [d])
    sums = a + q * r_all + b - 2 * q * r_below
    cov, mean = covariance(dealer_weight, sums, total, scale)
    seconds["covariance"] = time.perf_counter() - t0
    return MainSpread(counts, cov, mean, seconds)


def _king_high() -> int:
    return int(KING_HIGH)


def sampled_box_covariance(
    result: Any, rounds: int, boxes: int = 6, seed: int = 25, chunk: int = 200_000
) -> tuple[float, float, float]:
    """The covariance of two boxes of one round **with** card removal between them, sampled:
    ``rounds`` deals of a dealer hand and ``boxes`` player hands from one shuffled deck, each
    box at ``result``'s optimal choices; returns (estimate, its standard error, the exact
    mean used). Checks what :func:`frenzy_spread` neglects (docs/backoffice.md); seeded, so
    the same figures every run."""
    c = result.classes
    five = result_five()
    scale, wp, lp = _pays(c.value, result.bad_beat)
    raised = result.choice > FOLD
    k = np.where(result.choice == RAISE_3X, 3, 1) * scale
    patterns = suit_pattern(five.cards[c.rows])
    order = np.argsort(patterns)
    sorted_patterns = patterns[order]
    mean = float(result.expected_value)
    rng = np.random.default_rng(seed)
    pair_sums: list[npt.NDArray[np.float64]] = []
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        deck = np.argsort(rng.random((n, 52)), axis=1)[:, : 5 * (boxes + 1)].astype(np.int8)
        dealer = np.sort(deck[:, :5], axis=1)
        dv = best_four_values(dealer).astype(np.int64)
        q = (dv >= KING_HIGH).astype(np.int64)
        total = np.zeros(n)
        squares = np.zeros(n)
        for b in range(1, boxes + 1):
            hand = np.sort(deck[:, 5 * b : 5 * b + 5], axis=1)
            pv = best_four_values(hand).astype(np.int64)
            cls = order[np.searchsorted(sorted_patterns, suit_pattern(hand))]
            beaten = dv > pv
            net = (
                np.where(
                    raised[cls],
                    np.where(beaten, -q * scale - k[cls] + lp[cls], q * scale + k[cls] + wp[cls]),
                    -2 * scale,
                )
                / scale
            )
            total += net
            squares += net * net
        pair_sums.append((total * total - squares) / (boxes * (boxes - 1)))
        done += n
    products = np.concatenate(pair_sums)
    estimate = float(products.mean()) - mean * mean
    return estimate, float(products.std(ddof=1) / np.sqrt(len(products))), mean


def result_five() -> FiveCardHands:
    from .analysis import five_card_hands

    return five_card_hands()
