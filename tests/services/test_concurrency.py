"""Two commands at once on one table: the row lock serialises them, no money is created.

These run in real transactions (``transaction=True``) from real threads, each with its own
database connection: SQLite queues writers (IMMEDIATE transactions on one file), PostgreSQL
blocks on ``SELECT ... FOR UPDATE`` of the table row.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from table import ledger, services
from table.models import Account, CommandRecord, Seat, Table

from .conftest import START, Game, balance, engine_round, make_player

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


def race(*commands: Callable[[], Any]) -> list[Any]:
    """Start every command at the same moment on its own thread; each result or error."""
    barrier = threading.Barrier(len(commands))
    results: list[Any] = [None] * len(commands)

    def run(i: int, command: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = command()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(commands)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive(), "a command hung"
    return results


def total_money() -> int:
    return sum(Account.objects.values_list("balance", flat=True))


def test_two_players_race_for_one_box(game: Game, alice: Any, bob: Any, table: Table) -> None:
    game.open()

    def take_and_bet(user: Any) -> Callable[[], Any]:
        def command() -> Any:
            services.sit(table.pk, user, 3)
            return services.place_bets(table.pk, user, 3, {"ante": 10_00, "prime": 5_00})

        return command

    results = race(take_and_bet(alice), take_and_bet(bob))
    wins = [r for r in results if isinstance(r, services.Result)]
    losses = [r for r in results if isinstance(r, services.ServiceError)]
    assert len(wins) == 1 and len(losses) == 1, results
    assert losses[0].code == "box_taken"
    seat = Seat.objects.get(table=table, box=3)
    winner, loser = (alice, bob) if seat.player_id == alice.pk else (bob, alice)
    assert balance(winner) == START - 25_00
    assert balance(loser) == START
    rnd = engine_round(table)
    assert rnd.boxes[3].player == winner.username
    assert total_money() == 0
    assert ledger.verify() == []


def test_two_players_race_to_bet_on_one_seated_box(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    """Only the player seated at a box may bet on it, however the commands interleave."""
    game.sit(alice, 3)
    game.open()
    results = race(
        lambda: services.place_bets(table.pk, alice, 3, {"ante": 10_00}),
        lambda: services.place_bets(table.pk, bob, 3, {"ante": 10_00}),
    )
    assert isinstance(results[0], services.Result)
    assert isinstance(results[1], services.ServiceError) and results[1].code == "not_your_box"
    assert balance(alice) == START - 20_00 and balance(bob) == START
    assert ledger.verify() == []


def test_one_player_two_tabs_same_box(game: Game, alice: Any, table: Table) -> None:
    """Both changes apply one after the other; the box ends with one of them, paid once."""
    game.sit(alice, 1)
    game.open()
    results = race(
        lambda: services.place_bets(table.pk, alice, 1, {"ante": 10_00}),
        lambda: services.place_bets(table.pk, alice, 1, {"ante": 30_00, "prime": 5_00}),
        lambda: services.place_bets(table.pk, alice, 1, {"ante": 5_00}),
    )
    assert all(isinstance(r, services.Result) for r in results), results
    assert len({r.version for r in results}) == 3
    staked = engine_round(table).boxes[1].staked()
    assert staked in (20_00, 65_00, 10_00)
    assert balance(alice) == START - staked
    assert ledger.verify() == []


def test_a_retried_command_races_itself(game: Game, alice: Any, table: Table) -> None:
    """The same idempotency key twice at once: it runs once, the other gets its answer."""
    game.sit(alice, 1)
    game.open()
    results = race(
        *[
            (lambda: services.place_bets(table.pk, alice, 1, {"ante": 10_00}, key="tap"))
            for _ in range(3)
        ]
    )
    assert all(isinstance(r, services.Result) for r in results), results
    assert sum(1 for r in results if not r.replayed) == 1
    assert len({r.version for r in results}) == 1
    assert balance(alice) == START - 20_00
    assert CommandRecord.objects.filter(key="tap").count() == 1


def test_money_for_one_box_cannot_pay_for_two(game: Game, table: Table) -> None:
    poor = make_player("poor", 30_00)
    game.sit(poor, 1, 2)
    game.open()
    results = race(
        lambda: services.place_bets(table.pk, poor, 1, {"ante": 10_00}),
        lambda: services.place_bets(table.pk, poor, 2, {"ante": 10_00}),
    )
    errors = [r for r in results if isinstance(r, services.ServiceError)]
    assert len(errors) == 1 and errors[0].code == "insufficient_funds", results
    assert balance(poor) == 10_00
    assert total_money() == 0
    assert ledger.verify() == []


def test_a_stale_racer_is_refused(game: Game, alice: Any, bob: Any, table: Table) -> None:
    """Two clients that saw the same version: the second to arrive is told to refresh."""
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.open()
    table.refresh_from_db()
    seen = table.version
    results = race(
        lambda: services.place_bets(table.pk, alice, 1, {"ante": 10_00}, expected_version=seen),
        lambda: services.place_bets(table.pk, bob, 2, {"ante": 10_00}, expected_version=seen),
    )
    ok = [r for r in results if isinstance(r, services.Result)]
    stale = [r for r in results if isinstance(r, services.ServiceError)]
    assert len(ok) == 1 and len(stale) == 1 and stale[0].code == "stale_version", results
    assert sorted([balance(alice), balance(bob)]) == [START - 20_00, START]
