"""The virtual automated card shuffling device and automated dealing shoe (§684a.3-5, §684a.10).

Shuffles use the operating system's CSPRNG (``secrets``), never Mersenne Twister; the source
of randomness is injectable so tests can replay a shuffle. With two decks (§684a.3(b)) the
decks, of different back colours, alternate round by round; the shuffler counts 52 after
every shuffle and a deck that counts wrong is removed from the table (§684a.5(b)).

The shoe can be told to fail on the next deal (a jam, a card found face up, a misdeal) so
that the irregularity rules of §684a.13 can be exercised on a live table.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from .cards import DECK, Card, check_distinct, codes
from .errors import InvalidInput, RuleViolation

CARDS_PER_STACK = 5  # the stacks of the games dealt so far (stacks_of_five); a plan may differ


@dataclass(frozen=True, slots=True)
class Stack:
    """One stack the shoe dispenses: to a box, the dealer, or a shared card's stack (whose
    top card is kept, the rest discarded unseen)."""

    to: str  # "box", "dealer" or "shared"
    box: int | None
    cards: int
    kept: int


@dataclass(frozen=True, slots=True)
class DealingPlan:
    """The stacks the next deal dispenses, in order (§684a.10(b), §657a.10(b), §663a.10(b)),
    from one deck of 52 (two decks alternate between rounds when the table has two). A card
    the shoe finds face up is discarded and dealing goes on (a ``face_up_card`` event)."""

    stacks: tuple[Stack, ...]

    @property
    def cards(self) -> int:
        return sum(s.cards for s in self.stacks)


def stacks_of_five(boxes: Iterable[int], shared_card: bool = False) -> DealingPlan:
    """The virtual shoe's plan the three games share (§684a.10(b), §657a.10(b), §663a.10(b)):
    a stack of five per box in play from the dealer's left, then the dealer's stack, then,
    when a box wagered on the shared card, one more stack whose top card is that card."""
    stacks = [Stack("box", box, 5, 5) for box in boxes]
    stacks.append(Stack("dealer", None, 5, 5))
    if shared_card:
        stacks.append(Stack("shared", None, 5, 1))
    return DealingPlan(tuple(stacks))


class RandomSource(Protocol):
    """Anything with ``randbelow(n)`` returning a uniform int in [0, n)."""

    def randbelow(self, n: int, /) -> int: ...


class SecretsSource:
    """The production source: the ``secrets`` module (the OS CSPRNG)."""

    def randbelow(self, n: int, /) -> int:
        return secrets.randbelow(n)


def shuffle(cards: Sequence[Card], rng: RandomSource) -> list[Card]:
    """Fisher-Yates: every one of the 52! orders equally likely (§684a.5(a))."""
    if not isinstance(cards, list | tuple):
        raise InvalidInput("bad_cards", "only a list of cards can be shuffled")
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        if not isinstance(j, int) or not 0 <= j <= i:
            raise InvalidInput("bad_random", f"randbelow({i + 1}) answered {j!r}")
        order[i], order[j] = order[j], order[i]
    return order


def commitment(order: Sequence[Card], salt: str) -> str:
    """SHA-256 of the shoe order and a server salt, published before betting closes."""
    if not isinstance(salt, str):
        raise InvalidInput("bad_salt", "the salt must be text")
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence):
        raise InvalidInput("bad_order", "the shoe order must be a list of cards")
    # One check of the whole list (``codes``), not one per card: every command's round status
    # carries the commitment, so this runs once a command.
    text = " ".join(codes(order)) + "|" + salt
    return hashlib.sha256(text.encode()).hexdigest()


def new_salt() -> str:
    return secrets.token_hex(16)


class Fault(StrEnum):
    """What the shoe can be told to do wrong on the next deal (§684a.13)."""

    JAM = "jam"  # §684a.13(f): jams or fails to deal all cards -> void
    FACE_UP_CARD = "face_up_card"  # §684a.13(a): one card face up -> discarded, deal goes on
    TWO_FACE_UP_CARDS = "two_face_up_cards"  # §684a.13(a): more than one -> void
    MISDEAL = "misdeal"  # §684a.13(c): a box or the dealer gets a wrong number of cards -> void
    MISCOUNT = "miscount"  # §684a.5(b): the shuffler counts other than 52 -> deck removed
    #: §684a.13(d): a dealer card exposed while dealing, before any Raise -> main game void
    DEALER_CARD_EXPOSED = "dealer_card_exposed"


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Faults armed for one deal, as positions in the order the shoe dispenses."""

    face_up_at: tuple[int, ...] = ()
    jam_at: int | None = None
    misdeal_stack: int | None = None  # index of the stack dealt one card short

    @classmethod
    def for_plan(cls, faults: Sequence[Fault], stacks: DealingPlan) -> DealPlan:
        """The faults armed for a deal of ``stacks``: a jam dies two cards before the end."""
        return cls.from_faults(faults, len(stacks.stacks), stacks.cards)

    @classmethod
    def from_faults(
        cls, faults: Sequence[Fault], stacks: int, cards: int | None = None
    ) -> DealPlan:
        """``cards``: of the whole deal (None: ``stacks`` stacks of five)."""
        face_up: list[int] = []
        jam_at = misdeal = None
        for fault in faults:
            if fault is Fault.FACE_UP_CARD:
                face_up.append(len(face_up) + 2)  # a card found early in the stack
            elif fault is Fault.TWO_FACE_UP_CARDS:
                face_up += [len(face_up) + 2, len(face_up) + 7]
            elif fault is Fault.JAM:
                whole = CARDS_PER_STACK * max(1, stacks) if cards is None else max(cards, 3)
                jam_at = whole - 2  # dies during the last stack
            elif fault is Fault.MISDEAL:
                misdeal = 0
        return cls(tuple(face_up), jam_at, misdeal)


