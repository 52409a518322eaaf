"""One round of Four Card Frenzy as an explicit state machine.

    betting ──no more bets──► closed ──deal──► decisions ──reveal──► revealed ──settle──► settled
       └──────────────────────────┴────────────────┴───────────────────┴──void──► void

Every command checks first and raises :class:`RuleViolation` (with a code) when it is not
allowed now; then it changes the round and returns a :class:`Step`: the events it caused, in
order, each with its audience, and the money it moves between players and the table.

The round holds the shuffled order of its deck (the shoe) from the moment betting opens, so
that its SHA-256 commitment can be published before any card is dealt.

One room past 500 lines: one state machine, every command's check beside its apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from table.games.base import SUPERVISOR_VOID, SUPERVISOR_VOID_WORDS
from table.games.cards import Card, card_code, check_distinct, codes
from table.games.common import (
    boxes_of,
    check_adjacent_boxes,
    check_bettor,
    check_box,
    next_turn,
    require_phase,
    wagers_step,
    withdraw_all,
)
from table.games.common import check_amount as _amount
from table.games.common import check_player as _player
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Event, Step, Transfer, to_player
from table.games.shoe import (
    CARDS_PER_STACK,
    DealingPlan,
    DealPlan,
    Fault,
    commitment,
    dispense,
    stacks_of_five,
)

from .hands import best_four, describe, max_raise_multiple
from .rules import OPTIONAL, TableRules
from .settlement import (
    ANTE,
    ODDS,
    RAISE,
    BoxInPlay,
    Outcome,
    RoundSettlement,
    settle,
)

BOXES: Final = (1, 2, 3, 4, 5, 6)  # box 1 is farthest to the dealer's left


class Phase(StrEnum):
    BETTING = "betting"
    CLOSED = "closed"  # "no more bets" announced, cards not yet dealt
    DECISIONS = "decisions"  # cards dealt; boxes raise or fold from the dealer's left
    REVEALED = "revealed"
    SETTLED = "settled"
    VOID = "void"


#: The irregularities of §684a.13 that void a round, in plain words.
VOID_REASONS: Final = {
    "face_up_cards": "more than one card was found face up in the shoe (§684a.13(a))",
    "wrong_card_count": "a box or the dealer was dealt a wrong number of cards (§684a.13(c))",
    "shoe_jam": "the dealing shoe jammed or failed to deal all cards (§684a.13(f))",
    "stub_miscount": "the stub count shows the deck is not 52 cards (§684a.10(f))",
    "table_closed": "the table closed before the round was dealt",
    "server_restart": "the round could not resume after an interruption",
    SUPERVISOR_VOID: SUPERVISOR_VOID_WORDS,
}
#: Irregularities of the deal itself (§684a.13(a),(c),(f)): in the virtual shoe only the shoe
#: produces them, while dealing, and the deal then voids the round with what it found.
DEAL_IRREGULARITIES: Final = frozenset({"face_up_cards", "wrong_card_count", "shoe_jam"})
MAIN_GAME_VOID_REASON: Final = (
    "a dealer card was exposed before every decision was made (§684a.13(d)): Ante, Odds and "
    "Raise are returned, optional wagers are settled"
)


@dataclass(slots=True)
class BoxPlay:
    box: int
    player: str
    wagers: dict[str, int] = field(default_factory=dict)  # ante, odds, optional, raise
    cards: list[Card] = field(default_factory=list)
    decision: int | None = None  # Raise multiple 1-3, 0 = fold, None = not yet
    abandoned: bool = False

    @property
    def in_play(self) -> bool:
        return self.wagers.get(ANTE, 0) > 0

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
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BoxPlay:
        return cls(
            int(d["box"]),
            str(d["player"]),
            {k: int(v) for k, v in d["wagers"].items()},
            [int(c) for c in d["cards"]],
            d["decision"],
            bool(d["abandoned"]),
        )


@dataclass(slots=True)
class Round:
    number: int
    rules: TableRules
    deck_back: str
    order: list[Card]  # the shoe: the shuffled deck, secret until settlement
    salt: str
    phase: Phase = Phase.BETTING
    boxes: dict[int, BoxPlay] = field(default_factory=dict)
    dealer_cards: list[Card] = field(default_factory=list)
    all_six_card: Card | None = None
    discards: list[Card] = field(default_factory=list)  # All-Six stack rest, face-up cards
    stub: list[Card] = field(default_factory=list)
    to_act: int | None = None
    void_reason: str | None = None
    main_game_void: bool = False
    results: dict[str, Any] | None = None  # the settlement, JSON-ready
    #: The commitment, computed once: the shoe order and salt never change after opening, and
    #: every status the platform asks for carries it (a SHA-256 over the 52 cards each time).
    _commitment: str = field(default="", repr=False, compare=False)

    # --- construction ------------------------------------------------------------------

    @classmethod
    def open(
        cls, number: int, rules: TableRules, deck_back: str, order: Sequence[Card], salt: str
    ) -> tuple[Round, Step]:
        if not isinstance(rules, TableRules):
            raise InvalidInput("bad_rules", "a round is played under the table's rules")
        if not isinstance(number, int) or not isinstance(deck_back, str):
            raise InvalidInput("bad_round", "a round has a number and a deck back colour")
        if not isinstance(salt, str):
            raise InvalidInput("bad_salt", "the salt must be text")
        check_distinct(order)  # the shoe: distinct cards of one deck
        rnd = cls(number, rules, deck_back, list(order), salt)
        event = Event(
            "round_opened",
            {
                "round": number,
                "deck_back": deck_back,
                "commitment": rnd.commitment,
                "rules": rules.to_dict(),
            },
        )
        return rnd, Step((event,))

    @property
    def commitment(self) -> str:
        if not self._commitment:
            self._commitment = commitment(self.order, self.salt)
        return self._commitment

    # --- checks --------------------------------------------------------------------------

    def _require(self, *phases: Phase) -> None:
        require_phase(self.phase, phases)

    def _box(self, box: object) -> int:
        return check_box(box)

    def boxes_in_play(self) -> list[BoxPlay]:
        """Boxes with Ante and Odds, from the dealer's left (§684a.10(b))."""
        return [self.boxes[b] for b in sorted(self.boxes) if self.boxes[b].in_play]

    def boxes_of(self, player: str) -> list[int]:
        return boxes_of(self.boxes, player)

    # --- betting -------------------------------------------------------------------------

    def check_bet(self, box: int, player: str, wagers: dict[str, object]) -> dict[str, int]:
        """Validate a box's complete set of wagers; returns it with Odds equal to Ante."""
        self._require(Phase.BETTING)
        box, current = check_bettor(self.boxes, box, player, wagers, (ANTE, *OPTIONAL))
        ante = _amount(wagers.get(ANTE, 0), "Ante")
        placed: dict[str, int] = {}
        if ante:
            low, high = self.rules.limits(ANTE)
            if not low <= ante <= high:
                raise RuleViolation(
                    "out_of_limits",
                    f"Ante must be between {low / 100:.2f} and {high / 100:.2f}",
                )
            # §684a.7(d)(1): Ante and Odds in equal amounts.
            placed[ANTE] = placed[ODDS] = ante
        for wager in OPTIONAL:
            amount = _amount(wagers.get(wager, 0), wager)
            if not amount:
                continue
            label = wager.replace("_", " ")
            if not self.rules.offers(wager):
                # §684a.7(d)(2)-(4): only if the Rules Submission offers it.
                raise RuleViolation("not_offered", f"this table does not offer the {label} wager")
            if not ante:
                raise RuleViolation(
                    "ante_required", f"the {label} wager needs an Ante and Odds on the box"
                )
            low, high = self.rules.limits(wager)
            if not low <= amount <= high:
                raise RuleViolation(
                    "out_of_limits",
                    f"the {label} wager must be between {low / 100:.2f} and {high / 100:.2f}",
                )
            placed[wager] = amount
        if ante or (current is not None and current.in_play):
            # §684a.7(e): a player wagers on at most N adjacent boxes.
            check_adjacent_boxes(self.boxes_of(player), box, bool(ante), self.rules.adjacent_boxes)
        return placed

    def bet(self, box: int, player: str, wagers: dict[str, object]) -> Step:
        """Place, change or (with nothing) withdraw a box's wagers before "no more bets"."""
        placed = self.check_bet(box, player, wagers)
        return Step(*wagers_step(self.boxes, box, player, placed, BoxPlay))

    def withdraw(self, box: int, player: str) -> Step:
        return self.bet(box, player, {})

    def close_betting(self) -> Step:
        """The dealer announces "no more bets" (§684a.7(c), §684a.10(a)(2))."""
        self._require(Phase.BETTING)
        if not self.boxes_in_play():
            raise RuleViolation("no_wagers", "no box has an Ante and Odds yet")
        self.phase = Phase.CLOSED
        return Step((Event("betting_closed", {"boxes": [b.box for b in self.boxes_in_play()]}),))

    # --- dealing -------------------------------------------------------------------------

    def dealing_plan(self) -> DealingPlan:
        """§684a.10(b): a stack per box with Ante and Odds from the dealer's left, the
        dealer's, and with an All-Six Bonus one more whose top card is the All-Six card."""
        in_play = self.boxes_in_play()
        return stacks_of_five(
            (b.box for b in in_play), any(b.wagers.get("all_six", 0) for b in in_play)
        )

    def deal(self, faults: Sequence[Fault] = ()) -> Step:
        """Dispense the stacks of the round's dealing plan from the shoe (§684a.10(b)); void
        on a shoe irregularity."""
        self._require(Phase.CLOSED)
        if not isinstance(faults, list | tuple) or not all(isinstance(f, Fault) for f in faults):
            raise InvalidInput("bad_fault", f"faults must be a list of shoe faults, not {faults!r}")
        in_play = self.boxes_in_play()
        stacks = self.dealing_plan()
        all_six = any(s.to == "shared" for s in stacks.stacks)
        dealt = dispense(self.order, stacks, DealPlan.for_plan(faults, stacks))
        events: list[Event] = []
        for card in dealt.face_up_discards:
            events.append(Event("face_up_card", {"card": card_code(card)}))
        for box, stack in zip(in_play, dealt.box_stacks, strict=False):
            box.cards = list(stack)
        self.dealer_cards = list(dealt.dealer_stack)
        self.all_six_card = dealt.shared_card
        self.discards = [*dealt.face_up_discards, *dealt.shared_discards]
        self.stub = list(dealt.stub)
        if dealt.irregularity:
            # The evidence: what the shoe was told to do and what it delivered.
            evidence = {
                "faults": [f.value for f in faults],
                "face_up": codes(dealt.face_up_discards),
                "stacks": [len(s) for s in (*dealt.box_stacks, dealt.dealer_stack)],
            }
            step = self._void(dealt.irregularity, evidence)
            return Step((*events, *step.events), step.transfers)
        self.phase = Phase.DECISIONS
        events.append(
            Event(
                "cards_dealt",
                {
                    "boxes": [b.box for b in in_play],
                    "all_six": all_six,
                    "stub": len(self.stub),
                },
            )
        )
        for box in in_play:
            hand = best_four(box.cards)
            events.append(
                Event(
                    "hole_cards",
                    {
                        "box": box.box,
                        "cards": codes(box.cards),
                        "best_four": codes(hand.cards),
                        "hand": describe(hand.value),
                        "max_raise": max_raise_multiple(hand.value),
                    },
                    to_player(box.player),
                )
            )
        if Fault.DEALER_CARD_EXPOSED in faults:
            # §684a.13(d): the shoe exposed a dealer card while dealing, before any Raise.
            step = self._main_game_void(
                {
                    "card": card_code(self.dealer_cards[0]),
                    "evidence": {"faults": [f.value for f in faults]},
                }
            )
            return Step((*events, *step.events), step.transfers)
        events.extend(self._advance_turn())
        return Step(tuple(events))

    # --- decisions -------------------------------------------------------------------------

    def _advance_turn(self) -> list[Event]:
        """Next box to decide, from the dealer's left clockwise (§684a.11(b))."""
        self.to_act, events = next_turn(
            self.boxes_in_play(), lambda box: self._record_decision(box, 0, "abandoned")
        )
        return events

    def _record_decision(self, box: BoxPlay, multiple: int, why: str) -> list[Event]:
        box.decision = multiple
        if multiple:
            box.wagers[RAISE] = multiple * box.wagers[ANTE]
        return [
            Event(
                "decision",
                {
                    "box": box.box,
                    "player": box.player,
                    "raise": box.wagers.get(RAISE, 0),
                    "multiple": multiple,
                    "folded": multiple == 0,
                    "why": why,
                },
            )
        ]

    def check_decide(self, box: int, player: str | None, multiple: object) -> BoxPlay:
        self._require(Phase.DECISIONS)
        box = self._box(box)
        if self.to_act != box:
            raise RuleViolation(
                "not_your_turn",
                f"box {box} cannot act now"
                + (f"; box {self.to_act} is deciding" if self.to_act else ""),
            )
        play = self.boxes[box]
        if player is not None:
            _player(player)
        if player is not None and play.player != player:
            raise RuleViolation("not_your_box", f"box {box} is not yours")
        if (
            not isinstance(multiple, int)
            or isinstance(multiple, bool)
            or multiple not in (0, 1, 2, 3)
        ):
            raise InvalidInput("bad_raise", "raise 1, 2 or 3 times the Ante, or 0 to fold")
        allowed = max_raise_multiple(best_four(play.cards).value)
        if multiple > allowed:
            # §684a.11(b)(1): a pair of kings or lower raises exactly the Ante.
            raise RuleViolation(
                "raise_too_large", "a pair of kings or lower may raise only 1x the Ante"
            )
        return play

    def decide(self, box: int, player: str | None, multiple: int, why: str = "player") -> Step:
        """Raise 1x/2x/3x the Ante, or fold with 0 (§684a.11(b)). ``player`` None = the house
        acting for the box (decision time ran out)."""
        play = self.check_decide(box, player, multiple)
        events = self._record_decision(play, multiple, why)
        transfers: tuple[Transfer, ...] = ()
        if multiple:
            transfers = (Transfer(play.player, play.wagers[RAISE], "raise", box, RAISE),)
        events.extend(self._advance_turn())
        return Step(tuple(events), transfers)

    def time_out(self) -> Step:
        """The box to act ran out of decision time: it folds (§684a.7(b), abandoned)."""
        self._require(Phase.DECISIONS)
        if self.to_act is None:
            raise RuleViolation("nobody_to_act", "every box has decided")
        return self.decide(self.to_act, None, 0, "timeout")

    # --- reveal and settlement ---------------------------------------------------------------

    def reveal(self) -> Step:
        """Turn the dealer's cards face up once every box has decided (§684a.11(c))."""
        self._require(Phase.DECISIONS)
        if self.to_act is not None:
            raise RuleViolation("decisions_pending", f"box {self.to_act} has not decided yet")
        self.phase = Phase.REVEALED
        return Step((Event("dealer_revealed", self.dealer_public()),))

    def dealer_public(self) -> dict[str, Any]:
        """The dealer's cards face up, with their best four-card hand. A stack of other than
        five cards (a jammed shoe, §684a.13(f), or a misdeal, §684a.13(c): the round is void)
        is shown as dealt, with no hand: ``best_four``, ``hand``, ``category`` and
        ``qualifies`` are None."""
        from .hands import qualifies

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

    def _settlement(self) -> RoundSettlement:
        boxes = [
            BoxInPlay(b.box, b.player, tuple(b.cards), dict(b.wagers)) for b in self.boxes_in_play()
        ]
        return settle(
            self.dealer_cards,
            boxes,
            self.rules.settlement_rules(),
            self.all_six_card,
            main_game_void=self.main_game_void,
        )

    def settle(self) -> Step:
        """Settle every box from the dealer's right (§684a.11(c),(d), §684a.12)."""
        self._require(Phase.REVEALED)
        return self._settle()

    def _settle(self) -> Step:
        result = self._settlement()
        events: list[Event] = []
        transfers: list[Transfer] = []
        boxes_json = []
        for settled in result.boxes:
            play = self.boxes[settled.box]
            lines = [
                {
                    "wager": r.wager,
                    "stake": r.stake,
                    "outcome": r.outcome.value,
                    "net": r.net,
                    "row": r.row,
                }
                for r in settled.results
            ]
            # Cards folded with no optional wager go to the discard rack unseen (§684a.11(b)(2)).
            shown = not (settled.folded and not any(w in play.wagers for w in OPTIONAL))
            box_json = {
                "box": settled.box,
                "player": settled.player,
                "cards": codes(play.cards) if shown else None,
                "best_four": codes(settled.hand.cards) if shown else None,
                "hand": settled.hand.name if shown else None,
                "category": settled.hand.category.key if shown else None,
                "folded": settled.folded,
                "results": lines,
                "net": settled.net,
            }
            boxes_json.append(box_json)
            events.append(Event("box_settled", box_json))
            for r in settled.results:
                if r.returned:
                    memo = {
                        Outcome.WIN: "win",
                        Outcome.PUSH: "push",
                        Outcome.VOID: "returned (void)",
                        Outcome.LOSE: "lose",
                    }[r.outcome]
                    transfers.append(
                        Transfer(settled.player, -r.returned, memo, settled.box, r.wager)
                    )
        players = {}
        for total in result.players:
            players[total.player] = {
                "net": total.net,
                "payout_limit_applied": total.payout_limit_applied,
                "withheld": total.withheld,
            }
            if total.withheld:
                # §684a.12(g): winnings above the payout limit are not paid.
                transfers.append(Transfer(total.player, total.withheld, "payout limit"))
        self.results = {
            "dealer": self.dealer_public(),
            "boxes": boxes_json,
            "players": players,
            "main_game_void": self.main_game_void,
        }
        self.phase = Phase.SETTLED
        self.to_act = None
        events.append(
            Event(
                "round_settled",
                {
                    "players": players,
                    "main_game_void": self.main_game_void,
                    "shoe": codes(self.order),
                    "salt": self.salt,
                    "commitment": self.commitment,
                },
            )
        )
        return Step(tuple(events), tuple(transfers))

    # --- irregularities ----------------------------------------------------------------------

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
        self.main_game_void = True
        self.to_act = None
        exposed = Event("dealer_card_exposed", {"reason": MAIN_GAME_VOID_REASON, **details})
        revealed = Event("dealer_revealed", self.dealer_public())
        step = self._settle()
        return Step((exposed, revealed, *step.events), step.transfers)

    def stub_count(self) -> int:
        """The cards of this round's deck as counted after the deal (§684a.10(d)): the stub,
        the discards and every stack; before the deal, the deck in the shoe."""
        if not self.dealer_cards:
            return len(self.order)
        dealt = len(self.stub) + len(self.discards) + len(self.dealer_cards)
        dealt += sum(len(b.cards) for b in self.boxes.values())
        return dealt + (1 if self.all_six_card is not None else 0)

    def void(self, reason: str, evidence: dict[str, Any] | None = None) -> Step:
        """Void the round for an irregularity found outside the deal, with its evidence:
        every stake goes back (§684a.10(f), §684a.13).

        Only before the reveal: once the dealer's hand is face up the outcome is known and
        the round is settled (§684a.11(c)). The deal's own irregularities (§684a.13(a),(c),
        (f)) cannot be declared: the shoe produces them while dealing and the deal voids
        the round itself. A stub miscount is counted here, not taken on trust."""
        if not isinstance(reason, str) or reason not in VOID_REASONS:
            raise InvalidInput(
                "unknown_irregularity",
                f"unknown irregularity {reason!r} (one of {', '.join(VOID_REASONS)})",
            )
        if reason == SUPERVISOR_VOID:  # the platform's, in any phase before settled
            self._require(Phase.BETTING, Phase.CLOSED, Phase.DECISIONS, Phase.REVEALED)
        elif self.phase is Phase.REVEALED:
            raise RuleViolation(
                "outcome_known",
                "the dealer's hand is face up: the round is settled now, not voided (§684a.11(c))",
            )
        self._require(Phase.BETTING, Phase.CLOSED, Phase.DECISIONS, Phase.REVEALED)
        if reason in DEAL_IRREGULARITIES:
            raise RuleViolation(
                "shoe_only",
                "only the shoe reports this irregularity, while dealing, and the deal then "
                "voids the round itself; this round's deal reported none (§684a.13)",
            )
        if reason == "stub_miscount":
            count = self.stub_count()
            if count == 52:
                raise RuleViolation("stub_correct", "the stub counts 52 cards: nothing to void")
            evidence = {"count": count}
        elif reason == "table_closed" and self.phase is not Phase.BETTING:
            raise RuleViolation("round_in_play", "the cards are out: finish the round first")
        if not isinstance(evidence, dict) or not evidence:
            raise InvalidInput("no_evidence", "a void must say what was found")
        return self._void(reason, evidence)

    def _void(self, reason: str, evidence: dict[str, Any]) -> Step:
        transfers = []
        for play in self.boxes.values():
            for wager, stake in play.wagers.items():
                if stake:
                    transfers.append(
                        Transfer(play.player, -stake, "returned (void)", play.box, wager)
                    )
        self.phase = Phase.VOID
        self.void_reason = reason
        self.to_act = None
        event = Event(
            "round_void",
            {
                "reason": reason,
                "explanation": VOID_REASONS[reason],
                "returned": {str(p.box): p.staked() for p in self.boxes.values()},
                "evidence": evidence,
                "shoe": codes(self.order),
                "salt": self.salt,
                "commitment": self.commitment,
            },
        )
        return Step((event,), tuple(transfers))

    def abandon(self, player: str) -> Step:
        """A player left the table (§684a.7(b)).

        Before "no more bets" their wagers simply come back (no cards were received). After
        it, their undecided boxes fold when their turn comes; optional wagers stay in action.
        """
        _player(player)
        if self.phase is Phase.BETTING:
            return Step(*withdraw_all(self.boxes_of(player), lambda b: self.bet(b, player, {})))
        events: list[Event] = []
        if self.phase in (Phase.CLOSED, Phase.DECISIONS):
            for box in self.boxes_of(player):
                play = self.boxes[box]
                if play.decision is None:
                    play.abandoned = True
                    events.append(Event("box_abandoned", {"box": box, "player": player}))
            if self.phase is Phase.DECISIONS and self.to_act is not None:
                current = self.boxes[self.to_act]
                if current.abandoned and current.decision is None:
                    events += self._record_decision(current, 0, "abandoned")
                    events += self._advance_turn()
        return Step(tuple(events))

    # --- views ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase in (Phase.SETTLED, Phase.VOID)

    def dealer_visible(self) -> bool:
        return self.phase in (Phase.REVEALED, Phase.SETTLED) or self.main_game_void

    def irregularity(self) -> str | None:
        """Why the round did not end as a plain settlement (§684a.13), in words, or None."""
        if self.void_reason:
            return VOID_REASONS.get(self.void_reason, self.void_reason)
        return MAIN_GAME_VOID_REASON if self.main_game_void else None

    def view(self, player: str | None, dealer: bool = False) -> dict[str, Any]:
        """What ``player`` (None: a spectator) or the dealer console may see: :mod:`.view`."""
        from .view import project

        return project(self, player, dealer)

    # --- persistence -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "rules": self.rules.to_dict(),
            "deck_back": self.deck_back,
            "order": list(self.order),
            "salt": self.salt,
            "phase": self.phase.value,
            "boxes": [b.to_dict() for b in self.boxes.values()],
            "dealer_cards": list(self.dealer_cards),
            "all_six_card": self.all_six_card,
            "discards": list(self.discards),
            "stub": list(self.stub),
            "to_act": self.to_act,
            "void_reason": self.void_reason,
            "main_game_void": self.main_game_void,
            "results": self.results,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Round:
        try:
            return cls._from_dict(d)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInput("bad_state", f"not a saved round: {exc!r}") from None

    @classmethod
    def _from_dict(cls, d: dict[str, Any]) -> Round:
        boxes = [BoxPlay.from_dict(b) for b in d["boxes"]]
        return cls(
            number=int(d["number"]),
            rules=TableRules.from_dict(d["rules"]),
            deck_back=d["deck_back"],
            order=[int(c) for c in d["order"]],
            salt=d["salt"],
            phase=Phase(d["phase"]),
            boxes={b.box: b for b in boxes},
            dealer_cards=[int(c) for c in d["dealer_cards"]],
            all_six_card=d["all_six_card"],
            discards=[int(c) for c in d["discards"]],
            stub=[int(c) for c in d["stub"]],
            to_act=d["to_act"],
            void_reason=d["void_reason"],
            main_game_void=bool(d["main_game_void"]),
            results=d["results"],
        )
