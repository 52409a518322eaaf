"""Four Card Frenzy's irregularities (§684a.13, §684a.5(b), §684a.10(f)) as data: what each
one makes the dealer do with the wagers, the cards and the deck, in the regulation's words.

A void of the round (the skeleton's ``voided``) sends the dealer its ``irregularity_procedure``
from these consequences, as Crazy 4 Poker's and Five Card Hi-Lo's do; a dealer card exposed
before every Raise (§684a.13(d)) is not a void of the round but of its main game (the optional
wagers are settled), and sends the same procedure (:func:`procedure`). Pure data: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from table.games.skeleton import dealer_procedure


class Irregularity(StrEnum):
    ONE_CARD_FACE_UP = "one_card_face_up"  # §684a.13(a), first sentence
    CARDS_FACE_UP = "face_up_cards"  # §684a.13(a): more than one
    CARD_DRAWN_IN_ERROR = "card_drawn_in_error"  # §684a.13(b): its face not exposed
    WRONG_CARD_COUNT = "wrong_card_count"  # §684a.13(c): a player or the dealer
    DEALER_CARD_EXPOSED = "dealer_card_exposed"  # §684a.13(d): before every Raise
    SHUFFLER_JAM = "shuffler_jam"  # §684a.13(e)
    SHOE_JAM = "shoe_jam"  # §684a.13(f)
    DEVICE_OUT_OF_ORDER = "device_out_of_order"  # §684a.13(g)
    SHUFFLER_MISCOUNT = "shuffler_miscount"  # §684a.5(b): the shuffler counts other than 52
    STUB_MISCOUNT = "stub_miscount"  # §684a.10(f): the stub counts wrong, nothing misdealt


@dataclass(frozen=True, slots=True)
class Consequence:
    section: str
    void: bool = False  # all hands void, all wagers returned
    #: §684a.13(d): the main game alone is void (Ante, Odds and Raise returned); the optional
    #: wagers are settled.
    main_game_void: bool = False
    reshuffle: bool = False
    remove_deck: bool = False  # the deck (the entire deck) leaves the table
    discard_card: bool = False  # the card is not used and goes to the discard rack
    use_as_next_card: bool = False
    reshuffle_with_dealt: bool = False  # the shoe's cards with those already dealt
    mark_out_of_order: bool = False  # covered or signed before any other method is used
    #: What the dealer does, in the regulation's words.
    words: str = ""


_I = Irregularity
CONSEQUENCES: Final = MappingProxyType(
    {
        _I.ONE_CARD_FACE_UP: Consequence(
            "§684a.13(a)",
            discard_card=True,
            words="a card found face up in the shoe may not be used in that round and is "
            "placed in the discard rack; dealing goes on",
        ),
        _I.CARDS_FACE_UP: Consequence(
            "§684a.13(a)",
            void=True,
            reshuffle=True,
            words="more than one card found face up in the shoe: all hands void, all wagers "
            "returned to the players, the cards reshuffled",
        ),
        _I.CARD_DRAWN_IN_ERROR: Consequence(
            "§684a.13(b)",
            use_as_next_card=True,
            words="a card drawn in error without its face exposed is used as though it were "
            "the next card from the shoe",
        ),
        _I.WRONG_CARD_COUNT: Consequence(
            "§684a.13(c)",
            void=True,
            reshuffle=True,
            words="a player or the dealer was dealt an incorrect number of cards: all hands "
            "void, all wagers returned to the players, the cards reshuffled",
        ),
        _I.DEALER_CARD_EXPOSED: Consequence(
            "§684a.13(d)",
            main_game_void=True,
            reshuffle=True,
            words="a dealer card was exposed before the players placed their Raise Wagers: all "
            "hands void, all Ante, Odds and Raise Wagers returned to the players, the cards "
            "reshuffled; Prime, Four Card Bonus and All-Six Bonus Wagers are settled",
        ),
        _I.SHUFFLER_JAM: Consequence(
            "§684a.13(e)",
            reshuffle=True,
            words="the shuffling device jammed, stopped or failed to complete a shuffle "
            "cycle: the cards are reshuffled",
        ),
        _I.SHOE_JAM: Consequence(
            "§684a.13(f)",
            void=True,
            reshuffle=True,
            reshuffle_with_dealt=True,
            words="the dealing shoe jammed, stopped dealing or failed to deal all cards: the "
            "round is void, all wagers returned to the players, the cards removed from the "
            "shoe and reshuffled with any cards already dealt",
        ),
        _I.DEVICE_OUT_OF_ORDER: Consequence(
            "§684a.13(g)",
            mark_out_of_order=True,
            words="the device malfunctioned and cannot be used: it is covered or signed out "
            "of order before any other method of shuffling or dealing is used",
        ),
        _I.SHUFFLER_MISCOUNT: Consequence(
            "§684a.5(b)",
            remove_deck=True,
            words="the shuffling device counted other than 52 cards: the deck is removed "
            "from the table",
        ),
        _I.STUB_MISCOUNT: Consequence(
            "§684a.10(f)",
            void=True,
            remove_deck=True,
            words="the stub count shows the deck is not 52 cards and nothing was misdealt: "
            "all hands void, all wagers returned to the players, the entire deck removed "
            "from the table",
        ),
    }
)


def consequence(irregularity: Irregularity) -> Consequence:
    return CONSEQUENCES[Irregularity(irregularity)]


def procedure(irregularity: Irregularity) -> dict[str, Any]:
    """What the dealer does with the cards and the deck (§684a.13, §684a.10(f)), as Crazy 4
    Poker's and Five Card Hi-Lo's procedures say it, with the regulation's words."""
    return dealer_procedure(consequence(irregularity))
