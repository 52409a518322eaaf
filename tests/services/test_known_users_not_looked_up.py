"""A command looks up no user it already knows (issue 26: a round trip each): the seated
players' ids come with the locked read, and an event for the dealer's eyes goes to no user."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from table import fastsql
from table.games.base import DEALER
from table.games.events import Event, to_player
from table.models import BoxRecord, Seat, Table
from table.services.command import _private_audience
from table.services.context import Context

from .conftest import Game, current_row

pytestmark = pytest.mark.django_db


def user_lookups(queries: CaptureQueriesContext) -> list[str]:
    """The statements that look users up by name (``fastsql.user_ids``)."""
    lookup = fastsql.user_ids(1).split(" WHERE ")[0]
    sent = [fastsql.readable(q["sql"]) for q in queries.captured_queries]
    return [sql for sql in sent if lookup in sql]


def test_an_event_for_the_dealer_goes_to_no_user(table: Table, alice: Any) -> None:
    """The stub count and a void's procedure are the dealer's (audience "dealer"): no user
    is looked up for them; a player's private event still finds its player's id."""
    ctx = Context(table, "clock", timezone.now())
    ctx.events = [Event("shoe_stub", {"cards": 20}, DEALER)]
    with CaptureQueriesContext(connection) as queries:
        assert _private_audience(ctx) == {}
    assert queries.captured_queries == []
    ctx.events.append(Event("your_cards", {}, to_player(alice.username)))
    assert _private_audience(ctx) == {alice.username: alice.pk}


def test_a_settlement_records_each_box_by_its_seated_players_id(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    """The box records' player ids come from the seats read with the table row (no lookup by
    name); a player whose seat is gone by the settlement is looked up by name."""
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.open()
    game.bet(alice, 1, ante=10_00)
    game.bet(bob, 2, ante=10_00)
    game.deal()
    game.decide_all()
    with CaptureQueriesContext(connection) as queries:
        game.finish()
    assert user_lookups(queries) == []
    records = BoxRecord.objects.filter(round=current_row(table))
    assert {r.box: r.player_id for r in records} == {1: alice.pk, 2: bob.pk}

    game.open()
    game.bet(alice, 1, ante=10_00)
    game.bet(bob, 2, ante=10_00)
    game.deal()
    game.decide_all()
    Seat.objects.filter(table=table, player=bob).delete()  # staff cleared the seat
    game.finish()
    records = BoxRecord.objects.filter(round=current_row(table))
    assert {r.box: r.player_id for r in records} == {1: alice.pk, 2: bob.pk}
