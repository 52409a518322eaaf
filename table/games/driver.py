"""The pure core of the platform's command path, for any game, through the interface only.

:class:`TableDriver` is what ``table/services.py`` does for one table without the database:
every command loads the round from its stored JSON, asks the game to apply it, posts the
transfers to the players' balances, applies the meter changes to the shared meters, keeps
the events and stores the round again. It never imports a game's modules: it is handed a
:class:`~table.games.base.Game`.

:func:`play_round` plays a whole round with players who choose among the moves their views
offer (a seeded :class:`RandomSource` picks), a dealer who makes the step due and a clock that
times out whoever is awaited. Tests, the benchmark and the demo can drive every game with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from table.games.cards import DECK
from table.games.shoe import shuffle

from .base import (
    BET,
    DEAL,
    DEALER_STEPS,
    Actor,
    Command,
    Event,
    Fault,
    Game,
    GameStep,
    Inputs,
    MeterChange,
    MeterReading,
    MeterSpec,
    Move,
    RandomSource,
    RoundStatus,
)


def _json(value: Any) -> Any:
    """Through JSON and back, as the store and the channel layer would carry it."""
    return json.loads(json.dumps(value))


@dataclass
class SharedMeters:
    """The platform's side of progressive meters: it keeps them (shared by tables whose
    specs have the same pool) and applies each change a round asks for."""

    specs: dict[str, MeterSpec] = field(default_factory=dict)
    readings: dict[str, MeterReading] = field(default_factory=dict)

    def link(self, specs: Sequence[MeterSpec]) -> None:
        for spec in specs:
            self.specs[spec.name] = spec
            self.readings.setdefault(spec.name, MeterReading(spec.seed))

    def apply(self, change: MeterChange) -> None:
        now = self.readings[change.meter]
        if change.kind in ("increment", "reverse"):
            now = MeterReading(now.amount + change.amount, now.reserve + change.reserve)
        elif change.kind == "payout":
            left = now.amount - change.paid
            if change.reset:
                # A 100% payout resets the meter to its reseed plus its reserve.
                now = MeterReading(self.specs[change.meter].reseed + now.reserve + left, 0)
            else:
                now = MeterReading(left, now.reserve)
        else:
            raise ValueError(f"unknown meter change {change.kind!r}")
        if now.amount < 0 or now.reserve < 0:
            raise ValueError(f"meter {change.meter} would go below zero")
        self.readings[change.meter] = now


@dataclass
class TableDriver:
    """One table of one game: load, apply, store, post - the platform's command path."""

    game: Game[Any, Any]
    rules: Any
    rng: RandomSource
    meters: SharedMeters = field(default_factory=SharedMeters)
    stored: dict[str, Any] | None = None
    number: int = 0
    #: Each player's money from the transfers (> 0: the player is up).
    money: dict[str, int] = field(default_factory=dict)
    #: The table's side: stakes in, returns and wins out.
    table: int = 0
    events: list[Event] = field(default_factory=list)
    log: list[tuple[Actor, Command, GameStep]] = field(default_factory=list)
    observers: list[Callable[[TableDriver], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.meters.link(self.game.meters(self.rules))

    # --- the command path ---------------------------------------------------------------

    def state(self) -> Any:
        """The round as stored, loaded afresh (every command starts from the store)."""
        if self.stored is None:
            raise ValueError("no round has been opened")
        return self.game.from_dict(_json(self.stored))

    def status(self) -> RoundStatus:
        return self.game.status(self.state())

    def open(self, salt: str | None = None, order: Sequence[int] | None = None) -> GameStep:
        """Shuffle a deck of 52 (or take the stacked ``order`` a test gives) and open the
        next round's betting."""
        self.number += 1
        order = list(order) if order is not None else shuffle(DECK, self.rng)
        salt = salt or "".join("0123456789abcdef"[self.rng.randbelow(16)] for _ in range(32))
        state, step = self.game.open_round(self.number, self.rules, "red", order, salt)
        self._record(Actor.house(), Command("open"), step, state)
        return step

    def send(self, actor: Actor, command: Command, faults: Sequence[Fault] = ()) -> GameStep:
        """Apply one command (an ``EngineError`` leaves the stored round as it was)."""
        state = self.state()
        inputs = Inputs(
            faults=tuple(faults) if command.name == DEAL else (),
            rng=self.rng,
            meters=dict(self.meters.readings),
        )
        step = self.game.apply(state, actor, command, inputs)
        self._record(actor, command, step, state)
        return step

    def _record(self, actor: Actor, command: Command, step: GameStep, state: Any) -> None:
        for transfer in step.transfers:
            self.money[transfer.player] = self.money.get(transfer.player, 0) - transfer.amount
            self.table += transfer.amount
        for change in step.meters:
            self.meters.apply(change)
        # Events are JSON-safe plain data, as the event chain stores them.
        self.events += [Event(e.kind, _json(e.data), e.audience) for e in step.events]
        self.stored = _json(self.game.to_dict(state))
        self.log.append((actor, command, step))
        for observe in self.observers:
            observe(self)

    # --- who moves next ----------------------------------------------------------------------

    def moves(self, viewer: Actor) -> tuple[Move, ...]:
        return self.game.moves(self.state(), viewer)


def choose_args(move: Move, rng: RandomSource) -> dict[str, Any]:
    """A player's pick among a move's options: one of its choices, or amounts (every
    required one, each optional one half the time), in whole dollars within the limits."""

    def amount(low: int, high: int) -> int:
        if low == high:
            return low
        dollars = (high - low) // 100
        return low + 100 * rng.randbelow(min(dollars, 20) + 1)

    options = len(move.choices) + (1 if move.amounts else 0)
    pick = rng.randbelow(options) if options else 0
    if pick < len(move.choices):
        return dict(move.choices[pick].args)
    args: dict[str, Any] = {}
    for a in move.amounts:
        if a.required or rng.randbelow(2):
            args[a.arg] = amount(a.low, a.high)
    return args


def place_bets(
    driver: TableDriver, players: Sequence[str], rng: RandomSource, most: int = 2
) -> None:
    """Each player bets on one or more boxes the moves offer them (at most ``most``)."""
    for player in players:
        who = Actor.player(player)
        for _ in range(1 + rng.randbelow(most)):
            bets = [m for m in driver.moves(who) if m.name == BET]
            mine = {b.box for b in driver.game.boxes(driver.state()) if b.player == player}
            new = [m for m in bets if m.box not in mine]
            if not new:
                break
            move = new[rng.randbelow(len(new))]
            args = choose_args(move, rng)
            driver.send(who, Command(BET, move.box, args))


def play_round(
    driver: TableDriver,
    players: Sequence[str],
    rng: RandomSource,
    *,
    faults: Sequence[Fault] = (),
    time_outs: bool = True,
    limit: int = 200,
) -> RoundStatus:
    """Open a round and play it to the end through the interface only: bets from the moves
    offered, "no more bets", the deal (with ``faults`` armed), each player's decisions and
    settings picked among the choices offered (or, now and then with ``time_outs``, left to
    the clock), the dealer's reveal and settlement."""
    driver.open()
    place_bets(driver, players, rng)
    dealer = Actor.dealer("dealer")
    for _ in range(limit):
        status = driver.status()
        if status.finished:
            return status
        acted = False
        for player in players:
            who = Actor.player(player)
            decisions = [m for m in driver.moves(who) if m.name not in (BET, "withdraw")]
            if decisions:
                move = decisions[0]
                if time_outs and rng.randbelow(8) == 0:
                    break  # this player lets the clock run out
                driver.send(who, Command(move.name, move.box, choose_args(move, rng)))
                acted = True
                break
        if acted:
            continue
        steps = [m for m in driver.moves(dealer) if m.name in DEALER_STEPS]
        if steps:
            step = steps[0]
            driver.send(dealer, Command(step.name, step.box), faults)
            continue
        timer = driver.game.timer(driver.state())
        if timer is None or timer.expire is None:
            raise RuntimeError(f"round stuck in {status.phase}: nobody may move")
        driver.send(Actor.house(), timer.expire)
    raise RuntimeError(f"round not finished after {limit} commands")


def void_now(
    driver: TableDriver, reason: str, evidence: Mapping[str, Any] | None = None
) -> GameStep:
    """The house voids the round (a restart, the table closing)."""
    args: dict[str, Any] = {"reason": reason}
    if evidence is not None:
        args["evidence"] = dict(evidence)
    return driver.send(Actor.house(), Command("void", None, args))


__all__ = [
    "SharedMeters",
    "TableDriver",
    "choose_args",
    "place_bets",
    "play_round",
    "void_now",
]
