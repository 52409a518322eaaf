"""Crazy 4 Poker played through the platform's services: the service tests' fixtures
that apply to every game (a replayable shoe, a stacked one, a ledger that must balance after
every test), and for the meters' tests the service tests' table, players and hand-bonus
meter."""

from __future__ import annotations

from tests.services.conftest import (
    alice,
    bob,
    carol,
    ledger_balances,
    rules,
    seeded_shoe,
    stack_shoe,
    table,
)
from tests.services.test_meters import hand_bonus

__all__ = [
    "alice",
    "bob",
    "carol",
    "hand_bonus",
    "ledger_balances",
    "rules",
    "seeded_shoe",
    "stack_shoe",
    "table",
]
