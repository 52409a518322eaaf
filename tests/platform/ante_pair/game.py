"""Ante Pair behind the platform's :class:`~table.games.base.Game` interface (a test's game).

One round: wagers (an Ante, and a Pair wager if the table offers it) until "no more bets";
a stack of five per box with an Ante from the dealer's left, then the dealer's; each box in
turn plays (a Play equal to its Ante) or folds; the dealer's hand is turned over; each box is
settled. A hand ranks by its groups of equal ranks (four of a kind, a full house, three of a
kind, two pairs, a pair, high cards), then by those ranks: no straights or flushes. The Play
and the Ante win 1 to 1 against a lower dealer hand, push on a tie and lose to a higher one;
a fold loses the Ante. The Pair wager pays 1 to 1 on a pair or better, folded or not.

Written as a newcomer writes a game (docs/games.md): the round is the shared skeleton's
(:class:`~table.games.skeleton.SkeletonRound`: betting, no more bets, the turn, time-outs,
leaving, voids, commit-reveal, the stored form) and the adapter the default one
(:class:`~table.games.adapter.SkeletonGame`); this module keeps only the game's own rules.
It imports no other game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final

from table.games.adapter import SkeletonGame
from table.games.base import (
    DECIDE,
    Choice,
    FeltParts,
    Figure,
    Game,
    Move,
    Problem,
    RulesField,
    Sign,
    TableSettings,
    WagerSpec,
)
from table.games.cards import DECK, RANK_PLURALS, Card, card_code, codes, rank_of
from table.games.common import (
    boxes_of,
    check_bettor,
    compare_resettlement,
    restack_problems,
    void_problems,
)
from table.games.common import check_amount as _amount
from table.games.common import check_player as _player
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Event, Step, Transfer, to_player
from table.games.shoe import DealPlan, Fault, deal
from table.games.skeleton import (
    ANTE,
    DEALER,
    PLAY,
    SkeletonBox,
    SkeletonRound,
    VoidReason,
)

from . import ENTRY

NAME: Final = ENTRY.name
PAIR: Final = "pair"
LABELS: Final = {ANTE: "Ante", PLAY: "Play", PAIR: "Pair"}


class Phase(StrEnum):
    BETTING = "betting"
    CLOSED = "closed"
    DECISIONS = "decisions"
    REVEALED = "revealed"
    SETTLED = "settled"
    VOID = "void"


UNFINISHED: Final = (Phase.BETTING, Phase.CLOSED, Phase.DECISIONS, Phase.REVEALED)
#: Why a round is void, every stake returned, and when (no phases: only the deal finds it).
VOIDS: Final = {
    "shoe_jam": VoidReason("the shoe jammed or failed to deal every card", ()),
    "face_up_cards": VoidReason("more than one card was found face up while dealing", ()),
    "wrong_card_count": VoidReason("a box or the dealer was dealt a wrong number of cards", ()),
    "stub_miscount": VoidReason(
        "the stub count shows the deck is not 52 cards", (Phase.DECISIONS,)
    ),
    "table_closed": VoidReason(
        "the table closed before the round was dealt", (Phase.BETTING, Phase.CLOSED)
    ),
    "server_restart": VoidReason("the round could not resume after an interruption", UNFINISHED),
}
_GROUPS: Final = (
    ((4, 1), "four of a kind"),
    ((3, 2), "a full house"),
    ((3, 1, 1), "three of a kind"),
    ((2, 2, 1), "two pairs"),
    ((2, 1, 1, 1), "a pair"),
    ((1, 1, 1, 1, 1), "high cards"),
)


def hand_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """A five-card hand's strength: its shape (the most equal ranks first), then its ranks."""
    counts = Counter(rank_of(c) for c in cards)
    ordered = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in ordered)
    return (-[s for s, _ in _GROUPS].index(shape), *(r for r, _ in ordered))


def hand_words(cards: Sequence[Card]) -> str:
    counts = Counter(rank_of(c) for c in cards)
    shape = tuple(sorted(counts.values(), reverse=True))
    words = dict(_GROUPS)[shape]
    top = max(counts, key=lambda r: (counts[r], r))
    return f"{words} ({RANK_PLURALS[top]})" if shape[0] > 1 else words


