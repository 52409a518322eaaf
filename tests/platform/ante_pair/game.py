"""Ante Pair behind the platform's :class:`~table.games.base.Game` interface (a test's game).

One round: wagers (an Ante, and a Pair wager if the table offers it) until "no more bets";
a stack of five per box with an Ante from the dealer's left, then the dealer's; each box in
turn plays (a Play equal to its Ante) or folds; the dealer's hand is turned over; each box is
settled. A hand ranks by its groups of equal ranks (four of a kind, a full house, three of a
kind, two pairs, a pair, high cards), then by those ranks: no straights or flushes. The Play
and the Ante win 1 to 1 against a lower dealer hand, push on a tie and lose to a higher one;
a fold loses the Ante. The Pair wager pays 1 to 1 on a pair or better, folded or not.

Built only from the platform's shared modules (``table/games/{base,cards,common,events,
shoe}``), as a newcomer's game would be: it imports no other game.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from table.games.base import (
    ABANDON,
    BET,
    CLOSE_BETTING,
    DEAL,
    DECIDE,
    NO_INPUTS,
    REVEAL,
    SETTLE,
    TIME_OUT,
    VOID,
    WITHDRAW,
    Actor,
    BoxState,
    Choice,
    Command,
    DealingPlan,
    FeltParts,
    Figure,
    Game,
    GameStep,
    Inputs,
    MeterKind,
    MeterSpec,
    Move,
    Problem,
    Recalled,
    Role,
    RoundStatus,
    RulesField,
    Sign,
    StaffPart,
    TableSettings,
    Timer,
    WagerSpec,
    bet_amounts,
    betting_moves,
    command_box,
    dealer_step,
    field_changes,
    lines_of,
    recalled_from_view,
    require_dealer,
    require_player,
    seen_by,
    stacks_of_five,
    turn_timer,
)
from table.games.cards import DECK, RANK_PLURALS, Card, card_code, check_distinct, codes, rank_of
from table.games.common import (
    boxes_of,
    check_bettor,
    compare_resettlement,
    next_turn,
    restack_problems,
    void_problems,
    wagers_step,
    withdraw_all,
)
from table.games.common import check_amount as _amount
from table.games.common import check_player as _player
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import PUBLIC, Event, Step, Transfer, to_player
from table.games.shoe import DealPlan, Fault, commitment, deal

from . import ENTRY

NAME: Final = ENTRY.name
ANTE: Final = "ante"
PLAY: Final = "play"
PAIR: Final = "pair"
LABELS: Final = {ANTE: "Ante", PLAY: "Play", PAIR: "Pair"}
DEALER: Final = "dealer"
PHASES: Final = ("betting", "closed", "decisions", "revealed", "settled", "void")
UNFINISHED: Final = PHASES[:4]
VOIDS: Final = {
    "shoe_jam": ("the shoe jammed or failed to deal every card", ()),
    "face_up_cards": ("more than one card was found face up while dealing", ()),
    "wrong_card_count": ("a box or the dealer was dealt a wrong number of cards", ()),
    "stub_miscount": ("the stub count shows the deck is not 52 cards", ("decisions",)),
    "table_closed": ("the table closed before the round was dealt", ("betting", "closed")),
    "server_restart": ("the round could not resume after an interruption", UNFINISHED),
}
_HOUSE_VOIDS: Final = frozenset({"server_restart"})
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


@dataclass
class Box:
    box: int
    player: str
    wagers: dict[str, int] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)
    decision: str | None = None  # "play", "fold"
    abandoned: bool = False

    @property
    def in_play(self) -> bool:
        return self.wagers.get(ANTE, 0) > 0

    def staked(self) -> int:
        return sum(self.wagers.values())


@dataclass
class Round:
    number: int
    rules: Rules
    deck_back: str
    order: list[Card]
    salt: str
    phase: str = "betting"
    boxes: dict[int, Box] = field(default_factory=dict)
    dealer_cards: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    stub: list[Card] = field(default_factory=list)
    to_act: int | None = None
    void_reason: str | None = None
    results: dict[str, Any] | None = None

    @property
    def commitment(self) -> str:
        return commitment(self.order, self.salt)

    @property
    def finished(self) -> bool:
        return self.phase in ("settled", "void")

    def in_play(self) -> list[Box]:
        return [self.boxes[b] for b in sorted(self.boxes) if self.boxes[b].in_play]

    def dealt(self) -> bool:
        return bool(self.dealer_cards) or any(b.cards for b in self.boxes.values())

    def counted(self) -> int:
        if not self.dealt():
            return len(self.order)
        held = sum(len(b.cards) for b in self.boxes.values())
        return held + len(self.dealer_cards) + len(self.discards) + len(self.stub)

    def voids_now(self) -> list[str]:
        out = []
        for reason, (_, phases) in VOIDS.items():
            if self.phase in phases and (reason != "stub_miscount" or self.counted() != 52):
                out.append(reason)
        return out


def _deal(order: Sequence[Card], boxes: int, faults: Sequence[Fault]) -> tuple[Any, str | None]:
    dealt = deal(order, boxes, False, DealPlan.from_faults(list(faults), boxes + 1))
    reason = dealt.irregularity
    if reason is None and len(dealt.face_up_discards) > 1:
        reason = "face_up_cards"
    return dealt, reason


class AntePair:
    """Ante Pair: see the module docstring."""

    name = NAME
    title = ENTRY.title
    regulation = "a test's own rules"
    phases = PHASES
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
    settle_one: Callable[[object], dict[str, Any]]

    def __init__(self) -> None:
        self.settle_one = settle_one

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
        try:
            rules = Rules(**dict(data))
        except TypeError as exc:
            raise InvalidInput("bad_rules", f"not {self.title} rules: {exc}") from None
        for name, value in asdict(rules).items():
            if type(value) is not type(getattr(Rules(), name)):
                raise InvalidInput("bad_rules", f"{name} must be a {type(value).__name__}")
        return rules

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]:
        return asdict(rules)

    def rules_problems(self, rules: Rules) -> list[Problem]:
        return rules.problems()

    def rule_changes(self, old: Rules, new: Rules) -> list[str]:
        return field_changes(self.rules_fields(), asdict(old), asdict(new))

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

    def meters(self, rules: Rules) -> tuple[MeterSpec, ...]:
        return ()

    def meter_catalogue(self) -> tuple[MeterKind, ...]:
        return ()

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

    def staff_parts(self, rules: Rules) -> tuple[StaffPart, ...]:
        return ()

    def staff_page(self, name: str) -> StaffPart | None:
        return None

    # --- a round ----------------------------------------------------------------------------

    def open_round(
        self, number: int, rules: Rules, deck_back: str, order: Sequence[int], salt: str
    ) -> tuple[Round, GameStep]:
        if not isinstance(rules, Rules) or rules.problems():
            raise InvalidInput("bad_rules", "a round is played under the table's rules")
        check_distinct(order)
        if len(order) != len(DECK):
            raise InvalidInput("bad_shoe", f"the shoe holds {len(order)} cards, not 52")
        rnd = Round(number, rules, deck_back, list(order), salt)
        data = {
            "game": NAME,
            "round": number,
            "deck_back": deck_back,
            "commitment": rnd.commitment,
            "rules": asdict(rules),
        }
        return rnd, GameStep((Event("round_opened", data),))

    def round_rules(self, state: Round) -> Rules:
        return state.rules

    def status(self, state: Round) -> RoundStatus:
        settled = (state.results or {}).get("players")
        players = None if settled is None else {p: v["net"] for p, v in settled.items()}
        reason = state.void_reason
        return RoundStatus(
            number=state.number,
            phase=state.phase,
            betting=state.phase == "betting",
            dealt=state.dealt(),
            revealed=state.phase in ("revealed", "settled"),
            finished=state.finished,
            void_reason=reason,
            irregularity=None if reason is None else VOIDS[reason][0],
            commitment=state.commitment,
            deck_back=state.deck_back,
            cards_dealt=len(state.order) - len(state.stub) if state.dealt() else 0,
            cards_counted=state.counted(),
            players=players,
        )

    def boxes(self, state: Round) -> tuple[BoxState, ...]:
        settled = {b["box"]: b for b in (state.results or {}).get("boxes", [])}
        return tuple(
            BoxState(
                box=b.box,
                player=b.player,
                wagers=dict(b.wagers),
                cards=tuple(codes(b.cards)),
                decision=b.decision,
                in_play=b.in_play,
                folded=b.decision == "fold",
                abandoned=b.abandoned,
                hand=hand_words(b.cards) if len(b.cards) == 5 else None,
                net=settled[b.box]["net"] if b.box in settled else None,
                lines=lines_of(settled[b.box]["results"], "hand") if b.box in settled else (),
            )
            for b in (state.boxes[n] for n in sorted(state.boxes))
        )

    def dealing_plan(self, state: Round) -> DealingPlan:
        return stacks_of_five(b.box for b in state.in_play())

    def timer(self, state: Round) -> Timer | None:
        return turn_timer(
            state.phase == "betting",
            bool(state.in_play()),
            state.to_act if state.phase == "decisions" else None,
            state.rules.betting_seconds,
            state.rules.decision_seconds,
        )

    def moves(self, state: Round, viewer: Actor) -> tuple[Move, ...]:
        if state.finished:
            return ()
        if viewer.role is Role.DEALER:
            step = dealer_step(state.phase, bool(state.in_play()), state.to_act)
            moves = [step] if step is not None else []
            voids = tuple(
                Choice(VOIDS[r][0], {"reason": r})
                for r in state.voids_now()
                if r not in _HOUSE_VOIDS
            )
            if voids:
                moves.append(Move(VOID, "Void the round", choices=voids))
            return tuple(moves)
        if viewer.role is not Role.PLAYER or not viewer.name:
            return ()
        if state.phase == "betting":
            owners = {b: p.player for b, p in state.boxes.items()}
            amounts = bet_amounts(state.rules, ANTE, "Ante", (PAIR,), LABELS)
            mine = boxes_of(state.boxes, viewer.name)
            return tuple(betting_moves(owners, viewer.name, mine, 1, amounts))
        if state.phase == "decisions" and state.to_act is not None:
            box = state.boxes[state.to_act]
            if box.player == viewer.name:
                choices = (Choice("Fold", {"play": False}), Choice("Play", {"play": True}))
                return (Move(DECIDE, "Play or fold", box.box, choices),)
        return ()

    def apply(
        self, state: Round, actor: Actor, command: Command, inputs: Inputs = NO_INPUTS
    ) -> GameStep:
        name, args = command.name, command.args
        if name == BET:
            return _bet(state, command_box(command), require_player(actor), dict(args))
        if name == WITHDRAW:
            return _bet(state, command_box(command), require_player(actor), {})
        if name == DECIDE:
            play = args.get("play")
            if not isinstance(play, bool):
                raise InvalidInput("bad_decision", "say Play (true) or fold (false)")
            return _decide(state, command_box(command), require_player(actor), play)
        if name == ABANDON:
            return _abandon(state, _player(args.get("player")))
        require_dealer(actor)
        if name == CLOSE_BETTING:
            _require(state, "betting")
            if not state.in_play():
                raise RuleViolation("no_wagers", "no box has an Ante yet")
            state.phase = "closed"
            return GameStep((Event("betting_closed", {"boxes": [b.box for b in state.in_play()]}),))
        if name == DEAL:
            return _deal_round(state, inputs.faults)
        if name == TIME_OUT:
            _require(state, "decisions")
            if state.to_act is None or command.box not in (None, state.to_act):
                raise RuleViolation("not_your_turn", f"box {command.box} is not deciding now")
            return _decide(state, state.to_act, None, False)
        if name == REVEAL:
            _require(state, "decisions")
            if state.to_act is not None:
                raise RuleViolation("decisions_pending", f"box {state.to_act} is deciding")
            state.phase = "revealed"
            return GameStep((Event("dealer_revealed", _dealer(state)),))
        if name == SETTLE:
            return _settle(state)
        if name == VOID:
            reason = args.get("reason")
            if reason not in VOIDS:
                raise InvalidInput("unknown_irregularity", f"unknown irregularity {reason!r}")
            if reason == "stub_miscount" and state.phase == "decisions" and state.counted() == 52:
                raise RuleViolation("stub_correct", "the stub counts 52 cards: nothing to void")
            if reason not in state.voids_now():
                raise RuleViolation("irregularity_not_now", f"{reason} cannot void the round now")
            return _void(state, str(reason))
        raise InvalidInput("unknown_command", f"{self.title} has no command {name!r}")

    def view(self, state: Round, viewer: Actor) -> dict[str, Any]:
        name = viewer.name if viewer.role is Role.PLAYER else None
        settled = {b["box"]: b for b in (state.results or {}).get("boxes", [])}
        boxes = []
        for n in sorted(state.boxes):
            b = state.boxes[n]
            mine = name is not None and b.player == name
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
            "round": state.number,
            "phase": state.phase,
            "deck_back": state.deck_back,
            "commitment": state.commitment,
            "viewer": {"name": name},
            "boxes": boxes,
            "to_act": state.to_act,
            "dealt": bool(state.dealer_cards),
            "dealer": _dealer(state) if state.phase in ("revealed", "settled") else None,
            "face_up_discards": codes(state.discards),
            "void_reason": state.void_reason,
            "void_explanation": VOIDS[state.void_reason][0] if state.void_reason else None,
            "players": (state.results or {}).get("players"),
        }
        if viewer.role is Role.DEALER and state.dealer_cards:
            view["stub"] = len(state.stub)
        if state.finished:
            view["shoe"], view["salt"] = codes(state.order), state.salt
        return seen_by(view, viewer, self.moves(state, viewer))

    def to_dict(self, state: Round) -> dict[str, Any]:
        return {
            "game": NAME,
            "number": state.number,
            "rules": asdict(state.rules),
            "deck_back": state.deck_back,
            "order": list(state.order),
            "salt": state.salt,
            "phase": state.phase,
            "boxes": [asdict(b) for b in state.boxes.values()],
            "dealer_cards": list(state.dealer_cards),
            "discards": list(state.discards),
            "stub": list(state.stub),
            "to_act": state.to_act,
            "void_reason": state.void_reason,
            "results": state.results,
        }

    def recalled(self, state: Round) -> Recalled:
        players = self.status(state).players
        return recalled_from_view(self.view(state, Actor.spectator()), state, players)

    def void_words(self, reason: str) -> str:
        return VOIDS[reason][0] if reason in VOIDS else ""

    def recheck(self, state: Round, faults: Sequence[Fault]) -> list[str]:
        if not state.dealt():
            return []
        in_play = state.in_play()
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
        if state.phase == "settled" and state.results is not None:
            fresh = _settlement(state)
            kept = state.results
            problems += compare_resettlement(
                fresh["boxes"], kept["boxes"], fresh["players"], kept["players"]
            )
        return problems

    def contract_round(self, state: Round) -> dict[str, Any] | None:
        """The settled round as :func:`settle_one`'s input."""
        if state.phase != "settled":
            return None
        return {
            "game": NAME,
            "rules": asdict(state.rules),
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
                for b in state.in_play()
            ],
        }

    def from_dict(self, data: Mapping[str, Any]) -> Round:
        try:
            if data.get("game") != NAME:
                raise ValueError(f"not a round of {NAME}")
            d = dict(data)
            return Round(
                number=int(d["number"]),
                rules=self.parse_rules(d["rules"]),
                deck_back=str(d["deck_back"]),
                order=[int(c) for c in d["order"]],
                salt=str(d["salt"]),
                phase=str(d["phase"]),
                boxes={int(b["box"]): _box(b) for b in d["boxes"]},
                dealer_cards=[int(c) for c in d["dealer_cards"]],
                discards=[int(c) for c in d["discards"]],
                stub=[int(c) for c in d["stub"]],
                to_act=d["to_act"],
                void_reason=d["void_reason"],
                results=copy.deepcopy(d["results"]),
            )
        except (AttributeError, KeyError, TypeError, ValueError, InvalidInput) as exc:
            raise InvalidInput("bad_state", f"not a saved round: {exc!r}") from None


