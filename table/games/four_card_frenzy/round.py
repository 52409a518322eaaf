"""One round of Four Card Frenzy (ch. 684a) on the shared skeleton.

    betting ──no more bets──► closed ──deal──► decisions ──reveal──► revealed ──settle──► settled
       └──────────────────────────┴────────────────┴───────────────────┴──void──► void

The round is the shared skeleton's (:mod:`table.games.skeleton`: betting, no more bets, the
turn, time-outs, leaving, voids with every stake returned, commit-reveal, the stub count and
the stored form); this module keeps what ch. 684a decides: the Ante and Odds with the optional
wagers, the deal with the All-Six card, the Raise of 1x-3x the Ante, the main game void of
§684a.13(d) (Ante, Odds and Raise returned, the optional wagers settled) and the settlement.
What a box may wager is :meth:`.rules.TableRules.check_wagers`'s; the settlement told in words
:func:`.settlement.in_words`'s.

Its stored rounds and ``round_opened`` predate the game's name in them (``NAMED`` False): the
records stay as they were, and a stored round loads with the name or without it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Final

from table.games.base import SUPERVISOR_VOID, SUPERVISOR_VOID_WORDS
from table.games.cards import Card, card_code, codes
from table.games.common import check_adjacent_boxes, check_bettor
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Event, Step, to_player
from table.games.shoe import CARDS_PER_STACK, DealingPlan, Fault, stacks_of_five
from table.games.skeleton import DEALER, Phase, SkeletonBox, SkeletonRound, VoidReason

from .hands import best_four, describe, max_raise_multiple, qualifies
from .irregularities import Irregularity, procedure
from .rules import OPTIONAL, TableRules
from .settlement import ALL_SIX, ANTE, ODDS, RAISE, BoxInPlay, in_words, settle

__all__ = ["BOXES", "DEAL_IRREGULARITIES", "VOID_REASONS", "BoxPlay", "Phase", "Round"]

BOXES: Final = (1, 2, 3, 4, 5, 6)  # box 1 is farthest to the dealer's left

_BEFORE_REVEAL: Final = (Phase.BETTING, Phase.CLOSED, Phase.DECISIONS)

#: The irregularities of §684a.13 that void a round, in plain words, and when, each with the
#: chapter's irregularity whose consequence is the dealer's procedure (:mod:`.irregularities`).
#: No phases: only the virtual shoe produces it, while dealing, and the deal then voids the
#: round with what it found (no deal irregularity is taken on trust).
VOID_REASONS: Final[Mapping[str, VoidReason]] = {
    "face_up_cards": VoidReason(
        "more than one card was found face up in the shoe (§684a.13(a))",
        (),
        Irregularity.CARDS_FACE_UP,
    ),
    "wrong_card_count": VoidReason(
        "a box or the dealer was dealt a wrong number of cards (§684a.13(c))",
        (),
        Irregularity.WRONG_CARD_COUNT,
    ),
    "shoe_jam": VoidReason(
        "the dealing shoe jammed or failed to deal all cards (§684a.13(f))",
        (),
        Irregularity.SHOE_JAM,
    ),
    # §684a.10(d),(f): counted, not trusted: only as the count shows it.
    "stub_miscount": VoidReason(
        "the stub count shows the deck is not 52 cards (§684a.10(f))",
        _BEFORE_REVEAL,
        Irregularity.STUB_MISCOUNT,
        counted=True,
    ),
    "table_closed": VoidReason("the table closed before the round was dealt", (Phase.BETTING,)),
    "server_restart": VoidReason(
        "the round could not resume after an interruption", _BEFORE_REVEAL
    ),
    SUPERVISOR_VOID: VoidReason(SUPERVISOR_VOID_WORDS, (*_BEFORE_REVEAL, Phase.REVEALED)),
}
#: Irregularities of the deal itself (§684a.13(a),(c),(f)): only the shoe produces them.
DEAL_IRREGULARITIES: Final = frozenset(r for r, v in VOID_REASONS.items() if not v.phases)
MAIN_GAME_VOID_REASON: Final = (
    "a dealer card was exposed before every decision was made (§684a.13(d)): Ante, Odds and "
    "Raise are returned, optional wagers are settled"
)


@dataclass(slots=True)
class BoxPlay(SkeletonBox):
    # wagers: ante, odds, the optional wagers, and the raise a decision adds
    decision: int | None = None  # Raise multiple 1-3, 0 = fold, None = not yet

    @property
    def folded(self) -> bool:
        return self.decision == 0

    @classmethod
    def decision_from(cls, value: Any) -> Any:
        return None if value is None else int(value)


@dataclass(slots=True)
class Round(SkeletonRound[TableRules, BoxPlay, Step]):
    """A round of Four Card Frenzy on the shared skeleton: the All-Six card and the main game
    void of its own."""

    GAME: ClassVar[str] = "four_card_frenzy"
    RULES = TableRules
    BOX = BoxPlay
    VOID_REASONS: ClassVar[Mapping[str, VoidReason]] = VOID_REASONS
    IN_PLAY_WORDS: ClassVar[str] = "an Ante and Odds"
    FOLD: ClassVar[object] = 0
    DECISION_WAGER: ClassVar[str] = RAISE
    PLACED_ORDER: ClassVar[tuple[str, ...]] = (ANTE, ODDS, *OPTIONAL, RAISE)
    CHAPTER: ClassVar[str] = "§684a"
    NAMED: ClassVar[bool] = False

    phase: Phase = Phase.BETTING
    all_six_card: Card | None = None
    # discards: the All-Six stack's rest and the cards found face up
    main_game_void: bool = False

    # --- betting -------------------------------------------------------------------------

    def check_bet(self, box: int, player: str, wagers: Mapping[str, object]) -> dict[str, int]:
        """Validate a box's complete set of wagers; returns it with Odds equal to Ante."""
        self._require(Phase.BETTING)
        box, current = check_bettor(self.boxes, box, player, wagers, (ANTE, *OPTIONAL))
        placed = self.rules.check_wagers(wagers)
        ante = placed.get(ANTE, 0)
        if ante or (current is not None and current.in_play):
            # §684a.7(e): a player wagers on at most N adjacent boxes.
            check_adjacent_boxes(self.boxes_of(player), box, bool(ante), self.rules.adjacent_boxes)
        return placed

    # --- dealing -------------------------------------------------------------------------

    def dealing_plan(self) -> DealingPlan:
        """§684a.10(b): a stack per box with Ante and Odds from the dealer's left, the
        dealer's, and with an All-Six Bonus one more whose top card is the All-Six card."""
        in_play = self.boxes_in_play()
        return stacks_of_five((b.box for b in in_play), any(b.wagers.get(ALL_SIX) for b in in_play))

    def deal(self, faults: Sequence[Fault] = ()) -> Step:
        """Dispense the stacks of the round's dealing plan from the shoe (§684a.10(b)); void
        on a shoe irregularity."""
        dealt = self.dispensed(faults)
        events = self.lay_out_deal(dealt)
        self.all_six_card = dealt.shared_card
        if dealt.irregularity:
            return self.after(
                events, self.void_step(dealt.irregularity, self.deal_evidence(dealt, faults))
            )
        self.phase = Phase.DECISIONS
        in_play = self.boxes_in_play()
        boxes = [b.box for b in in_play]
        shared = any(b.wagers.get(ALL_SIX) for b in in_play)
        events.append(
            Event("cards_dealt", {"boxes": boxes, "all_six": shared, "stub": len(self.stub)})
        )
        for box in in_play:
            hand = best_four(box.cards)
            data = {
                "box": box.box,
                "cards": codes(box.cards),
                "best_four": codes(hand.cards),
                "hand": describe(hand.value),
                "max_raise": max_raise_multiple(hand.value),
            }
            events.append(Event("hole_cards", data, to_player(box.player)))
        if Fault.DEALER_CARD_EXPOSED in faults:
            # §684a.13(d): the shoe exposed a dealer card while dealing, before any Raise.
            card, evidence = card_code(self.dealer_cards[0]), {"faults": [f.value for f in faults]}
            return self.after(events, self._main_game_void({"card": card, "evidence": evidence}))
        return Step((*events, *self._advance_turn()))

    def dealt(self) -> bool:
        """The stub is counted once the dealer's stack is out (§684a.10(d))."""
        return bool(self.dealer_cards)

    def more_counted(self) -> int:
        return 1 if self.all_six_card is not None else 0  # the All-Six card

    # --- decisions (§684a.11(b)) ---------------------------------------------------------

    def record_decision(self, box: BoxPlay, multiple: int, why: str) -> list[Event]:
        box.decision = multiple
        if multiple:
            box.wagers[RAISE] = multiple * box.wagers[ANTE]
        data = {
            "box": box.box,
            "player": box.player,
            "raise": box.wagers.get(RAISE, 0),
            "multiple": multiple,
            "folded": multiple == 0,
            "why": why,
        }
        return [Event("decision", data)]

    def check_decision(self, box: BoxPlay, multiple: object) -> None:
        if type(multiple) is not int or multiple not in (0, 1, 2, 3):
            raise InvalidInput("bad_raise", "raise 1, 2 or 3 times the Ante, or 0 to fold")
        if multiple > max_raise_multiple(best_four(box.cards).value):
            # §684a.11(b)(1): a pair of kings or lower raises exactly the Ante.
            raise RuleViolation(
                "raise_too_large", "a pair of kings or lower may raise only 1x the Ante"
            )

    def leaves(self, box: BoxPlay) -> bool:
        """A player who leaves (§684a.7(b)) abandons each box still to decide; its optional
        wagers stay in action."""
        return box.decision is None

    # --- reveal and settlement -----------------------------------------------------------

    def dealer_public(self) -> dict[str, Any]:
        """The dealer's cards face up, with their best four-card hand. A stack of other than
        five cards (a jammed shoe, §684a.13(f), or a misdeal, §684a.13(c): the round is void)
        is shown as dealt, with no hand: ``best_four``, ``hand``, ``category`` and
        ``qualifies`` are None."""
        public: dict[str, Any] = {
            "cards": codes(self.dealer_cards),
            "best_four": None,
            "hand": None,
            "category": None,
            "qualifies": None,
            "all_six_card": card_code(self.all_six_card) if self.all_six_card is not None else None,
        }
        if len(self.dealer_cards) == CARDS_PER_STACK:
            hand = best_four(self.dealer_cards)
            public.update(
                best_four=codes(hand.cards),
                hand=describe(hand.value),
                category=hand.category.key,
                qualifies=qualifies(hand.value),
            )
        return public

    def settle(self) -> Step:
        """Settle every box from the dealer's right (§684a.11(c),(d), §684a.12)."""
        self._require(Phase.REVEALED)
        return self._settle()

    def _settle(self) -> Step:
        in_play = self.boxes_in_play()
        boxes = [BoxInPlay(b.box, b.player, tuple(b.cards), dict(b.wagers)) for b in in_play]
        result = settle(
            self.dealer_cards,
            boxes,
            self.rules.settlement_rules(),
            self.all_six_card,
            main_game_void=self.main_game_void,
        )
        cards = {b.box: b.cards for b in in_play}
        optional = {b.box: any(w in b.wagers for w in OPTIONAL) for b in in_play}
        said = in_words(result, cards, optional)
        events = [Event("box_settled", box) for box in said.boxes]
        results = {
            "dealer": self.dealer_public(),
            "boxes": said.boxes,
            "players": said.players,
            "main_game_void": self.main_game_void,
        }
        events.append(self.settled(results, {"main_game_void": self.main_game_void}))
        return Step(tuple(events), tuple(said.transfers))

    # --- irregularities (§684a.13, §684a.10(f)) ------------------------------------------

    def dealer_card_exposed(self) -> Step:
        """§684a.13(d): a dealer card exposed before every Raise was made."""
        self._require(Phase.DECISIONS)
        if self.to_act is None:
            # §684a.13(d) voids only an exposure "prior to the player's placing their Raise
            # Wagers": with every decision made, the hand stands and the dealer reveals.
            raise RuleViolation(
                "decisions_complete",
                "every box has decided: an exposed dealer card changes nothing; reveal the hand",
            )
        return self._main_game_void({})

    def _main_game_void(self, details: dict[str, Any]) -> Step:
        """The main game is void: Ante, Odds and Raise come back, the optional wagers are
        settled against the dealer's hand, turned face up (§684a.13(d))."""
        self.main_game_void = True
        self.to_act = None
        exposed = Event("dealer_card_exposed", {"reason": MAIN_GAME_VOID_REASON, **details})
        # What the dealer does with the cards (§684a.13(d): reshuffled), as a void's procedure.
        what = Event("irregularity_procedure", self.main_game_void_procedure(), DEALER)
        revealed = Event("dealer_revealed", self.dealer_public())
        return self.after((exposed, what, revealed), self._settle())

    def procedure(self, irregularity: StrEnum) -> dict[str, Any]:
        """The dealer's procedure after a void, ch. 684a's consequence in its words."""
        return procedure(Irregularity(irregularity))

    @staticmethod
    def main_game_void_procedure() -> dict[str, Any]:
        """§684a.13(d): the procedure after a dealer card exposed before every Raise."""
        exposure = Irregularity.DEALER_CARD_EXPOSED
        return {"reason": exposure.value, **procedure(exposure)}

    def procedure_now(self) -> dict[str, Any] | None:
        """A void's procedure, or the main game's (§684a.13(d)) until the next round opens."""
        if self.main_game_void and not self.void_reason:
            return self.main_game_void_procedure()
        return SkeletonRound.procedure_now(self)

    def dealer_visible(self) -> bool:
        return SkeletonRound.dealer_visible(self) or self.main_game_void

    def irregularity(self) -> str | None:
        """Why the round did not end as a plain settlement (§684a.13), in words, or None."""
        if self.void_reason:
            return SkeletonRound.irregularity(self)
        return MAIN_GAME_VOID_REASON if self.main_game_void else None

    # --- views and the stored form -------------------------------------------------------

    def view(self, player: str | None, dealer: bool = False) -> dict[str, Any]:
        """What ``player`` (None: a spectator) or the dealer console may see: :mod:`.view`."""
        return _view()(self, player, dealer)

    def view_from(
        self, player: str | None, spectators: dict[str, Any], dealer: bool = False
    ) -> dict[str, Any]:
        """``view(player, dealer)`` built from the spectators' view: only the player's boxes
        or the console's extras anew."""
        return _view()(self, player, dealer=dealer, spectators=spectators)

    def cards_dict(self) -> dict[str, Any]:
        return {
            "dealer_cards": list(self.dealer_cards),
            "all_six_card": self.all_six_card,
            "discards": list(self.discards),
            "stub": list(self.stub),
        }

    def outcome_dict(self) -> dict[str, Any]:
        return {"main_game_void": self.main_game_void}

    @classmethod
    def more_from_dict(cls, d: dict[str, Any]) -> dict[str, Any]:
        six = d["all_six_card"]
        return {
            "all_six_card": None if six is None else int(six),
            "main_game_void": bool(d["main_game_void"]),
        }


@cache
def _view() -> Callable[..., dict[str, Any]]:
    """:mod:`.view`'s ``project``, imported once (that module imports this one): an import
    inside each view method cost a module lookup for every viewer of every command."""
    from .view import project

    return project
