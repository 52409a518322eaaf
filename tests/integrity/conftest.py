"""Fixtures for the integrity tests: the service-test fixtures (a table, its Rules Submission,
a dealer, funded players, a replayable shoe, a ledger that must balance after every test),
plus helpers to snapshot everything a refused command must leave alone."""

from __future__ import annotations

from typing import Any

from table.models import Account, Round, RoundEvent, Seat, Table
from tests.services.conftest import (  # noqa: F401 - fixtures
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


def table_state(table_id: int) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was: the table row (version, chain
    head, round, shoe), the round, every balance, the seats, the event count."""
    row = Table.objects.get(pk=table_id)
    rnd = Round.objects.get(pk=row.current_round_id).state if row.current_round_id else None
    return (
        row.version,
        row.last_hash,
        row.current_round_id,
        row.shoe,
        row.is_open,
        rnd,
        tuple(Account.objects.order_by("pk").values_list("pk", "balance")),
        tuple(Seat.objects.filter(table=row).order_by("box").values_list("box", "player_id")),
        RoundEvent.objects.filter(table=row).count(),
    )