def _box(d: Mapping[str, Any]) -> Box:
    """A stored box, its own copy (a round loaded twice shares nothing)."""
    decision = d["decision"]
    if decision not in (None, "play", "fold"):
        raise ValueError(f"decision {decision!r}")
    return Box(
        int(d["box"]),
        str(d["player"]),
        {str(k): int(v) for k, v in d["wagers"].items()},
        [int(c) for c in d["cards"]],
        decision,
        bool(d["abandoned"]),
    )


def _require(state: Round, *phases: str) -> None:
    if state.phase not in phases:
        wanted = " or ".join(phases)
        raise RuleViolation(
            "wrong_phase", f"not allowed now: the round is {state.phase}, not {wanted}"
        )


def _bet(state: Round, box: int, player: str, wagers: dict[str, object]) -> GameStep:
    _require(state, "betting")
    number, _ = check_bettor(state.boxes, box, player, wagers, (ANTE, PAIR))
    placed: dict[str, int] = {}
    for wager in (ANTE, PAIR):
        amount = _amount(wagers.get(wager, 0), wager)
        if not amount:
            continue
        low, high = state.rules.limits(wager)
        if not state.rules.offers(wager):
            raise RuleViolation("not_offered", f"this table does not offer the {wager} wager")
        if not low <= amount <= high:
            raise RuleViolation("out_of_limits", f"the {wager} must be {low} to {high} cents")
        placed[wager] = amount
    if placed and ANTE not in placed:
        raise RuleViolation("ante_required", "a Pair wager needs an Ante on the box")
    if placed and any(b != number for b in boxes_of(state.boxes, player)):
        raise RuleViolation("too_many_boxes", "a player may play one box")
    return GameStep(*wagers_step(state.boxes, number, player, placed, Box))


