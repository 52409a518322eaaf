"""Four Card Frenzy played through the platform's services (its irregularities, a stateful
property test): the service and integrity tests' fixtures (a Four Card Frenzy table, its Rules
Submission, a dealer, funded players, a replayable shoe, a ledger that must balance after
every test) and the snapshot of everything a refused command must leave alone."""

from __future__ import annotations

from tests.integrity.conftest import table_state
from tests.services.conftest import (
    START,
    Game,
    alice,
    balance,
    bob,
    carol,
    current_row,
    dealer,
    engine_round,
    game,
    ledger_balances,
    make_player,
    rules,
    seeded_shoe,
    stack_shoe,
    staff,
    table,
)

__all__ = [
    "START",
    "Game",
    "alice",
    "balance",
    "bob",
    "carol",
    "current_row",
    "dealer",
    "engine_round",
    "game",
    "ledger_balances",
    "make_player",
    "rules",
    "seeded_shoe",
    "stack_shoe",
    "staff",
    "table",
    "table_state",
]
