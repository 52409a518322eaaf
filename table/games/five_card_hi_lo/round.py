"""One round of Five Card Hi-Lo as an explicit state machine, shaped like Four Card Frenzy's.

    betting ─no more bets─► closed ─deal─► decisions ─► setting ─reveal─► revealed ─settle─► settled
       └───────────────────────┴─────────────┴───────────┴───────────────┴──void──► void

Every command checks first and raises :class:`RuleViolation` or :class:`InvalidInput` (with a
code) when it is not allowed now, changing nothing; then it changes the round and returns a
:class:`Step` (the same type as Four Card Frenzy's): the events it caused, in order, each with
its audience (everyone, one box's owner, or the dealer), and the money it moves between
players and the table.

The steps of §663a.10 and §663a.11: wagers until "no more bets"; one stack of five per box
with an Ante from the dealer's left, then the dealer's stack; each box folds or makes a Play
Wager equal to its Ante, box by box from the dealer's left; then every playing box sets its
high and low hands (the players set at the same time; a player on two boxes sets them in the
order of §663a.7(f), each locked before the next); then the dealer turns over and sets the
house way, and every box is settled from the dealer's right.

The round holds the shuffled order of its one deck (the shoe) from the moment betting opens,
so that its SHA-256 commitment can be published before any card is dealt; the order and the
salt are published when the round is over.

The round is the shared skeleton's (:mod:`table.games.skeleton`: betting, no more bets, the
turn, time-outs, leaving, voids, commit-reveal, the stored form); this module keeps what ch. 663a
decides: the deal's words, the fold-or-Play decision, the setting step, when the stub count's
two voids may be called and the settlement's order. What a box may wager is
:meth:`.rules.HiLoRules.check_wagers`'s, what the stub count shows
:func:`.irregularities.stub_refusal`'s, and the settlement told in words
:func:`.settlement.in_words`'s. (Past 500 lines: the setting step, §663a.11(d) and
§663a.7(f), is a phase of this game's own, with its turns, time-outs and players leaving.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final

from table.games.base import SUPERVISOR_VOID, SUPERVISOR_VOID_WORDS
from table.games.cards import Card, card_code, codes, parse_card
from table.games.common import adjacent, check_bettor
from table.games.common import check_player as _player
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import PUBLIC, Event, Step, Transfer, to_player
from table.games.shoe import DealPlan, Fault
from table.games.skeleton import DEALER, SkeletonBox, SkeletonRound, VoidReason

from .hands import (
    Setting,
    default_setting,
    house_way,
    offered_settings,
    possible_settings,
    set_hands,
    setting_json,
)
from .irregularities import Irregularity, consequence, deal_round, stub_refusal
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

__all__ = [
    "BOXES",
    "DEALER",
    "GAME",
    "PUBLIC",
    "VOID_REASONS",
    "BoxPlay",
    "Event",
    "Phase",
    "Round",
    "Step",
    "Transfer",
    "offered_settings",
    "setting_json",
    "to_player",
]


class Phase(StrEnum):
    BETTING = "betting"
    CLOSED = "closed"  # "no more bets" announced, cards not yet dealt
    DECISIONS = "decisions"  # cards dealt; boxes fold or Play from the dealer's left
    SETTING = "setting"  # every playing box sets its high and low hands
    REVEALED = "revealed"  # the dealer's cards turned over and set the house way
    SETTLED = "settled"
    VOID = "void"


UNFINISHED: Final = (
    Phase.BETTING,
    Phase.CLOSED,
    Phase.DECISIONS,
    Phase.SETTING,
    Phase.REVEALED,
)
#: §663a.10(c)-(f), §663a.11(a): the stub is counted once every stack is delivered, before the
#: players examine their cards and play goes on; the count's void happens then, never once
#: the hands are set or the dealer's is face up (the dealer would choose the outcome).
STUB_COUNTED: Final = (Phase.DECISIONS,)
#: The stub-count voids, each checked against the count (§663a.10(f)).
STUB_VOIDS: Final = frozenset(
    {Irregularity.STUB_MISCOUNT.value, Irregularity.STUB_MISCOUNT_MISDEALT.value}
)


#: Why a round is void, every stake returned, and when each can happen.
VOID_REASONS: Final = {
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
    "table_closed": VoidReason(
        "the table closed before the round was dealt", (Phase.BETTING, Phase.CLOSED)
    ),
    "server_restart": VoidReason("the round could not resume after an interruption", UNFINISHED),
    SUPERVISOR_VOID: VoidReason(SUPERVISOR_VOID_WORDS, UNFINISHED),
}

PLAY_DECISION: Final = "play"
FOLD_DECISION: Final = "fold"
#: ``set_by`` of a box its player left before setting it: never set (ABANDON_RULE).
ABANDONED: Final = "abandoned"


@dataclass(slots=True)
class BoxPlay(SkeletonBox):
    # wagers: ante, tie, poker_bonus, play
    decision: str | None = None  # "play", "fold" or None = not yet
    high: list[Card] | None = None  # the setting, once made and locked (§663a.7(f))
    low: list[Card] | None = None
    set_by: str | None = None  # "player", "timeout" (aces high) or "abandoned" (never set)

    @property
    def playing(self) -> bool:
        return self.decision == PLAY_DECISION

    @property
    def folded(self) -> bool:
        return self.decision == FOLD_DECISION

    @property
    def is_set(self) -> bool:
        """Set and locked; or left by its player before setting it (never set: it loses,
        ABANDON_RULE), so nothing is waited for."""
        return (self.high is not None and self.low is not None) or self.forfeited

    @property
    def forfeited(self) -> bool:
        return self.set_by == ABANDONED and self.high is None

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


def _cards_given(value: object, what: str) -> list[Card]:
    """A hand as the player sends it: card codes ("AS") or cards 0..51."""
    if not isinstance(value, list | tuple):
        raise InvalidInput("bad_setting", f"{what} must be a list of cards")
    out: list[Card] = []
    for item in value:
        if isinstance(item, str):
            out.append(parse_card(item))
        elif type(item) is int and 0 <= item < 52:
            out.append(item)
        else:
            raise InvalidInput("bad_card", f"no such card {item!r} in {what}")
    return out


@dataclass(slots=True)
class Round(SkeletonRound[HiLoRules, BoxPlay, Step]):
    """A round of Five Card Hi-Lo on the shared skeleton, with the setting step of its own."""

    GAME: ClassVar[str] = GAME
    PHASE: ClassVar[type[StrEnum]] = Phase
    RULES = HiLoRules
    BOX = BoxPlay
    STEP = Step
    VOID_REASONS: ClassVar[Mapping[str, VoidReason]] = VOID_REASONS

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

    def decisions_complete(self) -> list[Event]:
        """Every box has decided (§663a.11(b)): the setting step begins (§663a.11(d)), or
        with every box folded there is nothing to set and the dealer reveals from here."""
        return self._start_setting() if self.anyone_plays() else []

    def anyone_plays(self) -> bool:
        return any(b.playing for b in self.boxes_in_play())

    def all_folded(self) -> bool:
        """Every box has decided and none plays: the round skips the setting step."""
        return self.phase is Phase.DECISIONS and self.to_act is None and not self.anyone_plays()

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

    def next_to_set(self, player: str) -> int | None:
        """The box ``player`` may set now, or None."""
        if self.phase is not Phase.SETTING:
            return None
        for number in self.setting_order_of(player):
            if not self.boxes[number].is_set:
                return number
        return None

    def pending_settings(self) -> list[int]:
        """Playing boxes not yet set, in the order the house would set them on a time-out."""
        out: list[int] = []
        for player in dict.fromkeys(b.player for b in self.boxes_in_play()):
            out += [n for n in self.setting_order_of(player) if not self.boxes[n].is_set]
        return out

    def _start_setting(self) -> list[Event]:
        self.phase = Phase.SETTING
        playing = [b for b in self.boxes_in_play() if b.playing]
        players = list(dict.fromkeys(b.player for b in playing))
        events = [
            Event(
                "setting_started",
                {
                    "boxes": [b.box for b in playing],
                    "order": {p: self.setting_order_of(p) for p in players},
                },
            )
        ]
        for player in players:
            for number in self.setting_order_of(player):
                play = self.boxes[number]
                if play.abandoned:
                    # §663a.7(b): the player left; the box is not set for them (ABANDON_RULE).
                    events += self._forfeit(play)
            events += self._setting_turn(player)
        events += self._settings_complete()
        return events

    def _setting_turn(self, player: str) -> list[Event]:
        number = self.next_to_set(player)
        if number is None:
            return []
        return [Event("setting_turn", {"box": number, "player": player})]

    def _settings_complete(self) -> list[Event]:
        if self.pending_settings():
            return []
        return [Event("settings_complete", {})]

    def _record_setting(self, box: BoxPlay, setting: Setting, why: str) -> list[Event]:
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

    def _forfeit(self, box: BoxPlay) -> list[Event]:
        """The player left before setting this box: it is never set, and its Ante, Play and
        Tie lose at settlement (ABANDON_RULE, §663a.7(b)); no hand is made up for it."""
        box.set_by = ABANDONED
        forfeited = box.wagers[ANTE] + box.wagers.get(PLAY, 0) + box.wagers.get(TIE, 0)
        return [
            Event(
                "hands_set",
                {"box": box.box, "player": box.player, "why": ABANDONED, "forfeited": forfeited},
            )
        ]

    def _settable(self, box: int, player: str | None) -> BoxPlay:
        """The box, if ``player`` (None: the house) may set it now."""
        self._require(Phase.SETTING)
        box = self._box(box)
        if player is not None:
            _player(player)
        play = self.boxes.get(box)
        if play is None or not play.in_play:
            raise RuleViolation("not_in_play", f"box {box} has no cards in this round")
        if player is not None and play.player != player:
            # §663a.11(a)(1): each player sets his own hands; nobody else touches them.
            raise RuleViolation("not_your_box", f"box {box} is not yours")
        if not play.playing:
            raise RuleViolation("folded", f"box {box} folded: only a box that played is set")
        if play.is_set:
            # §663a.7(f), §663a.11(a)(3): a set hand is placed face down and cannot change.
            raise RuleViolation("already_set", f"box {box} is set and locked")
        first = self.next_to_set(play.player)
        if first != box:
            raise RuleViolation(
                "set_other_box_first",
                f"set box {first} first: the larger Ante first, equal Antes the box farther "
                "to the dealer's right first, each locked before the next (§663a.7(f))",
            )
        return play

    def check_set_hands(
        self, box: int, player: str | None, high: object, low: object
    ) -> tuple[BoxPlay, Setting]:
        play = self._settable(box, player)
        setting = set_hands(
            play.cards, _cards_given(high, "the high hand"), _cards_given(low, "the low hand")
        )
        return play, setting

    def set_hands(self, box: int, player: str, high: object, low: object) -> Step:
        """The player sets ``box``: three cards high, two low (§663a.11(d)); refused when the
        setting is not legal or it is not this box's turn; locked once set."""
        play, setting = self.check_set_hands(box, _player(player), high, low)
        events = self._record_setting(play, setting, "player")
        events += self._setting_turn(play.player)
        events += self._settings_complete()
        return Step(tuple(events))

    def choose_setting(self, box: int, player: str, ace_low: object) -> Step:
        """The felt's two buttons: aces high, or one ace low when the hand offers it."""
        play = self._settable(box, _player(player))
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

    # --- time-outs and players leaving -------------------------------------------------------

    def time_out(self, box: int | None = None) -> Step:
        """Time ran out. Deciding: the box to act folds (no Play Wager was made). Setting: the
        house sets aces high (house rule; it never moves an ace low for a player) every box
        still unset, or only ``box`` when given (it must be settable now)."""
        self._require(Phase.DECISIONS, Phase.SETTING)
        if self.phase is Phase.DECISIONS:
            return SkeletonRound.time_out(self, box)
        pending = self.pending_settings()
        if not pending:
            raise RuleViolation("nobody_to_act", "every playing box is set")
        if box is not None:
            number = self._box(box)
            owner = self.boxes[number].player if number in self.boxes else None
            if owner is None or number not in pending or self.next_to_set(owner) != number:
                raise RuleViolation("not_your_turn", f"box {box} is not waiting to be set")
            pending = [number]
        events: list[Event] = []
        for number in pending:
            play = self.boxes[number]
            events += self._record_setting(play, default_setting(play.cards), "timeout")
        if box is not None:
            events += self._setting_turn(self.boxes[box].player)
        events += self._settings_complete()
        return Step(tuple(events))

    def leaves(self, box: BoxPlay) -> bool:
        """A player who leaves (§663a.7(b)) abandons each box still to decide, and each box
        that played and is not set yet: it is not set for them (ABANDON_RULE)."""
        return box.decision is None or (box.playing and not box.is_set)

    def leave_later(self, player: str) -> list[Event]:
        """Leaving while the hands are set: the player's unset boxes are forfeited now."""
        if self.phase is not Phase.SETTING:
            return []
        events: list[Event] = []
        for number in self.setting_order_of(player):
            play = self.boxes[number]
            if not play.is_set:
                events += self._forfeit(play)
        if events:
            events += self._settings_complete()
        return events

    # --- reveal and settlement ----------------------------------------------------------------

    def check_reveal(self) -> None:
        """The dealer's cards are turned over and set the house way once every playing box
        is set (§663a.11(e)), or once every box folded (no setting step)."""
        if not self.all_folded():
            self._require(Phase.SETTING)
        pending = self.pending_settings()
        if pending:
            raise RuleViolation("settings_pending", f"box {pending[0]} has not set its hands")

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
        """What the dealer does with the cards and the deck (§663a.13, §663a.10(f))."""
        c = consequence(Irregularity(irregularity))
        return {
            "section": c.section,
            "reshuffle": c.reshuffle or c.void,
            "remove_deck": c.remove_deck,
            "reshuffle_with_dealt": c.reshuffle_with_dealt,
            "words": c.words,
        }

    # --- views ---------------------------------------------------------------------------

    def view(self, player: str | None, dealer: bool = False) -> dict[str, Any]:
        """What ``player`` (None: a spectator) or the dealer console may see now."""
        from .view import round_view

        return round_view(self, player, dealer=dealer)
