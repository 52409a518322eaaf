"""Exact mathematics of Five Card Hi-Lo by exhaustive enumeration over value classes.

Over all C(52,5)·C(47,5) player/dealer deals (see :mod:`.enumeration`): the player's best
play for every hand (fold, or Play with aces high or one ace low), the house edge per Ante
and the element of risk for each Ante Bonus paytable (house interpretation 1: X × Ante), the
Tie Wager and the Poker Bonus paytables. Every figure is an exact :class:`Fraction`.

The decision uses only what the player sees: his five cards. Totals, settings and the Ante
Bonus depend only on the cards' value classes, and so does the dealer's distribution (card
removal), so the class is all the decision needs and a per-class optimum is the optimum.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Final

import numpy as np
import numpy.typing as npt

from table.games.cards import make_card

from .enumeration import ACE_CLASS, TWO_CLASS, IntArray, tables
from .paytables import (
    ANTE_BONUS_PAYTABLES,
    POKER_BONUS_PAYTABLES,
    TIE_ODDS,
    AnteBonusHand,
    TieHand,
    ante_bonus_payout,
    poker_bonus_odds,
)
from .poker import PokerHand, poker_rank_trusted

DEALS: Final = comb(52, 5) * comb(47, 5)
DEALER_HANDS: Final = comb(47, 5)


class Choice:
    FOLD = "fold"
    ACES_HIGH = "aces_high"
    ACE_LOW = "ace_low"


@dataclass(frozen=True, slots=True)
class ClassDecision:
    """The best play of one value class, and what the player's hand is worth with it."""

    choice: str
    high: int | None  # the setting's totals when played
    low: int | None
    hands: int  # how many of the C(52,5) hands are in the class


@dataclass(frozen=True, slots=True)
class AnteFigures:
    paytable: str
    expected: Fraction  # the player's expected net per unit Ante (negative: the house's)
    house_edge: Fraction  # per unit Ante
    element_of_risk: Fraction  # per unit wagered (Ante + Play)
    play_rate: Fraction  # share of hands played
    ace_low_rate: Fraction  # share of hands played with one ace low
    win: Fraction  # Ante/Play outcomes over all deals, folds excluded
    push: Fraction
    lose: Fraction
    fold: Fraction


def _bonus_units(letter: str) -> IntArray:
    """The Ante Bonus per unit Ante for every class (0 without three aces)."""
    t = tables()
    aces = t.counts[:, ACE_CLASS]
    twos = t.counts[:, TWO_CLASS]
    table = ANTE_BONUS_PAYTABLES[letter]
    out = np.zeros(len(t.classes), dtype=np.int64)
    out[(aces == 4) & (twos == 1)] = ante_bonus_payout(1, table[AnteBonusHand.FOUR_ACES_AND_2])
    out[(aces == 4) & (twos == 0)] = ante_bonus_payout(1, table[AnteBonusHand.FOUR_ACES])
    out[aces == 3] = ante_bonus_payout(1, table[AnteBonusHand.THREE_ACES])
    return out


@cache
def setting_outcomes() -> tuple[tuple[IntArray, IntArray], tuple[IntArray, IntArray]]:
    """(win, lose) weights per player class for the aces-high and the ace-low setting."""
    t = tables()
    dh, dl = t.high[None, :], t.low[None, :]
    out = []
    for high, low in ((t.high, t.low), (t.alt_high, t.alt_low)):
        h, lo = high[:, None], low[:, None]
        win = np.where((h > dh) & (lo < dl), t.pair_weight, 0).sum(axis=1)
        lose = np.where((h <= dh) & (lo >= dl), t.pair_weight, 0).sum(axis=1)
        out.append((win, lose))
    return out[0], out[1]


