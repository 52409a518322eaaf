"""Irregularities (§657a.13, §657a.5(b), §657a.10(f)) as data, the void round, and the deal.

Each irregularity has one consequence. Unlike Four Card Frenzy, Crazy 4 Poker keeps nothing
in action on a void: "all hands shall be void, all wagers shall be returned to the players"
(§657a.13(a), (c), (d), (f)), the progressive and hand-bonus wagers included, and this
round's meter increments are taken back out (CRAZY_4_POKER.md).

The dealing itself is Four Card Frenzy's virtual automated shoe (:mod:`table.games.shoe`):
stacks of five to each box from the dealer's left, then the dealer, then - if a box has a Six
Card Bonus - one more stack whose top card is the Six Card Bonus card and whose other four go
to the discard rack unseen. That is §657a.10(b) word for word.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from table.games.base import SUPERVISOR_VOID, SUPERVISOR_VOID_WORDS
from table.games.cards import Card, card_code, parse_card
from table.games.errors import InvalidInput, RuleViolation
from table.games.progressive import Increment, Meter, reverse_increment
from table.games.shoe import Deal, DealPlan, Fault
from table.games.shoe import deal as _shoe_deal
from table.games.skeleton import BETTING, CLOSED, DECISIONS, REVEALED, VoidReason, dealer_procedure

from .settlement import BoxInPlay


class Irregularity(StrEnum):
    ONE_CARD_FACE_UP = "one_card_face_up"  # §657a.13(a)
    CARDS_FACE_UP = "cards_face_up"  # §657a.13(a): more than one
    CARD_DRAWN_IN_ERROR = "card_drawn_in_error"  # §657a.13(b): face not exposed
    WRONG_CARD_COUNT = "wrong_card_count"  # §657a.13(c), §657a.10(f): a misdeal
    STUB_COUNT_WRONG = "stub_count_wrong"  # §657a.10(f): the stub counts wrong, no misdeal
    DEALER_CARD_EXPOSED = "dealer_card_exposed"  # §657a.13(d): before every box decided
    SHUFFLER_JAM = "shuffler_jam"  # §657a.13(e)
    SHUFFLER_MISCOUNT = "shuffler_miscount"  # §657a.5(b): the shuffler counts other than 52
    SHOE_JAM = "shoe_jam"  # §657a.13(f)
    DEVICE_OUT_OF_ORDER = "device_out_of_order"  # §657a.13(g)


@dataclass(frozen=True, slots=True)
class Consequence:
    section: str
    void: bool = False  # all hands void, every wager returned, meter increments reversed
    reshuffle: bool = False
    remove_deck: bool = False  # the deck leaves the table
    discard_card: bool = False  # the card is not used and goes to the discard rack
    use_as_next_card: bool = False
    reshuffle_with_dealt: bool = False  # the device's cards with any cards already dealt
    mark_out_of_order: bool = False  # covered or signed before any other method is used
    #: What the dealer does, in the regulation's words (the sentence of ``section`` that says it).
    words: str = ""


_I = Irregularity
CONSEQUENCES: Final[Mapping[Irregularity, Consequence]] = {
    _I.ONE_CARD_FACE_UP: Consequence(
        "§657a.13(a)",
        discard_card=True,
        words="A card that is found face up in the shoe or the deck while the cards are being "
        "dealt may not be used in that round of play and shall be placed in the discard rack.",
    ),
    _I.CARDS_FACE_UP: Consequence(
        "§657a.13(a)",
        void=True,
        reshuffle=True,
        words="If more than one card is found face up in the shoe or the deck during the "
        "dealing of the cards, all hands shall be void, all wagers shall be returned to the "
        "players and the cards shall be reshuffled.",
    ),
    _I.CARD_DRAWN_IN_ERROR: Consequence(
        "§657a.13(b)",
        use_as_next_card=True,
        words="A card drawn in error without its face being exposed shall be used as though it "
        "were the next card from the shoe or the deck.",
    ),
    _I.WRONG_CARD_COUNT: Consequence(
        "§657a.13(c)",
        void=True,
        reshuffle=True,
        words="If any player or the dealer is dealt an incorrect number of cards, all hands "
        "shall be void, all wagers shall be returned to the players and the cards shall be "
        "reshuffled.",
    ),
    _I.STUB_COUNT_WRONG: Consequence(
        "§657a.10(f)",
        void=True,
        remove_deck=True,
        words="If the cards were not misdealt, all hands shall be void, all wagers shall be "
        "returned to the players and the entire deck of cards shall be removed from the table.",
    ),
    _I.DEALER_CARD_EXPOSED: Consequence(
        "§657a.13(d)",
        void=True,
        reshuffle=True,
        words="If any of the dealer's cards are inadvertently exposed prior to each player "
        "having either folded or placed a Play Wager as provided under § 657a.11 (relating to "
        "procedures for completion of each round of play), all hands shall be void, all "
        "wagers shall be returned to the players and the cards shall be reshuffled.",
    ),
    _I.SHUFFLER_JAM: Consequence(
        "§657a.13(e)",
        reshuffle=True,
        words="If an automated card shuffling device is being used and the device jams, stops "
        "shuffling during a shuffle or fails to complete a shuffle cycle, the cards shall be "
        "reshuffled.",
    ),
    _I.SHUFFLER_MISCOUNT: Consequence(
        "§657a.5(b)",
        remove_deck=True,
        words="If an automated card shuffling device is being used, which counts the number of "
        "cards in the deck after the completion of each shuffle and indicates whether 52 "
        "cards are present, and the device reveals that an incorrect number of cards are "
        "present, the deck shall be removed from the table.",
    ),
    _I.SHOE_JAM: Consequence(
        "§657a.13(f)",
        void=True,
        reshuffle=True,
        reshuffle_with_dealt=True,
        words="If an automated dealing shoe is being used and the device jams, stops dealing "
        "cards or fails to deal cards during a round of play, the round of play shall be "
        "void, all wagers shall be returned to the players and the cards shall be removed "
        "from the device and reshuffled with any cards already dealt.",
    ),
    _I.DEVICE_OUT_OF_ORDER: Consequence(
        "§657a.13(g)",
        mark_out_of_order=True,
        words="If an automated card shuffling device or automated dealing shoe malfunctions "
        "and cannot be used, the automated card shuffling device or automated dealing shoe "
        "shall be covered or have a sign indicating that the automated card shuffling device "
        "or automated dealing shoe is out of order placed on the device before any other "
        "method of shuffling or dealing may be utilized at that table.",
    ),
}

#: What each fault the virtual shoe can be told to make is, under §657a.13.
FROM_SHOE_FAULT: Final[Mapping[Fault, Irregularity]] = {
    Fault.JAM: Irregularity.SHOE_JAM,
    Fault.FACE_UP_CARD: Irregularity.ONE_CARD_FACE_UP,
    Fault.TWO_FACE_UP_CARDS: Irregularity.CARDS_FACE_UP,
    Fault.MISDEAL: Irregularity.WRONG_CARD_COUNT,
    Fault.MISCOUNT: Irregularity.SHUFFLER_MISCOUNT,
}
#: The shoe's ``Deal.irregularity`` words.
FROM_DEAL: Final[Mapping[str, Irregularity]] = {
    "shoe_jam": Irregularity.SHOE_JAM,
    "face_up_cards": Irregularity.CARDS_FACE_UP,
    "wrong_card_count": Irregularity.WRONG_CARD_COUNT,
}


def consequence(irregularity: Irregularity) -> Consequence:
    return CONSEQUENCES[Irregularity(irregularity)]


def procedure(irregularity: Irregularity) -> dict[str, Any]:
    """What the dealer does with the cards and the deck (§657a.13, §657a.10(f)), with the
    regulation's words, as Four Card Frenzy's and Five Card Hi-Lo's procedures say it."""
    return dealer_procedure(consequence(irregularity))