#: The Pair wager's paytables: the fewest hands of a kind that win (2: a pair, 2+2: two
#: pairs or better), the odds, and the words posted.
PAYTABLES: Final = {
    "A": ((2, 1), 1, "A pair or better"),
    "B": ((2, 2), 12, "Two pairs or better"),
}


def pair_pays(paytable: str, cards: Sequence[Card]) -> int:
    """The Pair wager's odds for this hand (0: it loses)."""
    least, odds, _ = PAYTABLES[paytable]
    shape = tuple(sorted(Counter(rank_of(c) for c in cards).values(), reverse=True))
    return odds if shape[:2] >= least else 0


@dataclass(frozen=True)
class Rules:
    ante_min: int = 5_00
    ante_max: int = 500_00
    offers_pair: bool = True
    pair_paytable: str = "A"
    pair_min: int = 1_00
    pair_max: int = 100_00
    betting_seconds: int = 15
    decision_seconds: int = 20

    def offers(self, wager: str) -> bool:
        return wager != PAIR or self.offers_pair

    def limits(self, wager: str) -> tuple[int, int]:
        if wager == PAIR:
            return self.pair_min, self.pair_max
        return self.ante_min, self.ante_max

    def problems(self) -> list[Problem]:
        out = []
        for wager in (ANTE, PAIR):
            low, high = self.limits(wager)
            if not 0 < low <= high:
                out.append(Problem(f"{wager}_min", f"the {wager} limits must be 0 < min <= max"))
        if self.pair_paytable not in PAYTABLES:
            out.append(Problem("pair_paytable", f"no Pair paytable {self.pair_paytable!r}"))
        if self.betting_seconds < 5 or self.decision_seconds < 5:
            out.append(Problem("decision_seconds", "allow at least 5 seconds"))
        return out

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        try:
            rules = cls(**dict(data))
        except TypeError as exc:
            raise InvalidInput("bad_rules", f"not {ENTRY.title} rules: {exc}") from None
        for name, value in asdict(rules).items():
            if type(value) is not type(getattr(cls(), name)):
                raise InvalidInput("bad_rules", f"{name} must be a {type(value).__name__}")
        return rules


@dataclass(slots=True)
class Box(SkeletonBox):
    decision: str | None = None  # "play", "fold"

    @property
    def folded(self) -> bool:
        return self.decision == "fold"

    @classmethod
    def decision_from(cls, value: Any) -> Any:
        if value not in (None, "play", "fold"):
            raise ValueError(f"decision {value!r}")
        return value


def _deal(order: Sequence[Card], boxes: int, faults: Sequence[Fault]) -> tuple[Any, str | None]:
    dealt = deal(order, boxes, False, DealPlan.from_faults(list(faults), boxes + 1))
    reason = dealt.irregularity
    if reason is None and len(dealt.face_up_discards) > 1:
        reason = "face_up_cards"
    return dealt, reason


