"""The main game's spread for the back office's band (docs/backoffice.md): the whole
distribution of a box's Ante, Super Bonus and Play per unit of Ante at the optimal play, and
two boxes' covariance in one round, exactly - Four Card Frenzy's machinery
(:mod:`table.games.four_card_frenzy.spread`) with this game's settlement (§657a.11(c)(3)).
"""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from table.games.four_card_frenzy.analysis import (
    DEALER_HANDS,
    I64,
    best_four_values,
    five_card_hands,
    suit_classes,
    suit_pattern,
)
from table.games.four_card_frenzy.spread import (
    Layout,
    MainSpread,
    avoiding_sums,
    covariance,
    distribution,
    per_hand,
)

from . import analysis
from .analysis import FOLD, PLAY_3X, SCALE
from .hands import KING_HIGH


def main_distribution(c: analysis.PlayerClasses, game: analysis.MainGame) -> dict[Fraction, int]:
    """Net per unit Ante -> deals at ``game``'s choices (:func:`main_spread`)."""
    s = SCALE
    pay = analysis.super_bonus_pay(c.value)
    paid = np.maximum(pay, 0)
    paid_beaten = np.where(pay >= 0, pay, -s)
    played = game.choice > FOLD
    k = np.where(game.choice == PLAY_3X, 3, 1) * s

    def when_played(x: I64) -> I64:
        out: I64 = np.where(played, x, 0)
        return out

    return distribution(
        c.weight,
        [
            (np.where(played, 0, DEALER_HANDS), np.full(len(c.weight), -2 * s, dtype=np.int64)),
            (when_played(c.no_qualify), k + paid),
            (when_played(c.beats), -s - k + paid_beaten),
            (when_played(c.ties), paid),
            (when_played(c.loses), s + k + paid),
        ],
        s,
    )


def main_spread(
    c: analysis.PlayerClasses, game: analysis.MainGame, layout: Layout, class_of: I64
) -> MainSpread:
    """Every deal settled at ``game``'s choices, in halves of an Ante (the Super Bonus pays
    3 to 2): fold -2 (Ante and Super Bonus forfeited); a Play of k against a dealer who
    does not qualify: Ante push, Play +k; who beats the hand: -1 - k; ties it: pushes;
    loses to it: +1 + k. The Super Bonus pays a straight or better whatever the dealer has,
    and below a straight loses only when the hand loses to a qualifying dealer."""
    t0 = time.perf_counter()
    s = SCALE
    pay = analysis.super_bonus_pay(c.value)
    paid = np.maximum(pay, 0)  # the Super Bonus when the hand does not lose
    paid_beaten = np.where(pay >= 0, pay, -s)
    played = game.choice > FOLD
    k = np.where(game.choice == PLAY_3X, 3, 1) * s

    def when_played(x: I64) -> I64:
        out: I64 = np.where(played, x, 0)
        return out

    counts = main_distribution(c, game)
    total = int(sum(x * s * n for x, n in counts.items()))
    seconds = {"distribution": time.perf_counter() - t0}

    # E[X | D] x C(47,5) x SCALE, D of rank d. Not qualifying: every played hand is paid
    # k + Super Bonus. Qualifying: below d it loses, at d it ties, above it wins:
    #   all(fold + win) + below_d(lose - tie) + below_{d+1}(tie - win).
    t0 = time.perf_counter()
    reps, dealer_weight = suit_classes(layout.five)
    d = layout.five.rank[reps].astype(np.int64)
    qualifies = layout.five.values[reps] >= KING_HIGH
    everything = np.full(len(reps), layout.ranks, dtype=np.int64)
    fold = -2 * s
    (no_q,) = avoiding_sums(
        layout, per_hand(np.where(played, k + paid, fold), class_of), reps, [everything]
    )
    (win_all,) = avoiding_sums(
        layout, per_hand(np.where(played, s + k + paid, fold), class_of), reps, [everything]
    )
    (lose_tie,) = avoiding_sums(
        layout, per_hand(when_played(-s - k + paid_beaten - paid), class_of), reps, [d]
    )
    (tie_win,) = avoiding_sums(layout, per_hand(when_played(-s - k), class_of), reps, [d + 1])
    sums = np.where(qualifies, win_all + lose_tie + tie_win, no_q)
    cov, mean = covariance(dealer_weight, sums, total, s)
    seconds["covariance"] = time.perf_counter() - t0
    return MainSpread(counts, cov, mean, seconds)


def sampled_box_covariance(
    c: analysis.PlayerClasses,
    game: analysis.MainGame,
    rounds: int,
    boxes: int = 6,
    seed: int = 25,
    chunk: int = 200_000,
) -> tuple[float, float]:
    """The covariance of two boxes of one round **with** card removal between them, sampled
    (seeded): a dealer and ``boxes`` players from one shuffled deck, each at ``game``'s
    choices; (estimate, its standard error). Checks what :func:`main_spread` neglects
    (docs/backoffice.md)."""
    s = SCALE
    pay = analysis.super_bonus_pay(c.value)
    paid = np.maximum(pay, 0)
    paid_beaten = np.where(pay >= 0, pay, -s)
    played = game.choice > FOLD
    k = np.where(game.choice == PLAY_3X, 3, 1) * s
    five = five_card_hands()
    patterns = suit_pattern(five.cards[c.rows])
    order = np.argsort(patterns)
    sorted_patterns = patterns[order]
    mean = float(game.expected_value)
    rng = np.random.default_rng(seed)
    parts: list[npt.NDArray[np.float64]] = []
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        deck = np.argsort(rng.random((n, 52)), axis=1)[:, : 5 * (boxes + 1)].astype(np.int8)
        dv = best_four_values(np.sort(deck[:, :5], axis=1)).astype(np.int64)
        q = dv >= KING_HIGH
        total = np.zeros(n)
        squares = np.zeros(n)
        for b in range(1, boxes + 1):
            hand = np.sort(deck[:, 5 * b : 5 * b + 5], axis=1)
            pv = best_four_values(hand).astype(np.int64)
            i = order[np.searchsorted(sorted_patterns, suit_pattern(hand))]
            result = np.where(
                ~q,
                k[i] + paid[i],
                np.where(
                    dv > pv,
                    -s - k[i] + paid_beaten[i],
                    np.where(dv == pv, paid[i], s + k[i] + paid[i]),
                ),
            )
            net = np.where(played[i], result, -2 * s) / s
            total += net
            squares += net * net
        parts.append((total * total - squares) / (boxes * (boxes - 1)))
        done += n
    products = np.concatenate(parts)
    error = float(products.std(ddof=1) / np.sqrt(len(products)))
    return float(products.mean()) - mean * mean, error
