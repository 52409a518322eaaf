"""Point values and setting the hands (§663a.1, §663a.6(a), §663a.11(d), (e)).

Five cards are set into a three-card high hand and a two-card low hand; a hand's value is the
total of its points, and hands are compared only by totals. This module answers, for the felt
and for settlement: what a card is worth, which settings a player may choose (at most two
distinct ones: whether one ace goes low), whether a setting the player made is legal, the
default when the setting times out (aces high) and the dealer's house way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from table.games.cards import ACE, Card, card_code, check_distinct, codes, parse_card
from table.games.errors import InvalidInput, RuleViolation

#: §663a.6(a): 2-9 their pips; 10, J, Q, K count 10; an ace 11 in the high hand ...
HIGH_POINTS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)
#: ... and 1 in the low hand.
LOW_POINTS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)

HIGH_SIZE: Final = 3
LOW_SIZE: Final = 2


def high_points(card: Card) -> int:
    """What ``card`` is worth in the high hand (§663a.6(a))."""
    return HIGH_POINTS[card >> 2]


def low_points(card: Card) -> int:
    """What ``card`` is worth in the low hand (§663a.6(a): an ace counts 1 there)."""
    return LOW_POINTS[card >> 2]


def is_ace(card: Card) -> bool:
    return card >> 2 == ACE


@dataclass(frozen=True, slots=True)
class Setting:
    """Five cards set as a high hand of three and a low hand of two, with their totals."""

    high: tuple[Card, ...]
    low: tuple[Card, ...]
    high_total: int
    low_total: int

    @classmethod
    def of(cls, high: Sequence[Card], low: Sequence[Card]) -> Setting:
        """Totals the hands as given; legality is :func:`setting_problem`'s business."""
        return cls(
            tuple(high),
            tuple(low),
            sum(HIGH_POINTS[c >> 2] for c in high),
            sum(LOW_POINTS[c >> 2] for c in low),
        )

    @property
    def ace_low(self) -> bool:
        return any(is_ace(c) for c in self.low)

    @property
    def totals(self) -> tuple[int, int]:
        return self.high_total, self.low_total


def _by_value(cards: Sequence[Card]) -> list[Card]:
    """Highest value first (ace 11); equal values keep their dealt order."""
    return sorted(cards, key=lambda c: -HIGH_POINTS[c >> 2])


def _three_high(cards: Sequence[Card]) -> Setting:
    ordered = _by_value(cards)
    low = sorted(ordered[HIGH_SIZE:], key=lambda c: -LOW_POINTS[c >> 2])
    return Setting.of(ordered[:HIGH_SIZE], low)


def aces_high_setting(cards: Sequence[Card]) -> Setting:
    """The three higher values high, the two lower low, every ace high that fits (§663a.11(d)).

    With four aces the three highest are aces and the fourth goes low with the fifth card,
    where it counts 1 (A-A-A-A-2: 33 / 3); with fewer aces none goes low.
    """
    return _three_high(cards)


def ace_low_setting(cards: Sequence[Card]) -> Setting | None:
    """One ace low, the three higher of the other four high, the lowest of them with the ace
    (§663a.11(d): "may place up to one ace in his low hand"); None unless 1-3 aces, since
    with none there is no ace to move and with four the aces-high setting already has one low.
    """
    aces = [c for c in cards if is_ace(c)]
    if not 1 <= len(aces) <= 3:
        return None
    ace = aces[-1]
    rest = _by_value([c for c in cards if c != ace])
    return Setting.of(rest[:HIGH_SIZE], (rest[HIGH_SIZE], ace))


def possible_settings(cards: Sequence[Card]) -> tuple[Setting, ...]:
    """Every distinct legal setting of a five-card hand, by totals: aces high first (the
    default), then one ace low when the hand has one to three aces. At most two (§663a.11(d):
    the only choice is whether an ace goes low; equal-valued cards are interchangeable)."""
    _check_hand(cards)
    first = aces_high_setting(cards)
    second = ace_low_setting(cards)
    if second is None or second.totals == first.totals:
        return (first,)
    return first, second


def choose_setting(cards: Sequence[Card], ace_low: bool) -> Setting:
    """The setting the player picked on the felt: aces high, or one ace low (§663a.11(d)).
    Asking for an ace low when the hand offers no such choice is :class:`RuleViolation`."""
    offered = possible_settings(cards)
    if not ace_low:
        return offered[0]
    if len(offered) < 2:
        raise RuleViolation(
            "no_ace_low_setting",
            "this hand has no other setting: an ace low needs one to three aces",
        )
    return offered[1]


