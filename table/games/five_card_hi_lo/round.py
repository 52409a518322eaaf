"""One round of Five Card Hi-Lo (ch. 663a) on the shared skeleton, with the setting step.

    betting ─no more bets─► closed ─deal─► decisions ─► setting ─reveal─► revealed ─settle─► settled
       └───────────────────────┴─────────────┴───────────┴───────────────┴──void──► void

The steps of §663a.10 and §663a.11: wagers until "no more bets"; one stack of five per box
with an Ante from the dealer's left, then the dealer's; each box folds or makes a Play Wager
equal to its Ante, box by box from the dealer's left; then every playing box sets its high
and low hands (a player on two boxes in the order of §663a.7(f)); then the dealer turns over
and sets the house way, and every box is settled from the dealer's right.

The round is the shared skeleton's (:mod:`table.games.skeleton`: betting, no more bets, the
turn, time-outs, leaving, voids, commit-reveal, the stored form) with its setting step
(:mod:`table.games.setting`: turns, time-outs and players leaving while hands are set); this
module keeps what ch. 663a decides: the deal's words, the fold-or-Play decision, what a
setting is and the order a player's boxes are set in, when the stub count's two voids may be
called and the settlement. What a box may wager is :meth:`.rules.HiLoRules.check_wagers`'s,
the voids and what the stub count shows :mod:`.irregularities`', and the settlement told in
words :func:`.settlement.in_words`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Final

from table.games.cards import Card, card_code, codes
from table.games.common import adjacent, check_bettor
from table.games.common import check_player as _player
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import PUBLIC, Event, Step, Transfer, to_player
from table.games.setting import SettingBox, SettingRound
from table.games.shoe import DealPlan, Fault
from table.games.skeleton import DEALER, VoidReason

from .hands import (
    Setting,
    cards_given,
    default_setting,
    house_way,
    offered_settings,
    possible_settings,
    set_hands,
    setting_json,
)
from .irregularities import (
    STUB_VOIDS,
    UNFINISHED,
    VOID_REASONS,
    Irregularity,
    deal_round,
    procedure,
    stub_refusal,
)
from .poker import poker_rank_trusted
from .rules import OPTIONAL, HiLoRules
from .settlement import (
    ANTE,
    PLAY,
    POKER_BONUS,
    TIE,
    BoxInPlay,
    RoundSettlement,
    Wagers,
    in_words,
    setting_order,
    settle_round,
)

GAME: Final = "five_card_hi_lo"
BOXES: Final = (1, 2, 3, 4, 5, 6)  # box 1 is farthest to the dealer's left (§663a.10(b))

#: What the game's adapter, view and tests take from here besides the round's own names.
__all__ = ["DEALER", "PUBLIC", "VOID_REASONS", "Transfer", "offered_settings", "setting_json"]


class Phase(StrEnum):
    BETTING = "betting"
    CLOSED = "closed"  # "no more bets" announced, cards not yet dealt
    DECISIONS = "decisions"  # cards dealt; boxes fold or Play from the dealer's left
    SETTING = "setting"  # every playing box sets its high and low hands
    REVEALED = "revealed"  # the dealer's cards turned over and set the house way
    SETTLED = "settled"
    VOID = "void"


PLAY_DECISION: Final = "play"
FOLD_DECISION: Final = "fold"


@dataclass(slots=True)
class BoxPlay(SettingBox):
    # wagers: ante, tie, poker_bonus, play
    decision: str | None = None  # "play", "fold" or None = not yet
    high: list[Card] | None = None  # the setting, once made and locked (§663a.7(f))
    low: list[Card] | None = None
    # set_by: "player", "timeout" (aces high) or "abandoned" (never set: ABANDON_RULE)

    @property
    def playing(self) -> bool:
        return self.decision == PLAY_DECISION

    @property
    def folded(self) -> bool:
        return self.decision == FOLD_DECISION

    def has_setting(self) -> bool:
        return self.high is not None and self.low is not None

    def setting(self) -> Setting | None:
        if self.high is None or self.low is None:
            return None
        return Setting.of(self.high, self.low)

    def settlement_wagers(self) -> Wagers:
        w = self.wagers
        return Wagers(w.get(ANTE, 0), w.get(PLAY, 0), w.get(TIE, 0), w.get(POKER_BONUS, 0))

    def more_dict(self) -> dict[str, Any]:
        return {
            "high": None if self.high is None else list(self.high),
            "low": None if self.low is None else list(self.low),
            "set_by": self.set_by,
        }

    @classmethod
    def decision_from(cls, value: Any) -> Any:
        if value not in (None, PLAY_DECISION, FOLD_DECISION):
            raise ValueError(f"decision {value!r}")
        return value

    @classmethod
    def more_from_dict(cls, d: dict[str, Any]) -> dict[str, Any]:
        return {
            "high": None if d["high"] is None else [int(c) for c in d["high"]],
            "low": None if d["low"] is None else [int(c) for c in d["low"]],
            "set_by": None if d["set_by"] is None else str(d["set_by"]),
        }


@dataclass(slots=True)
class Round(SettingRound[HiLoRules, BoxPlay, Step]):
    """A round of Five Card Hi-Lo on the shared skeleton, with the setting step
    (:mod:`table.games.setting`): three cards high, two low (§663a.11(d))."""

    GAME: ClassVar[str] = GAME
    PHASE: ClassVar[type[StrEnum]] = Phase
    RULES = HiLoRules
    BOX = BoxPlay
    STEP = Step
    VOID_REASONS: ClassVar[Mapping[str, VoidReason]] = VOID_REASONS
    PLACED_ORDER: ClassVar[tuple[str, ...]] = (ANTE, *OPTIONAL, PLAY)
    ORDER_WORDS: ClassVar[str] = (
        "the larger Ante first, equal Antes the box farther to the dealer's right first, each "
        "locked before the next (§663a.7(f))"
    )

    phase: Phase = Phase.BETTING

    @classmethod
    def check_rules(cls, rules: object) -> None:
        if not isinstance(rules, HiLoRules):
            raise InvalidInput("bad_rules", "a round is played under the table's rules")
        rules.validated()

    # --- betting -------------------------------------------------------------------------

    def check_bet(self, box: int, player: str, wagers: Mapping[str, object]) -> dict[str, int]:
        """Validate a box's complete set of wagers (Ante, and Tie and Poker Bonus if offered)."""
        self._require(Phase.BETTING)
        box, current = check_bettor(self.boxes, box, player, wagers, (ANTE, *OPTIONAL))
        placed = self.rules.check_wagers(wagers)
        ante = placed.get(ANTE, 0)
        if ante:
            mine = sorted({*self.boxes_of(player), box})
            if len(mine) > self.rules.boxes_per_player():
                # §663a.7(f): two adjacent boxes only if the Rules Submission permits.
                raise RuleViolation(
                    "too_many_boxes",
                    "a player may play at most two adjacent boxes (§663a.7(f))"
                    if self.rules.adjacent_boxes
                    else "this table allows one box per player (§663a.7(f))",
                )
            if not adjacent(mine):
                raise RuleViolation(
                    "not_adjacent", "a player's two boxes must be next to each other (§663a.7(f))"
                )
        return placed

    # --- dealing -------------------------------------------------------------------------

    def deal(self, faults: Sequence[Fault] = ()) -> Step:
        """Dispense the stacks from the shoe (§663a.10(b)); void on a shoe irregularity
        (§663a.13(a), (c), (e)). ``faults`` are what the shoe was told to do wrong."""
        self.check_deal(faults)
        stacks = self.dealing_plan()
        dealt = deal_round(self.order, stacks, DealPlan.for_plan(faults, stacks))
        events: list[Event] = []
        for card in dealt.face_up_discards:
            # §663a.13(a): a card found face up is not used and goes to the discard rack.
            events.append(Event("face_up_card", {"card": card_code(card)}))
        in_play = self.lay_out(dealt.box_stacks, dealt.dealer_stack, dealt.stub)
        self.discards = list(dealt.face_up_discards)
        if dealt.void:
            assert dealt.irregularity is not None
            step = self._void(dealt.irregularity.value)
            return Step((*events, *step.events), step.transfers)
        self.phase = Phase.DECISIONS
        events.append(Event("cards_dealt", {"boxes": [b.box for b in in_play]}))
        # §663a.10(c), (d): the dealer removes the stub (and counts it when due).
        events.append(Event("stub", {"cards": len(self.stub)}, DEALER))
        for box in in_play:
            events.append(
                Event(
                    "hole_cards",
                    {
                        "box": box.box,
                        "cards": codes(box.cards),
                        "poker_hand": poker_rank_trusted(box.cards).hand.value,
                        "settings": offered_settings(box.cards),
                    },
                    to_player(box.player),
                )
            )
        events.extend(self._advance_turn())
        return Step(tuple(events))

    # --- decisions: fold or Play (§663a.11(b)) -------------------------------------------------

    def record_decision(self, box: BoxPlay, play: bool, why: str) -> list[Event]:
        box.decision = PLAY_DECISION if play else FOLD_DECISION
        if play:
            # §663a.11(b): a Play Wager "in an amount equal to the player's Ante Wager".
            box.wagers[PLAY] = box.wagers[ANTE]
        data: dict[str, Any] = {
            "box": box.box,
            "player": box.player,
            "decision": box.decision,
            "play": box.wagers.get(PLAY, 0),
            "why": why,
        }
        if not play:
            # §663a.11(b)(1), (2), (c): the Ante and Tie are forfeited; the cards go to the
            # discard rack unless a Poker Bonus keeps them on the table.
            data["forfeited"] = box.wagers[ANTE] + box.wagers.get(TIE, 0)
            data["cards_kept"] = box.wagers.get(POKER_BONUS, 0) > 0
        return [Event("decision", data)]

    def check_decision(self, box: BoxPlay, play: object) -> None:
        if not isinstance(play, bool):
            raise InvalidInput("bad_decision", "the decision is Play (true) or fold (false)")

    # --- setting the hands (§663a.11(d), §663a.7(f)) -------------------------------------------

    def setting_order_of(self, player: str) -> list[int]:
        """A player's playing boxes in the order they are set: one box, or two adjacent boxes
        with the larger Ante first, equal Antes the higher box first (§663a.7(f))."""
        antes = {
            b.box: b.wagers[ANTE] for b in self.boxes_in_play() if b.player == player and b.playing
        }
        return setting_order(antes)

    def record_setting(self, box: BoxPlay, setting: Setting, why: str) -> list[Event]:
        box.high, box.low, box.set_by = list(setting.high), list(setting.low), why
        return [
            # Set face down: everyone sees that the box is set, only its owner how.
            Event("hands_set", {"box": box.box, "player": box.player, "why": why}),
            Event(
                "setting",
                {"box": box.box, **setting_json(setting), "why": why},
                to_player(box.player),
            ),
        ]

    def default_setting(self, box: BoxPlay) -> Setting:
        """Aces high (house rule: the house never moves an ace low for a player)."""
        return default_setting(box.cards)

    def forfeited_stake(self, box: BoxPlay) -> int:
        """Ante, Play and Tie lose at settlement (ABANDON_RULE, §663a.7(b))."""
        return box.wagers[ANTE] + box.wagers.get(PLAY, 0) + box.wagers.get(TIE, 0)

    def check_set_hands(
        self, box: int, player: str | None, high: object, low: object
    ) -> tuple[BoxPlay, Setting]:
        play = self.settable(box, player)
        setting = set_hands(
            play.cards, cards_given(high, "the high hand"), cards_given(low, "the low hand")
        )
        return play, setting

    def set_hands(self, box: int, player: str, high: object, low: object) -> Step:
        """The player sets ``box``: three cards high, two low (§663a.11(d)); refused when the
        setting is not legal or it is not this box's turn; locked once set."""
        return self.set_box(*self.check_set_hands(box, _player(player), high, low))

    def choose_setting(self, box: int, player: str, ace_low: object) -> Step:
        """The felt's two buttons: aces high, or one ace low when the hand offers it."""
        play = self.settable(box, _player(player))
        if not isinstance(ace_low, bool):
            raise InvalidInput("bad_setting", "choose aces high (false) or one ace low (true)")
        offered = possible_settings(play.cards)
        if ace_low and len(offered) < 2:
            raise RuleViolation(
                "no_ace_low_setting",
                "this hand has no other setting: an ace low needs one to three aces",
            )
        chosen = offered[1 if ace_low else 0]
        return self.set_hands(play.box, player, list(chosen.high), list(chosen.low))

    # --- reveal and settlement ----------------------------------------------------------------

    def dealer_public(self) -> dict[str, Any]:
        """The dealer's five cards and the house way (§663a.11(e))."""
        setting = house_way(self.dealer_cards)
        return {"cards": codes(self.dealer_cards), **setting_json(setting)}

    def _settlement(self) -> RoundSettlement:
        boxes = [
            BoxInPlay(
                b.box,
                b.player,
                tuple(b.cards),
                b.settlement_wagers(),
                b.setting() if b.playing else None,
                b.forfeited,
            )
            for b in self.boxes_in_play()
        ]
        return settle_round(self.dealer_cards, boxes, self.rules.paytables())

    def settle(self) -> Step:
        """Settle every box from the dealer's right counterclockwise, box 6 to box 1:
        Ante and Play, the Ante Bonus, the Tie, the Poker Bonus (§663a.11(f)-(j), §663a.12)."""
        self._require(Phase.REVEALED)
        result = self._settlement()
        said = in_words(result, self.boxes)
        events = [Event("box_settled", box) for box in said.boxes]
        results = {"dealer": self.dealer_public(), "boxes": said.boxes, "players": said.players}
        events.append(self.settled(results))
        return Step(tuple(events), tuple(said.transfers))

    # --- irregularities (§663a.13, §663a.10(f)) ------------------------------------------------

    def may_void(self, reason: str) -> bool:
        """A stub-count void only as the count shows it (§663a.10(f))."""
        return reason not in STUB_VOIDS or self._stub_refusal(reason) is None

    def misdealt(self) -> bool:
        """A box in play or the dealer holds more or fewer than five cards (§663a.10(f))."""
        hands = [self.dealer_cards, *(b.cards for b in self.boxes_in_play())]
        return any(len(hand) != 5 for hand in hands)

    def _stub_refusal(self, reason: str) -> RuleViolation | None:
        return stub_refusal(reason, self.stub_count(), self.misdealt())

    def void(self, reason: str, evidence: dict[str, Any] | None = None) -> Step:
        """Void the round for a named irregularity: every stake goes back (§663a.13). A stub
        miscount only when the stub is counted, right after the deal, and only as the count
        shows it (§663a.10(f)); no other evidence is recorded."""
        self._require(*UNFINISHED)
        if not isinstance(reason, str) or reason not in VOID_REASONS:
            raise InvalidInput(
                "unknown_irregularity",
                f"unknown irregularity {reason!r} (one of {', '.join(VOID_REASONS)})",
            )
        known = VOID_REASONS[reason]
        if self.phase not in known.phases:
            when = (
                "it happens only while the shoe deals: the deal finds it"
                if not known.phases
                else "only when the round is " + " or ".join(known.phases)
            )
            if reason in STUB_VOIDS:
                when += " (the stub is counted right after the deal, §663a.10(c)-(f))"
            raise RuleViolation(
                "irregularity_not_now", f"{reason} cannot void the round now: {when}"
            )
        if reason in STUB_VOIDS:
            refusal = self._stub_refusal(reason)
            if refusal is not None:
                raise refusal
        return self._void(reason)

    def _void(self, reason: str) -> Step:
        return Step(*self.voided(reason))

    def procedure(self, irregularity: StrEnum) -> dict[str, Any]:
        return procedure(Irregularity(irregularity))

    # --- views ---------------------------------------------------------------------------

    def view(self, player: str | None, dealer: bool = False) -> dict[str, Any]:
        """What ``player`` (None: a spectator) or the dealer console may see now."""
        return _view()(self, player, dealer=dealer)

    def view_from(
        self, player: str | None, spectators: dict[str, Any], dealer: bool = False
    ) -> dict[str, Any]:
        """``view(player, dealer)`` built from the spectators' view: only the player's boxes
        or the console's extras anew."""
        return _view()(self, player, dealer=dealer, spectators=spectators)


@cache
def _view() -> Callable[..., dict[str, Any]]:
    """:mod:`.view`'s ``round_view``, imported once (that module imports this one): an import
    inside each view method cost a module lookup for every viewer of every command."""
    from .view import round_view

    return round_view