@dataclass(frozen=True, slots=True)
class Deal:
    """What the shoe delivered: a stack per box (from the dealer's left), the dealer's stack,
    the shared cards kept (a card every box's side wager shares, §684a.10(b), §657a.10(b))
    and the rest of their stack discarded unseen, the cards found face up and the stub."""

    box_stacks: tuple[tuple[Card, ...], ...]
    dealer_stack: tuple[Card, ...]
    shared_cards: tuple[Card, ...]
    shared_discards: tuple[Card, ...]
    face_up_discards: tuple[Card, ...]
    stub: tuple[Card, ...]
    irregularity: str | None = None  # set when the deal must be voided

    @property
    def shared_card(self) -> Card | None:
        """The one shared card of a plan that keeps one (None: no shared stack was dealt)."""
        return self.shared_cards[0] if self.shared_cards else None

    @property
    def cards_dealt(self) -> int:
        return (
            sum(len(s) for s in self.box_stacks)
            + len(self.dealer_stack)
            + len(self.shared_cards)
            + len(self.shared_discards)
            + len(self.face_up_discards)
        )


def deal(order: Sequence[Card], boxes: int, all_six: bool, plan: DealPlan | None = None) -> Deal:
    """Stacks of five (§684a.10(b)): :func:`dispense` with :func:`stacks_of_five` for
    ``boxes`` boxes, then the dealer, then, with ``all_six``, a shared card's stack."""
    if not isinstance(boxes, int) or isinstance(boxes, bool) or not 0 <= boxes <= 6:
        # §684a.2(a): no more than six betting positions.
        raise InvalidInput("bad_box_count", f"a deal is for 0 to 6 boxes, not {boxes!r}")
    return dispense(order, stacks_of_five(range(1, boxes + 1), all_six), plan)