def default_setting(cards: Sequence[Card]) -> Setting:
    """The setting of a player whose time runs out: aces high. The product never moves an ace
    low on a player's behalf (house rule; the regulation leaves time-outs open)."""
    _check_hand(cards)
    return aces_high_setting(cards)


def house_way(cards: Sequence[Card]) -> Setting:
    """The dealer's setting (§663a.11(e)): aces always high "unless the dealer was dealt four
    aces", the three higher values high and the two lower low (house interpretation 4). With
    four aces: A-A-A high (33), the fourth ace low with the fifth card (A-A-A-A-9: 33 / 10)."""
    _check_hand(cards)
    return _three_high(cards)


def _check_hand(cards: Sequence[Card]) -> None:
    if not isinstance(cards, list | tuple) or len(cards) != 5:
        raise InvalidInput("wrong_card_count", "a hand is five cards")
    check_distinct(cards)


def setting_problem(
    cards: Sequence[Card], high: Sequence[Card], low: Sequence[Card]
) -> tuple[str, str] | None:
    """Why ``high``/``low`` is not a legal setting of ``cards`` (code, plain words), or None.

    §663a.11(d): "the three higher value cards in the high hand and the two lower value cards
    in the low hand, provided that a player may place up to one ace in his low hand". So a
    setting is legal exactly when: three cards high, two low, together the five dealt; at most
    one ace low; and no non-ace card low is worth more than any card high (an ace high is
    worth 11). Equal values are interchangeable, so every setting passing this is accepted.
    """
    if len(high) != HIGH_SIZE:
        return "bad_setting", f"the high hand must have 3 cards, not {len(high)}"
    if len(low) != LOW_SIZE:
        return "bad_setting", f"the low hand must have 2 cards, not {len(low)}"
    dealt = set(cards)
    for card in (*high, *low):
        if card not in dealt:
            return "bad_setting", f"{card_code(card)} in the setting is not one of the box's cards"
    if len(set(high) | set(low)) != 5:
        both = [*high, *low]
        twice = next(c for c in both if both.count(c) > 1)
        return "bad_setting", f"{card_code(twice)} is set twice"
    if sum(1 for c in low if is_ace(c)) > 1:
        return "illegal_setting", "two aces in the low hand"  # §663a.11(d): up to one ace
    lowest_high = min(high, key=lambda c: HIGH_POINTS[c >> 2])
    for card in low:
        if not is_ace(card) and HIGH_POINTS[card >> 2] > HIGH_POINTS[lowest_high >> 2]:
            return (
                "illegal_setting",
                f"{card_code(card)} in the low hand is worth more than "
                f"{card_code(lowest_high)} in the high hand",
            )
    return None


def set_hands(cards: Sequence[Card], high: Sequence[Card], low: Sequence[Card]) -> Setting:
    """The player's setting, or :class:`RuleViolation` when §663a.11(d) forbids it."""
    _check_hand(cards)
    for part in (high, low):
        if not isinstance(part, list | tuple):
            raise InvalidInput("bad_setting", "a setting is two lists of cards")
    problem = setting_problem(cards, high, low)
    if problem is not None:
        raise RuleViolation(*problem)
    return Setting.of(high, low)


def setting_json(setting: Setting) -> dict[str, Any]:
    return {
        "high": codes(setting.high),
        "low": codes(setting.low),
        "high_total": setting.high_total,
        "low_total": setting.low_total,
        "ace_low": setting.ace_low,
    }


def offered_settings(cards: Sequence[Card]) -> list[dict[str, Any]]:
    """The settings the felt offers (§663a.11(d)): aces high, and one ace low when the hand
    has that choice, each with its totals."""
    return [setting_json(s) for s in possible_settings(cards)]


def cards_given(value: object, what: str) -> list[Card]:
    """A hand as the player sends it: card codes ("AS") or cards 0..51."""
    if not isinstance(value, list | tuple):
        raise InvalidInput("bad_setting", f"{what} must be a list of cards")
    out: list[Card] = []
    for item in value:
        if isinstance(item, str):
            out.append(parse_card(item))
        elif type(item) is int and 0 <= item < 52:
            out.append(item)
        else:
            raise InvalidInput("bad_card", f"no such card {item!r} in {what}")
    return out
