"""The limits a player sets (§814a.2), enforced in the wager's own transaction across every
table at once; a decrease at once, an increase or removal only after the period and
confirmed again; the refusal names the limit and what is left, and changes nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from table import ledger, services
from table.models import LimitChange, PlayTally, RoundEvent, Table
from table.protection import limits

from .conftest import Clock, Game, make_player

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def refused(code: str, words: str, command: Any) -> str:
    with pytest.raises(services.ServiceError) as info:
        command()
    assert info.value.code == code, info.value.message
    assert words in info.value.message, info.value.message
    return info.value.message


def events(table: Table) -> int:
    return RoundEvent.objects.filter(table=table).count()


def test_a_daily_loss_limit_refuses_the_wager_that_would_pass_it(
    clock: Clock, game: Game, alice: Any, table: Table
) -> None:
    limits.set_limit(alice, "loss_day", 50_00)
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=20_00)  # Ante and Odds: $40 at risk
    before = (ledger.player_account(alice).balance, events(table))
    message = refused(
        "limit_reached",
        "net loss per day limit is $50.00: $10.00 of it is left",
        lambda: game.bet(alice, 1, ante=30_00),
    )
    assert "this needs $20.00" in message  # the change from $40 to $60
    assert (ledger.player_account(alice).balance, events(table)) == before
    game.bet(alice, 1, ante=25_00)  # exactly the limit


def test_two_tables_together_cannot_pass_a_loss_limit(
    clock: Clock, game: Game, second: Game, alice: Any
) -> None:
    limits.set_limit(alice, "loss_day", 100_00)
    game.sit(alice, 1)
    second.sit(alice, 1)
    game.open()
    second.open()
    game.bet(alice, 1, ante=30_00)  # $60 at risk at the first table
    refused(
        "limit_reached",
        "$40.00 of it is left",
        lambda: second.bet(alice, 1, ante=25_00),  # $50 more at the second
    )
    second.bet(alice, 1, ante=20_00)  # $40: the limit exactly, over both tables
    refused("limit_reached", "$0.00 of it is left", lambda: game.bet(alice, 1, ante=31_00))


@pytest.mark.django_db(transaction=True)
def test_two_tables_at_the_same_moment_cannot_pass_a_loss_limit(
    clock: Clock, game: Game, second: Game, alice: Any
) -> None:
    """Two threads bet at two tables at once: the player's account lock puts them one after
    the other, so exactly one wager fits under the limit (PostgreSQL: real concurrency)."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("threads share one SQLite connection in tests: PostgreSQL only")
    limits.set_limit(alice, "loss_day", 100_00)
    game.sit(alice, 1)
    second.sit(alice, 1)
    game.open()
    second.open()
    results: list[str] = []

    def bet(g: Game) -> None:
        try:
            g.bet(alice, 1, ante=30_00)
            results.append("ok")
        except services.ServiceError as exc:
            results.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=bet, args=(g,)) for g in (game, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["limit_reached", "ok"]


@pytest.mark.django_db(transaction=True)
def test_a_wager_that_waited_for_the_players_lock_sees_what_the_other_table_wrote(
    clock: Clock, game: Game, alice: Any
) -> None:
    """The guard's read travels with the player's account lock (no round trip of its own):
    it must still see what the command it waited for wrote. At READ COMMITTED one statement
    that waited for a row lock sees every other table as it was when it began waiting, so
    the lock and the read are two statements in one round trip (fastsql.lock_table_accounts).
    Here another table's command holds the lock and has added an $80 loss to today's tally;
    the bet waits, then must find $20 left of the $100 limit (PostgreSQL: real locks)."""
    import threading
    import time

    from django.db import connection, transaction

    from table import fastsql
    from table.protection import periods

    if connection.vendor != "postgresql":
        pytest.skip("threads share one SQLite connection in tests: PostgreSQL only")
    limits.set_limit(alice, "loss_day", 100_00)
    game.sit(alice, 1)
    game.open()
    account = ledger.player_account(alice).pk
    holding, release = threading.Event(), threading.Event()
    results: list[str] = []

    def other_table() -> None:
        try:
            with transaction.atomic():
                fastsql.rows(fastsql.lock_accounts(1), [account])
                day = periods.local_day(clock.now)
                fastsql.run(fastsql.tally_add(1), [account, day, 80_00, -80_00, 0])
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    def bet() -> None:
        try:
            game.bet(alice, 1, ante=15_00)  # Ante and Odds: $30 at risk
            results.append("ok")
        except services.ServiceError as exc:
            results.append(f"{exc.code}: {exc.message}")
        finally:
            connection.close()

    holder = threading.Thread(target=other_table)
    holder.start()
    assert holding.wait(10)
    better = threading.Thread(target=bet)
    better.start()
    time.sleep(0.5)
    assert results == []  # the bet waits for the player's account
    release.set()
    holder.join()
    better.join()
    assert len(results) == 1 and results[0].startswith("limit_reached"), results
    assert "$20.00 of it is left" in results[0]


def test_amount_wagered_per_week_counts_every_table_and_not_bets_taken_back(
    clock: Clock, game: Game, second: Game, alice: Any
) -> None:
    limits.set_limit(alice, "wagered_week", 100_00)
    game.sit(alice, 1)
    second.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=40_00)  # $80
    game.bet(alice, 1, ante=10_00)  # changed to $20 before the deal: $60 given back
    second.open()
    second.bet(alice, 1, ante=40_00)  # $80 more: $100 in all
    refused(
        "limit_reached",
        "amount wagered per week limit is $100.00: $0.00 of it is left",
        lambda: game.bet(alice, 1, ante=11_00),
    )


