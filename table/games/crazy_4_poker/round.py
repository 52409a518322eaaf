"""One round of Crazy 4 Poker (ch. 657a) on the shared skeleton.

    betting ──no more bets──► closed ──deal──► decisions ──reveal──► revealed ──settle──► settled
       └──────────────────────────┴────────────────┴──────────────────────────────void──► void

The round is the shared skeleton's (:mod:`table.games.skeleton`: betting, no more bets, the
turn, time-outs, leaving, voids with their checks, commit-reveal, the stub count and the stored
form); this module keeps what ch. 657a decides: the wagers, the meters, the deal with its Six
Card Bonus card and draws, the Play decision, the exposed dealer card's evidence and the
settlement. Its :class:`Step` adds ``meters``: what the round asks the platform to do to the
progressive and hand-bonus meters, which live outside it, shared by every table linked to
them: "no more bets" returns this round's increments (§657a.10(a)(2)); :meth:`Round.settle`
takes the meters as they stand and returns what each pays, in settlement order (box 6 to box
1, §657a.11(c)), and where each ends; a void takes the increments back out (§657a.13). What a
box may wager is :class:`.rules.TableRules`'s, the voids and their consequences
:mod:`.irregularities`', the settlement told in words :func:`.settlement.in_words`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Final

from table.games.base import MeterChange
from table.games.cards import Card, card_code
from table.games.common import check_adjacent_boxes, check_bettor
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Event, to_player
from table.games.events import Step as EngineStep
from table.games.progressive import Increment, Meter
from table.games.shoe import (
    CARDS_PER_STACK,
    DealingPlan,
    Fault,
    RandomSource,
    SecretsSource,
    stacks_of_five,
)
from table.games.skeleton import DEALER, Phase, SkeletonBox, SkeletonRound, VoidReason

from .hands import best_four, dealer_qualifies
from .irregularities import (
    FROM_DEAL,
    VOID_REASONS,
    Irregularity,
    exposure_evidence,
    procedure,
    refuse_not_void,
)
from .meters import check_meters
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

#: What the game's view, recheck and tests take from here besides the round's own names.
__all__ = ["DEALER", "VOID_REASONS", "MeterChange", "Phase", "TableRules", "hand_json"]


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
    RULES = TableRules
    BOX = BoxPlay
    STEP = Step
    VOID_REASONS: ClassVar[Mapping[str, VoidReason]] = VOID_REASONS
    SAVED: ClassVar[str] = "a saved Crazy 4 Poker round"
    IN_PLAY_WORDS: ClassVar[str] = "an Ante and Super Bonus"
    PLACED_ORDER: ClassVar[tuple[str, ...]] = (*BET_WAGERS, PLAY)
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
        dealt = self.dispensed(faults)
        exposed = Fault.DEALER_CARD_EXPOSED in faults
        # Drawn before the round changes: a faulty source of randomness refuses the deal.
        no_draws = dealt.irregularity or exposed
        draws = (None, None) if no_draws else draw_bonuses(self.rules.rules, rng or SecretsSource())
        events = self.lay_out_deal(dealt)
        self.six_card_bonus_card = dealt.shared_card
        self.face_up = list(dealt.face_up_discards)
        if dealt.irregularity:
            evidence = self.deal_evidence(dealt, faults)
            return self.after(events, self.void_step(FROM_DEAL[dealt.irregularity].value, evidence))
        if exposed:
            # §657a.13(d): the shoe exposed a dealer card while dealing, before any decision:
            # all hands void, every wager returned (nothing stays in action, unlike ch. 684a).
            card, faulted = card_code(self.dealer_cards[0]), [f.value for f in faults]
            evidence = {"card": card, "faults": faulted}
            step = self.void_step(Irregularity.DEALER_CARD_EXPOSED.value, evidence)
            return self.after(events, step)
        self.magic_card, self.lucky_position = draws
        self.phase = Phase.DECISIONS
        in_play = self.boxes_in_play()
        six = any(b.wagers.get(SIX_CARD_BONUS, 0) for b in in_play)
        events.append(
            Event("cards_dealt", {"boxes": [b.box for b in in_play], "six_card_bonus": six})
        )
        stub = {"stub": len(self.stub), "discards": len(self.discards)}
        events.append(Event("shoe_stub", stub, DEALER))
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

    def settle(self, meters: Mapping[str, Meter] | None = None) -> Step:
        """Settle every box from the dealer's right, box 6 to box 1 (§657a.11(c)-(g)).

        ``meters`` are the shared meters as they stand now, this round's increments included;
        the step's ``meters`` list what left each, in settlement order, and
        ``results["meters"]`` where each ends (the platform stores those)."""
        self._require(Phase.REVEALED)
        now = check_meters(meters or {}, self.meter_names)
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
        refuse_not_void(reason)

    def check_evidence(self, reason: str, evidence: object) -> object:
        if reason != Irregularity.DEALER_CARD_EXPOSED:
            return evidence
        return exposure_evidence(evidence, self.to_act, self.dealer_cards)

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
        return procedure(Irregularity(irregularity))

    # --- views ---------------------------------------------------------------------------

    def view(self, player: str | None = None, dealer: bool = False) -> dict[str, Any]:
        """What one viewer may see: a seated ``player``, or (None) a spectator, or the
        ``dealer`` console. See :mod:`.view`."""
        return _view()(self, player, dealer)

    def view_from(
        self, player: str | None, spectators: dict[str, Any], dealer: bool = False
    ) -> dict[str, Any]:
        """``view(player, dealer)`` built from the spectators' view: only the player's boxes
        or the console's extras anew."""
        return _view()(self, player, dealer=dealer, spectators=spectators)

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


@cache
def _view() -> Callable[..., dict[str, Any]]:
    """:mod:`.view`'s ``project``, imported once (that module imports this one): an import
    inside each view method cost a module lookup for every viewer of every command."""
    from .view import project

    return project