@dataclass(slots=True)
class Round(SkeletonRound[Rules, Box, Step]):
    GAME: ClassVar[str] = NAME
    PHASE: ClassVar[type[StrEnum]] = Phase
    RULES = Rules
    BOX = Box
    STEP = Step
    VOID_REASONS: ClassVar[Mapping[str, VoidReason]] = VOIDS

    phase: Phase = Phase.BETTING

    # --- the skeleton's hooks: what this game's round is made of ---------------------------

    @classmethod
    def check_rules(cls, rules: object) -> None:
        if not isinstance(rules, Rules) or rules.problems():
            raise InvalidInput("bad_rules", "a round is played under the table's rules")

    # --- the game's own rules ----------------------------------------------------------------

    def check_bet(self, box: int, player: str, wagers: Mapping[str, object]) -> dict[str, int]:
        self._require(Phase.BETTING)
        number, _ = check_bettor(self.boxes, box, player, wagers, (ANTE, PAIR))
        placed: dict[str, int] = {}
        for wager in (ANTE, PAIR):
            amount = _amount(wagers.get(wager, 0), wager)
            if not amount:
                continue
            low, high = self.rules.limits(wager)
            if not self.rules.offers(wager):
                raise RuleViolation("not_offered", f"this table does not offer the {wager} wager")
            if not low <= amount <= high:
                raise RuleViolation("out_of_limits", f"the {wager} must be {low} to {high} cents")
            placed[wager] = amount
        if placed and ANTE not in placed:
            raise RuleViolation("ante_required", "a Pair wager needs an Ante on the box")
        if placed and any(b != number for b in boxes_of(self.boxes, player)):
            raise RuleViolation("too_many_boxes", "a player may play one box")
        return placed

    def deal(self, faults: Sequence[Fault] = ()) -> Step:
        self.check_deal(faults)
        dealt, reason = _deal(self.order, len(self.boxes_in_play()), faults)
        events = [Event("face_up_card", {"card": card_code(c)}) for c in dealt.face_up_discards]
        in_play = self.lay_out(dealt.box_stacks, dealt.dealer_stack, dealt.stub)
        self.discards = list(dealt.face_up_discards)
        if reason is not None:
            voided, transfers = self.voided(reason)
            return self.step((*events, *voided), transfers)
        self.phase = Phase.DECISIONS
        events.append(Event("cards_dealt", {"boxes": [b.box for b in in_play]}))
        events.append(Event("stub", {"cards": len(self.stub)}, DEALER))
        for box in in_play:
            data = {"box": box.box, "cards": codes(box.cards), "hand": hand_words(box.cards)}
            events.append(Event("hole_cards", data, to_player(box.player)))
        return self.step((*events, *self._advance_turn()))

    def check_decision(self, box: Box, decision: object) -> None:
        if not isinstance(decision, bool):
            raise InvalidInput("bad_decision", "say Play (true) or fold (false)")

    def record_decision(self, box: Box, play: bool, why: str) -> list[Event]:
        box.decision = "play" if play else "fold"
        if play:
            box.wagers[PLAY] = box.wagers[ANTE]
        return [Event("decision", {"box": box.box, "player": box.player, "decision": box.decision})]

    def dealer_public(self) -> dict[str, Any]:
        return {"cards": codes(self.dealer_cards), "hand": hand_words(self.dealer_cards)}

    def settle(self) -> Step:
        self._require(Phase.REVEALED)
        results = _settlement(self)
        events, transfers = [], []
        for box in results["boxes"]:
            events.append(Event("box_settled", box))
            for line in box["results"]:
                back = 0 if line["outcome"] == "lose" else line["stake"] + line["net"]
                if back:
                    transfers.append(
                        Transfer(box["player"], -back, line["outcome"], box["box"], line["wager"])
                    )
        return self.step((*events, self.settled(results)), transfers)

    def may_void(self, reason: str) -> bool:
        return reason != "stub_miscount" or self.stub_count() != len(DECK)

    def void(self, reason: str) -> Step:
        if reason not in self.VOID_REASONS:
            raise InvalidInput("unknown_irregularity", f"unknown irregularity {reason!r}")
        if (
            reason == "stub_miscount"
            and self.phase == Phase.DECISIONS
            and not self.may_void(reason)
        ):
            raise RuleViolation("stub_correct", "the stub counts 52 cards: nothing to void")
        if reason not in self.void_reasons_now():
            raise RuleViolation("irregularity_not_now", f"{reason} cannot void the round now")
        return self.step(*self.voided(reason))

    def view(self, player: str | None, dealer: bool = False) -> dict[str, Any]:
        settled = {b["box"]: b for b in (self.results or {}).get("boxes", [])}
        boxes = []
        for n in sorted(self.boxes):
            b = self.boxes[n]
            mine = player is not None and b.player == player
            item: dict[str, Any] = {
                "box": n,
                "player": b.player,
                "mine": mine,
                "wagers": dict(b.wagers),
                "dealt": bool(b.cards),
                "decision": b.decision,
                "cards": codes(b.cards) if mine and b.cards else None,
            }
            if n in settled:
                item.update(
                    cards=settled[n]["cards"],
                    results=settled[n]["results"],
                    net=settled[n]["net"],
                    hand=settled[n]["hand"],
                )
            elif mine and len(b.cards) == 5:
                item["hand"] = hand_words(b.cards)
            boxes.append(item)
        view: dict[str, Any] = {
            "game": NAME,
            "round": self.number,
            "phase": self.phase.value,
            "deck_back": self.deck_back,
            "commitment": self.commitment,
            "viewer": {"name": player},
            "boxes": boxes,
            "to_act": self.to_act,
            "dealt": bool(self.dealer_cards),
            "dealer": self.dealer_public() if self.dealer_visible() else None,
            "face_up_discards": codes(self.discards),
            "void_reason": self.void_reason,
            "void_explanation": self.irregularity(),
            "players": (self.results or {}).get("players"),
        }
        if dealer and self.dealer_cards:
            view["stub"] = len(self.stub)
        if self.finished:
            view["shoe"], view["salt"] = codes(self.order), self.salt
        return view