def test_the_largest_single_wager_and_the_table_limit(clock: Clock, game: Game, alice: Any) -> None:
    limits.set_limit(alice, "wager_max", 25_00)
    limits.set_limit(alice, "table_max", 60_00)
    game.sit(alice, 1, 2)
    game.open()
    refused(
        "limit_reached",
        "largest single wager is $25.00: this wager is $30.00",
        lambda: game.bet(alice, 1, ante=30_00),
    )
    game.bet(alice, 1, ante=25_00)  # $50 at risk at this table
    refused(
        "limit_reached",
        "table limit is $60.00 at risk in a round: this would make $70.00",
        lambda: game.bet(alice, 2, ante=10_00),
    )
    game.bet(alice, 1, ante=20_00)
    game.bet(alice, 2, ante=10_00)  # $60 at this table: the limit exactly


def test_a_decrease_is_at_once_an_increase_waits_for_the_period_and_a_confirmation(
    clock: Clock, game: Game, alice: Any
) -> None:
    limits.set_limit(alice, "loss_day", 100_00)
    outcome = limits.set_limit(alice, "loss_day", 40_00)
    assert outcome.action == "decreased" and outcome.effective == clock.now
    game.sit(alice, 1)
    game.open()
    refused("limit_reached", "$40.00 of it is left", lambda: game.bet(alice, 1, ante=25_00))

    asked = limits.set_limit(alice, "loss_day", 200_00)
    assert asked.action == "increase asked" and asked.effective is None
    refused("limit_reached", "limit is $40.00", lambda: game.bet(alice, 1, ante=25_00))
    with pytest.raises(limits.LimitError) as info:
        limits.confirm(alice, "loss_day")
    assert info.value.code == "too_soon"
    clock.move(hours=11, minutes=59)  # 23:59 the same day: the period has not ended
    with pytest.raises(limits.LimitError):
        limits.confirm(alice, "loss_day")
    clock.move(minutes=2)  # the next day
    assert limits.guard_of(alice).limits["loss_day"] == 40_00  # not without a confirmation
    assert limits.confirm(alice, "loss_day").action == "increased"
    assert limits.guard_of(alice).limits["loss_day"] == 200_00
    actions = list(
        LimitChange.objects.filter(player=alice).order_by("id").values_list("action", flat=True)
    )
    assert actions == ["set", "decreased", "increase asked", "increased"]


def test_a_removal_waits_for_the_end_of_the_month(clock: Clock, alice: Any) -> None:
    limits.set_limit(alice, "wagered_month", 500_00)
    assert limits.set_limit(alice, "wagered_month", None).action == "removal asked"
    clock.move(days=12)  # 30 November
    with pytest.raises(limits.LimitError):
        limits.confirm(alice, "wagered_month")
    clock.move(days=1)  # 1 December
    assert limits.confirm(alice, "wagered_month").action == "removed"
    assert "wagered_month" not in limits.guard_of(alice).limits