def dispense(order: Sequence[Card], stacks: DealingPlan, plan: DealPlan | None = None) -> Deal:
    """Dispense the stacks a game's dealing plan asks for, in its order, from a shuffled deck
    (§684a.10(b), §657a.10(b), §663a.10(b)): each stack of its own number of cards; of a
    shared stack the top ``kept`` cards are kept and the rest go to the discard rack unseen.
    ``plan``: the faults armed for this deal (a jam, cards found face up, a misdeal).
    """
    check_distinct(order)
    plan = plan or DealPlan()
    position = 0
    dispensed = 0
    face_up: list[Card] = []
    dealt: list[tuple[Card, ...]] = []
    irregularity: str | None = None
    for stack_index, wanted in enumerate(stacks.stacks):
        size = wanted.cards - (1 if plan.misdeal_stack == stack_index else 0)
        stack: list[Card] = []
        while len(stack) < size:
            if plan.jam_at is not None and dispensed >= plan.jam_at:
                irregularity = "shoe_jam"
                break
            if position >= len(order):
                irregularity = "shoe_jam"  # §684a.13(f): fails to deal all cards
                break
            card = order[position]
            position += 1
            dispensed += 1
            if dispensed in plan.face_up_at:
                # §684a.13(a): a card found face up is not used and goes to the discard rack.
                face_up.append(card)
                continue
            stack.append(card)
        dealt.append(tuple(stack))
        if irregularity:
            break
    if irregularity is None and len(face_up) > 1:
        irregularity = "face_up_cards"  # §684a.13(a): more than one -> void
    if irregularity is None and any(
        len(d) != s.cards for d, s in zip(dealt, stacks.stacks, strict=False)
    ):
        irregularity = "wrong_card_count"  # §684a.13(c)
    by_kind: dict[str, list[tuple[Card, ...]]] = {"box": [], "dealer": [], "shared": []}
    for wanted, got in zip(stacks.stacks, dealt, strict=False):
        by_kind[wanted.to].append(got)
    kept = next((s.kept for s in stacks.stacks if s.to == "shared"), 0)
    shared = [card for stack in by_kind["shared"] for card in stack[:kept]]
    return Deal(
        box_stacks=tuple(by_kind["box"]),
        dealer_stack=by_kind["dealer"][0] if by_kind["dealer"] else (),
        shared_cards=tuple(shared),
        shared_discards=tuple(c for stack in by_kind["shared"] for c in stack[kept:]),
        face_up_discards=tuple(face_up),
        stub=tuple(order[position:]),
        irregularity=irregularity,
    )


@dataclass(slots=True)
class DeckInPlay:
    back: str  # back colour, different for the two decks (§684a.3(b)(1))
    since: float  # when this deck came into play (epoch seconds), for §684a.3(c)
    cards: list[Card] = field(default_factory=lambda: list(DECK))
    rounds: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"back": self.back, "since": self.since, "cards": self.cards, "rounds": self.rounds}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DeckInPlay:
        return cls(data["back"], float(data["since"]), list(data["cards"]), int(data["rounds"]))


#: §684a.3(c)(2): decks dealt from a shoe are changed at least every eight hours.
DECK_LIFETIME_SECONDS = 8 * 3600
BACK_COLOURS = ("red", "blue")


#: The deal faults that void the round, in words (§684a.13(a),(c),(f)).
VOIDING_FAULT_WORDS = {
    Fault.JAM: "a shoe jam",
    Fault.TWO_FACE_UP_CARDS: "two cards face up",
    Fault.MISDEAL: "a misdeal",
}


def voiding_faults(faults: Sequence[Fault]) -> list[str]:
    """The irregularities these armed faults would void the next deal for, in words."""
    found = [VOIDING_FAULT_WORDS[f] for f in VOIDING_FAULT_WORDS if f in faults]
    if Fault.TWO_FACE_UP_CARDS not in faults and faults.count(Fault.FACE_UP_CARD) > 1:
        found.insert(0, "two cards face up")  # §684a.13(a): more than one face up voids
    return found