@cache
def ante_figures(letter: str) -> AnteFigures:
    """The player's optimal play against Ante Bonus paytable ``letter``, and its figures.

    Per class, in units of deals: fold loses the Ante (-1 per deal, no Ante Bonus: house
    interpretation 2); Play with a setting nets 2 per win and -2 per loss (Ante and Play,
    §663a.11(g), §663a.12(a)) plus the Ante Bonus on every deal (§663a.11(h)).
    """
    t = tables()
    rows = t.weight * DEALER_HANDS
    bonus = _bonus_units(letter) * rows
    (win_h, lose_h), (win_l, lose_l) = setting_outcomes()
    play_high = 2 * (win_h - lose_h) + bonus
    has_alt = t.alt_high >= 0
    play_low = np.where(has_alt, 2 * (win_l - lose_l) + bonus, np.iinfo(np.int64).min)
    fold = -rows
    # Ties go to the default: aces high before one ace low, Play before a fold.
    use_low = play_low > play_high
    best_play = np.where(use_low, play_low, play_high)
    plays = best_play >= fold
    ev = np.where(plays, best_play, fold)
    win = np.where(use_low, win_l, win_h)
    lose = np.where(use_low, lose_l, lose_h)
    total = int(rows.sum())
    played = int(t.weight[plays].sum())
    expected = Fraction(int(ev.sum()), total)
    wagered = 1 + Fraction(played, int(t.weight.sum()))
    return AnteFigures(
        paytable=letter,
        expected=expected,
        house_edge=-expected,
        element_of_risk=-expected / wagered,
        play_rate=Fraction(played, int(t.weight.sum())),
        ace_low_rate=Fraction(int(t.weight[plays & use_low].sum()), int(t.weight.sum())),
        win=Fraction(int(win[plays].sum()), total),
        lose=Fraction(int(lose[plays].sum()), total),
        push=Fraction(int((rows - win - lose)[plays].sum()), total),
        fold=Fraction(int(rows[~plays].sum()), total),
    )


def _optimal_play(letter: str) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per class, (plays, sets one ace low) at the optimal play, as :func:`ante_figures`
    decides them (ties to aces high and to Play)."""
    t = tables()
    rows = t.weight * DEALER_HANDS
    bonus = _bonus_units(letter) * rows
    (win_h, lose_h), (win_l, lose_l) = setting_outcomes()
    play_high = 2 * (win_h - lose_h) + bonus
    play_low = np.where(t.alt_high >= 0, 2 * (win_l - lose_l) + bonus, np.iinfo(np.int64).min)
    use_low = play_low > play_high
    plays = np.where(use_low, play_low, play_high) >= -rows
    return plays, use_low


@dataclass(frozen=True, slots=True)
class Spread:
    """A box's whole net per unit Ante at the optimal play, over all C(52,5)·C(47,5) deals,
    and the covariance of two boxes' nets in one round."""

    counts: dict[Fraction, int]  # net -> deals
    covariance: Fraction
    mean: Fraction
    given_dealer: tuple[Fraction, ...]  # E[net | the dealer's hand is in class j]


@cache
def spread(letter: str) -> Spread:
    """Every deal settled at the optimal play against Ante Bonus table ``letter``: fold -1;
    Play +2 on a win, -2 on a loss, 0 on a push (Ante and Play, §663a.11(g)), plus the Ante
    Bonus on every played deal (§663a.11(h)).

    The covariance of two boxes in one round is the variance over the dealer's hands of a
    box's expected net given the dealer's hand; that expectation depends only on the dealer's
    value class (the player's classes beside it are counted with the dealer's cards removed,
    ``pair_weight``), so it is exact over the 1,993 dealer classes. Card removal between the
    two boxes is neglected (docs/backoffice.md bounds it)."""
    t = tables()
    plays, use_low = _optimal_play(letter)
    bonus = _bonus_units(letter)
    high = np.where(use_low, t.alt_high, t.high)[:, None]
    low = np.where(use_low, t.alt_low, t.low)[:, None]
    dh, dl = t.high[None, :], t.low[None, :]
    w = t.pair_weight
    win = (high > dh) & (low < dl)
    lose = (high <= dh) & (low >= dl)
    # Net per deal (player class i against dealer class j), whole units.
    net = np.where(win, 2, np.where(lose, -2, 0)) + bonus[:, None]
    net = np.where(plays[:, None], net, -1)
    counts: dict[Fraction, int] = {}
    for x in np.unique(net).tolist():
        counts[Fraction(x)] = int(w[net == x].sum())
    mean = Fraction(int((w * net).sum()), DEALS)
    # E[net | dealer class j] = S_j / (weight_j x C(47,5)); the dealer is in class j in
    # weight_j of the C(52,5) hands.
    s = (w * net).sum(axis=0).tolist()
    weight = t.weight.tolist()
    given = tuple(Fraction(sj, wj * DEALER_HANDS) for sj, wj in zip(s, weight, strict=True))
    hands = comb(52, 5)
    if sum((g * wj for g, wj in zip(given, weight, strict=True)), Fraction(0)) != mean * hands:
        raise AssertionError("the means given the dealer's hand do not give back the edge")
    second = sum((g * g * wj for g, wj in zip(given, weight, strict=True)), Fraction(0))
    return Spread(counts, second / hands - mean * mean, mean, given)