def test_a_lower_limit_asked_while_an_increase_waits_replaces_it(clock: Clock, alice: Any) -> None:
    limits.set_limit(alice, "wager_max", 50_00)
    limits.set_limit(alice, "wager_max", 80_00)
    limits.set_limit(alice, "wager_max", 30_00)
    guard = limits.guard_of(alice)
    assert guard.limits == {"wager_max": 30_00} and guard.pending == {}


@pytest.mark.parametrize("amount", [0, -5, 1.5, "10", True])
def test_bad_amounts_are_refused_and_change_nothing(clock: Clock, alice: Any, amount: Any) -> None:
    with pytest.raises(limits.LimitError):
        limits.set_limit(alice, "loss_day", amount)
    with pytest.raises(limits.LimitError):
        limits.set_limit(alice, "no_such_limit", 10_00)
    assert LimitChange.objects.count() == 0


def test_the_time_limit_lets_a_dealt_round_finish_and_opens_no_new_one(
    clock: Clock, game: Game, alice: Any
) -> None:
    from table.protection import sessions

    session, _ = sessions.start(alice)
    limits.set_limit(alice, "time_day", 30)
    game.sit(alice, 1)
    for minutes in (10, 10, 9.83):  # 29 min 50 s logged in, the player active all along
        clock.move(minutes=minutes)
        assert sessions.touch(session)
    game.open()
    services.place_bets(game.table.pk, alice, 1, {"ante": 10_00}, session=session.pk)
    game.deal()
    clock.move(seconds=19)  # 30 min 9 s: used up while the round is in play (20 s to decide)
    # The dealt round finishes: the raise is taken.
    services.decide(game.table.pk, alice, 1, 1, session=session.pk)
    game.finish()
    game.open()
    refused(
        "limit_reached",
        "time per day is 30 min: it is used up",
        lambda: services.place_bets(game.table.pk, alice, 1, {"ante": 10_00}, session=session.pk),
    )


def test_a_credit_limit_and_the_tally_of_a_day(clock: Clock) -> None:
    alice = make_player("dora", 0)
    limits.set_limit(alice, "credits_week", 300_00)
    ledger.credit(alice, 200_00, "deposit")
    with pytest.raises(ledger.CreditRefused) as info:
        ledger.credit(alice, 150_00, "deposit")
    assert "$100.00 of it is left" in info.value.message
    clock.move(days=5)  # the next Monday: a new week
    ledger.credit(alice, 150_00, "deposit")
    days = dict(PlayTally.objects.values_list("day", "credits"))
    assert days[dt.date(2026, 11, 18)] == 200_00 and days[dt.date(2026, 11, 23)] == 150_00


def test_tallies_count_wins_and_losses_of_settled_rounds(
    clock: Clock, game: Game, alice: Any
) -> None:
    start = ledger.player_account(alice).balance
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 10_00})])
    net = ledger.player_account(alice).balance - start
    tally = PlayTally.objects.get(account=ledger.player_account(alice), day=dt.date(2026, 11, 18))
    assert tally.net == net
    assert tally.wagered >= 20_00


def test_the_guard_read_on_its_own_reads_what_the_account_lock_reads(
    clock: Clock, game: Game, alice: Any, table: Table
) -> None:
    """A wager's protection comes with the player's account lock; an account that lock did not
    read (made in the same command) is read on its own, and must read the same."""
    from django.db import connection, transaction

    from table import fastsql
    from table.protection import guard

    limits.set_limit(alice, "loss_day", 500_00)
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=20_00)
    dates = guard.lock_dates(clock.now)
    with transaction.atomic():
        _found, _bankroll, _held, locked = ledger.lock_for_table(table, ["alice"], dates)
        alone = fastsql.one(fastsql.guard_read(connection.vendor), [*dates, "alice"])
    assert alone == locked.guard["alice"]
    assert alone is not None and fastsql.loads(alone[6])[3] == -40_00  # today's net
