"""The payouts of §663a.12 as data, and the one rule that turns "X for 1" into money.

Payout odds are integers: "X to 1" wins X times the stake and the stake comes back; the Ante
Bonus "X for 1" has no stake of its own (house interpretation 1, :func:`ante_bonus_payout`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from table.games.cards import ACE, TWO, Card
from table.games.errors import InvalidInput

from .poker import PokerHand, PokerRank

#: §663a.12(a): Ante and Play 1 to 1.
ANTE_PLAY_ODDS: Final = 1


class AnteBonusHand(StrEnum):
    """§663a.11(h), §663a.12(b): the hands with three or more aces."""

    FOUR_ACES_AND_2 = "four_aces_and_2"
    FOUR_ACES = "four_aces"
    THREE_ACES = "three_aces"


def _frozen(
    table: Mapping[str, Mapping[AnteBonusHand, int]],
) -> Mapping[str, Mapping[AnteBonusHand, int]]:
    return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in table.items()})


_A2, _A4, _A3 = AnteBonusHand
#: §663a.12(b): "X for 1" by paytable letter (the Rules Submission chooses one).
ANTE_BONUS_PAYTABLES: Final = _frozen(
    {
        "A": {_A2: 1000, _A4: 100, _A3: 10},
        "B": {_A2: 500, _A4: 50, _A3: 5},
        "C": {_A2: 200, _A4: 50, _A3: 5},
        "D": {_A2: 100, _A4: 50, _A3: 5},
    }
)


def ante_bonus_hand(cards: Sequence[Card]) -> AnteBonusHand | None:
    """The highest Ante Bonus row the five cards make, or None (§663a.11(h): three or more
    aces). Only the highest row applies: four aces and a 2 is not also "four aces"."""
    aces = sum(1 for c in cards if c >> 2 == ACE)
    if aces == 4:
        if any(c >> 2 == TWO for c in cards):
            return AnteBonusHand.FOUR_ACES_AND_2
        return AnteBonusHand.FOUR_ACES
    if aces == 3:
        return AnteBonusHand.THREE_ACES
    return None


def ante_bonus_payout(ante: int, for_one: int) -> int:
    """The Ante Bonus paid on an Ante of ``ante`` cents at "``for_one`` for 1" (§663a.12(b)).

    House interpretation 1: "X for 1" hands over X per unit of the Ante, on top of whatever
    §663a.11(g) does with the Ante itself (PA writes "for 1" where no stake comes back with
    the payout). The other reading, "(X - 1) to 1", would be ``ante * (for_one - 1)``.
    """
    return ante * for_one


def ante_bonus_odds(letter: str, hand: AnteBonusHand) -> int:
    return ANTE_BONUS_PAYTABLES[ante_bonus_letter(letter)][hand]


def ante_bonus_letter(letter: object) -> str:
    if not isinstance(letter, str) or letter not in ANTE_BONUS_PAYTABLES:
        raise InvalidInput(
            "unknown_paytable", f"unknown Ante Bonus paytable {letter!r} (A, B, C or D)"
        )
    return letter


class TieHand(StrEnum):
    """§663a.12(c), like with like (house interpretation 3)."""

    BOTH = "both_tie"
    HIGH = "high_tie"
    LOW = "low_tie"


#: §663a.12(c): "X to 1". Both hands tying pay 20, not 4 + 4.
TIE_ODDS: Final = MappingProxyType({TieHand.BOTH: 20, TieHand.HIGH: 4, TieHand.LOW: 4})


def tie_hand(
    player_high: int, player_low: int, dealer_high: int, dealer_low: int
) -> TieHand | None:
    """§663a.11(j)(1): the player's high total against the dealer's high, low against low."""
    high = player_high == dealer_high
    low = player_low == dealer_low
    if high and low:
        return TieHand.BOTH
    if high:
        return TieHand.HIGH
    if low:
        return TieHand.LOW
    return None


_PH = PokerHand
#: §663a.12(d): "X to 1" by paytable letter; one pair pays only from ``min_pair``.
POKER_BONUS_PAYTABLES: Final = MappingProxyType(
    {
        "A": MappingProxyType(
            {
                _PH.ROYAL_FLUSH: 250,
                _PH.STRAIGHT_FLUSH: 50,
                _PH.FOUR_OF_A_KIND: 25,
                _PH.FULL_HOUSE: 15,
                _PH.FLUSH: 10,
                _PH.STRAIGHT: 8,
                _PH.THREE_OF_A_KIND: 5,
                _PH.TWO_PAIR: 3,
                _PH.PAIR: 1,
            }
        ),
        "B": MappingProxyType(
            {
                _PH.ROYAL_FLUSH: 500,
                _PH.STRAIGHT_FLUSH: 100,
                _PH.FOUR_OF_A_KIND: 40,
                _PH.FULL_HOUSE: 15,
                _PH.FLUSH: 8,
                _PH.STRAIGHT: 6,
                _PH.THREE_OF_A_KIND: 4,
                _PH.TWO_PAIR: 3,
                _PH.PAIR: 1,
            }
        ),
    }
)
#: §663a.6(b)(9), §663a.12(d): "pair of 7s or better" (A), "pair of 6s or better" (B).
POKER_BONUS_MIN_PAIR: Final = MappingProxyType({"A": 5, "B": 4})  # rank indices: 2 = 0


def poker_bonus_letter(letter: object) -> str:
    if not isinstance(letter, str) or letter not in POKER_BONUS_PAYTABLES:
        raise InvalidInput("unknown_paytable", f"unknown Poker Bonus paytable {letter!r} (A or B)")
    return letter


def poker_bonus_odds(letter: str, rank: PokerRank) -> int | None:
    """The "to 1" odds ``rank`` wins on Poker Bonus paytable ``letter``, or None: it loses."""
    letter = poker_bonus_letter(letter)
    if rank.hand is PokerHand.PAIR:
        if rank.pair_rank is None or rank.pair_rank < POKER_BONUS_MIN_PAIR[letter]:
            return None
    return POKER_BONUS_PAYTABLES[letter].get(rank.hand)