@cache
def decisions(letter: str = "A") -> dict[tuple[int, ...], ClassDecision]:
    """The best play of every value class against Ante Bonus paytable ``letter``."""
    t = tables()
    rows = t.weight * DEALER_HANDS
    bonus = _bonus_units(letter) * rows
    (win_h, lose_h), (win_l, lose_l) = setting_outcomes()
    out: dict[tuple[int, ...], ClassDecision] = {}
    for i, counts in enumerate(t.classes):
        high_ev = 2 * int(win_h[i] - lose_h[i]) + int(bonus[i])
        options = [(high_ev, Choice.ACES_HIGH, int(t.high[i]), int(t.low[i]))]
        if t.alt_high[i] >= 0:
            low_ev = 2 * int(win_l[i] - lose_l[i]) + int(bonus[i])
            options.append((low_ev, Choice.ACE_LOW, int(t.alt_high[i]), int(t.alt_low[i])))
        ev, choice, high, low = max(options, key=lambda o: o[0])  # first wins a tie
        if ev < -int(rows[i]):
            out[counts] = ClassDecision(Choice.FOLD, None, None, int(t.weight[i]))
        else:
            out[counts] = ClassDecision(choice, high, low, int(t.weight[i]))
    return out


@dataclass(frozen=True, slots=True)
class TieFigures:
    high_only: Fraction
    low_only: Fraction
    both: Fraction
    lose: Fraction
    expected: Fraction  # per unit Tie Wager
    house_edge: Fraction


def tie_figures(optimal_ante_play: bool = False) -> TieFigures:
    """The Tie Wager (§663a.12(c)). By default every box plays and sets the house way (aces
    high, the digest's enumeration); with ``optimal_ante_play`` the player plays the Ante
    the best way for paytable A (a folded box loses its Tie Wager, §663a.11(b)(1))."""
    t = tables()
    w = t.pair_weight
    high, low = t.high, t.low
    played = np.ones(len(t.classes), dtype=bool)
    if optimal_ante_play:
        chosen = decisions("A")
        high = np.array([d.high if d.high is not None else -1 for d in chosen.values()])
        low = np.array([d.low if d.low is not None else -1 for d in chosen.values()])
        played = np.array([d.choice != Choice.FOLD for d in chosen.values()])
    ph, pl = high[:, None], low[:, None]
    high_tie = (ph == t.high[None, :]) & played[:, None]
    low_tie = (pl == t.low[None, :]) & played[:, None]
    total = int(w.sum())

    def share(mask: npt.NDArray[np.bool_]) -> Fraction:
        return Fraction(int(w[mask].sum()), total)

    high_only = share(high_tie & ~low_tie)
    low_only = share(low_tie & ~high_tie)
    both = share(high_tie & low_tie)
    lose = 1 - high_only - low_only - both
    expected = (
        TIE_ODDS[TieHand.HIGH] * high_only
        + TIE_ODDS[TieHand.LOW] * low_only
        + TIE_ODDS[TieHand.BOTH] * both
        - lose
    )
    return TieFigures(high_only, low_only, both, lose, expected, -expected)


@cache
def poker_hand_counts() -> Mapping[tuple[PokerHand, int | None], int]:
    """How many of the C(52,5) hands make each poker rank (pairs by their rank), counted over
    the 6,175 rank multisets: a multiset with five distinct ranks is 4 flushes and 1,020 other
    suit patterns; with a repeated rank, prod C(4, k) hands, none a flush."""
    out: dict[tuple[PokerHand, int | None], int] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        mult = [ranks.count(r) for r in sorted(set(ranks))]
        if max(mult) > 4:
            continue
        if len(mult) == 5:
            flush = poker_rank_trusted([make_card(r, 0) for r in ranks])
            other = poker_rank_trusted(
                [make_card(r, 1 if i == 0 else 0) for i, r in enumerate(ranks)]
            )
            for rank, n in ((flush, 4), (other, 4**5 - 4)):
                key = (rank.hand, rank.pair_rank)
                out[key] = out.get(key, 0) + n
            continue
        cards = []
        seen: dict[int, int] = {}
        for r in ranks:
            cards.append(make_card(r, seen.get(r, 0)))
            seen[r] = seen.get(r, 0) + 1
        rank = poker_rank_trusted(cards)
        key = (rank.hand, rank.pair_rank)
        out[key] = out.get(key, 0) + prod(comb(4, k) for k in mult)
    return out


