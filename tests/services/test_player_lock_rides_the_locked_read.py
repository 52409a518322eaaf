"""A player's command locks the player's account and the table's bankroll with the table row,
in the locked read's round trip (issue 26: the lock was a round trip of its own on every
wager and Play); money and the player's protection come out as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from table import fastsql, services
from table.services import command

from .conftest import START, Game, balance

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def statements(queries: CaptureQueriesContext) -> list[str]:
    """What the command sent (not the test transaction's savepoints around it)."""
    return [
        fastsql.readable(q["sql"])
        for q in queries.captured_queries
        if "SAVEPOINT" not in q["sql"]
    ]


def postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("one round trip for several statements: PostgreSQL only")


def test_a_wager_sends_no_account_lock_of_its_own(game: Game, alice: Any) -> None:
    """The bet's statements: the locked read (table row, then the player's account and the
    bankroll) and the batch of writes with its COMMIT; the wager is taken as before."""
    postgres_only()
    game.sit(alice, 1)
    game.open()
    with CaptureQueriesContext(connection) as queries:
        game.bet(alice, 1, ante=10_00)
    sent = statements(queries)
    assert len(sent) == 2, sent
    assert "FOR UPDATE OF a" in sent[0]  # the accounts' lock rode the locked read
    staked = START - balance(alice)
    assert staked > 0
    game.deal()
    game.decide_all()
    game.finish()


def test_a_wager_across_the_gaming_days_turn_locks_again_for_the_new_day(
    game: Game, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tallies read with the account lock are the day's, week's and month's of the dates
    asked before the table's lock; if the command's time falls in another period (midnight
    passed while it waited) they are not used: the command locks and reads again itself."""
    postgres_only()
    game.sit(alice, 1)
    game.open()
    real = command.guard.lock_dates
    calls: list[object] = []

    def lock_dates(now: Any) -> tuple[Any, ...]:
        calls.append(now)
        dates = real(now)
        return dates[1:] + dates[:1] if len(calls) == 1 else dates  # the first: another day

    monkeypatch.setattr(command.guard, "lock_dates", lock_dates)
    with CaptureQueriesContext(connection) as queries:
        game.bet(alice, 1, ante=10_00)
    assert len(statements(queries)) == 3  # the locked read, the lock again, the writes
    assert START - balance(alice) > 0
    monkeypatch.undo()
    with pytest.raises(services.ServiceError):  # the box has its bet: nothing else changed
        services.place_bets(game.table.pk, alice, 2, {"ante": 10_00})
