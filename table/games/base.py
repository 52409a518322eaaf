"""The interface every game implements, and the plain values the platform and a game exchange.

The platform (tables, seats, the command path, the virtual shoe and commit-reveal, the round
store and event chain, the ledger, shared meters, recall, the autodealer and clock, consumers,
lobby, console and admin frames) calls a game only through :class:`Game`, never through a
game's own modules. Its shape is boardgame.io's game object (setup, phases, moves,
``playerView``) served by a game-agnostic master, and pokerkit's variants over shared
machinery: a game is a set of pure functions over a round state the platform stores as JSON.

What the platform does with a command, whatever the game::

    state = game.from_dict(stored)                     # the round as saved
    step = game.apply(state, actor, command, inputs)   # refuses (EngineError) or changes it
    post step.transfers in the ledger; apply step.meters to the shared meters;
    append step.events (each with its audience) to the chain; store game.to_dict(state)

A refusal raises :class:`~table.games.errors.EngineError` (``InvalidInput`` for malformed
input, ``RuleViolation`` for a command the rules forbid now) and leaves the state unchanged.

Shared machinery a game may use (the card codes in ``table/games/cards.py``, the shoe's
:func:`deal` and :class:`Fault` in ``shoe.py``, the errors in ``errors.py``,
:class:`Event`/:class:`Transfer` in ``events.py``) is re-exported here, so that the platform
imports only this module. Money is integer cents throughout. Pure, typed Python: no Django.
Longer than most modules on purpose: the interface is written down in one place, every
member and value type with its documentation, so that a newcomer reads one file (and
docs/games.md) to write a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from table.games.cards import codes
from table.games.errors import EngineError, InvalidInput, RuleViolation
from table.games.events import PUBLIC, Event, Transfer, plain_dict, to_player
from table.games.progressive import MeterRates
from table.games.shoe import DealingPlan, Fault, RandomSource, Stack, stacks_of_five

__all__ = [
    "ABANDON",
    "BET",
    "BETTING_PHASE",
    "BOX_VIEW_KEYS",
    "CLOSE_BETTING",
    "DEAL",
    "DEALER",
    "DEALER_STEPS",
    "DECIDE",
    "FINISHED_PHASES",
    "NO_INPUTS",
    "PUBLIC",
    "REVEAL",
    "SETTLE",
    "SETTLED_PHASE",
    "SUPERVISOR_VOID",
    "SUPERVISOR_VOID_WORDS",
    "MIN_CLOCK_SECONDS",
    "clock_problems",
    "SET_HANDS",
    "TIME_OUT",
    "VIEW_KEYS",
    "VOID",
    "VOID_PHASE",
    "WITHDRAW",
    "Actor",
    "Amount",
    "BoxState",
    "Choice",
    "Command",
    "DealingPlan",
    "EngineError",
    "Event",
    "FeltParts",
    "Fault",
    "Figure",
    "Game",
    "GameStep",
    "Inputs",
    "InvalidInput",
    "Line",
    "MeterChange",
    "MeterKind",
    "MeterRates",
    "MeterReading",
    "MeterSpec",
    "Move",
    "PaytableReport",
    "Problem",
    "RandomSource",
    "Recalled",
    "Role",
    "RoundStatus",
    "RuleViolation",
    "RulesField",
    "Sign",
    "Stack",
    "stacks_of_five",
    "StaffPart",
    "TableSettings",
    "Timer",
    "Transfer",
    "WagerSpec",
    "bettable_boxes",
    "betting_moves",
    "check_view",
    "dealer_step",
    "command_box",
    "dollars",
    "field_changes",
    "lines_of",
    "recalled_from_view",
    "require_dealer",
    "require_player",
    "moves_json",
    "seen_by",
    "to_player",
]

#: The dealer console's audience. With :data:`PUBLIC` (everyone at the table) and
#: ``to_player(name)`` (one player only) these are the three audiences an event may have.
DEALER: Final = "dealer"

# --- who looks and who acts --------------------------------------------------------------------


class Role(StrEnum):
    PLAYER = "player"  # a seated player (owner of some boxes, or of none: another player)
    SPECTATOR = "spectator"  # anyone watching, logged in or not, without a seat
    DEALER = "dealer"  # the dealer console of the table
    HOUSE = "house"  # the platform itself: the clock, the autodealer, a restart


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends a command, or (as a viewer) who looks. A player has a name; the others
    need none. The platform has already checked the person may do this at this table
    (seat, dealer assignment); the game checks the rules (whose box, whose turn)."""

    role: Role
    name: str | None = None

    @classmethod
    def player(cls, name: str) -> Actor:
        return cls(Role.PLAYER, name)

    @classmethod
    def spectator(cls) -> Actor:
        return cls(Role.SPECTATOR)

    @classmethod
    def dealer(cls, name: str | None = None) -> Actor:
        return cls(Role.DEALER, name)

    @classmethod
    def house(cls) -> Actor:
        return cls(Role.HOUSE)

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role.value, "name": self.name}


def require_player(actor: Actor) -> str:
    """The player's name, or :class:`RuleViolation`: only a seated player places wagers
    and decides."""
    if actor.role is not Role.PLAYER or not actor.name:
        raise RuleViolation("players_only", "only a player at the table may do this")
    return actor.name


def command_box(command: Command) -> int:
    """The box a command is for, or ``InvalidInput``: boxes are 1 to 6."""
    box = command.box
    if type(box) is not int or not 1 <= box <= 6:
        raise InvalidInput("bad_box", f"there is no box {box!r}; boxes are 1 to 6")
    return box


def require_dealer(actor: Actor) -> None:
    """Refuse anyone but the dealer console or the house (the clock, the autodealer)."""
    if actor.role not in (Role.DEALER, Role.HOUSE):
        raise RuleViolation("dealer_only", "only the dealer may do this")