@dataclass(frozen=True, slots=True)
class PokerBonusFigures:
    paytable: str
    win_rate: Fraction
    expected: Fraction  # per unit wagered
    house_edge: Fraction


def poker_bonus_figures(letter: str) -> PokerBonusFigures:
    """The Poker Bonus (§663a.12(d)) on the player's five cards, independent of any decision
    (it stays in action on a fold, §663a.11(b)(2))."""
    from .poker import PokerRank

    total = 0
    wins = 0
    net = 0
    for (hand, pair), n in poker_hand_counts().items():
        odds = poker_bonus_odds(letter, PokerRank(hand, pair))
        total += n
        if odds is None:
            net -= n
        else:
            wins += n
            net += odds * n
    expected = Fraction(net, total)
    return PokerBonusFigures(letter, Fraction(wins, total), expected, -expected)


#: The simple strategy for a hand without an ace: fold when the low total is at least this,
#: by the high total (aces-high setting); any high total not listed: always play.
FOLD_LOW_FROM: Final = {
    **{high: 9 for high in range(16, 22)},
    **{high: 10 for high in range(22, 25)},
    25: 11,
    26: 12,
    27: 13,
}


@cache
def setting_values() -> dict[tuple[int, int], Fraction]:
    """P(win) - P(lose) of the Ante and Play of a setting with these (high, low) totals against
    the dealer's house way over all C(52,5) hands (card removal ignored): the chart a player
    can use to choose between aces high and one ace low."""
    t = tables()
    total = int(t.weight.sum())
    out: dict[tuple[int, int], Fraction] = {}
    for high in range(6, 34):
        for low in range(3, 21):
            win = int(t.weight[(high > t.high) & (low < t.low)].sum())
            lose = int(t.weight[(high <= t.high) & (low >= t.low)].sum())
            out[(high, low)] = Fraction(win - lose, total)
    return out


def simple_choice(counts: tuple[int, ...]) -> str:
    """The strategy in words, for a hand of value class ``counts``:

    1. With any ace, always Play. Put one ace low when the ace-low setting's (high, low) is
       worth more on the chart of :func:`setting_values` than the aces-high setting's.
    2. Without an ace, Play unless the low total reaches :data:`FOLD_LOW_FROM` for the high
       total: 9 with a high of 16-21, 10 with 22-24, 11 with 25, 12 with 26, 13 with 27.
       A high of 15 or less, or 28 or more, always plays.
    """
    t = tables()
    i = t.classes.index(counts)
    high, low = int(t.high[i]), int(t.low[i])
    if counts[ACE_CLASS] == 0:
        return Choice.FOLD if low >= FOLD_LOW_FROM.get(high, 99) else Choice.ACES_HIGH
    if t.alt_high[i] < 0:
        return Choice.ACES_HIGH
    chart = setting_values()
    alt = (int(t.alt_high[i]), int(t.alt_low[i]))
    return Choice.ACE_LOW if chart[alt] > chart[(high, low)] else Choice.ACES_HIGH


def strategy_expected(letter: str, choose: Callable[[tuple[int, ...]], str]) -> Fraction:
    """The player's exact expected net per unit Ante when playing by ``choose``."""
    t = tables()
    rows = t.weight * DEALER_HANDS
    bonus = _bonus_units(letter) * rows
    (win_h, lose_h), (win_l, lose_l) = setting_outcomes()
    total = 0
    for i, counts in enumerate(t.classes):
        choice = choose(counts)
        if choice == Choice.FOLD:
            total -= int(rows[i])
        elif choice == Choice.ACE_LOW:
            total += 2 * int(win_l[i] - lose_l[i]) + int(bonus[i])
        else:
            total += 2 * int(win_h[i] - lose_h[i]) + int(bonus[i])
    return Fraction(total, DEALS)


