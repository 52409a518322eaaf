"""Crazy 4 Poker's meters cost a command no statement of their own (issue 26): "no more bets"
and the settlement lock the table's bankroll and its linked meters with their accounts in the
locked read's round trip, open betting reads which meters are linked with it, and a meter's
new standing and history row travel in the command's batch of writes. The money, the meters
and their history come out as the store always wrote them (tests/services/test_meters.py,
test_at_table.py: the same figures)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection, transaction
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext

from table import fastsql, ledger, meters, services
from table.games import game as game_named
from table.games.progressive import Meter
from table.models import MeterEvent, ProgressiveMeter, Round, Table
from tests.services.conftest import START, balance, make_player
from tests.services.tables import books_balance, make_table, standing
from tests.services.test_meters import new_round

from .test_at_table import linked_table

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

C4P = game_named("crazy_4_poker")
#: Box 1 a royal flush in hearts, box 2 a pair of nines, the dealer king high.
SHOE = ["AH", "KH", "QH", "JH", "TH"] + ["9S", "9D", "4C", "6S", "2D"] + ["KC", "8D", "5S", "3C"]


@pytest.fixture
def c4p(monkeypatch: pytest.MonkeyPatch) -> tuple[Table, Any, dict[str, ProgressiveMeter]]:
    return linked_table(monkeypatch, "C4P statements", SHOE)


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


def test_the_meters_ride_the_locked_read_and_the_batch_of_writes(c4p: Any) -> None:
    """Open betting, "no more bets" with every meter fed, and a settlement that pays both
    meters (a royal flush): each as many statements as at a table without meters (no more
    bets 11 -> 2, open betting one fewer, the settlement four fewer before the hit's own
    look-ups); the meters, their history and the ledger as before."""
    postgres_only()
    table, dealer, linked = c4p
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 2)
    seeds = {k: standing(m) for k, m in linked.items()}
    with CaptureQueriesContext(connection) as queries:
        services.open_betting(table.pk, dealer)
    opened = statements(queries)
    # Which meters are linked came with the locked read: no meter query of its own.
    assert "table_progressivemeter_tables" in opened[0]
    assert not any("progressivemeter" in sql for sql in opened[1:]), opened
    services.act(
        table.pk, alice, "bet", 1, {"ante": 5_00, "progressive": 1_00, "hand_bonus_player": 1_00}
    )
    services.act(table.pk, bob, "bet", 2, {"ante": 10_00, "hand_bonus_dealer": 1_00})

    with CaptureQueriesContext(connection) as queries:
        services.no_more_bets(table.pk, dealer)
    closed = statements(queries)
    assert len(closed) == 2, closed  # the locked read, the writes (with the COMMIT)
    assert "FOR UPDATE OF m, a" in closed[0]
    assert closed[1].count("UPDATE") >= 3 and "table_meterevent" in closed[1]
    events = MeterEvent.objects.filter(kind=MeterEvent.INCREMENT).order_by("meter_id")
    assert [(e.meter_id, e.stakes, e.version) for e in events] == [
        (linked["five_card"].pk, 1, 2),
        (linked["hand_bonus"].pk, 2, 2),
    ]
    rnd = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    for e in events:
        assert (e.table_id, e.round_id, e.round_number) == (table.pk, rnd.pk, rnd.number)
        assert e.created is not None and (e.box, e.player_id, e.actor_id) == (None, None, None)
        assert (e.wager, e.percent, e.split, e.paid, e.funded, e.reseeded, e.reason) == (
            "",
            None,
            1,
            0,
            0,
            False,
            "",
        )
        meter = ProgressiveMeter.objects.get(pk=e.meter_id)
        assert (e.amount_before, e.reserve_before) == seeds[meter.kind]
        assert (e.amount_after, e.reserve_after) == (meter.amount, meter.reserve)
        assert meter.version == e.version
    assert meters.verify() == [] and ledger.verify() == []

    services.deal(table.pk, dealer)
    for user, box in ((alice, 1), (bob, 2)):
        from table.games.base import Actor
        from tests.services.tables import state

        [move] = [m for m in C4P.moves(state(table), Actor.player(user.username)) if m.box == box]
        services.act(table.pk, user, move.name, box, move.choices[1].args)  # Play 1x
    services.reveal(table.pk, dealer)
    before = {k: standing(m) for k, m in linked.items()}
    with CaptureQueriesContext(connection) as queries:
        settled = services.settle(table.pk, dealer).response
    paid = statements(queries)
    assert "FOR UPDATE OF m, a" in paid[0]
    assert not any("table_progressivemeter_tables" in sql for sql in paid[1:]), paid
    hits = MeterEvent.objects.filter(kind=MeterEvent.HIT).order_by("pk")
    assert {(h.meter.kind, h.box, h.percent, h.reseeded, h.player_id) for h in hits} == {
        ("five_card", 1, 100, True, alice.pk),
        ("hand_bonus", 1, 100, True, alice.pk),
    }
    for h in hits:
        assert h.paid == before[h.meter.kind][0]
        assert h.funded == linked[h.meter.kind].spec().reseed_amount(100)
    nets = {name: v["net"] for name, v in settled["players"].items()}
    assert balance(alice) - START == nets["alice"] and balance(bob) - START == nets["bob"]
    books_balance(table)
    assert meters.verify() == []


def test_a_table_without_meters_reads_and_locks_no_more(c4p: Any) -> None:
    """The meters' statements in the locked read find nothing at a table with no meter linked:
    no bankroll lock, no meter (the other games' "no more bets" stays two statements)."""
    postgres_only()
    from table.games import default_game

    table, dealer = make_table("No meters", game_named(default_game()))
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    services.act(table.pk, alice, "bet", 1, {"ante": 10_00})
    with CaptureQueriesContext(connection) as queries:
        services.no_more_bets(table.pk, dealer)
    assert len(statements(queries)) == 2
    with transaction.atomic():
        found = meters.linked(table.pk)
        rows = fastsql.rows(fastsql.meter_bankroll_lock(connection.vendor), [table.pk] * 2)
    assert (found.meters, found.accounts, rows) == ({}, {}, [])
    services.fail_unfinished_round(table.pk)


def test_a_meter_read_with_its_lock_is_the_row_as_stored(c4p: Any) -> None:
    """``meters.linked`` builds each meter from its columns as the ORM's locked read does,
    with its account's balance and whether the current round fed it."""
    table, _, linked = c4p
    assert fastsql.METER_COLUMNS == tuple(
        f.attname for f in ProgressiveMeter._meta.concrete_fields if f.name != "created"
    )
    with transaction.atomic():
        found = meters.linked(table.pk)
        orm = meters.lock_meters(m.pk for m in linked.values())
    assert list(found.meters) == sorted(m.pk for m in linked.values())
    for pk, meter in found.meters.items():
        fields = [f.attname for f in ProgressiveMeter._meta.concrete_fields if f.name != "created"]
        assert [getattr(meter, f) for f in fields] == [getattr(orm[pk], f) for f in fields]
        account = meter.account
        assert found.accounts[meter.account_id] == (account.kind, account.name, account.balance)
    assert found.fed == set()


def test_a_batched_history_row_is_the_row_the_orm_saved(c4p: Any) -> None:
    """The same change booked on two like meters, one through the model (a seed, a reset)
    and one as a table's command writes it (``fastsql``): the same row but its id and meter."""
    table, _, _ = c4p
    twins = [meters.create_meter(f"twin {n}", "hand_bonus", "", 100) for n in (1, 2)]
    rnd = new_round(table, 7)
    player = make_player("winner")
    when = dt.datetime(2026, 11, 27, 9, 45, 1, 234567, tzinfo=dt.UTC)
    rows = []
    for keep, twin in zip((True, False), twins, strict=True):
        with transaction.atomic():
            meter = meters.lock_meters([twin.pk])[twin.pk]
            before = meters._standing(meter)
            house = meters.house_account().pk
            ledger.post([ledger.Posting("t", ((meter.account_id, -150), (house, 150)))])
            fields: dict[str, Any] = {
                "table": table,
                "round": rnd,
                "round_number": rnd.number,
                "box": 3,
                "player": player,
                "wager": "hand_bonus_player",
                "percent": 100,
                "split": 2,
                "paid": 150,
                "funded": 0,
                "reseeded": True,
            }
            from unittest import mock

            with mock.patch.object(meters.timezone, "now", lambda: when):
                meters._book(meter, before, Meter(before.amount - 150, 0), "hit", keep, **fields)
        rows.append(MeterEvent.objects.get(meter=twin, kind="hit"))
    kept, batched = (model_to_dict(r, exclude=["id", "meter"]) for r in rows)
    assert kept == batched
    assert rows[0].created == rows[1].created == when
    for twin in twins:
        twin.refresh_from_db()
    assert (twins[0].amount, twins[0].reserve, twins[0].version) == (
        twins[1].amount,
        twins[1].reserve,
        twins[1].version,
    )