# --- commands and the moves a view offers -----------------------------------------------------

#: Command names every game understands (the platform's vocabulary). ``args`` per command:
BET: Final = "bet"  # box; args: {wager: cents} - the box's complete set of wagers
WITHDRAW: Final = "withdraw"  # box; takes the box's wagers back before "no more bets"
CLOSE_BETTING: Final = "close_betting"  # "no more bets"
DEAL: Final = "deal"  # the shoe dispenses the stacks; Inputs.faults are the armed drills
DECIDE: Final = "decide"  # box; args are the game's own (a Raise multiple, a Play amount...)
SET_HANDS: Final = "set_hands"  # box; args: {"high": [codes], "low": [codes]} (Hi-Lo)
TIME_OUT: Final = "time_out"  # the clock ran out for what :meth:`Game.timer` awaits
REVEAL: Final = "reveal"  # the dealer's cards face up
SETTLE: Final = "settle"  # Inputs.meters: the shared meters as they stand
#: args: {"reason": key, "evidence": {...}}: every stake returned. The reasons are the game's
#: own (:meth:`Game.void_words` names them; its dealer moves offer those allowed now); the
#: platform passes the dealer's evidence on unchanged, with ``evidence["declared_by"]``.
#: ``table_closed`` and ``server_restart`` are the platform's, every game knows them: the
#: platform sends them when it closes the table or gives a round up; and
#: :data:`SUPERVISOR_VOID`.
VOID: Final = "void"
#: The platform's void of a round a supervisor gives up from the back office (issue 23: a way
#: out of a round that can be neither settled nor voided, needing no code): every game knows it
#: and takes it in every phase before settled, the dealer's hand face up included; every stake
#: goes back and the meter increments come back out. Only the platform sends it (never offered
#: to the dealer); the supervisor's name and reason go with it and into the audit log.
SUPERVISOR_VOID: Final = "supervisor_void"
SUPERVISOR_VOID_WORDS: Final = (
    "a supervisor voided the round from the back office (the reason is in the audit log): "
    "every wager is returned"
)
ABANDON: Final = "abandon"  # args: {"player": name}: the player left the table
#: The steps that move a round on; the dealer's moves offer the one due now.
DEALER_STEPS: Final = (CLOSE_BETTING, DEAL, REVEAL, SETTLE)


#: The phases every game's round shares (:attr:`Game.phases` has them, the platform's rows
#: keep a round's phase as text): it opens in betting and ends settled or void; any phase
#: between (a game's own, such as a step where players set their hands) is a round still in play.
BETTING_PHASE: Final = "betting"
SETTLED_PHASE: Final = "settled"
VOID_PHASE: Final = "void"
FINISHED_PHASES: Final = (SETTLED_PHASE, VOID_PHASE)

#: The shortest clock any table runs, in seconds: betting, a decision, a setting. One platform
#: rule for every game (issue 23: one game took 4 s where the others refused below 5): a
#: player on a phone needs that long to read the felt and answer, and the automatic dealer's
#: heartbeat must fit inside it. Every Rules Submission field of kind ``seconds`` is held to it
#: (``RulesSubmission.game_problems``), whatever the game checks itself.
MIN_CLOCK_SECONDS: Final = 5


def clock_problems(fields: Sequence[RulesField], choices: Mapping[str, Any]) -> list[Problem]:
    """Every ``seconds`` field of a Rules Submission set below :data:`MIN_CLOCK_SECONDS`."""
    out = []
    for f in fields:
        value = choices.get(f.name)
        if f.kind == "seconds" and type(value) is int and value < MIN_CLOCK_SECONDS:
            out.append(
                Problem(
                    f.name,
                    f"{f.label} must be at least {MIN_CLOCK_SECONDS} seconds (every game's "
                    f"clocks: players need that long to read the felt and answer), not {value}",
                )
            )
    return out


@dataclass(frozen=True, slots=True)
class Command:
    """One command for a round: its name, the box it is for (if any) and its arguments."""

    name: str
    box: int | None = None
    args: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class Choice:
    """One button: its words and the ``args`` the felt sends back with the move's command."""

    label: str
    args: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "args": dict(self.args)}


@dataclass(frozen=True, slots=True)
class Amount:
    """A free amount in cents between ``low`` and ``high``, sent as ``args[arg]``; a fixed
    wager has ``low == high``. ``required``: the command needs it (an Ante)."""

    arg: str
    label: str
    low: int
    high: int
    required: bool = False

    def to_dict(self) -> dict[str, Any]:
        # Spelled out, not dataclasses.asdict (a deep copy): every round view of a betting
        # round holds one per wager per box, built for each viewer after each command.
        return {
            "arg": self.arg,
            "label": self.label,
            "low": self.low,
            "high": self.high,
            "required": self.required,
        }