def _settlement(state: Round) -> dict[str, Any]:
    """Every box's lines, the dealer's hand and each player's net: the round's results."""
    dealer = hand_key(state.dealer_cards)
    boxes: list[dict[str, Any]] = []
    players: dict[str, dict[str, int]] = {}
    for box in state.boxes_in_play():
        lines = []
        mine = hand_key(box.cards)
        if box.decision == "play":
            outcome = "win" if mine > dealer else "push" if mine == dealer else "lose"
            for wager in (ANTE, PLAY):
                stake = box.wagers[wager]
                net = {"win": stake, "push": 0, "lose": -stake}[outcome]
                lines.append(
                    {
                        "wager": wager,
                        "stake": stake,
                        "outcome": outcome,
                        "net": net,
                        "hand": hand_words(box.cards),
                    }
                )
        else:
            stake = box.wagers[ANTE]
            lines.append(
                {"wager": ANTE, "stake": stake, "outcome": "lose", "net": -stake, "hand": "fold"}
            )
        if box.wagers.get(PAIR):
            stake = box.wagers[PAIR]
            odds = pair_pays(state.rules.pair_paytable, box.cards)
            lines.append(
                {
                    "wager": PAIR,
                    "stake": stake,
                    "outcome": "win" if odds else "lose",
                    "net": stake * odds if odds else -stake,
                    "hand": hand_words(box.cards),
                }
            )
        net = sum(line["net"] for line in lines)
        boxes.append(
            {
                "box": box.box,
                "player": box.player,
                "cards": codes(box.cards),
                "hand": hand_words(box.cards),
                "results": lines,
                "net": net,
            }
        )
        players.setdefault(box.player, {"net": 0})["net"] += net
    return {"dealer": state.dealer_public(), "boxes": boxes, "players": players}


