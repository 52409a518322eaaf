"""The round every game plays, written once, with hooks for what a game's rules decide.

Every game here runs the same round on six boxes:

    betting ─no more bets─► closed ─deal─► decisions ─► … ─reveal─► revealed ─settle─► settled
       └──────────────────────┴──────────────┴─────────────┴─────────┴──────void──► void

wagers placed, changed and withdrawn until "no more bets" (§684a.7(c), §657a.7(c),
§663a.7(c)); one stack per box with an Ante, from the dealer's left, then the dealer's
(§684a.10(b), §657a.10(b), §663a.10(b)); one decision per box in turn from the dealer's left
(§684a.11(b), §657a.11(b), §663a.11(b)), a box whose player left or whose time ran out
folding; the dealer's hand turned over, then settlement; at any unfinished step a void for
an irregularity, every stake returned (§684a.13, §657a.13, §663a.13). The shoe's order and
salt are fixed when betting opens and only their SHA-256 commitment is published until the
round is over (commit-reveal).

:class:`SkeletonRound` is that round: the phases, the checks every command shares, betting,
"no more bets", the turn, time-outs, players leaving, the void with its returns, the stub
count, the commitment and the stored form. A game's round subclasses it and fills in the
hooks (each says what the game decides: which wagers, what a decision is, what a box shows,
how the round settles) and adds the steps of its own (a step where each box sets its hands). Each
command still has its ``check_*`` beside its apply, raising :class:`RuleViolation` or
:class:`InvalidInput` and changing nothing when it is not allowed now.

Subclasses are ``@dataclass(slots=True)``: a method overriding one here calls it as
``SkeletonRound.method(self, …)`` (zero-argument ``super()`` does not work in a slotted
dataclass before Python 3.14).

Why one module past ~500 lines: it is one state machine, one class whose commands share its
checks, its turn and its void; split by phase, each part would reach into the others' state.
What is a step of its own (setting the hands) lives beside it (:mod:`table.games.setting`).

Pure: no Django; it imports no game's modules (the games import it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar, cast

import orjson

from table.games.base import SUPERVISOR_VOID, SUPERVISOR_VOID_WORDS
from table.games.cards import DECK, Card, card_code, check_distinct, codes
from table.games.common import (
    boxes_of,
    check_box,
    next_turn,
    require_phase,
    wagers_step,
    withdraw_all,
)
from table.games.common import check_player as _player
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Event, Step, Transfer
from table.games.shoe import (
    Deal,
    DealingPlan,
    DealPlan,
    Fault,
    RandomSource,
    commitment,
    dispense,
    new_salt,
    shuffle,
    stacks_of_five,
)

ANTE: Final = "ante"
PLAY: Final = "play"
#: The table closing: a void only before the deal.
TABLE_CLOSED: Final = "table_closed"
#: The dealer console's audience (a player's is ``to_player(name)``, everyone's ``PUBLIC``).
DEALER: Final = "dealer"

# The phases every game's round passes through (a game may add its own between decisions
# and revealed: its Phase enum has these values and more).
BETTING: Final = "betting"
CLOSED: Final = "closed"
DECISIONS: Final = "decisions"
REVEALED: Final = "revealed"
SETTLED: Final = "settled"
VOID: Final = "void"


#: Rules read from stored rounds (:meth:`SkeletonRound.rules_read`), by round class and
#: their JSON text; at most :data:`_RULES_KEPT` of them.
_RULES_READ: dict[tuple[type, bytes], Any] = {}
_RULES_KEPT: Final = 256
#: Only what JSON holds is keyed (orjson raises on the rest: dataclasses, datetimes, other
#: subclasses of str, int, dict, list).
_PLAIN_JSON: Final = (
    orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)


class Phase(StrEnum):
    """The phases of a round with no step of its own (a game with one has its own enum)."""

    BETTING = BETTING
    CLOSED = CLOSED  # "no more bets" announced, cards not yet dealt
    DECISIONS = DECISIONS  # cards dealt; boxes decide in turn from the dealer's left
    REVEALED = REVEALED
    SETTLED = SETTLED
    VOID = VOID


@dataclass(frozen=True, slots=True)
class VoidReason:
    """Why a round may be void, every stake returned, and when."""

    explanation: str
    #: The phases in which the dealer may void the round for it (their values: a game's Phase
    #: or this module's names). Empty: it happens only while the virtual shoe deals, so only
    #: the deal finds it (no deal irregularity is taken on trust).
    phases: tuple[str, ...]
    #: The chapter's irregularity, when it is one (its consequence says what the dealer does).
    irregularity: StrEnum | None = None
    #: The stub count's void: only as the count shows it (counted, not taken on trust).
    counted: bool = False


class Consequence(Protocol):
    """What a game's chapter says the dealer does after an irregularity (each game's
    ``irregularities.Consequence`` has these fields, and its own besides)."""

    @property
    def section(self) -> str: ...
    @property
    def void(self) -> bool: ...
    @property
    def reshuffle(self) -> bool: ...
    @property
    def remove_deck(self) -> bool: ...
    @property
    def reshuffle_with_dealt(self) -> bool: ...
    @property
    def words(self) -> str: ...


def dealer_procedure(c: Consequence) -> dict[str, Any]:
    """The dealer's ``irregularity_procedure`` of a consequence, alike at every game: the
    section, what becomes of the cards and the deck (a void reshuffles), the regulation's
    words."""
    return {
        "section": c.section,
        "reshuffle": c.reshuffle or c.void,
        "remove_deck": c.remove_deck,
        "reshuffle_with_dealt": c.reshuffle_with_dealt,
        "words": c.words,
    }


@dataclass(slots=True)
class SkeletonBox:
    """One box in a round: its player, wagers (by name; the Play is added by a decision),
    cards, decision (None: not yet; what it holds is the game's) and whether its player
    left. A game adds fields of its own after these (stored after them too)."""

    box: int
    player: str
    wagers: dict[str, int] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)
    decision: Any = None
    abandoned: bool = False

    @property
    def in_play(self) -> bool:
        """A box plays with an Ante (§684a.10(b), §657a.10(b), §663a.10(b))."""
        return self.wagers.get(ANTE, 0) > 0

    @property
    def folded(self) -> bool:
        """Hook: whether the box's decision is a fold."""
        return False

    def staked(self) -> int:
        return sum(self.wagers.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "box": self.box,
            "player": self.player,
            "wagers": dict(self.wagers),
            "cards": list(self.cards),
            "decision": self.decision,
            "abandoned": self.abandoned,
            **self.more_dict(),
        }

    def more_dict(self) -> dict[str, Any]:
        """Hook: the game's own fields, stored after the shared ones."""
        return {}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Self:
        return cls(
            int(d["box"]),
            str(d["player"]),
            {str(k): int(v) for k, v in d["wagers"].items()},
            [int(c) for c in d["cards"]],
            cls.decision_from(d["decision"]),
            bool(d["abandoned"]),
            **cls.more_from_dict(d),
        )

    @classmethod
    def decision_from(cls, value: Any) -> Any:
        """Hook: a stored decision, checked (ValueError: not one of the game's)."""
        return value

    @classmethod
    def more_from_dict(cls, d: dict[str, Any]) -> dict[str, Any]:
        """Hook: the game's own stored fields, as keyword arguments."""
        return {}


class _Rules(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=_Rules)  # the table's rules
B = TypeVar("B", bound=SkeletonBox)
S = TypeVar("S", bound=Step)  # what a command returns (a game may add to Step)


@cache
def _placed_rank(order: tuple[str, ...], decision_wager: str) -> tuple[dict[str, int], int]:
    """Each wager's place in a round class's :data:`~SkeletonRound.PLACED_ORDER` (empty: the
    Ante first, the decision's wager last), and the place of a wager it does not name: worked
    out once per game, not for every box of every round loaded (each command loads its
    round)."""
    if order:
        return {w: n for n, w in enumerate(order)}, len(order)
    return {ANTE: 0, decision_wager: 2}, 1


@dataclass(slots=True)
class SkeletonRound(Generic[R, B, S]):
    """One round on the shared skeleton. A game sets the class variables, declares
    ``phase: Phase = Phase.BETTING`` with its own Phase enum, and fills in the hooks."""

    #: The game's code name (stored with the round, checked when it is loaded).
    GAME: ClassVar[str]
    #: The game's Phase enum: the shared phases' values and any of its own.
    PHASE: ClassVar[type[StrEnum]] = Phase
    #: Why a round may be void (every stake returned) and when.
    VOID_REASONS: ClassVar[Mapping[str, VoidReason]]
    #: What "a saved round" is called in the error when a stored round does not load.
    SAVED: ClassVar[str] = "a saved round"
    #: The wagers that put a box in play, in words ("no box has an Ante yet").
    IN_PLAY_WORDS: ClassVar[str] = "an Ante"
    #: The decision that folds (a box whose player left, or whose time ran out).
    FOLD: ClassVar[object] = False
    #: The wager a decision adds to the box (paid in with the decision; its memo too).
    DECISION_WAGER: ClassVar[str] = PLAY
    #: The game's wagers in the order a box places them: its bet's, as the rules check them,
    #: then the decision's. A box read back from storage lists its wagers in this order
    #: (:meth:`box_from_dict`): PostgreSQL's jsonb keeps an object's keys sorted (shortest
    #: first), and every view would list them so ("Tie Wager, Ante, Play"). Empty: the Ante
    #: first, the decision's wager last, the others as stored.
    PLACED_ORDER: ClassVar[tuple[str, ...]] = ()
    #: The regulation's chapter, as the refusals cite its sections ("§657a").
    CHAPTER: ClassVar[str] = ""
    #: Whether the stored round and its ``round_opened`` name the game (False: a game whose
    #: records are older than the key; they stay as they were, and load either way).
    NAMED: ClassVar[bool] = True
    #: The game's rules class (with ``from_dict``), box class and step class.
    RULES: ClassVar[type[Any]]
    BOX: ClassVar[type[SkeletonBox]] = SkeletonBox
    STEP: ClassVar[type[Step]] = Step

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game knows the platform's :data:`SUPERVISOR_VOID` (base.VOID), in every phase
        before the round is over: a game whose VOID_REASONS do not list it (a new game, the
        tests' own) gets it here, so that a supervisor can give up any game's round without
        the game having to know the back office."""
        # Named: dataclass(slots=True) makes a new class, which a bare super() does not know.
        super(SkeletonRound, cls).__init_subclass__(**kwargs)
        own = cls.__dict__.get("VOID_REASONS")
        if own is None or SUPERVISOR_VOID in own:
            return
        unfinished = tuple(p.value for p in cls.PHASE if p.value not in (SETTLED, VOID))
        cls.VOID_REASONS = {**own, SUPERVISOR_VOID: VoidReason(SUPERVISOR_VOID_WORDS, unfinished)}

    number: int
    rules: R
    deck_back: str
    order: list[Card]  # the shoe: the shuffled deck, secret until the round is over
    salt: str
    phase: StrEnum
    boxes: dict[int, B] = field(default_factory=dict)
    dealer_cards: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    stub: list[Card] = field(default_factory=list)
    to_act: int | None = None  # the box whose decision is awaited
    void_reason: str | None = None
    results: dict[str, Any] | None = None  # the settlement, JSON-ready
    #: The commitment, computed once: a SHA-256 over the shoe, asked for by every status and
    #: every viewer's round view (the order and salt never change once the round is open).
    _commitment: str = field(default="", repr=False, compare=False)

    # --- the hooks a game fills in -----------------------------------------------------

    @classmethod
    def check_rules(cls, rules: object) -> None:
        """Hook: refuse rules that are not the game's."""
        if not isinstance(rules, cls.RULES):
            raise InvalidInput("bad_rules", "a round is played under the table's rules")

    @classmethod
    def rules_from_dict(cls, data: Any) -> R:
        return cast(R, cls.RULES.from_dict(data))

    @classmethod
    def rules_read(cls, data: Any) -> R:
        """The round's stored rules as :meth:`rules_from_dict` reads them, read once per
        JSON text: a round's rules are a frozen value, the same at every command of the round
        (and of every table under the same Rules Submission), and reading them is most of
        loading some games' rounds (paytables and meters checked again, ~0.1 ms a command;
        issue 26). One text is one value (orjson's text tells 1, 1.0 and
        true apart), so the rules read from it are the same value: shared, never changed (a
        rules class that is not frozen, unhashable, is read every time)."""
        try:
            key = (cls, orjson.dumps(data, option=_PLAIN_JSON))
        except TypeError:  # not what orjson writes (an integer past 64 bits): read it
            return cls.rules_from_dict(data)
        found = _RULES_READ.get(key)
        if found is None:
            found = cls.rules_from_dict(data)
            if type(found).__hash__ is None:
                return found
            if len(_RULES_READ) >= _RULES_KEPT:
                _RULES_READ.clear()  # many Rules Submissions at once: start again
            _RULES_READ[key] = found
        return cast(R, found)

    @classmethod
    def box_from_dict(cls, data: dict[str, Any]) -> B:
        box = cast(B, cls.BOX.from_dict(data))
        box.wagers = cls.in_placed_order(box.wagers)
        return box

    @classmethod
    def in_placed_order(cls, wagers: dict[str, int]) -> dict[str, int]:
        """``wagers`` in :data:`PLACED_ORDER` (a wager it does not name after those it does,
        in the order given: the sort is stable)."""
        rank, other = _placed_rank(cls.PLACED_ORDER, cls.DECISION_WAGER)
        return dict(sorted(wagers.items(), key=lambda item: rank.get(item[0], other)))

    def new_box(self, box: int, player: str, placed: dict[str, int]) -> B:
        """A box with these checked wagers."""
        return cast(B, self.BOX(box, player, placed))

    def step(self, events: Sequence[Event] = (), transfers: Sequence[Transfer] = ()) -> S:
        """A command's step."""
        return cast(S, self.STEP(tuple(events), tuple(transfers)))

    def check_bet(self, box: int, player: str, wagers: Mapping[str, object]) -> dict[str, int]:
        """Hook: a box's complete set of wagers checked against the game's rules (start with
        ``self._require(BETTING)`` and :func:`~table.games.common.check_bettor`)."""
        raise NotImplementedError

    def check_decision(self, box: B, decision: object) -> None:
        """Hook: refuse a decision the game does not allow this box."""
        raise NotImplementedError

    def record_decision(self, box: B, decision: Any, why: str) -> list[Event]:
        """Hook: make the box's decision (a Play is added to its wagers) and say so."""
        raise NotImplementedError

    def decisions_complete(self) -> list[Event]:
        """Hook: every box has decided; a game with a step of its own starts it here."""
        return []

    def leaves(self, box: B) -> bool:
        """Hook: whether a box whose player leaves after "no more bets" is abandoned now:
        one still to decide."""
        return box.decision is None and not box.abandoned

    def leave_later(self, player: str) -> list[Event]:
        """Hook: what else the player's leaving does in a phase of the game's own."""
        return []

    def procedure(self, irregularity: StrEnum) -> dict[str, Any]:
        """Hook: what the dealer does with the cards and the deck after a void for the
        chapter's ``irregularity`` (its section, a reshuffle, the deck removed)."""
        return {}

    def may_void(self, reason: str) -> bool:
        """Hook: whether the evidence allows this void now (its phase allows it): the stub
        count's only as the count shows it."""
        return not self.VOID_REASONS[reason].counted or self.stub_count() != len(DECK)

    def dealer_public(self) -> dict[str, Any]:
        """Hook: the dealer's hand as everyone sees it once turned over."""
        raise NotImplementedError

    def deal(self, faults: Sequence[Fault] = ()) -> S:
        """Hook: dispense the stacks (start with :meth:`check_deal`, lay them out with
        :meth:`lay_out`, void on a shoe irregularity, then :meth:`_advance_turn`)."""
        raise NotImplementedError

    def settle(self) -> S:
        """Hook: settle every box (end with :meth:`settled`)."""
        raise NotImplementedError

    def void(self, reason: str, evidence: dict[str, Any] | None = None) -> S:
        """A void declared outside the deal, with what was found: checked
        (:meth:`check_void`), then every stake back (:meth:`void_step`)."""
        return self.void_step(reason, self.check_void(reason, evidence))

    def void_step(self, reason: str, evidence: dict[str, Any]) -> S:
        """Hook: the void with its evidence (a game with meters takes its increments back)."""
        return self.step(*self.voided(reason, {"evidence": evidence}))

    def check_evidence(self, reason: str, evidence: object) -> object:
        """Hook: the game's own checks of a void's evidence (a card said to be seen)."""
        return evidence

    def view(self, player: str | None, dealer: bool = False) -> dict[str, Any]:
        """Hook: what ``player`` (None: a spectator) or the dealer console may see now."""
        raise NotImplementedError

    def view_from(
        self, player: str | None, spectators: dict[str, Any], dealer: bool = False
    ) -> dict[str, Any] | None:
        """Hook: what ``player`` or the ``dealer`` console may see now, built from
        ``spectators`` (the spectators' view of this round, as :meth:`view` gave it, shared:
        not to be changed), the same as ``view(player, dealer)``; a game's view module
        builds it with :func:`table.games.words.from_spectators` from its own boxes and its
        console's extras. None (the default): the game builds each view whole."""
        return None

    # --- construction --------------------------------------------------------------------

    @classmethod
    def open(
        cls, number: int, rules: R, deck_back: str, order: Sequence[Card], salt: str
    ) -> tuple[Self, S]:
        """A round's betting opens on a shuffled deck of 52 (§684a.5, §657a.5, §663a.5): its
        commitment is published now, the order and salt when the round is over."""
        cls.check_rules(rules)
        if type(number) is not int or not isinstance(deck_back, str):
            raise InvalidInput("bad_round", "a round has a number and a deck back colour")
        if not isinstance(salt, str):
            raise InvalidInput("bad_salt", "the salt must be text")
        check_distinct(order)  # the shoe: distinct cards of one deck
        if len(order) != len(DECK):
            raise InvalidInput("bad_shoe", f"the shoe holds {len(order)} cards, not 52")
        rnd = cls(number, rules, deck_back, list(order), salt, cls.PHASE(BETTING))
        data = {
            **rnd.named(),
            "round": number,
            "deck_back": deck_back,
            "commitment": rnd.commitment,
            "rules": rules.to_dict(),
        }
        return rnd, rnd.step((Event("round_opened", data),))

    @classmethod
    def shuffled(
        cls,
        number: int,
        rules: R,
        rng: RandomSource,
        deck_back: str = "red",
        salt: str | None = None,
    ) -> tuple[Self, S]:
        """A round with a freshly shuffled deck (one deck, reshuffled every round); ``rng``
        is the shuffler's randomness (``SecretsSource`` in production)."""
        return cls.open(number, rules, deck_back, shuffle(DECK, rng), salt or new_salt())

    def named(self) -> dict[str, str]:
        return {"game": self.GAME} if self.NAMED else {}

    @property
    def commitment(self) -> str:
        if not self._commitment:
            self._commitment = commitment(self.order, self.salt)
        return self._commitment

    # --- checks and queries --------------------------------------------------------------

    def _require(self, *phases: str) -> None:
        if self.phase not in phases:  # the phases' names: a StrEnum equals its value
            require_phase(self.phase, [self.PHASE(p) for p in phases])

    def _box(self, box: object) -> int:
        return check_box(box)

    def boxes_in_play(self) -> list[B]:
        """Boxes with an Ante, from the dealer's left (the deal's and the decisions' order)."""
        return [self.boxes[b] for b in sorted(self.boxes) if self.boxes[b].in_play]

    def boxes_of(self, player: str) -> list[int]:
        return boxes_of(self.boxes, player)

    @property
    def finished(self) -> bool:
        return self.phase in (SETTLED, VOID)

    def dealer_visible(self) -> bool:
        return self.phase in (REVEALED, SETTLED)

    def irregularity(self) -> str | None:
        """Why the round did not end as a plain settlement, in words, or None."""
        return self.VOID_REASONS[self.void_reason].explanation if self.void_reason else None

    # --- betting -------------------------------------------------------------------------

    def bet(self, box: int, player: str, wagers: Mapping[str, object]) -> S:
        """Place, change or (with nothing) withdraw a box's wagers before "no more bets"."""
        placed = self.check_bet(box, player, wagers)
        return self.step(*wagers_step(self.boxes, box, player, placed, self.new_box))

    def withdraw(self, box: int, player: str) -> S:
        return self.bet(box, player, {})

    def check_close_betting(self) -> None:
        self._require(BETTING)
        if not self.boxes_in_play():
            raise RuleViolation("no_wagers", f"no box has {self.IN_PLAY_WORDS} yet")

    def close_betting(self) -> S:
        """The dealer announces "no more bets": every wager locks (§684a.7(c), §657a.7(c),
        §663a.7(c))."""
        self.check_close_betting()
        self.phase = self.PHASE(CLOSED)
        return self.step((Event("betting_closed", {"boxes": self._in_play_numbers()}),))

    def _in_play_numbers(self) -> list[int]:
        return [b.box for b in self.boxes_in_play()]

    # --- dealing -------------------------------------------------------------------------

    def check_deal(self, faults: Sequence[Fault] = ()) -> None:
        self._require(CLOSED)
        if not isinstance(faults, list | tuple) or not all(isinstance(f, Fault) for f in faults):
            raise InvalidInput("bad_fault", f"faults must be a list of shoe faults, not {faults!r}")
        if Fault.MISCOUNT in faults:
            raise InvalidInput("bad_fault", "a miscount is the shuffler's, found before a round")

    def dealing_plan(self) -> DealingPlan:
        """A stack of five per box in play from the dealer's left, then the dealer's; nothing
        shared (§684a.10(b), §657a.10(b), §663a.10(b)). A game with a shared stack says so."""
        return stacks_of_five(b.box for b in self.boxes_in_play())

    def lay_out(
        self, box_stacks: Sequence[Sequence[Card]], dealer: Sequence[Card], stub: Sequence[Card]
    ) -> list[B]:
        """The stacks dispensed onto the boxes in play (a jammed shoe dispenses fewer) and
        the dealer's place; the stub removed. Returns the boxes in play."""
        in_play = self.boxes_in_play()
        for box, stack in zip(in_play, box_stacks, strict=False):
            box.cards = list(stack)
        self.dealer_cards = list(dealer)
        self.stub = list(stub)
        return in_play

    def dispensed(self, faults: Sequence[Fault] = ()) -> Deal:
        """The round's dealing plan as the shoe dispenses it with the armed ``faults``
        (checked first; the round is not changed yet)."""
        self.check_deal(faults)
        stacks = self.dealing_plan()
        return dispense(self.order, stacks, DealPlan.for_plan(faults, stacks))

    def lay_out_deal(self, dealt: Deal) -> list[Event]:
        """What the shoe dispensed, on the table: each card found face up is not used and goes
        to the discard rack, said (§684a.13(a), §657a.13(a)); the stacks onto the boxes in play
        and the dealer's place; a shared stack's rest discarded unseen; the stub removed."""
        self.lay_out(dealt.box_stacks, dealt.dealer_stack, dealt.stub)
        self.discards = [*dealt.face_up_discards, *dealt.shared_discards]
        return [Event("face_up_card", {"card": card_code(c)}) for c in dealt.face_up_discards]

    @staticmethod
    def after(events: Sequence[Event], step: S) -> S:
        """``step`` with ``events`` before its own (what the deal said before it voided)."""
        return replace(step, events=(*events, *step.events))

    @staticmethod
    def deal_evidence(dealt: Deal, faults: Sequence[Fault]) -> dict[str, Any]:
        """A shoe irregularity's evidence: what the shoe was told to do and what it delivered."""
        return {
            "faults": [f.value for f in faults],
            "face_up": codes(dealt.face_up_discards),
            "stacks": [len(s) for s in (*dealt.box_stacks, dealt.dealer_stack)],
        }

    def dealt(self) -> bool:
        """Whether the shoe has dispensed any card to a box or the dealer."""
        return bool(self.dealer_cards) or any(b.cards for b in self.boxes.values())

    def stub_count(self) -> int:
        """The cards of this round's deck as counted after the deal (§684a.10(d),
        §657a.10(d), §663a.10(d)): the stub, the discards and every stack; before the deal,
        the deck in the shoe."""
        if not self.dealt():
            return len(self.order)
        counted = len(self.stub) + len(self.discards) + len(self.dealer_cards)
        return counted + sum(len(b.cards) for b in self.boxes.values()) + self.more_counted()

    def more_counted(self) -> int:
        """Hook: cards of the deck the game holds elsewhere (a shared card)."""
        return 0

    # --- decisions -----------------------------------------------------------------------

    def _advance_turn(self) -> list[Event]:
        """The next box to decide, from the dealer's left clockwise; a box whose player left
        folds as its turn comes; when every box has decided, :meth:`decisions_complete`."""
        self.to_act, events = next_turn(
            self.boxes_in_play(), lambda box: self.record_decision(box, self.FOLD, "abandoned")
        )
        if self.to_act is None:
            events += self.decisions_complete()
        return events

    def check_decide(self, box: int, player: str | None, decision: object) -> B:
        """The box may decide now: it is in play, it is its turn, ``player`` (None: the house
        acting for it) owns it, and the game allows ``decision``."""
        self._require(DECISIONS)
        box = self._box(box)
        if player is not None:
            _player(player)
        if box not in self.boxes or not self.boxes[box].in_play:
            raise RuleViolation("not_in_play", f"box {box} has no cards in this round")
        if player is not None and self.boxes[box].player != player:
            raise RuleViolation("not_your_box", f"box {box} is not yours")
        if self.to_act != box:
            raise RuleViolation(
                "not_your_turn",
                f"box {box} cannot act now"
                + (f"; box {self.to_act} is deciding" if self.to_act else ""),
            )
        current = self.boxes[box]
        self.check_decision(current, decision)
        return current

    def decide(self, box: int, player: str | None, decision: Any, why: str = "player") -> S:
        """The box to act decides; ``player`` None = the house acting for it (its decision
        time ran out). A Play added to the box's wagers is paid in now."""
        current = self.check_decide(box, player, decision)
        wager = self.DECISION_WAGER
        before = current.wagers.get(wager, 0)
        events = self.record_decision(current, decision, why)
        added = current.wagers.get(wager, 0) - before
        transfers = (Transfer(current.player, added, wager, current.box, wager),) if added else ()
        events += self._advance_turn()
        return self.step(events, transfers)

    def check_time_out(self, box: int | None = None) -> int:
        self._require(DECISIONS)
        if self.to_act is None:
            raise RuleViolation("nobody_to_act", "every box has decided")
        if box is not None and self._box(box) != self.to_act:
            raise RuleViolation("not_your_turn", f"box {box} is not deciding now")
        return self.to_act

    def time_out(self, box: int | None = None) -> S:
        """The box to act (``box``, when given, must be it) ran out of decision time: it
        folds (no Play was made)."""
        return self.decide(self.check_time_out(box), None, self.FOLD, "timeout")

    def abandon(self, player: str) -> S:
        """A player left the table (§684a.7(b), §657a.7(b), §663a.7(b)). Before "no more
        bets" their wagers come back (no card was received); after it each box still to
        decide is abandoned and folds when its turn comes (at once if it is its turn)."""
        _player(player)
        if self.phase == BETTING:
            return self.step(
                *withdraw_all(self.boxes_of(player), lambda b: self.bet(b, player, {}))
            )
        events: list[Event] = []
        if not self.finished and self.phase != REVEALED:
            for number in self.boxes_of(player):
                current = self.boxes[number]
                if self.leaves(current):
                    current.abandoned = True
                    events.append(Event("box_abandoned", {"box": number, "player": player}))
            if self.phase == DECISIONS and self.to_act is not None:
                acting = self.boxes[self.to_act]
                if acting.abandoned and acting.decision is None:
                    events += self.record_decision(acting, self.FOLD, "abandoned")
                    events += self._advance_turn()
            events += self.leave_later(player)
        return self.step(events)

    # --- reveal and settlement -----------------------------------------------------------

    def check_reveal(self) -> None:
        self._require(DECISIONS)
        if self.to_act is not None:
            raise RuleViolation("decisions_pending", f"box {self.to_act} has not decided yet")

    def reveal(self) -> S:
        """Every box has decided: the dealer's cards turn face up."""
        self.check_reveal()
        self.phase = self.PHASE(REVEALED)
        return self.step((Event("dealer_revealed", self.dealer_public()),))

    def settled(self, results: dict[str, Any], more: Mapping[str, Any] | None = None) -> Event:
        """The round is settled with ``results`` (its ``players`` each with a ``net``): the
        ``round_settled`` event, with ``more`` of the game's, and the shoe revealed."""
        self.results = results
        self.phase = self.PHASE(SETTLED)
        self.to_act = None
        return Event(
            "round_settled", {"players": results["players"], **(more or {}), **self.shoe()}
        )

    def shoe(self) -> dict[str, Any]:
        """Commit-reveal: the shoe's order and salt, published once the round is over, and
        the commitment they make."""
        return {"shoe": codes(self.order), "salt": self.salt, "commitment": self.commitment}

    # --- irregularities ------------------------------------------------------------------

    def check_void(self, reason: object, evidence: object = None) -> dict[str, Any]:
        """Refuse a void the rules do not allow now, changing nothing; returns the evidence
        to record (the stub count's void: the count). Never once the dealer's hand is face
        up (the round is settled then), but by the supervisor; never a deal irregularity
        (only the shoe reports one, while dealing); the table closes only during betting."""
        reasons = self.VOID_REASONS
        if not isinstance(reason, str) or reason not in reasons:
            self.refuse_unknown(reason)
            raise InvalidInput(
                "unknown_irregularity",
                f"unknown irregularity {reason!r} (one of {', '.join(reasons)})",
            )
        if self.finished:
            self._require(*(p for p in self.PHASE if p not in (SETTLED, VOID)))
        known = reasons[reason]
        if self.phase == REVEALED and reason != SUPERVISOR_VOID:
            raise RuleViolation(
                "outcome_known",
                "the dealer's hand is face up: the round is settled now, not voided "
                f"({self.CHAPTER}.11(c))",
            )
        if not known.phases:
            raise RuleViolation(
                "shoe_only",
                "only the shoe reports this irregularity, while dealing, and the deal then "
                f"voids the round itself; this round's deal reported none ({self.CHAPTER}.13)",
            )
        if reason == TABLE_CLOSED and self.phase != BETTING:
            raise RuleViolation("round_in_play", "the wagers are locked: finish the round first")
        if self.phase not in known.phases:
            raise RuleViolation(
                "irregularity_not_now",
                f"{reason.replace('_', ' ')} cannot void the round now: only when it is "
                + " or ".join(known.phases),
            )
        evidence = self.check_evidence(reason, evidence)
        if known.counted:
            count = self.stub_count()
            if count == len(DECK):
                raise RuleViolation("stub_correct", "the stub counts 52 cards: nothing to void")
            return {"count": count}
        if not isinstance(evidence, dict) or not evidence:
            raise InvalidInput("no_evidence", "a void must say what was found")
        try:
            return dict(json.loads(json.dumps(evidence)))
        except (TypeError, ValueError):
            raise InvalidInput("no_evidence", "the evidence must be plain JSON data") from None

    def refuse_unknown(self, reason: object) -> None:
        """Hook: refuse a reason that is not a void's in words of the game's own (an
        irregularity of its chapter that does not void the round)."""

    def void_reasons_now(self) -> list[str]:
        """The reasons the round may be voided for in this phase, given the evidence."""
        return [
            r for r, v in self.VOID_REASONS.items() if self.phase in v.phases and self.may_void(r)
        ]

    def voided(
        self, reason: str, more: Mapping[str, Any] | None = None
    ) -> tuple[tuple[Event, ...], tuple[Transfer, ...]]:
        """Void the round for ``reason``: every stake goes back, side bets included
        (§684a.13, §657a.13, §663a.13). The public ``round_void`` (with ``more`` of the
        game's) and the dealer's procedure, and the returns."""
        transfers = tuple(
            Transfer(b.player, -stake, "returned (void)", b.box, wager)
            for b in self.boxes.values()
            for wager, stake in b.wagers.items()
            if stake
        )
        self.phase = self.PHASE(VOID)
        self.void_reason = reason
        self.to_act = None
        known = self.VOID_REASONS[reason]
        public = Event(
            "round_void",
            {
                "reason": reason,
                "explanation": known.explanation,
                "returned": {str(b.box): b.staked() for b in self.boxes.values()},
                **(more or {}),
                **self.shoe(),
            },
        )
        # What the dealer does with the cards and the deck (the chapter's consequence).
        procedure = self.void_procedure(reason)
        return (public, Event("irregularity_procedure", procedure, DEALER)), transfers

    def void_procedure(self, reason: str) -> dict[str, Any]:
        """What the dealer does with the cards and the deck after a void for ``reason``: the
        chapter's consequence (:meth:`procedure`: its section, a reshuffle, the deck removed,
        its words) when the reason is one of its irregularities, else a reshuffle. The
        dealer's ``irregularity_procedure`` event and the console's view (:meth:`procedure_now`)
        both say this, so the two never differ."""
        procedure: dict[str, Any] = {"reason": reason, "reshuffle": True, "remove_deck": False}
        known = self.VOID_REASONS[reason]
        if known.irregularity is not None:
            procedure.update(self.procedure(known.irregularity))
        return procedure

    def procedure_now(self) -> dict[str, Any] | None:
        """Hook: what the regulation tells the dealer to do now with the cards and the deck,
        while the round that made it necessary is the table's (until the next one opens):
        the procedure of the void that ended this round; None: nothing (a round not voided).
        A game whose main game alone can be void says so too (ch. 684a's §684a.13(d))."""
        reason = self.void_reason
        if self.phase == VOID and reason is not None and reason in self.VOID_REASONS:
            return self.void_procedure(reason)
        return None

    # --- persistence ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.named(),
            "number": self.number,
            "rules": self.rules.to_dict(),
            "deck_back": self.deck_back,
            "order": list(self.order),
            "salt": self.salt,
            "phase": self.phase.value,
            "boxes": [b.to_dict() for b in self.boxes.values()],
            **self.cards_dict(),
            "to_act": self.to_act,
            "void_reason": self.void_reason,
            **self.outcome_dict(),
            "results": self.results,
        }

    def outcome_dict(self) -> dict[str, Any]:
        """Hook: how the game's round ended besides a void, as stored (a main game void)."""
        return {}

    def cards_dict(self) -> dict[str, Any]:
        """Hook: the cards the round holds outside the boxes, as stored (the game's own
        piles among them, in the order it stores them)."""
        return {
            "dealer_cards": list(self.dealer_cards),
            "discards": list(self.discards),
            "stub": list(self.stub),
        }

    @classmethod
    def more_from_dict(cls, d: dict[str, Any]) -> dict[str, Any]:
        """Hook: the game's own stored fields, as keyword arguments."""
        return {}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Self:
        try:
            return cls._from_dict(d)
        except InvalidInput as exc:
            raise InvalidInput("bad_state", f"not {cls.SAVED}: {exc.message}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInput("bad_state", f"not {cls.SAVED}: {exc!r}") from None

    @classmethod
    def _from_dict(cls, d: dict[str, Any]) -> Self:
        if d.get("game", None if cls.NAMED else cls.GAME) != cls.GAME:
            raise ValueError(f"game {d.get('game')!r} is not {cls.GAME}")
        boxes = [cls.box_from_dict(b) for b in d["boxes"]]
        to_act = d["to_act"]
        return cls(
            number=int(d["number"]),
            rules=cls.rules_read(d["rules"]),
            deck_back=str(d["deck_back"]),
            order=[int(c) for c in d["order"]],
            salt=str(d["salt"]),
            phase=cls.PHASE(d["phase"]),
            boxes={b.box: b for b in boxes},
            dealer_cards=[int(c) for c in d["dealer_cards"]],
            discards=[int(c) for c in d["discards"]],
            stub=[int(c) for c in d["stub"]],
            to_act=None if to_act is None else int(to_act),
            void_reason=d["void_reason"],
            results=d["results"],
            **cls.more_from_dict(d),
        )