#: Why a round may be voided, and the phases in which it may be voided for each. No phases:
#: only the virtual shoe produces it, while dealing, and :meth:`.round.Round.deal` then voids the
#: round with what it found (as in Four Card Frenzy, no deal irregularity is taken on trust).
VOID_REASONS: Final[Mapping[str, VoidReason]] = {
    Irregularity.CARDS_FACE_UP.value: VoidReason(
        "more than one card was found face up in the shoe while dealing (§657a.13(a))",
        (),
        Irregularity.CARDS_FACE_UP,
    ),
    Irregularity.SHOE_JAM.value: VoidReason(
        "the dealing shoe jammed or failed to deal all cards (§657a.13(f))",
        (),
        Irregularity.SHOE_JAM,
    ),
    Irregularity.WRONG_CARD_COUNT.value: VoidReason(
        "a box or the dealer was dealt a wrong number of cards (§657a.13(c), §657a.10(f))",
        (),
        Irregularity.WRONG_CARD_COUNT,
    ),
    # §657a.10(c)-(f): the stub is counted once the stacks are dispensed; counted, not trusted.
    Irregularity.STUB_COUNT_WRONG.value: VoidReason(
        "the stub count shows the deck is not 52 cards; the deck leaves the table (§657a.10(f))",
        (DECISIONS,),
        Irregularity.STUB_COUNT_WRONG,
        counted=True,
    ),
    # §657a.13(d): only before every box has played or folded.
    Irregularity.DEALER_CARD_EXPOSED.value: VoidReason(
        "a dealer card was exposed before every box had played or folded (§657a.13(d)): "
        "every wager is returned, side bets included",
        (DECISIONS,),
        Irregularity.DEALER_CARD_EXPOSED,
    ),
    "table_closed": VoidReason("the table closed before the round was dealt", (BETTING,)),
    "server_restart": VoidReason(
        "the round could not resume after an interruption",
        (BETTING, CLOSED, DECISIONS),
    ),
    SUPERVISOR_VOID: VoidReason(SUPERVISOR_VOID_WORDS, (BETTING, CLOSED, DECISIONS, REVEALED)),
}