class AntePair(SkeletonGame[Rules, Round]):
    """Ante Pair: see the module docstring."""

    name = NAME
    title = ENTRY.title
    regulation = "a test's own rules"
    phases = tuple(p.value for p in Phase)
    drills: tuple[Fault, ...] = (
        Fault.JAM,
        Fault.FACE_UP_CARD,
        Fault.TWO_FACE_UP_CARDS,
        Fault.MISDEAL,
        Fault.MISCOUNT,
    )
    stub_miscount_reason = "stub_miscount"
    felt = FeltParts(
        spots=((ANTE, PLAY), (PAIR,)), labels=LABELS, felt_module=None, console_module=None
    )
    optional_wagers = (PAIR,)

    # --- the Rules Submission ---------------------------------------------------------------

    def rules_fields(self) -> tuple[RulesField, ...]:
        def kind(name: str) -> str:
            if name == "pair_paytable":
                return "choice"
            if name.startswith("offers_"):
                return "flag"
            return "seconds" if name.endswith("_seconds") else "cents"

        return tuple(
            RulesField(
                name,
                name.replace("_", " ").capitalize(),
                kind(name),
                value,
                tuple(PAYTABLES) if name == "pair_paytable" else (),
            )
            for name, value in asdict(Rules()).items()
        )

    def default_rules(self) -> Rules:
        return Rules()

    def parse_rules(self, data: Mapping[str, Any]) -> Rules:
        return Rules.from_dict(data)

    def rules_problems(self, rules: Rules) -> list[Problem]:
        return rules.problems()

    def wagers(self, rules: Rules) -> tuple[WagerSpec, ...]:
        low, high = rules.limits(ANTE)
        plow, phigh = rules.limits(PAIR)
        return (
            WagerSpec(ANTE, "Ante", "bet", low, high, required=True),
            WagerSpec(PLAY, "Play", "decision", low, high, fixed=True),
            WagerSpec(PAIR, "Pair", "bet", plow, phigh, rules.offers_pair),
        )

    def table_settings(self, rules: Rules) -> TableSettings:
        return TableSettings(False, rules.betting_seconds, 1)

    def signs(self, rules: Rules) -> tuple[Sign, ...]:
        signs = [Sign("Ante and Play", "posted", (("Higher hand than the dealer's", "1 to 1"),))]
        if rules.offers_pair:
            _, odds, words = PAYTABLES[rules.pair_paytable]
            signs.append(Sign("Pair", rules.pair_paytable, ((words, f"{odds} to 1"),)))
        return tuple(signs)

    def math_report(self, rules: Rules) -> tuple[Figure, ...]:
        from table.paytable_report import load_game_report

        pair = load_game_report(NAME)["wagers"][PAIR]["paytables"][rules.pair_paytable]
        edge = float(pair["house_edge"])
        return (Figure("Pair", rules.pair_paytable, edge, "per unit wagered"),)

    # --- a round: what the default adapter asks of this game ---------------------------------

    def box_hand(self, box: Box) -> str | None:
        return hand_words(box.cards)

    def decide_move(self, state: Round, box: Box) -> Move | None:
        choices = (Choice("Fold", {"play": False}), Choice("Play", {"play": True}))
        return Move(DECIDE, "Play or fold", box.box, choices)

    def decision(self, args: Mapping[str, Any]) -> Any:
        return args.get("play")

    def recheck(self, state: Round, faults: Sequence[Fault]) -> list[str]:
        if not state.dealt():
            return []
        in_play = state.boxes_in_play()
        dealt, reason = _deal(state.order, len(in_play), faults)
        problems = restack_problems(
            [(b.box, b.cards) for b in in_play],
            dealt.box_stacks,
            [
                ("the dealer's stack", state.dealer_cards, list(dealt.dealer_stack)),
                ("the discards", state.discards, list(dealt.face_up_discards)),
                ("the stub", state.stub, list(dealt.stub)),
            ],
            idle=[(b.box, b.cards) for b in state.boxes.values() if not b.in_play],
        )
        problems += void_problems(reason, state.void_reason, state.phase)
        if state.phase == Phase.SETTLED and state.results is not None:
            fresh = _settlement(state)
            kept = state.results
            problems += compare_resettlement(
                fresh["boxes"], kept["boxes"], fresh["players"], kept["players"]
            )
        return problems

    def contract_round(self, state: Round) -> dict[str, Any] | None:
        """The settled round as :func:`settle_one`'s input."""
        if state.phase != Phase.SETTLED:
            return None
        return {
            "game": NAME,
            "rules": state.rules.to_dict(),
            "dealer": codes(state.dealer_cards),
            "boxes": [
                {
                    "box": b.box,
                    "player": b.player,
                    "cards": codes(b.cards),
                    "ante": b.wagers[ANTE],
                    "pair": b.wagers.get(PAIR, 0),
                    "play": b.decision == "play",
                }
                for b in state.boxes_in_play()
            ],
        }


def settle_one(raw: object) -> dict[str, Any]:
    """The ``settle_round`` contract: ``{"game", "dealer": [5 codes], "boxes": [{"box",
    "player", "cards": [5 codes], "ante", "pair", "play": bool}]}`` settled."""
    from table.games.cards import parse_cards
    from table.games.common import box_number, check_keys, json_object

    data = json_object(raw, "the round")
    check_keys(data, frozenset({"game", "rules", "dealer", "boxes"}), "")
    rules = Rules.from_dict(json_object(data.get("rules", {}), "rules"))
    rnd = Round(0, rules, "red", list(DECK), "")
    rnd.dealer_cards = parse_cards(data.get("dealer"), 5, "dealer")
    boxes = data.get("boxes")
    if not isinstance(boxes, list):
        raise InvalidInput("bad_shape", "boxes must be a list")
    for index, item in enumerate(boxes):
        item = json_object(item, f"boxes[{index}]")
        number = box_number(item, index)
        box = Box(number, _player(item.get("player")))
        box.wagers = {ANTE: _amount(item.get("ante"), "ante")}
        if item.get("pair"):
            box.wagers[PAIR] = _amount(item["pair"], "pair")
        box.cards = parse_cards(item.get("cards"), 5, f"boxes[{index}]")
        box.decision = "play" if item.get("play") is True else "fold"
        if box.decision == "play":
            box.wagers[PLAY] = box.wagers[ANTE]
        rnd.boxes[number] = box
    return _settlement(rnd)


GAME: Final[Game[Rules, Round]] = AntePair(Round, settle_one)
