"""One round of Crazy 4 Poker as an explicit state machine, shaped like Four Card Frenzy's.

    betting ──no more bets──► closed ──deal──► decisions ──reveal──► revealed ──settle──► settled
       └──────────────────────────┴────────────────┴──────────────────────────────void──► void

The same conventions as :mod:`table.games.four_card_frenzy.round`: every command has a ``check_*``
that raises
a domain error (:class:`RuleViolation` or :class:`InvalidInput`, with a code) and changes
nothing, and an apply that changes the round and returns a :class:`Step` - the events it
caused, in order, each with its audience (everyone, one player, or the dealer), and the money
it moves between players and the table. The events are Four Card Frenzy's :class:`Event`, the
transfers its :class:`Transfer`; this game's :class:`Step` adds ``meters``: what the round
asks the platform to do to the progressive and hand-bonus meters.

The meters are not the round's: they live outside it, shared by every table linked to them.
"No more bets" returns this round's increments (§657a.10(a)(2)); :meth:`Round.settle` takes
the meters as they stand and returns what each pays, in settlement order (box 6 to box 1,
§657a.11(c)), how often each reset, and where each ends; a void round returns the increments
to take back out (§657a.13, CRAZY_4_POKER.md).

The shoe order is fixed when betting opens and only its SHA-256 commitment is published; the
order and salt are revealed when the round is over, as in Four Card Frenzy.

The round is the shared skeleton's (:mod:`table.games.skeleton`: betting, no more bets, the
turn, time-outs, leaving, voids, commit-reveal, the stored form); this module keeps what ch. 657a
decides: the wagers, the meters, the deal with its shared card and draws, the Play decision,
the voids' evidence and the settlement's order. The table's rules and what a box may wager are
:class:`.rules.TableRules`'s; the settlement told in words is :func:`.settlement.in_words`'s.
(Past 500 lines: the deal's irregularities (§657a.13) and the void's checks are still here.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Final

from table.games.base import SUPERVISOR_VOID, SUPERVISOR_VOID_WORDS, MeterChange
from table.games.cards import Card, card_code, codes, parse_card
from table.games.common import check_adjacent_boxes, check_bettor
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import PUBLIC, Event, Transfer, to_player
from table.games.events import Step as EngineStep
from table.games.progressive import Increment, Meter
from table.games.shoe import (
    CARDS_PER_STACK,
    DealingPlan,
    DealPlan,
    Fault,
    RandomSource,
    SecretsSource,
    dispense,
    stacks_of_five,
)
from table.games.skeleton import DEALER, SkeletonBox, SkeletonRound, VoidReason

from .hands import (
    best_four,
    dealer_qualifies,
)
from .irregularities import CONSEQUENCES, FROM_DEAL, Irregularity
from .rules import (
    ANTE,
    BET_WAGERS,
    PLAY,
    SIX_CARD_BONUS,
    WAGER_ORDER,
    TableRules,
    dollars,
    draw_bonuses,
    play_range,
)
from .settlement import BoxInPlay, Draws, Wagers, hand_json, in_words, no_more_bets, settle

GAME: Final = "crazy_4_poker"
BOXES: Final = (1, 2, 3, 4, 5, 6)  # box 1 is farthest to the dealer's left


class Phase(StrEnum):
    BETTING = "betting"
    CLOSED = "closed"  # "no more bets" announced, cards not yet dealt
    DECISIONS = "decisions"  # cards dealt; boxes Play or fold from the dealer's left
    REVEALED = "revealed"
    SETTLED = "settled"
    VOID = "void"


UNFINISHED: Final = (Phase.BETTING, Phase.CLOSED, Phase.DECISIONS, Phase.REVEALED)


__all__ = [
    "BOXES",
    "DEALER",
    "GAME",
    "PUBLIC",
    "VOID_REASONS",
    "BoxPlay",
    "Event",
    "MeterChange",
    "Phase",
    "Round",
    "Step",
    "TableRules",
    "Transfer",
    "hand_json",
    "to_player",
]


#: Why a round may be voided, and the phases in which it may be voided for each. No phases:
#: only the virtual shoe produces it, while dealing, and :meth:`Round.deal` then voids the
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
        (Phase.DECISIONS,),
        Irregularity.STUB_COUNT_WRONG,
        counted=True,
    ),
    # §657a.13(d): only before every box has played or folded.
    Irregularity.DEALER_CARD_EXPOSED.value: VoidReason(
        "a dealer card was exposed before every box had played or folded (§657a.13(d)): "
        "every wager is returned, side bets included",
        (Phase.DECISIONS,),
        Irregularity.DEALER_CARD_EXPOSED,
    ),
    "table_closed": VoidReason("the table closed before the round was dealt", (Phase.BETTING,)),
    "server_restart": VoidReason(
        "the round could not resume after an interruption",
        (Phase.BETTING, Phase.CLOSED, Phase.DECISIONS),
    ),
    SUPERVISOR_VOID: VoidReason(
        SUPERVISOR_VOID_WORDS, (Phase.BETTING, Phase.CLOSED, Phase.DECISIONS, Phase.REVEALED)
    ),
}


@dataclass(frozen=True, slots=True)
class Step(EngineStep):
    """Four Card Frenzy's step (events, transfers) plus the meter changes it asks for."""

    meters: tuple[MeterChange, ...] = ()