@dataclass(slots=True)
class Shuffler:
    """Shuffler + shoe state of one table: the decks and which one plays next."""

    decks: list[DeckInPlay]
    next_deck: int = 0
    armed: list[Fault] = field(default_factory=list)
    #: Back colours of decks removed after a miscount (§684a.5(b)), until new decks come in.
    removed: list[str] = field(default_factory=list)
    #: What the shuffler counted after its last shuffle (§684a.5(b)), and in which deck.
    last_count: int | None = None
    last_counted_back: str | None = None

    @classmethod
    def fresh(cls, now: float, two_decks: bool = True) -> Shuffler:
        backs = BACK_COLOURS if two_decks else BACK_COLOURS[:1]
        return cls([DeckInPlay(b, now) for b in backs])

    def arm(self, fault: Fault) -> None:
        """Make the next shuffle or deal fail this way (the dealer console's test controls).

        A deal is voided once, for its first irregularity: two faults that would each void
        the same deal are refused together, since one would silently hide the other.
        """
        if fault in self.armed and fault is not Fault.FACE_UP_CARD:
            raise RuleViolation(
                "fault_armed", f"{fault.value.replace('_', ' ')} is already armed for the next deal"
            )
        voids = voiding_faults([*self.armed, fault])
        if len(voids) > 1:
            raise RuleViolation(
                "faults_conflict",
                f"{voids[0]} is already armed and voids the next deal (§684a.13): "
                f"{voids[1]} could not happen on the same deal. Deal first, then arm it",
            )
        self.armed.append(fault)

    def take_deal_faults(self) -> list[Fault]:
        faults: list[Fault] = [f for f in self.armed if f is not Fault.MISCOUNT]
        self.armed = [f for f in self.armed if f is Fault.MISCOUNT]
        return faults

    def deck_due(self, now: float) -> bool:
        return any(now - d.since >= DECK_LIFETIME_SECONDS for d in self.decks)

    def shuffle_next(self, rng: RandomSource, now: float) -> tuple[str, list[Card]]:
        """Shuffle the deck whose turn it is and count it; returns (back colour, order).

        A deck that counts other than 52 is removed (§684a.5(b)): :class:`RuleViolation`
        ``deck_miscount``, and the dealer must bring new decks before play goes on.
        """
        if not self.decks:
            raise RuleViolation("no_deck", "no deck at the table: change the decks")
        if self.deck_due(now):
            raise RuleViolation(
                "deck_expired", "the decks have been in play 8 hours: change them (§684a.3(c))"
            )
        deck = self.decks[self.next_deck % len(self.decks)]
        cards = list(deck.cards)
        if Fault.MISCOUNT in self.armed:
            self.armed.remove(Fault.MISCOUNT)
            cards = cards[:-1]  # a card went missing
        order = shuffle(cards, rng)
        self.last_count, self.last_counted_back = len(order), deck.back
        if len(order) != 52 or set(order) != set(DECK):
            self.decks.remove(deck)
            self.removed.append(deck.back)
            self.next_deck = 0
            raise RuleViolation(
                "deck_miscount",
                f"the shuffler counted {len(order)} cards in the {deck.back} deck; "
                "the deck is removed from the table (§684a.5(b))",
            )
        deck.rounds += 1
        # §684a.3(b)(3): the decks alternate, each used for every other round.
        self.next_deck = (self.next_deck + 1) % len(self.decks)
        return deck.back, order

    def change_decks(self, now: float, two_decks: bool = True) -> None:
        """New decks of 52 into play (§684a.3(c), or after a deck was removed)."""
        fresh = Shuffler.fresh(now, two_decks)
        self.decks, self.next_deck, self.removed = fresh.decks, 0, []

    def match_rules(self, two_decks: bool, now: float) -> bool:
        """Bring the decks in line with the Rules Submission in force before a shuffle:
        one deck, or two of different backs alternating (§684a.3(b)). A change of
        submission brings new decks (True); a deck short after a miscount is refused until
        the dealer brings new decks, as with one deck (§684a.5(b))."""
        wanted = 2 if two_decks else 1
        if not self.decks or len(self.decks) == wanted:
            return False  # no deck at all: shuffle_next says so
        if self.removed and len(self.decks) < wanted:
            raise RuleViolation(
                "deck_short",
                f"the Rules Submission plays two decks but only the {self.decks[0].back} deck "
                f"is at the table (the {', '.join(self.removed)} deck was removed after a "
                "miscount, §684a.5(b)): change the decks",
            )
        self.change_decks(now, two_decks)
        return True

    def to_dict(self) -> dict[str, Any]:
        return {
            "decks": [d.to_dict() for d in self.decks],
            "next_deck": self.next_deck,
            "armed": [f.value for f in self.armed],
            "removed": list(self.removed),
            "last_count": self.last_count,
            "last_counted_back": self.last_counted_back,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Shuffler:
        try:
            return cls(
                [DeckInPlay.from_dict(d) for d in data["decks"]],
                int(data["next_deck"]),
                [Fault(f) for f in data.get("armed", [])],
                [str(b) for b in data.get("removed", [])],
                data.get("last_count"),
                data.get("last_counted_back"),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInput("bad_state", f"not a saved shuffler: {exc!r}") from None