def _deal_round(state: Round, faults: Sequence[Fault]) -> GameStep:
    _require(state, "closed")
    if Fault.MISCOUNT in faults:
        raise InvalidInput("bad_fault", "a miscount is the shuffler's, found before a round")
    in_play = state.in_play()
    dealt, reason = _deal(state.order, len(in_play), faults)
    events = [Event("face_up_card", {"card": card_code(c)}) for c in dealt.face_up_discards]
    for box, stack in zip(in_play, dealt.box_stacks, strict=False):
        box.cards = list(stack)
    state.dealer_cards = list(dealt.dealer_stack)
    state.discards = list(dealt.face_up_discards)
    state.stub = list(dealt.stub)
    if reason is not None:
        step = _void(state, reason)
        return GameStep((*events, *step.events), step.transfers)
    state.phase = "decisions"
    events.append(Event("cards_dealt", {"boxes": [b.box for b in in_play]}))
    events.append(Event("stub", {"cards": len(state.stub)}, DEALER))
    for box in in_play:
        data = {"box": box.box, "cards": codes(box.cards), "hand": hand_words(box.cards)}
        events.append(Event("hole_cards", data, to_player(box.player)))
    return GameStep((*events, *_next(state)))


def _fold(box: Box) -> list[Event]:
    box.decision = "fold"
    return [Event("decision", {"box": box.box, "player": box.player, "decision": "fold"})]