# --- a box -------------------------------------------------------------------------------


@dataclass(slots=True)
class BoxPlay(SkeletonBox):
    # wagers by name, the Play added by the decision
    decision: int | None = None  # the Play in cents, 0 = fold, None = not yet

    @property
    def folded(self) -> bool:
        return self.decision == 0

    def settlement_wagers(self) -> Wagers:
        return Wagers(**{name: self.wagers.get(name, 0) for name in WAGER_ORDER})

    @classmethod
    def decision_from(cls, value: Any) -> Any:
        return None if value is None else int(value)


@dataclass(slots=True)
class Round(SkeletonRound[TableRules, BoxPlay, Step]):
    """A round of Crazy 4 Poker on the shared skeleton: with the meters, the Six Card Bonus
    card and the draws of its own."""

    GAME: ClassVar[str] = GAME
    PHASE: ClassVar[type[StrEnum]] = Phase
    RULES = TableRules
    BOX = BoxPlay
    STEP = Step
    VOID_REASONS: ClassVar[Mapping[str, VoidReason]] = VOID_REASONS
    SAVED: ClassVar[str] = "a saved Crazy 4 Poker round"
    IN_PLAY_WORDS: ClassVar[str] = "an Ante and Super Bonus"
    FOLD: ClassVar[object] = 0
    CHAPTER: ClassVar[str] = "§657a"

    phase: Phase = Phase.BETTING
    six_card_bonus_card: Card | None = None
    face_up: list[Card] = field(default_factory=list)  # found face up while dealing: public
    magic_card: Card | None = None
    lucky_position: int | str | None = None
    increments: dict[str, Increment] = field(default_factory=dict)  # at "no more bets"
    # discards: the face-up cards and the Six Card stack's rest

    @property
    def meter_names(self) -> tuple[str, ...]:
        return tuple(spec.name for spec in self.rules.rules.meters)

    # --- betting -----------------------------------------------------------------------

    def check_bet(self, box: int, player: str, wagers: Mapping[str, object]) -> dict[str, int]:
        """Validate a box's complete set of wagers; returns it with the Super Bonus = Ante."""
        self._require(Phase.BETTING)
        box, current = check_bettor(self.boxes, box, player, wagers, BET_WAGERS)
        placed = self.rules.check_wagers(wagers)
        ante = placed.get(ANTE, 0)
        most = self.rules.rules.max_boxes_per_player
        if ante or (current is not None and current.in_play):
            # §657a.7(e): a player wagers on at most N adjacent boxes.
            check_adjacent_boxes(self.boxes_of(player), box, bool(ante), most)
        return placed

    def _boxes_for_settlement(self) -> list[BoxInPlay]:
        return [
            BoxInPlay(b.box, b.player, tuple(b.cards), b.settlement_wagers())
            for b in self.boxes_in_play()
        ]

    def close_betting(self) -> Step:
        """The dealer announces "no more bets": every wager locks, and the progressive and
        hand-bonus wagers feed their meters now (§657a.7(c), §657a.10(a)(2))."""
        self.check_close_betting()  # §657a.10(b): a box plays with Ante and Super Bonus
        zero = {name: Meter(0) for name in self.meter_names}
        _, increments = no_more_bets(self.rules.rules, self._boxes_for_settlement(), zero)
        self.increments = dict(increments)
        self.phase = Phase.CLOSED
        changes = tuple(
            MeterChange(name, "increment", inc.primary, inc.reserve)
            for name, inc in sorted(increments.items())
        )
        event = Event(
            "betting_closed",
            {
                "boxes": [b.box for b in self.boxes_in_play()],
                "meter_increments": {
                    c.meter: {"amount": c.amount, "reserve": c.reserve} for c in changes
                },
            },
        )
        return Step((event,), (), changes)

    # --- dealing -----------------------------------------------------------------------

    def dealing_plan(self) -> DealingPlan:
        """§657a.10(b): a stack per box with Ante and Super Bonus from the dealer's left, the
        dealer's, and with a Six Card Bonus one more whose top card is the shared card."""
        in_play = self.boxes_in_play()
        return stacks_of_five(
            (b.box for b in in_play), any(b.wagers.get(SIX_CARD_BONUS, 0) for b in in_play)
        )

    def deal(self, faults: Sequence[Fault] = (), rng: RandomSource | None = None) -> Step:
        """Dispense the stacks from the shoe (§657a.10(b)): a stack per box from the dealer's
        left, the dealer's, then - if a box has a Six Card Bonus - one more whose top card is
        the Six Card Bonus card, the rest discarded unseen. A shoe irregularity voids the round
        (§657a.13(a), (c), (f)); otherwise the table game system draws the Magic Card and the
        Lucky position when the round triggers them (``rng``: ``secrets`` in play)."""
        self.check_deal(faults)
        in_play = self.boxes_in_play()
        stacks = self.dealing_plan()
        six = any(s.to == "shared" for s in stacks.stacks)
        dealt = dispense(self.order, stacks, DealPlan.for_plan(faults, stacks))
        exposed = Fault.DEALER_CARD_EXPOSED in faults
        draws = (
            (None, None) if dealt.irregularity or exposed else self._draw(rng or SecretsSource())
        )
        events: list[Event] = []
        for card in dealt.face_up_discards:
            # §657a.13(a): a card found face up is not used and goes to the discard rack.
            events.append(Event("face_up_card", {"card": card_code(card)}))
        self.lay_out(dealt.box_stacks, dealt.dealer_stack, dealt.stub)
        self.six_card_bonus_card = dealt.shared_card
        self.discards = [*dealt.face_up_discards, *dealt.shared_discards]
        self.face_up = list(dealt.face_up_discards)
        if dealt.irregularity:
            # The evidence: what the shoe was told to do and what it delivered.
            evidence = {
                "faults": [f.value for f in faults],
                "face_up": codes(dealt.face_up_discards),
                "stacks": [len(s) for s in (*dealt.box_stacks, dealt.dealer_stack)],
            }
            step = self.void_step(FROM_DEAL[dealt.irregularity].value, evidence)
            return Step((*events, *step.events), step.transfers, step.meters)
        if Fault.DEALER_CARD_EXPOSED in faults:
            # §657a.13(d): the shoe exposed a dealer card while dealing, before any decision:
            # all hands void, every wager returned (nothing stays in action, unlike ch. 684a).
            evidence = {
                "card": card_code(self.dealer_cards[0]),
                "faults": [f.value for f in faults],
            }
            step = self.void_step(Irregularity.DEALER_CARD_EXPOSED.value, evidence)
            return Step((*events, *step.events), step.transfers, step.meters)
        self.magic_card, self.lucky_position = draws
        self.phase = Phase.DECISIONS
        events.append(
            Event(
                "cards_dealt",
                {"boxes": [b.box for b in in_play], "six_card_bonus": six},
            )
        )
        events.append(
            Event(
                "shoe_stub",
                {"stub": len(self.stub), "discards": len(self.discards)},
                DEALER,
            )
        )
        for box in in_play:
            low, high = self.play_range(box)
            events.append(
                Event(
                    "hole_cards",
                    {"box": box.box, **hand_json(box.cards), "play": {"min": low, "max": high}},
                    to_player(box.player),
                )
            )
        events.extend(self._advance_turn())
        return Step(tuple(events))

    def _draw(self, rng: RandomSource) -> tuple[Card | None, int | str | None]:
        """The Magic Card and Lucky position (§657a.1), drawn before the round changes so a
        faulty source of randomness refuses the deal and changes nothing."""
        return draw_bonuses(self.rules.rules, _Checked(rng))

    # --- decisions ---------------------------------------------------------------------

    def play_range(self, box: BoxPlay) -> tuple[int, int]:
        """The Play wagers the box may make: the Ante, or 1x-3x it with aces or better."""
        return play_range(best_four(box.cards).value, box.wagers[ANTE])

    def record_decision(self, box: BoxPlay, play: int, why: str) -> list[Event]:
        box.decision = play
        if play:
            box.wagers[PLAY] = play
        return [
            Event(
                "decision",
                {
                    "box": box.box,
                    "player": box.player,
                    "play": play,
                    "folded": play == 0,
                    # §657a.11(b)(3): a folded Six Card Bonus keeps the cards on the layout.
                    "cards_kept": play != 0 or bool(box.wagers.get(SIX_CARD_BONUS)),
                    "why": why,
                },
            )
        ]

    def check_decision(self, current: BoxPlay, play: object) -> None:
        box = current.box
        if type(play) is not int or play < 0:
            raise InvalidInput("bad_play", "a Play is a whole number of cents, or 0 to fold")
        if play:
            low, high = self.play_range(current)
            if not low <= play <= high:
                # §657a.11(b): the Ante; with a pair of aces or better up to three times it.
                allowed = (
                    f"exactly the Ante, {dollars(low)}"
                    if low == high
                    else f"{dollars(low)} to {dollars(high)} (1x-3x the Ante)"
                )
                raise RuleViolation(
                    "play_not_allowed", f"box {box} may Play {allowed}, or fold (§657a.11(b))"
                )

    # --- reveal and settlement -----------------------------------------------------------

    def dealer_public(self) -> dict[str, Any]:
        whole = len(self.dealer_cards) == CARDS_PER_STACK
        return {
            **hand_json(self.dealer_cards),
            "qualifies": dealer_qualifies(best_four(self.dealer_cards).value) if whole else None,
            "six_card_bonus_card": (
                None if self.six_card_bonus_card is None else card_code(self.six_card_bonus_card)
            ),
        }

    def draws_public(self) -> dict[str, Any]:
        return {
            "magic_card": None if self.magic_card is None else card_code(self.magic_card),
            "lucky_position": self.lucky_position,
        }

    def check_settle(self, meters: Mapping[str, Meter]) -> dict[str, Meter]:
        self._require(Phase.REVEALED)
        if not isinstance(meters, Mapping) or not all(
            isinstance(m, Meter) for m in meters.values()
        ):
            raise InvalidInput("bad_meters", "meters must map each meter's name to its Meter")
        if sorted(meters) != sorted(self.meter_names):
            raise InvalidInput(
                "bad_meters",
                f"the meters must be exactly this table's {sorted(self.meter_names)}, "
                f"not {sorted(meters)}",
            )
        return dict(meters)

    def settle(self, meters: Mapping[str, Meter] | None = None) -> Step:
        """Settle every box from the dealer's right, box 6 to box 1 (§657a.11(c)-(g)).

        ``meters`` are the shared meters as they stand now, this round's increments included;
        the step's ``meters`` list what left each, in settlement order, and
        ``results["meters"]`` where each ends (the platform stores those)."""
        now = self.check_settle(meters or {})
        boxes = self._boxes_for_settlement()
        draws = Draws(self.magic_card, self.lucky_position)
        settled, after, paid, reseeds, journal = settle(
            self.rules.rules, self.dealer_cards, boxes, now, self.six_card_bonus_card, draws
        )
        said = in_words(boxes, settled, now, after, paid, reseeds, journal)
        events = [Event("box_settled", box) for box in said.boxes]
        meters_json = said.meters
        results = {
            "dealer": self.dealer_public(),
            "draws": self.draws_public(),
            "boxes": said.boxes,
            "players": said.players,
            "meters": meters_json,
        }
        events.append(self.settled(results, {"draws": self.draws_public(), "meters": meters_json}))
        return Step(tuple(events), tuple(said.transfers), tuple(said.changes))

    # --- irregularities ------------------------------------------------------------------

    def dealt(self) -> bool:
        """The stub is counted once the dealer's stack is out (§657a.10(d))."""
        return bool(self.dealer_cards)

    def more_counted(self) -> int:
        return 1 if self.six_card_bonus_card is not None else 0  # the Six Card Bonus card

    def refuse_unknown(self, reason: object) -> None:
        if isinstance(reason, str) and reason in {i.value for i in Irregularity}:
            raise RuleViolation(
                "not_void",
                f"{reason.replace('_', ' ')} does not void the round "
                f"({CONSEQUENCES[Irregularity(reason)].section})",
            )

    def check_evidence(self, reason: str, evidence: object) -> object:
        if reason != Irregularity.DEALER_CARD_EXPOSED:
            return evidence
        if self.to_act is None:
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
            if seen not in self.dealer_cards:
                raise RuleViolation(
                    "not_dealer_card",
                    f"{card_code(seen)} is not one of the dealer's cards: no dealer card "
                    "was exposed (§657a.13(d))",
                )
            return {**evidence, "card": card_code(seen)}
        return evidence

    def dealer_card_exposed(self, evidence: dict[str, Any] | None = None) -> Step:
        """§657a.13(d): a dealer card exposed before every box has played or folded voids the
        round, every wager returned; after that it changes nothing (refused)."""
        found = {"to_act": self.to_act, **(evidence or {})}
        return self.void(Irregularity.DEALER_CARD_EXPOSED.value, found)

    def void_step(self, reason: str, evidence: dict[str, Any]) -> Step:
        """Void: every stake back, and the meter increments taken back out (§657a.13)."""
        changes = tuple(
            MeterChange(name, "reverse", -inc.primary, -inc.reserve)
            for name, inc in sorted(self.increments.items())
        )
        reversals = {c.meter: {"amount": c.amount, "reserve": c.reserve} for c in changes}
        more = {"meter_reversals": reversals, "evidence": evidence}
        return Step(*self.voided(reason, more), changes)

    def procedure(self, irregularity: StrEnum) -> dict[str, Any]:
        """What the dealer does with the cards and the deck (§657a.13, §657a.10(f))."""
        c = CONSEQUENCES[Irregularity(irregularity)]
        return {
            "section": c.section,
            "reshuffle": c.reshuffle or c.void,
            "remove_deck": c.remove_deck,
        }

    # --- views ---------------------------------------------------------------------------

    def view(self, player: str | None = None, dealer: bool = False) -> dict[str, Any]:
        """What one viewer may see: a seated ``player``, or (None) a spectator, or the
        ``dealer`` console. See :mod:`.view`."""
        from .view import project

        return project(self, player, dealer)

    # --- persistence ---------------------------------------------------------------------

    def cards_dict(self) -> dict[str, Any]:
        return {
            "dealer_cards": list(self.dealer_cards),
            "six_card_bonus_card": self.six_card_bonus_card,
            "discards": list(self.discards),
            "face_up": list(self.face_up),
            "stub": list(self.stub),
            "magic_card": self.magic_card,
            "lucky_position": self.lucky_position,
            "increments": {
                name: {"amount": inc.primary, "reserve": inc.reserve}
                for name, inc in self.increments.items()
            },
        }

    @classmethod
    def more_from_dict(cls, d: dict[str, Any]) -> dict[str, Any]:
        def card_or_none(value: object) -> Card | None:
            return None if value is None else int(str(value))

        lucky = d["lucky_position"]
        return {
            "six_card_bonus_card": card_or_none(d["six_card_bonus_card"]),
            "face_up": [int(c) for c in d["face_up"]],
            "magic_card": card_or_none(d["magic_card"]),
            "lucky_position": lucky if lucky is None or lucky == "dealer" else int(lucky),
            "increments": {
                str(name): Increment(int(v["amount"]), int(v["reserve"]))
                for name, v in d["increments"].items()
            },
        }


class _Checked:
    """A source of randomness whose every answer is checked to be in range."""

    def __init__(self, rng: RandomSource) -> None:
        self.rng = rng

    def randbelow(self, n: int, /) -> int:
        j = self.rng.randbelow(n)
        if type(j) is not int or not 0 <= j < n:
            raise InvalidInput("bad_random", f"randbelow({n}) answered {j!r}")
        return j