def report() -> dict[str, object]:
    """Every figure, as decimals (percent to four places) for people and the docs."""

    def pct(x: Fraction) -> str:
        return f"{float(x) * 100:.4f}%"

    out: dict[str, object] = {}
    for letter in ANTE_BONUS_PAYTABLES:
        a = ante_figures(letter)
        out[f"ante_bonus_{letter}"] = {
            "house_edge_per_ante": pct(a.house_edge),
            "element_of_risk": pct(a.element_of_risk),
            "play_rate": pct(a.play_rate),
            "ace_low_rate": pct(a.ace_low_rate),
            "win": pct(a.win),
            "push": pct(a.push),
            "lose": pct(a.lose),
            "fold": pct(a.fold),
        }
    for optimal in (False, True):
        tie = tie_figures(optimal)
        out["tie" + ("_optimal_ante_play" if optimal else "_house_way")] = {
            "house_edge": pct(tie.house_edge),
            "high_only": pct(tie.high_only),
            "low_only": pct(tie.low_only),
            "both": pct(tie.both),
        }
    for letter in POKER_BONUS_PAYTABLES:
        pb = poker_bonus_figures(letter)
        out[f"poker_bonus_{letter}"] = {
            "house_edge": pct(pb.house_edge),
            "win_rate": pct(pb.win_rate),
        }
    for letter in ANTE_BONUS_PAYTABLES:
        out[f"simple_strategy_{letter}_house_edge"] = pct(-strategy_expected(letter, simple_choice))
        out[f"always_play_aces_high_{letter}_house_edge"] = pct(
            -strategy_expected(letter, lambda counts: Choice.ACES_HIGH)
        )
    return out


def sampled_box_covariance(
    letter: str, rounds: int, boxes: int = 6, seed: int = 25, chunk: int = 200_000
) -> tuple[float, float]:
    """The covariance of two boxes of one round **with** card removal between them, sampled
    (seeded): ``rounds`` deals of the dealer and ``boxes`` players from one shuffled deck,
    each box at the optimal play; (estimate, its standard error). Checks what
    :func:`spread` neglects (docs/backoffice.md)."""
    t = tables()
    plays, use_low = _optimal_play(letter)
    bonus = _bonus_units(letter)
    high = np.where(use_low, t.alt_high, t.high)
    low = np.where(use_low, t.alt_low, t.low)
    radix = 6 ** np.arange(10, dtype=np.int64)
    keys = (t.counts * radix).sum(axis=1)
    order = np.argsort(keys)
    sorted_keys = keys[order]
    rank_class = np.array([min(r, 8) if r < 12 else 9 for r in range(13)], dtype=np.int64)
    # ranks 0-7 are 2-9, 8-11 ten to king (class 8), 12 the ace (class 9)
    mean = float(spread(letter).mean)
    rng = np.random.default_rng(seed)
    parts: list[npt.NDArray[np.float64]] = []
    done = 0

    def class_of(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        cls = rank_class[cards >> 2]
        counts = (cls[:, :, None] == np.arange(10)).sum(axis=1)
        out: npt.NDArray[np.int64] = order[np.searchsorted(sorted_keys, counts @ radix)]
        return out

    while done < rounds:
        n = min(chunk, rounds - done)
        deck = np.argsort(rng.random((n, 52)), axis=1)[:, : 5 * (boxes + 1)].astype(np.int64)
        j = class_of(deck[:, :5])
        dh, dl = t.high[j], t.low[j]
        total = np.zeros(n)
        squares = np.zeros(n)
        for b in range(1, boxes + 1):
            i = class_of(deck[:, 5 * b : 5 * b + 5])
            win = (high[i] > dh) & (low[i] < dl)
            lose = (high[i] <= dh) & (low[i] >= dl)
            net = np.where(plays[i], np.where(win, 2, np.where(lose, -2, 0)) + bonus[i], -1)
            total += net
            squares += net * net
        parts.append((total * total - squares) / (boxes * (boxes - 1)))
        done += n
    products = np.concatenate(parts)
    return float(products.mean()) - mean * mean, float(
        products.std(ddof=1) / np.sqrt(len(products))
    )
