"""Exact Crazy 4 Poker mathematics by exhaustive enumeration.

Nothing is simulated. The machinery is Four Card Frenzy's
(:mod:`table.games.four_card_frenzy.analysis`), whose
main game has the same shape - the best four of five against the dealer's best four of five:

* the 2,598,960 player hands reduced to 134,459 classes under permutations of the suits;
* for each class, the dealer hands among the other 47 cards counted by inclusion-exclusion over
  the subsets of the player's five cards
  (:class:`~table.games.four_card_frenzy.analysis.ContainmentIndex`):
  those that do not qualify (below king high, §657a.11(c)(3)), and among those that do, the
  ones that beat, tie or lose to the player. Unlike Four Card Frenzy a tie pushes, so ties are
  counted apart.

From those counts every choice - fold, Play 1x, Play 3x (with a pair of aces or better; the
value is linear in the Play, so 1x or 3x is always optimal among 1x-3x) - is settled against
all 1,533,939 dealer hands at once, exactly as :func:`.settlement.main_game` settles it.

The side wagers are counted over every five-card hand (Queens Up, progressives, Five Card
Hand Bonus) or every six-card set (Six Card Bonus). Rows paying a share of a meter have no
fixed return; their hit frequencies are given.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from table.games.cards import Card
from table.games.four_card_frenzy.analysis import (
    DEALER_HANDS,
    FIVE_CARD_HANDS,
    SIX_CARD_SETS,
    ContainmentIndex,
    FiveCardHands,
    all_six_class_counts,
    best_four_ranks,
    best_four_values,
    five_card_hands,
    hand_words,
    subset_index,
    suit_classes,
)
from table.games.four_card_frenzy.hands import combinations_array

from .hands import (
    FROM_ALL_SIX,
    KING_HIGH,
    PAIR_OF_ACES,
    FiveCardCategory,
    FourCardHand,
    SixCardHand,
    five_card_categories,
    four_card_hand,
)
from .paytables import (
    FIVE_CARD_PROGRESSIVES,
    FOUR_CARD_PROGRESSIVES,
    HAND_BONUS_PAYTABLE,
    QUEENS_UP_PAYTABLES,
    SIX_CARD_BONUS_PAYTABLES,
    SUPER_BONUS,
    ForOne,
    HandClass,
    OfMeter,
    Paytable,
    ToOne,
)

I64 = npt.NDArray[np.int64]
Progress = Callable[[str], None]

FOLD, PLAY_1X, PLAY_3X = range(3)
CHOICES: Final = ("fold", "play_1x", "play_3x")
_SUBSETS: Final = [tuple(i for i in range(5) if m >> i & 1) for m in range(32)]


def _quiet(_: str) -> None:
    return None


# --- dealer outcomes against a player hand ------------------------------------------------------


@dataclass(frozen=True)
class DealerCounts:
    """Dealer hands of the 47 unseen cards against one player hand (they add up to 1,533,939)."""

    no_qualify: int
    beats: int  # qualifies and is higher
    ties: int  # qualifies and is equal
    loses: int  # qualifies and is lower


def dealer_counts_brute_force(player: Sequence[Card]) -> DealerCounts:
    """Every one of the C(47,5) dealer hands, one by one (vectorised): the reference."""
    cards = sorted(player)
    pv = int(best_four_values(np.array([cards], dtype=np.int8))[0])
    rest = np.array([c for c in range(52) if c not in cards], dtype=np.int8)
    values = best_four_values(rest[combinations_array(47, 5)]).astype(np.int64)
    q = values >= KING_HIGH
    return DealerCounts(
        int((~q).sum()),
        int((q & (values > pv)).sum()),
        int((q & (values == pv)).sum()),
        int((q & (values < pv)).sum()),
    )


def dealer_counts(
    index: ContainmentIndex, hands: npt.NDArray[np.integer[Any]]
) -> tuple[I64, I64, I64, I64]:
    """(no_qualify, beats, ties, loses) for each sorted five-card row, by inclusion-exclusion:
    dealer hands avoiding P = sum over T subset of P of (-1)^|T| x hands containing T."""
    rows = hands.astype(np.int64)
    prank = best_four_ranks(index.five, rows)
    r_all, kr = index.ranks, index.king_rank
    no_q = np.zeros(len(rows), dtype=np.int64)
    above = np.zeros(len(rows), dtype=np.int64)  # rank > player's, qualified or not
    equal = np.zeros(len(rows), dtype=np.int64)
    for m in _SUBSETS:
        k = len(m)
        sign = -1 if k % 2 else 1
        if k == 5:  # T = P: the player's own hand, which is not a dealer hand
            no_q += sign * (prank < kr)
            equal += sign
            continue
        idx = subset_index(rows[:, list(m)]) if k else np.zeros(len(rows), dtype=np.int64)
        below = index._below  # the containment counts (Four Card Frenzy's, unchanged)
        up_to = below(k, idx, prank + 1)
        no_q += sign * below(k, idx, kr)
        above += sign * (below(k, idx, r_all) - up_to)
        equal += sign * (up_to - below(k, idx, prank))
    qualifies = prank >= kr
    # A player below king high: every qualifying dealer is above it and nothing ties or
    # loses to it among qualifiers. Otherwise every dealer above it qualifies.
    beats = np.where(qualifies, above, DEALER_HANDS - no_q)
    ties = np.where(qualifies, equal, 0)
    loses = DEALER_HANDS - no_q - beats - ties
    return no_q, beats, ties, loses


# --- the main game: Ante, Super Bonus and Play --------------------------------------------------


@dataclass
class PlayerClasses:
    rows: I64
    weight: I64
    value: I64
    no_qualify: I64
    beats: I64
    ties: I64
    loses: I64
    seconds: dict[str, float]

    @property
    def total_weight(self) -> int:
        return int(self.weight.sum())


def player_classes(
    five: FiveCardHands | None = None,
    progress: Progress = _quiet,
    index: ContainmentIndex | None = None,
) -> PlayerClasses:
    """Dealer outcome counts for every player hand class (about 10 s on the 2-core machine)."""
    five = five or five_card_hands()
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    reps, weights = suit_classes(five)
    seconds["suit_classes"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    index = index or ContainmentIndex.build(five, progress)
    seconds["containment_index"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    parts = []
    for start in range(0, len(reps), 20_000):
        parts.append(dealer_counts(index, five.cards[reps[start : start + 20_000]]))
        progress(f"  counted {min(start + 20_000, len(reps)):,} of {len(reps):,} classes")
    seconds["dealer_counts"] = time.perf_counter() - t0
    no_q, beats, ties, loses = (np.concatenate([p[i] for p in parts]) for i in range(4))
    values = five.values[reps].astype(np.int64)
    return PlayerClasses(reps, weights, values, no_q, beats, ties, loses, seconds)


#: The Super Bonus pays 3 to 2 on a flush: values are kept in halves of an Ante.
SCALE: Final = 2


def super_bonus_pay(values: I64) -> I64:
    """Super Bonus winnings per unit, times :data:`SCALE`, for a straight or better; -1 marks
    hands below a straight (they push or lose with the hand)."""
    out = np.full(len(values), -1, dtype=np.int64)
    distinct, inverse = np.unique(values, return_inverse=True)
    pay = np.full(len(distinct), -1, dtype=np.int64)
    for i, v in enumerate(distinct.tolist()):
        row = SUPER_BONUS.row_for(four_card_hand(v))
        if row is not None:
            assert isinstance(row.payout, ToOne)
            pay[i] = int(row.payout.ratio * SCALE)
    out[:] = pay[inverse.reshape(-1)]
    return out


@dataclass(frozen=True)
class ChoiceValues:
    """Exact expected nets over all dealer hands, in units of 1 / (DEALER_HANDS x SCALE) Ante,
    of each choice and of each wager when the hand plays."""

    ante: I64
    super_bonus: I64
    play_unit: I64  # the Play's net per unit of Ante played
    fold: I64
    one: I64
    three: I64  # int64 min where 3x is not allowed

    def best(self) -> tuple[I64, I64]:
        """The optimal choice; an exact tie takes the smaller wager."""
        choice = np.zeros(len(self.fold), dtype=np.int64)
        best = self.fold.copy()
        choice[self.one > best] = PLAY_1X
        best = np.maximum(best, self.one)
        choice[self.three > best] = PLAY_3X
        best = np.maximum(best, self.three)
        return choice, best


def choice_values(c: PlayerClasses) -> ChoiceValues:
    """§657a.11(c)(3) against every dealer hand: Ante push / win / push / lose; Play win when
    the dealer does not qualify, else win / push / lose; Super Bonus paid on a straight or
    better in every case, else push unless the hand loses to a qualifying dealer."""
    n = c.no_qualify + c.beats + c.ties + c.loses  # DEALER_HANDS each, unless a sample
    pay = super_bonus_pay(c.value)
    ante = (c.loses - c.beats) * SCALE
    play_unit = (c.no_qualify + c.loses - c.beats) * SCALE
    super_bonus = np.where(pay >= 0, pay * n, -c.beats * SCALE)
    one = ante + super_bonus + play_unit
    three = np.where(
        c.value >= PAIR_OF_ACES, ante + super_bonus + 3 * play_unit, np.iinfo(np.int64).min
    )
    fold = -2 * n * SCALE  # §657a.11(b): the Ante and Super Bonus are forfeited
    return ChoiceValues(ante, super_bonus, play_unit, fold, one, three.astype(np.int64))


@dataclass(frozen=True)
class MainGame:
    choice: I64
    expected_value: Fraction  # per unit Ante (the Super Bonus also one unit)
    by_wager: dict[str, Fraction]
    decisions: dict[str, Fraction]
    average_play: Fraction  # in Antes, a fold counting 0

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per unit Ante."""
        return -self.expected_value

    @property
    def house_edge_per_initial_wager(self) -> Fraction:
        """Per unit of the Ante and Super Bonus together."""
        return self.house_edge / 2

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss per unit of everything wagered: Ante, Super Bonus and the Play."""
        return self.house_edge / (2 + self.average_play)


def main_game(c: PlayerClasses, strategy: I64 | None = None) -> MainGame:
    cv = choice_values(c)
    choice, best = cv.best()
    if strategy is not None:
        choice = strategy
        best = np.where(choice == PLAY_3X, cv.three, np.where(choice == PLAY_1X, cv.one, cv.fold))
    w = c.weight
    denom = c.total_weight * DEALER_HANDS * SCALE
    played = choice > FOLD
    multiple = np.where(choice == PLAY_3X, 3, np.where(played, 1, 0))
    lost = -DEALER_HANDS * SCALE
    nets = {
        "ante": int((w * np.where(played, cv.ante, lost)).sum()),
        "super_bonus": int((w * np.where(played, cv.super_bonus, lost)).sum()),
        "play": int((w * multiple * cv.play_unit).sum()),
    }
    total = int((w * best).sum())
    assert total == sum(nets.values())
    return MainGame(
        choice,
        Fraction(total, denom),
        {k: Fraction(v, denom) for k, v in nets.items()},
        {
            name: Fraction(int(w[choice == i].sum()), c.total_weight)
            for i, name in enumerate(CHOICES)
        },
        Fraction(int((w * multiple).sum()), c.total_weight),
    )


def strategy_words(c: PlayerClasses, game: MainGame) -> list[str]:
    """The optimal strategy in words, read off the decisions by best-four value."""
    by_value: dict[int, list[int]] = {}
    for v, ch, wt in zip(c.value.tolist(), game.choice.tolist(), c.weight.tolist(), strict=True):
        by_value.setdefault(int(v), [0, 0, 0])[ch] += int(wt)
    values = sorted(by_value)

    def lowest_always(min_choice: int) -> int:
        lowest = values[-1]
        for v in reversed(values):
            if sum(by_value[v][min_choice:]) != sum(by_value[v]):
                break
            lowest = v
        return lowest

    three_from = lowest_always(PLAY_3X)
    play_from = lowest_always(PLAY_1X)
    words = [f"Play 3x with {hand_words(three_from)} or better."]
    words.append(f"Play 1x with {hand_words(play_from)} or better, below that.")
    mixed = [v for v in values if v < play_from and sum(by_value[v][PLAY_1X:]) > 0]
    for v in mixed:
        yes, total = sum(by_value[v][PLAY_1X:]), sum(by_value[v])
        words.append(
            f"{hand_words(v)}: play in {yes:,} of {total:,} hands (it depends on the fifth card"
            " and the suits)."
        )
    below = [v for v in values if v < play_from and v not in mixed]
    if below:
        words.append(
            f"Fold {hand_words(max(below))} and lower" + (" (except as above)." if mixed else ".")
        )
    return words


def threshold_strategy(c: PlayerClasses, play_from: int) -> I64:
    """Play 3x with a pair of aces or better, 1x from ``play_from`` up, fold below."""
    return np.where(
        c.value >= PAIR_OF_ACES, PLAY_3X, np.where(c.value >= play_from, PLAY_1X, FOLD)
    ).astype(np.int64)


def best_simple_strategy(c: PlayerClasses, game: MainGame) -> tuple[int, MainGame]:
    """The best single 1x threshold among the best-four values where the optimal strategy
    starts or stops playing, and its figures."""
    played = sorted({int(v) for v, ch in zip(c.value.tolist(), game.choice.tolist(), strict=True)
                     if ch > FOLD and v < PAIR_OF_ACES})  # fmt: skip
    candidates = played[:40]
    results = {t: main_game(c, threshold_strategy(c, t)) for t in candidates}
    best = max(results, key=lambda t: results[t].expected_value)
    return best, results[best]


# --- side wagers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    label: str
    posted: str
    count: int
    total: int
    net_ratio: Fraction | None  # winnings per unit staked; None for a share of a meter

    @property
    def probability(self) -> Fraction:
        return Fraction(self.count, self.total)


@dataclass(frozen=True)
class SideWager:
    wager: str
    name: str
    rows: tuple[Row, ...]
    total: int

    @property
    def hit_frequency(self) -> Fraction:
        return Fraction(sum(r.count for r in self.rows), self.total)

    @property
    def fixed(self) -> bool:
        return all(r.net_ratio is not None for r in self.rows)

    @property
    def expected_value(self) -> Fraction:
        """Per unit staked; meter rows (if any) count as returning nothing."""
        won = sum(
            (r.probability * r.net_ratio for r in self.rows if r.net_ratio is not None), Fraction(0)
        )
        return won - (1 - self.hit_frequency)

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_value


def _net_ratio(row_payout: ToOne | ForOne | OfMeter) -> Fraction | None:
    if isinstance(row_payout, ToOne):
        return row_payout.ratio
    if isinstance(row_payout, ForOne):
        return Fraction(row_payout.times - 1)
    return None


def summarise(table: Paytable, counts: Mapping[HandClass, int], total: int) -> SideWager:
    if sum(counts.values()) != total:
        raise ValueError(f"counts add up to {sum(counts.values())}, not {total}")
    rows = tuple(
        Row(
            row.label,
            row.payout.posted,
            sum(n for hand, n in counts.items() if hand in row.hands),
            total,
            _net_ratio(row.payout),
        )
        for row in table.rows
    )
    return SideWager(table.wager, table.name, rows, total)


def four_card_class_counts(five: FiveCardHands | None = None) -> dict[HandClass, int]:
    out: dict[HandClass, int] = dict.fromkeys(FourCardHand, 0)
    for value, n in (five or five_card_hands()).value_histogram().items():
        out[four_card_hand(value)] += n
    return out


def five_card_class_counts(five: FiveCardHands | None = None) -> dict[HandClass, int]:
    counts = np.bincount(five_card_categories((five or five_card_hands()).cards), minlength=10)
    return {cls: int(counts[int(cls)]) for cls in FiveCardCategory}


def six_card_class_counts() -> dict[HandClass, int]:
    out: dict[HandClass, int] = {}
    lower = 0
    for cls, n in all_six_class_counts().items():
        if cls in FROM_ALL_SIX:
            out[FROM_ALL_SIX[cls]] = n
        else:
            lower += n
    out[SixCardHand.HIGH_CARD] = lower  # high card, pair and two pair together
    return out


def side_wagers_five_card() -> dict[str, list[SideWager]]:
    """Queens Up, the progressives and the Five Card Hand Bonus over all C(52,5) hands."""
    five = five_card_hands()
    four = four_card_class_counts(five)
    fives = five_card_class_counts(five)
    fixed4 = [t.paytable for t in FOUR_CARD_PROGRESSIVES.values()]
    fixed5 = [t.paytable for t in FIVE_CARD_PROGRESSIVES.values()]
    return {
        "queens_up": [summarise(t, four, FIVE_CARD_HANDS) for t in QUEENS_UP_PAYTABLES.values()],
        "four_card_progressive": [summarise(t, four, FIVE_CARD_HANDS) for t in fixed4],
        "five_card_progressive": [summarise(t, fives, FIVE_CARD_HANDS) for t in fixed5],
        "hand_bonus": [summarise(HAND_BONUS_PAYTABLE, fives, FIVE_CARD_HANDS)],
    }


def six_card_bonus_wagers() -> list[SideWager]:
    """Six Card Bonus A-E over all C(52,6) six-card sets."""
    six = six_card_class_counts()
    return [summarise(t, six, SIX_CARD_SETS) for t in SIX_CARD_BONUS_PAYTABLES.values()]


def side_wagers() -> dict[str, list[SideWager]]:
    return {**side_wagers_five_card(), "six_card_bonus": six_card_bonus_wagers()}


def percent(x: Fraction, digits: int = 4) -> str:
    return f"{float(x) * 100:.{digits}f}%"


__all__ = [
    "DealerCounts",
    "dealer_counts",
    "dealer_counts_brute_force",
    "main_game",
    "player_classes",
    "side_wagers",
    "strategy_words",
    "comb",
]
