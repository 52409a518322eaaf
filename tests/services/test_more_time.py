"""More time on the player's own clock (WCAG 2.2.1; issue 28): once a round per box, only on
the box's running clock, by its player; the table's deadline moves and every viewer is told."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from table import services
from table.models import RoundEvent, Table
from table.services.more_time import EXTRA_SECONDS

from .conftest import Game, engine_round

pytestmark = [pytest.mark.django_db]


def dealt(game: Game, alice: Any, bob: Any) -> None:
    game.sit(alice, 1)
    game.sit(bob, 3)
    game.open()
    game.bet(alice, 1, ante=500)
    game.bet(bob, 3, ante=500)
    game.deal()


def test_the_player_to_act_gets_more_time_once(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    dealt(game, alice, bob)
    assert engine_round(table).to_act == 1
    table.refresh_from_db()
    before = table.turn_deadline
    assert before is not None
    result = services.more_time(table.pk, alice, 1)
    table.refresh_from_db()
    assert table.turn_deadline == before + dt.timedelta(seconds=EXTRA_SECONDS)
    assert result.response["deadline"] == int(table.turn_deadline.timestamp() * 1000)
    event = RoundEvent.objects.filter(table=table, kind="more_time").get()
    assert event.data["box"] == 1 and event.data["player"] == "alice"
    assert event.audience == "public"
    # Once a round: a second request is refused and changes nothing.
    version = table.version
    with pytest.raises(services.ServiceError) as info:
        services.more_time(table.pk, alice, 1)
    assert info.value.code == "no_more_time"
    table.refresh_from_db()
    assert table.version == version
    assert table.turn_deadline == before + dt.timedelta(seconds=EXTRA_SECONDS)


def test_only_the_box_whose_clock_runs_by_its_player(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    dealt(game, alice, bob)
    table.refresh_from_db()
    before = table.turn_deadline
    # bob's box is not the one to act; bob does not own box 1.
    for user, box, code in ((bob, 3, "not_your_turn"), (bob, 1, "not_your_box")):
        with pytest.raises(services.ServiceError) as info:
            services.more_time(table.pk, user, box)
        assert info.value.code == code
    table.refresh_from_db()
    assert table.turn_deadline == before
    assert not RoundEvent.objects.filter(table=table, kind="more_time").exists()


def test_no_more_time_while_betting_or_once_run_out(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=500)
    with pytest.raises(services.ServiceError) as info:
        services.more_time(table.pk, alice, 1)
    assert info.value.code == "not_your_turn"
    game.deal()
    Table.objects.filter(pk=table.pk).update(
        turn_deadline=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
    )
    with pytest.raises(services.ServiceError) as info:
        services.more_time(table.pk, alice, 1)
    assert info.value.code == "too_late"