def _next(state: Round) -> list[Event]:
    state.to_act, events = next_turn(state.in_play(), _fold)
    return events


def _decide(state: Round, box: int, player: str | None, play: bool) -> GameStep:
    _require(state, "decisions")
    if state.to_act != box:
        raise RuleViolation("not_your_turn", f"box {box} cannot act now")
    chosen = state.boxes[box]
    if player is not None and chosen.player != player:
        raise RuleViolation("not_your_box", f"box {box} is not yours")
    transfers: tuple[Transfer, ...] = ()
    if play:
        chosen.decision = "play"
        chosen.wagers[PLAY] = chosen.wagers[ANTE]
        transfers = (Transfer(chosen.player, chosen.wagers[PLAY], "play", box, PLAY),)
        events = [Event("decision", {"box": box, "player": chosen.player, "decision": "play"})]
    else:
        events = _fold(chosen)
    return GameStep((*events, *_next(state)), transfers)


def _abandon(state: Round, player: str) -> GameStep:
    if state.phase == "betting":
        mine = boxes_of(state.boxes, player)
        return GameStep(*withdraw_all(mine, lambda b: _as_step(_bet(state, b, player, {}))))
    events: list[Event] = []
    if state.phase in ("closed", "decisions"):
        for number in boxes_of(state.boxes, player):
            box = state.boxes[number]
            if box.decision is None:
                box.abandoned = True
                events.append(Event("box_abandoned", {"box": number, "player": player}))
        current = state.boxes.get(state.to_act) if state.to_act is not None else None
        if state.phase == "decisions" and current is not None and current.abandoned:
            events += _fold(current) + _next(state)
    return GameStep(tuple(events))


