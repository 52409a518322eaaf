"""Irregularities (§663a.13, §663a.5(b), §663a.10(d)-(f)) as data, and the virtual shoe's deal.

Each irregularity maps to a :class:`Consequence`: whether the round is void (every wager
returned), whether the cards are reshuffled, whether the deck leaves the table, and so on.
Unlike ch. 684a there is no rule for a dealer card exposed early. A void round loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final

from table.games.base import SUPERVISOR_VOID, SUPERVISOR_VOID_WORDS
from table.games.cards import DECK, Card
from table.games.errors import InvalidInput, RuleViolation
from table.games.setting import SETTING
from table.games.shoe import Deal, DealingPlan, DealPlan, deal, dispense
from table.games.skeleton import BETTING, CLOSED, DECISIONS, REVEALED, VoidReason, dealer_procedure

from .settlement import BoxInPlay

DECK_SIZE: Final = len(DECK)


class Irregularity(StrEnum):
    ONE_CARD_FACE_UP = "one_card_face_up"  # §663a.13(a), first sentence
    CARDS_FACE_UP = "cards_face_up"  # §663a.13(a): more than one
    CARD_DRAWN_IN_ERROR = "card_drawn_in_error"  # §663a.13(b): unexposed
    WRONG_CARD_COUNT = "wrong_card_count"  # §663a.13(c): a box or the dealer
    SHUFFLER_JAM = "shuffler_jam"  # §663a.13(d)
    SHOE_JAM = "shoe_jam"  # §663a.13(e)
    DEVICE_OUT_OF_ORDER = "device_out_of_order"  # §663a.13(f)
    SHUFFLER_MISCOUNT = "shuffler_miscount"  # §663a.5(b): a counting shuffler counts not 52
    STUB_MISCOUNT_MISDEALT = "stub_miscount_misdealt"  # §663a.10(f): a misdeal, 52 in the deck
    STUB_MISCOUNT = "stub_miscount"  # §663a.10(f): not misdealt, the count is wrong


@dataclass(frozen=True, slots=True)
class Consequence:
    section: str
    void: bool = False  # all hands void, all wagers returned
    reshuffle: bool = False
    remove_deck: bool = False  # the entire deck leaves the table
    discard_card: bool = False  # the card is not used and goes to the discard rack
    use_as_next_card: bool = False
    reshuffle_with_dealt: bool = False  # the device's cards and those already dealt
    mark_out_of_order: bool = False  # before any other method of shuffling or dealing
    words: str = ""


_I = Irregularity
CONSEQUENCES: Final = MappingProxyType(
    {
        _I.ONE_CARD_FACE_UP: Consequence(
            "§663a.13(a)",
            discard_card=True,
            words="the card found face up is not used and goes to the discard rack; "
            "dealing goes on",
        ),
        _I.CARDS_FACE_UP: Consequence(
            "§663a.13(a)",
            void=True,
            reshuffle=True,
            words="more than one card found face up: all hands void, all wagers returned, "
            "the cards reshuffled",
        ),
        _I.CARD_DRAWN_IN_ERROR: Consequence(
            "§663a.13(b)",
            use_as_next_card=True,
            words="a card drawn in error without its face exposed is used as the next card",
        ),
        _I.WRONG_CARD_COUNT: Consequence(
            "§663a.13(c)",
            void=True,
            reshuffle=True,
            words="a player or the dealer was dealt an incorrect number of cards: all hands "
            "void, all wagers returned, the cards reshuffled",
        ),
        _I.SHUFFLER_JAM: Consequence(
            "§663a.13(d)",
            reshuffle=True,
            words="the shuffler jammed or failed to complete a cycle: the cards are reshuffled",
        ),
        _I.SHOE_JAM: Consequence(
            "§663a.13(e)",
            void=True,
            reshuffle=True,
            reshuffle_with_dealt=True,
            words="the dealing shoe jammed or failed to deal: the round is void, all wagers "
            "returned, the cards reshuffled with those already dealt",
        ),
        _I.DEVICE_OUT_OF_ORDER: Consequence(
            "§663a.13(f)",
            mark_out_of_order=True,
            words="the device cannot be used: it is covered or signed out of order before "
            "any other method of shuffling or dealing is used",
        ),
        _I.SHUFFLER_MISCOUNT: Consequence(
            "§663a.5(b)",
            remove_deck=True,
            words="the shuffler counted other than 52 cards: the deck is removed from the table",
        ),
        _I.STUB_MISCOUNT_MISDEALT: Consequence(
            "§663a.10(f)",
            void=True,
            words="the stub count is wrong because of a misdeal (52 in the deck): all hands "
            "void, all wagers returned",
        ),
        _I.STUB_MISCOUNT: Consequence(
            "§663a.10(f)",
            void=True,
            remove_deck=True,
            words="the stub count is wrong and nothing was misdealt: all hands void, all "
            "wagers returned, the entire deck removed from the table",
        ),
    }
)

#: §663a.10(d): without a counting shuffler the stub is counted at least every 5 rounds.
STUB_COUNT_EVERY_ROUNDS: Final = 5


def consequence(irregularity: Irregularity) -> Consequence:
    return CONSEQUENCES[Irregularity(irregularity)]


def procedure(irregularity: Irregularity) -> dict[str, Any]:
    """What the dealer does with the cards and the deck (§663a.13, §663a.10(f))."""
    return dealer_procedure(consequence(irregularity))


UNFINISHED: Final = (
    BETTING,
    CLOSED,
    DECISIONS,
    SETTING,
    REVEALED,
)
#: §663a.10(c)-(f), §663a.11(a): the stub is counted once every stack is delivered, before the
#: players examine their cards and play goes on; the count's void happens then, never once
#: the hands are set or the dealer's is face up (the dealer would choose the outcome).
STUB_COUNTED: Final = (DECISIONS,)
#: The stub-count voids, each checked against the count (§663a.10(f)).
STUB_VOIDS: Final = frozenset(
    {Irregularity.STUB_MISCOUNT.value, Irregularity.STUB_MISCOUNT_MISDEALT.value}
)


#: Why a round is void, every stake returned, and when each can happen.
VOID_REASONS: Final[Mapping[str, VoidReason]] = {
    Irregularity.CARDS_FACE_UP.value: VoidReason(
        "more than one card was found face up while dealing (§663a.13(a))",
        (),
        Irregularity.CARDS_FACE_UP,
    ),
    Irregularity.WRONG_CARD_COUNT.value: VoidReason(
        "a box or the dealer was dealt a wrong number of cards (§663a.13(c))",
        (),
        Irregularity.WRONG_CARD_COUNT,
    ),
    Irregularity.SHOE_JAM.value: VoidReason(
        "the dealing shoe jammed or failed to deal all cards (§663a.13(e))",
        (),
        Irregularity.SHOE_JAM,
    ),
    # §663a.10(c)-(f): the stub is counted once the stacks are dispensed, before play goes
    # on; counted, not trusted (as Crazy 4 Poker's, §657a.10(f)).
    Irregularity.STUB_MISCOUNT_MISDEALT.value: VoidReason(
        "the stub count is wrong because the cards were misdealt (§663a.10(f))",
        STUB_COUNTED,
        Irregularity.STUB_MISCOUNT_MISDEALT,
    ),
    Irregularity.STUB_MISCOUNT.value: VoidReason(
        "the stub count shows the deck is not 52 cards; the deck is removed (§663a.10(f))",
        STUB_COUNTED,
        Irregularity.STUB_MISCOUNT,
    ),
    "table_closed": VoidReason("the table closed before the round was dealt", (BETTING, CLOSED)),
    "server_restart": VoidReason("the round could not resume after an interruption", UNFINISHED),
    SUPERVISOR_VOID: VoidReason(SUPERVISOR_VOID_WORDS, UNFINISHED),
}


def face_up_irregularity(cards_found_face_up: int) -> Irregularity | None:
    """§663a.13(a): one card face up is discarded and dealing goes on; more voids the round."""
    if cards_found_face_up <= 0:
        return None
    return _I.ONE_CARD_FACE_UP if cards_found_face_up == 1 else _I.CARDS_FACE_UP


def stub_count_irregularity(deck_count: int, misdealt: bool) -> Irregularity | None:
    """§663a.10(e), (f): the stub counted plus the cards dealt make ``deck_count``."""
    if deck_count == 52 and not misdealt:
        return None
    return _I.STUB_MISCOUNT_MISDEALT if misdealt else _I.STUB_MISCOUNT


def stub_refusal(reason: str, count: int, misdealt: bool) -> RuleViolation | None:
    """Why a stub count of ``count`` cards (``misdealt``: a box in play or the dealer holds
    other than five) does not give this void (None: it does). §663a.10(e), (f): 52
    cards, nothing; a misdeal with 52 cards in the deck, all hands void; a deck that is
    not 52 cards, all hands void and the deck removed."""
    if reason == Irregularity.STUB_MISCOUNT_MISDEALT:
        if not misdealt:
            if count == DECK_SIZE:
                return RuleViolation("stub_correct", "the stub counts 52 cards: nothing to void")
            return RuleViolation(
                "not_misdealt",
                f"every hand holds five cards and the deck counts {count}: the cards were not "
                "misdealt; the void is for the stub miscount, the deck removed (§663a.10(f))",
            )
        if count != DECK_SIZE:
            return RuleViolation(
                "deck_miscount",
                f"the deck counts {count} cards, not 52: the void is for the stub miscount, "
                "the deck removed (§663a.10(f))",
            )
        return None
    if count == DECK_SIZE:
        if misdealt:
            return RuleViolation(
                "misdealt",
                "the deck counts 52 cards but a hand does not hold five: the cards were "
                "misdealt, the deck stays (§663a.10(f))",
            )
        return RuleViolation("stub_correct", "the stub counts 52 cards: nothing to void")
    return None


def stub_count_due(rounds_since_count: int, counting_shuffler: bool) -> bool:
    """§663a.10(d): without a shuffler that counts 52, the stub is counted every 5 rounds."""
    return not counting_shuffler and rounds_since_count + 1 >= STUB_COUNT_EVERY_ROUNDS


def returned_on_void(boxes: Iterable[BoxInPlay]) -> dict[str, int]:
    """What each player gets back when the round is void: every stake (net 0 on every line)."""
    out: dict[str, int] = {}
    for b in boxes:
        out[b.player] = out.get(b.player, 0) + b.wagers.total
    return out


_SHOE_IRREGULARITIES: Final = MappingProxyType(
    {
        "shoe_jam": _I.SHOE_JAM,
        "face_up_cards": _I.CARDS_FACE_UP,
        "wrong_card_count": _I.WRONG_CARD_COUNT,
    }
)


@dataclass(frozen=True, slots=True)
class HiLoDeal:
    """A deal from the virtual automated shoe: a stack of five per box (from the dealer's
    left), the dealer's stack, and the irregularity that voids it, if any."""

    box_stacks: tuple[tuple[Card, ...], ...]
    dealer_stack: tuple[Card, ...]
    face_up_discards: tuple[Card, ...]
    stub: tuple[Card, ...]
    irregularity: Irregularity | None

    @property
    def void(self) -> bool:
        return self.irregularity is not None and consequence(self.irregularity).void


def deal_round(
    order: Sequence[Card], boxes: int | DealingPlan, plan: DealPlan | None = None
) -> HiLoDeal:
    """§663a.10(b): stacks of five, the first to the box farthest to the dealer's left, then
    clockwise, then the dealer's stack. The shared shoe deals; this game has no extra stack."""
    if isinstance(boxes, DealingPlan):
        dealt: Deal = dispense(order, boxes, plan)
    elif not isinstance(boxes, int) or isinstance(boxes, bool) or not 0 < boxes <= 6:
        raise InvalidInput("bad_box_count", f"a deal is for 1 to 6 boxes, not {boxes!r}")
    else:
        dealt = deal(order, boxes, False, plan)
    irregularity = None if dealt.irregularity is None else _SHOE_IRREGULARITIES[dealt.irregularity]
    if irregularity is None and dealt.face_up_discards:
        irregularity = face_up_irregularity(len(dealt.face_up_discards))
    return HiLoDeal(
        dealt.box_stacks, dealt.dealer_stack, dealt.face_up_discards, dealt.stub, irregularity
    )