def refuse_not_void(reason: object) -> None:
    """Refuse an irregularity of the chapter that does not void the round, in its words."""
    if isinstance(reason, str) and reason in {i.value for i in Irregularity}:
        raise RuleViolation(
            "not_void",
            f"{reason.replace('_', ' ')} does not void the round "
            f"({CONSEQUENCES[Irregularity(reason)].section})",
        )


def exposure_evidence(evidence: object, to_act: int | None, dealer_cards: Sequence[Card]) -> object:
    """An exposed dealer card's evidence, checked: only before every box has decided, and a
    card named must be one of the dealer's (§657a.13(d))."""
    if to_act is None:
        # §657a.13(d) voids only an exposure "prior to each player having either folded or
        # placed a Play Wager": with every decision made, the hand stands.
        raise RuleViolation(
            "decisions_complete",
            "every box has decided: an exposed dealer card changes nothing; reveal the hand",
        )
    if isinstance(evidence, dict) and "card" in evidence:
        # The card the dealer saw must be one of the dealer's: a card named that is not
        # exposed nothing (and the console never shows the dealer's hand).
        seen = parse_card(evidence["card"])
        if seen not in dealer_cards:
            raise RuleViolation(
                "not_dealer_card",
                f"{card_code(seen)} is not one of the dealer's cards: no dealer card "
                "was exposed (§657a.13(d))",
            )
        return {**evidence, "card": card_code(seen)}
    return evidence


def dealer_card_exposed(decided_boxes: int, boxes: int) -> Irregularity | None:
    """A dealer card seen before every box played or folded voids the round (§657a.13(d));
    after that it changes nothing."""
    return Irregularity.DEALER_CARD_EXPOSED if decided_boxes < boxes else None


def deal(
    order: Sequence[Card], boxes: int, six_card_bonus: bool, plan: DealPlan | None = None
) -> Deal:
    """§657a.10(b) from a shuffled deck; ``Deal.shared_card`` is the Six Card Bonus card."""
    return _shoe_deal(order, boxes, six_card_bonus, plan)


@dataclass(frozen=True, slots=True)
class VoidRound:
    """A void round: every stake goes back, and the meters lose this round's increments."""

    irregularity: Irregularity
    returned: Mapping[int, int]  # box -> every cent it staked
    meters: Mapping[str, Meter]

    @property
    def nets(self) -> dict[int, int]:
        return dict.fromkeys(self.returned, 0)


def void_round(
    irregularity: Irregularity,
    boxes: Sequence[BoxInPlay],
    meters_now: Mapping[str, Meter],
    increments: Mapping[str, Increment],
) -> VoidRound:
    """Void the round for ``irregularity`` (which must be one that voids)."""
    irregularity = Irregularity(irregularity)
    if not CONSEQUENCES[irregularity].void:
        raise InvalidInput(
            "not_void",
            f"{irregularity.value} does not void the round ({consequence(irregularity).section})",
        )
    if set(increments) != set(meters_now):
        raise InvalidInput("bad_meters", "the increments must name exactly the table's meters")
    return VoidRound(
        irregularity,
        {b.box: b.wagers.total for b in boxes},
        {name: reverse_increment(m, increments[name]) for name, m in meters_now.items()},
    )
