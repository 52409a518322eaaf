"""Cards and the 52-card deck (§684a.3(a)).

A card is an ``int`` 0..51 inside the engine (``rank * 4 + suit``) so hand tables can be
indexed directly; :class:`Card` gives it a name. Text form is rank ``23456789TJQKA``
followed by suit ``CDHS``, e.g. ``"AS"`` for the ace of spades.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .errors import InvalidInput

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "CDHS"
#: Rank indices, 2 = 0 ... ace = 12 (§684a.6(a): ace high, suits equal).
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
RED_SUITS: Final = frozenset({DIAMONDS, HEARTS})

RANK_NAMES: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS: Final = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")

Card = int
"""A card as an int 0..51: ``rank * 4 + suit``."""

DECK: Final[tuple[Card, ...]] = tuple(range(52))
_INT_ONLY: Final = {int}


def _checked(card: object) -> int:
    """A card 0..51, or :class:`InvalidInput` (never a bool, a float or a string)."""
    if type(card) is not int or not 0 <= card < 52:
        raise InvalidInput("bad_card", f"no such card {card!r} (cards are 0 to 51)")
    return card


def rank_of(card: Card) -> int:
    return _checked(card) >> 2


def suit_of(card: Card) -> int:
    return _checked(card) & 3


def is_red(card: Card) -> bool:
    """Diamonds and hearts are red, clubs and spades black (the Prime Wager's colours)."""
    return (_checked(card) & 3) in RED_SUITS


def make_card(rank: int, suit: int) -> Card:
    if type(rank) is not int or not 0 <= rank < 13 or type(suit) is not int or not 0 <= suit < 4:
        raise InvalidInput("bad_card", f"no card of rank {rank!r} and suit {suit!r}")
    return rank * 4 + suit


def card_code(card: Card) -> str:
    """``12*4+3`` -> ``"AS"``."""
    card = _checked(card)
    return RANK_CHARS[card >> 2] + SUIT_CHARS[card & 3]


def card_label(card: Card) -> str:
    """Human label with the suit symbol, readable without colour: ``"A♠"``, ``"10♦"``."""
    card = _checked(card)
    rank = RANK_CHARS[card >> 2]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card & 3]


_CODE_TO_CARD: Final = {card_code(c): c for c in DECK}
_CODES: Final = tuple(card_code(c) for c in DECK)


def parse_card(text: object) -> Card:
    """Parse ``"AS"`` (case-insensitive) into a card; anything else is :class:`InvalidInput`."""
    if not isinstance(text, str):
        raise InvalidInput("bad_card", f"a card must be a string like 'AS', not {text!r}")
    card = _CODE_TO_CARD.get(text)
    if card is not None:
        return card
    card = _CODE_TO_CARD.get(text.strip().upper())
    if card is None:
        raise InvalidInput(
            "bad_card", f"unknown card {text!r} (rank of 23456789TJQKA then suit of CDHS)"
        )
    return card


def parse_cards(texts: object, count: int | None = None, what: str = "hand") -> list[Card]:
    """Parse a list of card codes, refusing duplicates and (when given) a wrong count."""
    if not isinstance(texts, list | tuple):
        raise InvalidInput("bad_cards", f"{what} must be a list of cards")
    try:
        # Fast path: every code exactly as printed ("AS").
        cards = list(map(_CODE_TO_CARD.__getitem__, texts))
    except (KeyError, TypeError):  # any other text, or an unhashable item: one by one
        cards = [parse_card(t) for t in texts]
    if count is not None and len(cards) != count:
        raise InvalidInput(
            "wrong_card_count", f"{what} has {len(cards)} cards, it must have {count}"
        )
    if len(set(cards)) == len(cards):
        return cards
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidInput("duplicate_card", f"duplicate card {card_code(card)} in {what}")
        seen.add(card)
    return cards


def codes(cards: Iterable[Card]) -> list[str]:
    try:
        items = cards if isinstance(cards, list | tuple) else list(cards)
        if set(map(type, items)) <= _INT_ONLY and (not items or min(items) >= 0):
            names = _CODES
            return [names[c] for c in items]
    except (TypeError, IndexError):
        pass
    raise InvalidInput("bad_cards", f"not a list of cards: {cards!r}")


def trusted_codes(cards: Sequence[Card]) -> list[str]:
    """:func:`codes` of cards the caller has already checked (ints 0..51)."""
    names = _CODES
    return [names[c] for c in cards]


def check_distinct(cards: Sequence[Card]) -> None:
    """Refuse any card that appears twice among everything dealt in one round."""
    if not isinstance(cards, list | tuple):
        raise InvalidInput("bad_cards", f"not a list of cards: {cards!r}")
    if set(map(type, cards)) <= _INT_ONLY:
        if len(set(cards)) == len(cards) and (not cards or (min(cards) >= 0 and max(cards) < 52)):
            return
    seen: set[Card] = set()
    for card in cards:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            raise InvalidInput("bad_card", f"no such card {card!r}")
        if card in seen:
            raise InvalidInput("duplicate_card", f"duplicate card {card_code(card)}")
        seen.add(card)
