"""The service fixtures (a table, a dealer, funded players, the seeded shoe, a balanced
ledger), a second table, and a clock that tests move."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone

from table import ledger
from table.models import RulesSubmission, Table
from tests.services import conftest as services_fixtures
from tests.services.conftest import Game, make_player  # noqa: F401  (for the tests)

# The service tests' fixtures, here too.
alice = services_fixtures.alice
bob = services_fixtures.bob
dealer = services_fixtures.dealer
ledger_balances = services_fixtures.ledger_balances
rules = services_fixtures.rules
seeded_shoe = services_fixtures.seeded_shoe
staff = services_fixtures.staff
table = services_fixtures.table


class Clock:
    """``timezone.now`` as the tests set it: every service reads this one."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def move(self, **delta: float) -> dt.datetime:
        self.now += dt.timedelta(**delta)
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    # A Wednesday noon in the casino's time zone: mid-day, mid-week, mid-month.
    zone = timezone.get_current_timezone()
    c = Clock(dt.datetime(2026, 11, 18, 12, 0, tzinfo=zone).astimezone(dt.UTC))
    monkeypatch.setattr(timezone, "now", c)
    yield c


@pytest.fixture
def game(table: Table, dealer: Any) -> Game:
    return Game(table, dealer)


@pytest.fixture
def second_table(rules: RulesSubmission, dealer: Any) -> Table:
    from table.models import DealerAssignment

    other = Table.objects.create(name="Second table", rules=rules)
    ledger.table_bankroll(other)
    DealerAssignment.objects.create(table=other, dealer=dealer)
    return other


@pytest.fixture
def second(second_table: Table, dealer: Any) -> Game:
    return Game(second_table, dealer)
