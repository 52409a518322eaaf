"""Five Card Hi-Lo played through the platform's services: the service tests' fixtures
that apply to every game (a replayable shoe, a stacked one, a ledger that must balance after
every test)."""

from __future__ import annotations

from tests.services.conftest import ledger_balances, seeded_shoe, stack_shoe

__all__ = ["ledger_balances", "seeded_shoe", "stack_shoe"]
