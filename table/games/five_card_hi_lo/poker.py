"""Five-card poker ranks for the Poker Bonus Wager (§663a.6(b)).

The ranks decide only the Poker Bonus: the player's five cards as dealt, whatever the setting
(§663a.11(j)(2): the dealer rearranges them into the best poker hand).

Evaluation is two table lookups: a hand's rank counts are packed into one int (three bits per
rank, so the key does not depend on the cards' order) and looked up in a table of the 6,175
rank multisets built at import; five cards of one suit look in the flush table instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations_with_replacement
from typing import Final

from table.games.cards import ACE, Card, check_distinct
from table.games.errors import InvalidInput


class PokerHand(StrEnum):
    """§663a.6(b)(1)-(9), high to low, and the hands that pay nothing."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"


@dataclass(frozen=True, slots=True)
class PokerRank:
    """A hand's poker rank; ``pair_rank`` (2 = 0 ... ace = 12) only for one pair, because
    the pay line is "a pair of 7s or better" / "6s or better" (§663a.6(b)(9))."""

    hand: PokerHand
    pair_rank: int | None = None


_WHEEL: Final = frozenset({ACE, 0, 1, 2, 3})  # A-2-3-4-5 (§663a.6(b)(2), (6))
_BROADWAY_LOW: Final = 8  # 10-J-Q-K-A starts at the ten


def _key(ranks: Sequence[int]) -> int:
    return sum(1 << (3 * r) for r in ranks)


def _is_straight(ranks: Sequence[int]) -> bool:
    """Five consecutive ranks; the ace ends 10-J-Q-K-A or starts A-2-3-4-5, and never wraps
    (Q-K-A-2-3 is no straight, §663a.6(b)(2), (6))."""
    distinct = set(ranks)
    if len(distinct) != 5:
        return False
    return max(distinct) - min(distinct) == 4 or distinct == _WHEEL


def _classify(ranks: Sequence[int], flush: bool) -> PokerRank:
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    straight = _is_straight(ranks)
    if flush and straight:
        if min(ranks) == _BROADWAY_LOW:
            return PokerRank(PokerHand.ROYAL_FLUSH)
        return PokerRank(PokerHand.STRAIGHT_FLUSH)
    if counts[0] == 4:
        return PokerRank(PokerHand.FOUR_OF_A_KIND)
    if counts[:2] == [3, 2]:
        return PokerRank(PokerHand.FULL_HOUSE)
    if flush:
        return PokerRank(PokerHand.FLUSH)
    if straight:
        return PokerRank(PokerHand.STRAIGHT)
    if counts[0] == 3:
        return PokerRank(PokerHand.THREE_OF_A_KIND)
    if counts[:2] == [2, 2]:
        return PokerRank(PokerHand.TWO_PAIR)
    if counts[0] == 2:
        pair = next(r for r in set(ranks) if ranks.count(r) == 2)
        return PokerRank(PokerHand.PAIR, pair)
    return PokerRank(PokerHand.HIGH_CARD)


def _tables() -> tuple[dict[int, PokerRank], dict[int, PokerRank]]:
    plain: dict[int, PokerRank] = {}
    flush: dict[int, PokerRank] = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in ranks) > 4:
            continue  # five of a rank: not in one deck
        key = _key(ranks)
        plain[key] = _classify(ranks, flush=False)
        if len(set(ranks)) == 5:
            flush[key] = _classify(ranks, flush=True)
    return plain, flush


_PLAIN, _FLUSH = _tables()


def poker_rank_trusted(cards: Sequence[Card]) -> PokerRank:
    """:func:`poker_rank` of five distinct cards 0..51 the caller has already checked."""
    c0, c1, c2, c3, c4 = cards
    key = (1 << 3 * (c0 >> 2)) + (1 << 3 * (c1 >> 2)) + (1 << 3 * (c2 >> 2))
    key += (1 << 3 * (c3 >> 2)) + (1 << 3 * (c4 >> 2))
    suit = c0 & 3
    if suit == c1 & 3 == c2 & 3 == c3 & 3 == c4 & 3:
        return _FLUSH[key]
    return _PLAIN[key]


def poker_rank(cards: Sequence[Card]) -> PokerRank:
    """The best five-card poker rank of the player's five cards (§663a.6(b))."""
    if not isinstance(cards, list | tuple) or len(cards) != 5:
        raise InvalidInput("wrong_card_count", "a poker hand is five cards")
    check_distinct(cards)
    return poker_rank_trusted(cards)