def _as_step(step: GameStep) -> Step:
    return Step(step.events, step.transfers)


def _dealer(state: Round) -> dict[str, Any]:
    return {"cards": codes(state.dealer_cards), "hand": hand_words(state.dealer_cards)}


def _settlement(state: Round) -> dict[str, Any]:
    """Every box's lines, the dealer's hand and each player's net: the round's results."""
    dealer = hand_key(state.dealer_cards)
    boxes: list[dict[str, Any]] = []
    players: dict[str, dict[str, int]] = {}
    for box in state.in_play():
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
    return {"dealer": _dealer(state), "boxes": boxes, "players": players}


def _settle(state: Round) -> GameStep:
    _require(state, "revealed")
    state.results = _settlement(state)
    events, transfers = [], []
    for box in state.results["boxes"]:
        events.append(Event("box_settled", box))
        for line in box["results"]:
            back = 0 if line["outcome"] == "lose" else line["stake"] + line["net"]
            if back:
                transfers.append(
                    Transfer(box["player"], -back, line["outcome"], box["box"], line["wager"])
                )
    state.phase, state.to_act = "settled", None
    data = {
        "players": state.results["players"],
        "shoe": codes(state.order),
        "salt": state.salt,
        "commitment": state.commitment,
    }
    return GameStep((*events, Event("round_settled", data)), tuple(transfers))


def _void(state: Round, reason: str) -> GameStep:
    transfers = tuple(
        Transfer(b.player, -stake, "returned (void)", b.box, wager)
        for b in state.boxes.values()
        for wager, stake in b.wagers.items()
        if stake
    )
    state.phase, state.void_reason, state.to_act = "void", reason, None
    data = {
        "reason": reason,
        "explanation": VOIDS[reason][0],
        "returned": {str(b.box): b.staked() for b in state.boxes.values()},
        "shoe": codes(state.order),
        "salt": state.salt,
        "commitment": state.commitment,
    }
    return GameStep((Event("round_void", data, PUBLIC),), transfers)


def settle_one(raw: object) -> dict[str, Any]:
    """The ``settle_round`` contract: ``{"game", "dealer": [5 codes], "boxes": [{"box",
    "player", "cards": [5 codes], "ante", "pair", "play": bool}]}`` settled."""
    from table.games.cards import parse_cards
    from table.games.common import box_number, check_keys, json_object

    data = json_object(raw, "the round")
    check_keys(data, frozenset({"game", "rules", "dealer", "boxes"}), "")
    rules = GAME.parse_rules(json_object(data.get("rules", {}), "rules"))
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


GAME: Final[Game[Rules, Round]] = AntePair()