@dataclass(frozen=True, slots=True)
class Move:
    """Something a viewer may do now, described so that a felt or console can draw it
    without knowing the game: pick one of ``choices`` (each carries its args), and/or fill
    in ``amounts`` (for a bet: one per wager). The command sent is ``Command(name, box,
    args)``."""

    name: str
    label: str
    box: int | None = None
    choices: tuple[Choice, ...] = ()
    amounts: tuple[Amount, ...] = ()

    def to_dict(self, amounts: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The move as a view carries it; ``amounts``: its amounts already turned into
        dicts (:func:`moves_json`, shared by the views a command builds together)."""
        return {
            "move": self.name,
            "label": self.label,
            "box": self.box,
            "choices": [c.to_dict() for c in self.choices],
            "amounts": [a.to_dict() for a in self.amounts] if amounts is None else amounts,
        }


def moves_json(moves: Iterable[Move], shared: dict[int, Any] | None = None) -> list[dict[str, Any]]:
    """``moves`` as a view carries them. ``shared``: a memo kept by a command's views built
    together (``Game.views``; read only, then serialised): a move's amounts that are the very
    tuple another move already had (every bet move of a betting round has the round's one:
    ``SkeletonGame.betting``) are turned into dicts once and the list shared, not built again
    for each box and each player (issue 26: a betting round's views turned some 150 amounts
    into dicts per command)."""
    if shared is None:
        return [m.to_dict() for m in moves]
    out = []
    for move in moves:
        amounts = move.amounts
        if not amounts:
            out.append(move.to_dict())
            continue
        found = shared.get(id(amounts))
        if found is None or found[0] is not amounts:  # the memo holds the tuple: no id reused
            found = shared[id(amounts)] = (amounts, [a.to_dict() for a in amounts])
        out.append(move.to_dict(found[1]))
    return out


# --- what the platform hands in and gets back ------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeterReading:
    """A shared meter as it stands (cents): what a 100% payout pays, and its reserve."""

    amount: int
    reserve: int = 0


@dataclass(frozen=True, slots=True)
class Inputs:
    """What only the platform has and some commands need: the shoe's armed faults (for
    ``deal``), the randomness of the table game system (draws after the deal, e.g. Crazy 4
    Poker's Magic Card) and the shared meters as they stand (for ``settle``)."""

    faults: tuple[Fault, ...] = ()
    rng: RandomSource | None = None
    meters: Mapping[str, MeterReading] = field(default_factory=lambda: MappingProxyType({}))


NO_INPUTS: Final = Inputs()


@dataclass(frozen=True, slots=True)
class MeterChange:
    """One change a round asks of a shared meter, applied in order.

    ``increment``: add ``amount`` and ``reserve`` (the wagers at "no more bets");
    ``reverse``: a void round's increment taken back (``amount``, ``reserve`` negative);
    ``payout``: ``paid`` left the meter for ``box``'s ``wager`` (``percent`` of it, shared
    ``split`` ways), and with ``reset`` it was a 100% payout: the meter, less what was paid,
    is reset to its reseed plus its reserve. A jackpot split between boxes is one payout per
    share, listed together, only the last with ``reset``. The payouts come in the order the
    game's own settlement took them from the meter (the order ``settle_round`` counts them
    in): the meters store books them one after the other as they are, so the table pays what
    ``settle_round`` says to the cent (issue 23).
    """

    meter: str
    kind: str
    amount: int = 0
    reserve: int = 0
    paid: int = 0
    box: int | None = None
    wager: str | None = None
    reset: bool = False
    percent: int | None = None
    split: int = 1

    def to_dict(self) -> dict[str, Any]:
        return plain_dict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MeterChange:
        return cls(**{name: d[name] for name in cls.__dataclass_fields__ if name in d})


@dataclass(frozen=True, slots=True)
class GameStep:
    """What one command did: the events (in order, each with its audience), the money
    between players and the table (:class:`Transfer`: > 0 the player pays the table), and
    the changes to shared meters."""

    events: tuple[Event, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    meters: tuple[MeterChange, ...] = ()


# --- what a game says about its tables and rounds --------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a Rules Submission cannot be used: the field, and plain words."""

    field: str
    words: str


@dataclass(frozen=True, slots=True)
class RulesField:
    """One choice of the Rules Submission, for the admin form. ``kind``: ``choice`` (one of
    ``options``), ``flag``, ``cents``, ``count``, ``seconds``, ``text``; ``optional``: it
    may be empty (None), e.g. no payout limit or a side bet not offered."""

    name: str
    label: str
    kind: str
    default: Any
    options: tuple[str, ...] = ()
    optional: bool = False
    #: A sentence for staff under the field (what the regulation allows, what empty means).
    help: str = ""
    #: Each option in words, by option (a paytable with its source); missing: the option.
    option_words: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: The part of the form the field belongs in ("": the game's choices).
    group: str = ""
    #: A choice stored as an object, filled in as these parts (in words and dollars, not
    #: JSON): each part's value is stored under its name, or for a ``choice`` part under the
    #: keys its option stores (``option_values``). The first part empty: the whole choice is
    #: None (not offered), and the other parts are not read.
    parts: tuple[RulesField, ...] = ()
    #: What each option of a ``choice`` part stores in its choice's object, by option
    #: (``"five_card A"``: ``{"type": "five_card", "paytable": "A"}``); missing: the option
    #: under the part's name.
    option_values: Mapping[str, Mapping[str, Any]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    #: A ``flag`` staff fill in as a number like the same concept at another game: its
    #: (off, on) counts, e.g. one box or two adjacent boxes (§663a.7(f)); stored as a flag.
    counts: tuple[int, int] | tuple[()] = ()


@dataclass(frozen=True, slots=True)
class WagerSpec:
    """A wager a box may carry, in the game's own words. ``placed``: ``bet`` (before "no
    more bets"), ``with`` (follows another, e.g. Odds = Ante) or ``decision`` (Raise, Play);
    ``fixed``: the one amount allowed (a progressive); ``offered``: by these rules."""

    key: str
    label: str
    placed: str
    low: int
    high: int
    offered: bool = True
    required: bool = False
    fixed: bool = False


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the platform's shoe, clock and seats need from the rules in force."""

    two_decks: bool  # an automated shuffler with two decks used alternately
    betting_seconds: int
    boxes_per_player: int  # at most this many adjacent boxes
    payout_limit: int | None = None  # cents a player may win in a round, None: no limit
    #: The section of the game's chapter that limits a player to adjacent boxes, cited when
    #: the seats refuse a box (§684a.7(e), §657a.7(e), §663a.7(f)).
    adjacent_rule: str = ""


@dataclass(frozen=True, slots=True)
class MeterSpec:
    """A meter the table needs, which it may share with every table whose meter has the same
    ``pool`` (e.g. ``kind:paytable:wager``, as the meters store links them): seeded
    at ``seed`` cents, reset to ``reseed`` (plus its reserve) after a 100% payout."""

    name: str
    label: str
    pool: str
    seed: int
    reseed: int


@dataclass(frozen=True, slots=True)
class MeterKind:
    """One meter any Rules Submission of the game may offer, as the meters store
    (``table/meters.py``) and the admin's meter form know it: a meter row is ``kind`` for
    ``paytable`` ("" when it serves no lettered paytable), with ``rates``
    (:mod:`table.games.progressive`) per unit of one of ``stakes``, the table's fixed wager.

    ``wagers``: the wagers whose stakes feed it at "no more bets" and which it pays;
    ``split``: those of them whose jackpot is shared by every box with that wager (a jackpot
    on a hand they all share, the dealer's: §657a.12(f)(2)). ``family``: the meters one
    table's meters must all come from ("" for none), with one wager among them (Crazy 4
    Poker: one progressive paytable per table, house interpretation 5)."""

    kind: str
    paytable: str
    label: str
    rates: MeterRates
    wagers: tuple[str, ...]
    stakes: tuple[int, ...]
    family: str = ""
    split: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sign:
    """A posted sign: a wager, the paytable in force and its rows (hand, payout words)."""

    wager: str
    name: str
    rows: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"wager": self.wager, "name": self.name, "rows": [list(r) for r in self.rows]}


@dataclass(frozen=True, slots=True)
class Figure:
    """An exact house edge of a wager under these rules (a fraction of the stake named in
    ``basis``), and how it was found."""

    wager: str
    paytable: str
    house_edge: float
    basis: str
    #: The wager keys (:class:`WagerSpec` ``key``) whose handle this edge applies to, the
    #: edge being per unit of the first (the main game's: per unit of its required wager,
    #: the Ante). A later figure naming the same wager supersedes an earlier one (a bonus
    #: feature's edge after the plain paytable's). Empty: shown, not used for theoretical win.
    wagers: tuple[str, ...] = ()
    #: The exact variance of one unit's net result (in units squared), when the game's
    #: mathematics gives the whole distribution; None when it does not (the back office then
    #: estimates it from the play and says so, docs/backoffice.md). A main game's comes from
    #: its report's whole distribution of a box's net at the published optimal play.
    variance: float | None = None
    #: The exact covariance of two boxes' unit nets in one round (a main game: they share the
    #: dealer's hand), units squared; None: the back office treats the boxes as independent.
    covariance: float | None = None


@dataclass(frozen=True, slots=True)
class StaffPart:
    """Something staff see of a game's Rules Submission that the game draws itself, in its
    own template (under ``templates/``) from a JSON-ready ``context``.

    On the Rules Submission's page (:meth:`Game.staff_parts`) ``place`` says where:
    ``signs`` and ``mathematics`` are drawn instead of the platform's own drawing of
    :meth:`Game.signs` and :meth:`Game.math_report` (a ``signs`` part also shows the rules a
    round was played under), ``reference`` follows the signs (e.g. every paytable to choose
    from). A page of its own (:meth:`Game.staff_page`) is served under the admin, with
    ``title``; with no ``template`` its context is served as JSON (e.g. the figures a live
    preview of unsaved choices reads)."""

    place: str
    template: str
    context: Mapping[str, Any]
    title: str = ""


@dataclass(frozen=True, slots=True)
class Timer:
    """What the table waits for and how long it may take: ``kind`` is ``betting``,
    ``decision`` or ``setting``; ``boxes`` the boxes awaited; when the time is up the
    platform sends ``expire`` (None: nothing to do, e.g. betting with no wager yet)."""

    kind: str
    boxes: tuple[int, ...]
    seconds: int
    expire: Command | None


@dataclass(frozen=True, slots=True)
class RoundStatus:
    """The round at a glance, for the platform's bookkeeping (never secret)."""

    number: int
    phase: str
    betting: bool  # wagers may be placed or changed
    dealt: bool  # the stacks are out
    revealed: bool  # the dealer's cards are face up
    finished: bool  # settled or void
    void_reason: str | None
    irregularity: str | None  # why the round did not end in a plain settlement, in words
    commitment: str  # SHA-256 of the shoe order and salt, published at opening
    deck_back: str
    cards_dealt: int  # cards out of the shoe this round (52 minus the stub)
    cards_counted: int  # the deck as counted: stub + discards + every stack (52 when right)
    players: Mapping[str, int] | None  # each player's net once settled


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a box's settlement: a wager (or a bonus paid on top of one) with its
    stake, outcome (``win``, ``push``, ``lose``, ``void``) and net in cents, and the paytable
    row or hand that decided it, in words."""

    wager: str
    stake: int
    outcome: str
    net: int
    row: str | None = None


def lines_of(results: Sequence[Mapping[str, Any]], row_key: str | None) -> tuple[Line, ...]:
    """Settlement lines from a round's JSON results (``wager``, ``stake``, ``outcome``,
    ``net``, and the row under ``row_key``)."""
    return tuple(
        Line(
            str(r["wager"]),
            int(r["stake"]),
            str(r["outcome"]),
            int(r["net"]),
            None if row_key is None or r.get(row_key) is None else str(r[row_key]),
        )
        for r in results
    )


@dataclass(frozen=True, slots=True)
class BoxState:
    """One box of the round, everything included: for the platform's records (the round's
    audit record) and checks - never sent to a viewer as it is (that is :meth:`Game.view`)."""

    box: int
    player: str
    wagers: Mapping[str, int]
    cards: tuple[str, ...]
    decision: str | None  # in words: "raise 2x", "play $15.00", "fold", None: not yet
    in_play: bool
    folded: bool
    abandoned: bool
    hand: str | None  # the hand in words, once dealt
    net: int | None  # once settled
    lines: tuple[Line, ...] = ()  # once settled: every wager's result (they add up to net)
    #: The cards that make the hand, where the game names them (e.g. the best four of the
    #: five, §684a.11(a)); empty otherwise or before the deal.
    best_cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FeltParts:
    """The game-specific parts of the player's felt and the dealer console: the wager spots
    of a box, row by row, the words of each wager, and the browser modules that draw this
    game (None: none written yet; the platform then draws the view's moves generically).
    Every felt is drawn from ``view`` frames (:meth:`Game.view` after every change)."""

    spots: tuple[tuple[str, ...], ...]
    labels: Mapping[str, str]
    felt_module: str | None
    console_module: str | None
    #: What leaving the table mid-round does to a box's wagers, in the player's words: the
    #: game's one rule for an abandoned box (e.g. §663a.7(b)), said on the leave dialog.
    leave_rule: str = ""
    #: The wagers a fold keeps in action (e.g. §663a.11(b)(2)): the felt says what a fold
    #: costs before the player folds.
    fold_keeps: tuple[str, ...] = ()
    #: What "X for 1" means on this game's signs (a legend under them; "" for the felt's own
    #: plain words). The round's words are the view's (table.games.words).
    for_one: str = ""
    #: What the layout prints under the game's name, line by line, in the player's words: the
    #: rules a table shows every player (e.g. that the dealer qualifies with king high or
    #: better, §684a.11(c)(2), or the inscriptions of §657a.2(b)(7)).
    printed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Recalled:
    """What game recall shows of a finished round besides its boxes and settlement lines
    (every hand can be reconstructed: §684a.11(e), §657a.11(e), §663a.11(e)), each part as
    the table showed it to everyone and in full, for the dealer's and staff's record.

    Cards are codes (``"AS"``); ``dealer`` and ``dealer_full`` are JSON-ready, with at least
    the dealer's ``cards``, as :meth:`Game.view` shows the dealer once revealed."""

    #: The dealer's hand as the table showed it; None: never turned face up.
    dealer: Mapping[str, Any] | None
    #: The dealer's hand whenever it was dealt (the full record); None: not dealt.
    dealer_full: Mapping[str, Any] | None
    #: A shared card as the table showed it (e.g. an All-Six card, §684a.10(b));
    #: None: none, or not shown.
    shared_card: str | None = None
    #: The shared card whenever it was dealt (the full record).
    shared_card_full: str | None = None
    #: The main game was void and the optional wagers settled (§684a.13(d)).
    main_game_void: bool = False
    #: The boxes whose cards the table showed everyone (a box folded face down is not one).
    shown_boxes: frozenset[int] = frozenset()
    #: Each player's totals for the round as the game settled it (at least ``net``; Four Card
    #: Frenzy adds the payout limit's ``payout_limit_applied`` and ``withheld``, §684a.12(g));
    #: None until settled.
    players: Mapping[str, Mapping[str, Any]] | None = None
    #: The cards the deal discarded unseen (a shared card's stack, a card found face up) and
    #: the stub left in the shoe.
    discards: tuple[str, ...] = ()
    stub: tuple[str, ...] = ()


class DealtRound(Protocol):
    """What :func:`recalled_from_view` reads of a round: its cards, as the shoe left them."""

    @property
    def dealer_cards(self) -> Sequence[int]: ...

    @property
    def discards(self) -> Sequence[int]: ...

    @property
    def stub(self) -> Sequence[int]: ...


def recalled_from_view(
    view: Mapping[str, Any], state: DealtRound, players: Mapping[str, int] | None
) -> Recalled:
    """What recall shows of a round with no shared card on the table and no main game void,
    from its spectator's ``view`` (:meth:`Game.view`): the dealer and the boxes as the table
    showed them; in full, the dealer's cards once dealt. ``players``: each player's net once
    settled (:attr:`RoundStatus.players`)."""
    dealer_cards = codes(state.dealer_cards)
    shown = view.get("dealer")
    full = shown if shown is not None or not dealer_cards else {"cards": dealer_cards}
    return Recalled(
        dealer=shown,
        dealer_full=full,
        shown_boxes=frozenset(b["box"] for b in view["boxes"] if b.get("cards") is not None),
        players=None if players is None else {p: {"net": n} for p, n in players.items()},
        discards=tuple(codes(state.discards)),
        stub=tuple(codes(state.stub)),
    )


class Explained(Protocol):
    """A void reason as a game keeps it: at least its explanation in words."""

    @property
    def explanation(self) -> str: ...


def reason_words(reasons: Mapping[str, Explained], reason: str) -> str:
    """:meth:`Game.void_words` from a game's table of void reasons ("" for one it lacks)."""
    known = reasons.get(reason)
    return known.explanation if known is not None else ""


# --- the view contract ------------------------------------------------------------------------

#: Keys every view has (``Game.view``). ``boxes`` items have :data:`BOX_VIEW_KEYS`; ``cards``
#: is None unless the viewer may see them; ``dealer`` is None until the reveal, then has at
#: least the dealer's ``cards``; ``moves`` are
#: :meth:`Move.to_dict` of what this viewer may do now; ``shoe``/``salt`` appear once the
#: round is over.
VIEW_KEYS: Final = frozenset(
    {
        "game",
        "round",
        "phase",
        "deck_back",
        "commitment",
        "viewer",
        "boxes",
        "to_act",
        "dealt",
        "dealer",
        "void_reason",
        "players",
        "moves",
    }
)
BOX_VIEW_KEYS: Final = frozenset({"box", "player", "wagers", "dealt", "cards"})


def check_view(view: Mapping[str, Any]) -> list[str]:
    """What a view lacks of the contract, in words (empty: it keeps it)."""
    out = [f"no {key!r}" for key in sorted(VIEW_KEYS - set(view))]
    for item in view.get("boxes") or []:
        out += [f"box {item.get('box')}: no {k!r}" for k in sorted(BOX_VIEW_KEYS - set(item))]
    return out


# --- the game -----------------------------------------------------------------------------------

R = TypeVar("R")  # the game's rules (a frozen value, kept by every round)
S = TypeVar("S")  # the game's round state


@runtime_checkable
class Game(Protocol[R, S]):
    """A table game the platform can host. One instance per game, stateless: every round's
    state is an ``S`` the platform stores as :meth:`to_dict` and loads with :meth:`from_dict`.
    """

    #: The key of the game: the ``"game"`` of a stored round, a ``settle_round`` input, a table.
    name: str
    #: The game's name for people, and the regulation it implements.
    title: str
    regulation: str
    #: The round's phases in order: :data:`BETTING_PHASE` first, :data:`SETTLED_PHASE`, and
    #: :data:`VOID_PHASE` last (a round may end there from any phase before it is settled);
    #: :attr:`RoundStatus.phase` is one of them.
    phases: tuple[str, ...]
    #: The shoe drills that mean something for this game's deal (the console arms them;
    #: ``Fault.MISCOUNT`` is the shuffler's, before a round opens).
    drills: tuple[Fault, ...]
    #: The void reason for a stub count that shows the deck is not 52 cards
    #: (§684a.10(f), §657a.10(f), §663a.10(f)).
    stub_miscount_reason: str
    #: ``settle_round``'s contract for this game: one round's JSON in, its settlement out;
    #: raises ``InvalidInput`` for bad input (the game's contract document says which).
    settle_one: Callable[[object], dict[str, Any]]
    #: The felt's and the console's game-specific parts.
    felt: FeltParts

    # --- the Rules Submission ---------------------------------------------------------------

    def rules_fields(self) -> tuple[RulesField, ...]:
        """Every choice a casino's Rules Submission makes for this game, for the admin form."""
        ...

    def default_rules(self) -> R:
        """A valid Rules Submission (the demo table's)."""
        ...

    def parse_rules(self, data: Mapping[str, Any]) -> R:
        """Rules from their stored form (:meth:`rules_to_dict`, an admin form); malformed
        data raises ``InvalidInput``. Well-formed but unusable rules are returned, for
        :meth:`rules_problems` to explain."""
        ...

    def rules_to_dict(self, rules: R) -> dict[str, Any]:
        """The stored form of the rules: JSON-ready, and what every round keeps a copy of."""
        ...

    def rules_problems(self, rules: R) -> list[Problem]:
        """Every reason these rules cannot be used (empty: they can). The admin, a rules
        change and opening a round refuse alike on any."""
        ...

    def rule_changes(self, old: R, new: R) -> list[str]:
        """What a player would notice between two sets of rules, in the words of the posted
        signs, one item each (empty: nothing a player sees changed)."""
        ...

    def wagers(self, rules: R) -> tuple[WagerSpec, ...]:
        """Every wager a box can carry, offered or not, with its limits under ``rules``."""
        ...

    def table_settings(self, rules: R) -> TableSettings:
        """The decks, the betting clock, boxes per player and any payout limit."""
        ...

    def meters(self, rules: R) -> tuple[MeterSpec, ...]:
        """The progressive meters a table under ``rules`` shares with other tables (often
        none). The platform keeps them, hands them to ``settle`` (:class:`Inputs`) and
        applies each :class:`MeterChange` a step returns."""
        ...

    def meter_catalogue(self) -> tuple[MeterKind, ...]:
        """Every meter any Rules Submission of this game may offer (often none), each once: the
        meters store creates, links, feeds and pays meters by it, and the admin's meter form
        lists it. :meth:`meters` of any rules names only meters of it (``pool`` is
        ``kind:paytable:wager``)."""
        ...

    def signs(self, rules: R) -> tuple[Sign, ...]:
        """The signs posted at the table: every wager offered and its payouts."""
        ...

    def math_report(self, rules: R) -> tuple[Figure, ...]:
        """The exact house edge of every wager offered under ``rules`` (by enumeration;
        may take seconds - the platform caches it per Rules Submission)."""
        ...

    def staff_parts(self, rules: R) -> tuple[StaffPart, ...]:
        """What the admin's Rules Submission page shows of ``rules`` in the game's own
        templates (:class:`StaffPart`); empty: the platform draws the interface's signs and
        figures."""
        ...

    def staff_page(self, name: str) -> StaffPart | None:
        """A page of the game's own for staff beside its Rules Submissions (a comparison of
        every paytable, the figures a staff part's live preview reads), by its name in the
        admin's address; None: no such page."""
        ...

    # --- a round -------------------------------------------------------------------------------

    def open_round(
        self, number: int, rules: R, deck_back: str, order: Sequence[int], salt: str
    ) -> tuple[S, GameStep]:
        """Open betting on round ``number``: ``order`` is the shuffled deck of 52 the shoe
        will deal (the platform's shuffler made it), ``salt`` is secret until the round ends;
        the round publishes their commitment. Unusable rules raise ``InvalidInput``."""
        ...

    def round_rules(self, state: S) -> R:
        """The rules the round was opened under (its own frozen copy)."""
        ...

    def status(self, state: S) -> RoundStatus:
        """The round at a glance: phase, dealt, revealed, finished, results."""
        ...

    def boxes(self, state: S) -> tuple[BoxState, ...]:
        """Every box with wagers, with its cards: for the round's records, never for a view."""
        ...

    def dealing_plan(self, state: S) -> DealingPlan:
        """The stacks the deal dispenses for the boxes in play now, in order."""
        ...

    def timer(self, state: S) -> Timer | None:
        """What the table's clock waits for now, with its seconds (None: nothing)."""
        ...

    def moves(self, state: S, viewer: Actor) -> tuple[Move, ...]:
        """What ``viewer`` may do now: a player their bets, decisions and settings; the
        dealer the step due (one of :data:`DEALER_STEPS`), a time-out, the voids allowed
        now (a choice per reason, only while the game's rules and the round's evidence allow
        it); a spectator nothing.
        Every move offered is accepted by :meth:`apply` (unless another command came
        first)."""
        ...

    def apply(
        self, state: S, actor: Actor, command: Command, inputs: Inputs = NO_INPUTS
    ) -> GameStep:
        """Check ``command`` from ``actor`` against the rules and, if allowed, change the
        round and return what happened; otherwise raise ``EngineError`` and change nothing.
        """
        ...

    def view(self, state: S, viewer: Actor) -> dict[str, Any]:
        """The round as ``viewer`` may see it (JSON-ready, :data:`VIEW_KEYS`): a box's cards
        to its owner only until the game shows them, the dealer's cards to nobody until the
        reveal, the shoe order and salt to everyone once the round is over."""
        ...

    def views(self, state: S, viewers: Sequence[Actor]) -> list[dict[str, Any]]:
        """:meth:`view` for each of ``viewers``, in order, built together: what viewers see
        alike may be built once and shared between the views (a command builds its table's
        views after each change and only serialises them: read only)."""
        ...

    def to_dict(self, state: S) -> dict[str, Any]:
        """The whole round, secrets included, JSON-ready (the audit record). It keeps the
        shoe order as ``order`` (card numbers) and the salt as ``salt``: the audit and
        recall check them against the commitment."""
        ...

    def recalled(self, state: S) -> Recalled:
        """What game recall shows of the round besides :meth:`boxes`: the dealer's hand and a
        shared card, as the table showed them and in full, a main game void, which boxes the
        table showed face up, each player's totals, the discards and the stub."""
        ...

    def void_words(self, reason: str) -> str:
        """A void reason (:attr:`RoundStatus.void_reason`) in the game's words, citing its
        chapter; "" for a reason the game does not know."""
        ...

    def contract_round(self, state: S) -> dict[str, Any] | None:
        """A settled round as :attr:`settle_one`'s input (the game's ``settle_round``
        contract): the dealt layout, wagers, decisions, draws and meters (as they stood before
        the round's own increments) the round was settled from; None for a round not settled
        or one the contract cannot express. The platform settles it again by the contract and
        checks the ledger and the meters against the answer (issue 23: a round the table
        settles, it settles to the cent of ``settle_round``)."""
        ...

    def recheck(self, state: S, faults: Sequence[Fault]) -> list[str]:
        """The game's own recomputation of a round from its record, every disagreement in
        words (empty: none), for the audit (every hand can be reconstructed: §684a.11(e)).

        Deal the committed shoe order again with the round's dealing plan and ``faults`` (the
        shoe drills the deal took, as the platform armed them): each box, the dealer, a
        shared card, the discards and the stub must hold what the re-deal gives, and a deal
        that ends in an irregularity must be the round's void. Once settled, settle the
        stored layout again (with what the round kept of its decisions, draws and meters):
        the lines, box nets and player totals must be the stored ones. A round not dealt
        has nothing to re-check. The platform checks its own rows (events, box records,
        settlement lines, the ledger) against :meth:`boxes` and :meth:`status`."""
        ...

    def from_dict(self, data: Mapping[str, Any]) -> S:
        """A round from :meth:`to_dict`; anything else raises ``InvalidInput("bad_state")``."""
        ...


@runtime_checkable
class PaytableReport(Protocol):
    """A game's paytable report: the exact figures (by enumeration) of every paytable its
    Rules Submission may choose. ``manage.py paytable_report`` computes it, writes it to its
    entry's ``report_file`` (in the game's package) and writes the game's section of
    ``docs/paytables.md``; :meth:`Game.math_report` reads the written file. A module of the
    game's own, named in :data:`table.games.REPORTS`: pure, no Django and no files."""

    def parse_sections(self, text: str | None) -> list[str]:
        """The parts of the report ``text`` names (``--only``: comma-separated, in the game's
        words), in order, each once; every part for None. A name it does not know raises
        ``InvalidInput``. A report computed only whole has no parts (``[]``)."""
        ...

    def build_report(
        self,
        progress: Callable[[str], None],
        sections: Sequence[str] | None = None,
        previous: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The report, JSON-ready: ``sections`` (of :meth:`parse_sections`; None: all of it)
        computed, the other parts kept from ``previous`` (the report as last written).
        ``progress`` hears a line at each step."""
        ...

    def text_lines(self, report: Mapping[str, Any]) -> list[str]:
        """The console summary of what :meth:`build_report` computed."""
        ...

    def markdown_lines(self, report: Mapping[str, Any]) -> list[str]:
        """The game's section of ``docs/paytables.md``."""
        ...


# --- small helpers the games share ------------------------------------------------------------


def dollars(cents: int | None) -> str:
    """``$1,234.50``; None is "no limit"."""
    if cents is None:
        return "no limit"
    return f"${cents // 100:,}.{cents % 100:02d}"


def bettable_boxes(
    owners: Mapping[int, str], player: str, mine: Sequence[int], most: int
) -> list[int]:
    """The boxes ``player`` may put wagers on now: their own (to change them), and each free
    box that keeps their boxes adjacent and at most ``most`` (every chapter's "up to N
    adjacent boxes"). ``owners``: box -> player of the boxes with wagers; ``mine``: the
    player's boxes in play."""
    out: list[int] = []
    for box in range(1, 7):
        owner = owners.get(box)
        if owner == player:
            out.append(box)
            continue
        if owner is not None:
            continue
        boxes = sorted({*mine, box})
        if len(boxes) <= most and boxes[-1] - boxes[0] == len(boxes) - 1:
            out.append(box)
    return out


def betting_moves(
    owners: Mapping[int, str],
    player: str,
    mine: Sequence[int],
    most: int,
    amounts: tuple[Amount, ...],
) -> list[Move]:
    """A player's moves while betting is open, in every game alike: wagers on each box
    :func:`bettable_boxes` allows (``amounts`` from :func:`bet_amounts`), and taking back the
    wagers of each of their boxes."""
    moves = [
        Move(BET, f"Wagers on box {box}", box, amounts=amounts)
        for box in bettable_boxes(owners, player, mine, most)
    ]
    moves += [Move(WITHDRAW, f"Take back the wagers on box {box}", box) for box in mine]
    return moves


class WagerLimits(Protocol):
    """What a game's Rules Submission says of a wager: offered, and between which limits."""

    def offers(self, wager: str) -> bool: ...

    def limits(self, wager: str) -> tuple[int, int]: ...


def dealer_step(
    phase: str,
    anyone_bet: bool,
    to_act: int | None,
    reveal_in: str = "decisions",
    reveal_label: str = "Reveal the dealer's hand",
) -> Move | None:
    """The step due now as the dealer's move (one of :data:`DEALER_STEPS`, or a time-out),
    for a round whose phases run betting, closed, decisions, ..., revealed: "no more bets"
    once a box has wagers, the deal, a time-out for the box deciding, the reveal once nobody
    is awaited in ``reveal_in`` (decisions, or a later phase of the game's own), and the
    settlement. None: nothing is due (no wager yet, or a phase of the game's own)."""
    if phase == BETTING_PHASE:
        return Move(CLOSE_BETTING, "No more bets") if anyone_bet else None
    if phase == "closed":
        return Move(DEAL, "Deal")
    if phase == "decisions" and to_act is not None:
        return Move(TIME_OUT, f"Box {to_act}: time is up", to_act)
    if phase == reveal_in:
        return Move(REVEAL, reveal_label)
    if phase == "revealed":
        return Move(SETTLE, "Settle")
    return None


class DrawsItsView(Protocol):
    """A round that draws its own view for a player (None: a spectator) or the dealer."""

    def view(self, player: str | None, dealer: bool = False) -> dict[str, Any]: ...


def drawn_view(state: DrawsItsView, viewer: Actor, moves: Iterable[Move]) -> dict[str, Any]:
    """:meth:`Game.view` of a round that draws its own: for ``viewer``, with ``moves``."""
    player = viewer.name if viewer.role is Role.PLAYER else None
    return seen_by(state.view(player, dealer=viewer.role is Role.DEALER), viewer, moves)


def seen_by(
    view: dict[str, Any],
    viewer: Actor,
    moves: Iterable[Move],
    shared: dict[int, Any] | None = None,
) -> dict[str, Any]:
    """A game's own view of the round completed for ``viewer`` (:data:`VIEW_KEYS`): who looks
    (over any ``viewer`` the game's view has) and what they may do now (``shared``: the memo
    of :func:`moves_json` for views built together)."""
    view["viewer"] = {**view.get("viewer", {}), **viewer.to_dict()}
    view["moves"] = moves_json(moves, shared)
    return view


def turn_timer(
    betting: bool,
    anyone_bet: bool,
    to_act: int | None,
    betting_seconds: int,
    decision_seconds: int,
) -> Timer | None:
    """The clock every game runs: betting closes when its time is up if anyone has bet (with
    no wager nothing happens), and a box's decision times out as ``time_out`` for that box.
    ``to_act``: the box deciding now, None outside the decisions."""
    if betting:
        return Timer("betting", (), betting_seconds, Command(CLOSE_BETTING) if anyone_bet else None)
    if to_act is not None:
        return Timer("decision", (to_act,), decision_seconds, Command(TIME_OUT, to_act))
    return None


def bet_amounts(
    rules: WagerLimits,
    ante: str,
    ante_label: str,
    optional: Sequence[str],
    labels: Mapping[str, str],
) -> tuple[Amount, ...]:
    """The amounts a bet move asks for: the Ante (required, with ``ante_label``), then each
    optional wager the table offers, each between its limits (a fixed wager: low == high)."""
    low, high = rules.limits(ante)
    amounts = [Amount(ante, ante_label, low, high, required=True)]
    for wager in optional:
        if rules.offers(wager):
            low, high = rules.limits(wager)
            amounts.append(Amount(wager, labels[wager], low, high))
    return tuple(amounts)


def field_changes(
    fields: Sequence[RulesField], old: Mapping[str, Any], new: Mapping[str, Any]
) -> list[str]:
    """What changed between two stored Rules Submissions, one item per field a player sees
    (the clock's seconds and deck handling are left out), in the fields' own words."""

    def words(f: RulesField, value: Any) -> str:
        if f.kind == "flag" and f.counts:
            return str(f.counts[1] if value else f.counts[0])
        if f.kind == "flag":
            return "yes" if value else "no"
        if f.kind == "cents" and (value is None or type(value) is int):
            return dollars(value)
        return "none" if value is None else str(value)

    out: list[str] = []
    for f in fields:
        if f.kind in ("seconds",) or f.name == "two_decks":
            continue
        before, after = old.get(f.name), new.get(f.name)
        if before != after:
            out.append(f"{f.label}: {words(f, after)} (was {words(f, before)})")
    return out
