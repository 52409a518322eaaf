"""The default adapter: a round on :mod:`table.games.skeleton` behind the platform's
:class:`~table.games.base.Game` interface, with what every such game answers alike written once.

A game's adapter subclasses :class:`SkeletonGame` and keeps only its own answers: its Rules
Submission (fields, defaults, problems), its wagers, table settings, signs and figures, the
decision move a box to act is offered, and the commands of its own. The rest - the round's
status and boxes for the records, the clock, the betting and dealer moves, the dispatch of
the shared commands, the players' view, recall, the void words and the stored form - is here.

Pure: no Django; it imports no game's modules (the games import it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Generic, Protocol, TypeVar

from table.games.base import (
    ABANDON,
    BET,
    CLOSE_BETTING,
    DEAL,
    DECIDE,
    NO_INPUTS,
    REVEAL,
    SETTLE,
    SUPERVISOR_VOID,
    TIME_OUT,
    VOID,
    WITHDRAW,
    Actor,
    Amount,
    BoxState,
    Choice,
    Command,
    DealingPlan,
    FeltParts,
    GameStep,
    Inputs,
    Line,
    MeterKind,
    MeterSpec,
    Move,
    Recalled,
    Role,
    RoundStatus,
    StaffPart,
    TableSettings,
    Timer,
    bet_amounts,
    betting_moves,
    command_box,
    dealer_step,
    drawn_view,
    field_changes,
    lines_of,
    reason_words,
    recalled_from_view,
    require_dealer,
    require_player,
    seen_by,
    turn_timer,
)
from table.games.cards import codes
from table.games.errors import InvalidInput
from table.games.events import Step
from table.games.skeleton import ANTE, BETTING, DECISIONS, SkeletonBox, SkeletonRound
from table.games.skeleton import VOID as VOID_PHASE
from table.games.words import procedure_view

#: Voids only the house makes (a restart, the back office's supervisor): never the dealer's move.
HOUSE_VOIDS: Final = frozenset({"server_restart", SUPERVISOR_VOID})


class TableRules(Protocol):
    """What the default adapter reads of a game's rules: the clock and the wagers' limits."""

    @property
    def betting_seconds(self) -> int: ...

    @property
    def decision_seconds(self) -> int: ...

    def offers(self, wager: str) -> bool: ...

    def limits(self, wager: str) -> tuple[int, int]: ...

    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=TableRules)
S = TypeVar("S", bound=SkeletonRound[Any, Any, Any])


class SkeletonGame(Generic[R, S]):
    """A game whose round is a :class:`~table.games.skeleton.SkeletonRound`: the
    :class:`~table.games.base.Game` interface with every answer the games share. A game sets
    ``name``, ``title``, ``regulation``, ``phases``, ``drills``, ``stub_miscount_reason``,
    ``felt``, the wagers a bet move asks for (``optional_wagers``, ``ante_label``), and
    fills in its own answers; the hooks below say where it may differ."""

    name: str
    title: str
    regulation: str
    phases: tuple[str, ...]
    drills: tuple[Any, ...]
    stub_miscount_reason: str
    felt: FeltParts
    #: The side wagers a bet move offers after the Ante (each when the table offers it).
    optional_wagers: tuple[str, ...] = ()
    ante_label: str = "Ante"
    settle_one: Callable[[object], dict[str, Any]]

    def __init__(self, round_type: type[S], settle_one: Callable[[object], dict[str, Any]]):
        self.round_type = round_type
        self.settle_one = settle_one

    # --- the Rules Submission: what every game answers alike ------------------------------

    def rules_to_dict(self, rules: R) -> dict[str, Any]:
        return rules.to_dict()

    def rule_changes(self, old: R, new: R) -> list[str]:
        return field_changes(self.rules_fields(), old.to_dict(), new.to_dict())

    def rules_fields(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def table_settings(self, rules: R) -> TableSettings:
        raise NotImplementedError

    def meters(self, rules: R) -> tuple[MeterSpec, ...]:
        return ()  # no meter shared across tables

    def meter_catalogue(self) -> tuple[MeterKind, ...]:
        return ()

    def staff_parts(self, rules: R) -> tuple[StaffPart, ...]:
        return ()  # the platform draws the signs and figures

    def staff_page(self, name: str) -> StaffPart | None:
        return None

    # --- a round: the records -------------------------------------------------------------

    def game_step(self, step: Step) -> GameStep:
        """Hook: a round's step as the platform takes it (a game with meters adds them)."""
        return GameStep(step.events, step.transfers)

    def open_round(
        self, number: int, rules: R, deck_back: str, order: Sequence[int], salt: str
    ) -> tuple[S, GameStep]:
        rnd, step = self.round_type.open(number, rules, deck_back, order, salt)
        return rnd, self.game_step(step)

    def round_rules(self, state: S) -> R:
        rules: R = state.rules
        return rules

    def status(self, state: S) -> RoundStatus:
        dealt = bool(state.dealer_cards) or any(b.cards for b in state.boxes.values())
        players = (state.results or {}).get("players")
        return RoundStatus(
            number=state.number,
            phase=state.phase.value,
            betting=state.phase == BETTING,
            dealt=dealt,
            revealed=state.dealer_visible(),
            finished=state.finished,
            void_reason=state.void_reason,
            irregularity=state.irregularity(),
            commitment=state.commitment,
            deck_back=state.deck_back,
            cards_dealt=len(state.order) - len(state.stub) if dealt else 0,
            cards_counted=state.stub_count(),
            players=None if players is None else {p: v["net"] for p, v in players.items()},
        )

    def box_decision(self, box: Any) -> str | None:
        """Hook: a box's decision in words (None: not yet)."""
        return None if box.decision is None else str(box.decision)

    def box_hand(self, box: Any) -> str | None:
        """Hook: a dealt box's hand in words."""
        return None

    def box_best(self, box: Any) -> tuple[str, ...]:
        """Hook: the cards that make a dealt box's hand, where the game names them."""
        return ()

    def box_lines(self, settled: Mapping[str, Any]) -> tuple[Line, ...]:
        """Hook: a settled box's lines (its wagers' results, and any bonus paid on top)."""
        return lines_of(settled["results"], "hand")

    def boxes(self, state: S) -> tuple[BoxState, ...]:
        settled = {b["box"]: b for b in (state.results or {}).get("boxes", [])}
        out = []
        for number in sorted(state.boxes):
            play: SkeletonBox = state.boxes[number]
            out.append(
                BoxState(
                    box=number,
                    player=play.player,
                    wagers=dict(play.wagers),
                    cards=tuple(codes(play.cards)),
                    decision=self.box_decision(play),
                    in_play=play.in_play,
                    folded=bool(getattr(play, "folded", False)),
                    abandoned=play.abandoned,
                    hand=self.box_hand(play) if len(play.cards) == 5 else None,
                    net=settled[number]["net"] if number in settled else None,
                    lines=self.box_lines(settled[number]) if number in settled else (),
                    best_cards=self.box_best(play) if len(play.cards) == 5 else (),
                )
            )
        return tuple(out)

    def dealing_plan(self, state: S) -> DealingPlan:
        plan: DealingPlan = state.dealing_plan()
        return plan

    # --- a round: the clock and the moves -----------------------------------------------

    def timer(self, state: S) -> Timer | None:
        """Betting closes when its time is up (if anyone bet); a box to decide folds when
        its time is up."""
        rules: R = state.rules
        return turn_timer(
            state.phase == BETTING,
            bool(state.boxes_in_play()),
            state.to_act if state.phase == DECISIONS else None,
            rules.betting_seconds,
            rules.decision_seconds,
        )

    def moves(self, state: S, viewer: Actor) -> tuple[Move, ...]:
        if state.finished:
            return ()
        if viewer.role is Role.DEALER:
            return self.dealer_moves(state)
        if viewer.role is not Role.PLAYER or not viewer.name:
            return ()
        player = viewer.name
        if state.phase == BETTING:
            owners = {b: p.player for b, p in state.boxes.items()}
            amounts, most = self.betting(state.rules)
            return tuple(betting_moves(owners, player, state.boxes_of(player), most, amounts))
        if state.phase == DECISIONS and state.to_act is not None:
            box = state.boxes[state.to_act]
            move = self.decide_move(state, box) if box.player == player else None
            return () if move is None else (move,)
        return self.more_moves(state, player)

    #: The last rules :meth:`betting` answered for, with its answer.
    _betting: tuple[Any, tuple[Amount, ...], int] | None = None

    def betting(self, rules: R) -> tuple[tuple[Amount, ...], int]:
        """The amounts a bet move asks for under ``rules`` and the most boxes a player may
        play: the same for every player and box of a round, so made once per rules object
        (the round's own frozen copy, which every viewer's moves of a command share) and
        kept for the next call: one tuple of amounts, which the views a command builds
        together turn into dicts once (``moves_json``)."""
        last = self._betting
        if last is not None and last[0] is rules:  # it holds the rules: no id reused
            return last[1], last[2]
        labels = self.felt.labels
        amounts = bet_amounts(rules, ANTE, self.ante_label, self.optional_wagers, labels)
        most = self.table_settings(rules).boxes_per_player
        self._betting = (rules, amounts, most)  # one assignment: safe between threads
        return amounts, most

    def decide_move(self, state: S, box: Any) -> Move | None:
        """Hook: the decision the box to act is offered (its owner is the viewer)."""
        raise NotImplementedError

    def more_moves(self, state: S, player: str) -> tuple[Move, ...]:
        """Hook: a player's moves in a phase of the game's own."""
        return ()

    def dealer_step(self, state: S) -> Move | None:
        """Hook: the step due now as the dealer's move."""
        return dealer_step(state.phase.value, bool(state.boxes_in_play()), state.to_act)

    def dealer_voids(self, state: S) -> list[str]:
        """Hook: the voids the dealer may declare now (never the house's own)."""
        return [r for r in state.void_reasons_now() if r not in HOUSE_VOIDS]

    def dealer_moves(self, state: S) -> tuple[Move, ...]:
        step = self.dealer_step(state)
        moves = [step] if step is not None else []
        reasons = state.VOID_REASONS
        choices = tuple(
            Choice(reasons[r].explanation, {"reason": r}) for r in self.dealer_voids(state)
        )
        if choices:
            moves.append(Move(VOID, "Void the round", choices=choices))
        return tuple(moves)

    # --- a round: the commands ----------------------------------------------------------

    def decision(self, args: Mapping[str, Any]) -> Any:
        """Hook: the decision a ``decide`` command's args carry (refuse it if missing)."""
        raise NotImplementedError

    def apply_own(self, state: S, actor: Actor, command: Command, inputs: Inputs) -> Step | None:
        """Hook: a command of the game's own (None: not one)."""
        return None

    def deal(self, state: S, inputs: Inputs) -> Step:
        """Hook: the deal, with the faults a drill armed."""
        step: Step = state.deal(list(inputs.faults))
        return step

    def settle(self, state: S, inputs: Inputs) -> Step:
        """Hook: the settlement (a game with meters takes them from ``inputs``)."""
        step: Step = state.settle()
        return step

    def void(self, state: S, actor: Actor, args: Mapping[str, Any]) -> Step:
        """Hook: a void the dealer or the house declares."""
        step: Step = state.void(args.get("reason", ""))
        return step

    def apply(
        self, state: S, actor: Actor, command: Command, inputs: Inputs = NO_INPUTS
    ) -> GameStep:
        return self.game_step(self._apply(state, actor, command, inputs))

    def _apply(self, state: S, actor: Actor, command: Command, inputs: Inputs) -> Step:
        name, args = command.name, command.args
        step: Step | None = self.apply_own(state, actor, command, inputs)
        if step is not None:
            return step
        if name == BET:
            step = state.bet(command_box(command), require_player(actor), dict(args))
        elif name == WITHDRAW:
            step = state.withdraw(command_box(command), require_player(actor))
        elif name == DECIDE:
            player = require_player(actor)
            step = state.decide(command_box(command), player, self.decision(args))
        else:
            step = self._dealer_command(state, actor, command, inputs)
        return step

    def _dealer_command(self, state: S, actor: Actor, command: Command, inputs: Inputs) -> Step:
        """The dealer's (and the house's) commands."""
        name, args = command.name, command.args
        require_dealer(actor)
        step: Step
        if name == CLOSE_BETTING:
            step = state.close_betting()
        elif name == DEAL:
            step = self.deal(state, inputs)
        elif name == TIME_OUT:
            step = state.time_out(command.box)
        elif name == REVEAL:
            step = state.reveal()
        elif name == SETTLE:
            step = self.settle(state, inputs)
        elif name == VOID:
            step = self.void(state, actor, args)
        elif name == ABANDON:
            step = state.abandon(args.get("player", ""))
        else:
            raise InvalidInput("unknown_command", f"{self.title} has no command {name!r}")
        return step

    # --- a round: what each viewer sees, recall, the stored form --------------------------

    def view(self, state: S, viewer: Actor) -> dict[str, Any]:
        view = drawn_view(state, viewer, self.moves(state, viewer))
        return self._console_procedure(state, viewer, view)

    def _console_procedure(self, state: S, viewer: Actor, view: dict[str, Any]) -> dict[str, Any]:
        if viewer.role is Role.DEALER:
            # The dealer console shows what the regulation says to do now with the cards of a
            # void round (or a void main game) until the next round opens: the view the dealer
            # alone gets, never a player's or a spectator's (docs/protocol.md, "view").
            procedure = state.procedure_now()
            if procedure is not None:
                voided = "round" if state.phase == VOID_PHASE else "main_game"
                view["procedure"] = procedure_view(procedure, voided)
        return view

    def views(self, state: S, viewers: Sequence[Actor]) -> list[dict[str, Any]]:
        # A player's view is the spectators' but the player's own boxes, the console's the
        # spectators' with its extras: built from it (the round's ``view_from``), the rest of
        # it is not built again for every viewer.
        spectators = self.view(state, Actor.spectator())
        shared: dict[int, Any] = {}  # what the viewers' moves share (moves_json)
        out = []
        for viewer in viewers:
            view = None
            if viewer.role is Role.SPECTATOR:
                view = spectators
            elif viewer.role is Role.DEALER or (viewer.role is Role.PLAYER and viewer.name):
                dealer = viewer.role is Role.DEALER
                player = None if dealer else viewer.name
                drawn = state.view_from(player, spectators, dealer)
                if drawn is not None:
                    view = self._console_procedure(
                        state, viewer, seen_by(drawn, viewer, self.moves(state, viewer), shared)
                    )
            out.append(view if view is not None else self.view(state, viewer))
        return out

    def recalled(self, state: S) -> Recalled:
        spectators = self.view(state, Actor.spectator())
        return recalled_from_view(spectators, state, self.status(state).players)

    def void_words(self, reason: str) -> str:
        return reason_words(self.round_type.VOID_REASONS, reason)

    def to_dict(self, state: S) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> S:
        if not isinstance(data, Mapping):
            raise InvalidInput("bad_state", "not a saved round")
        return self.round_type.from_dict(dict(data))
