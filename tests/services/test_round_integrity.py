"""No round can be stuck (issue 23): what a round depends on is fixed for that round. The
shared meters a round depends on cannot change under it, nor the name it pays a player by, at
a table of every registered game (and the tests' own) under its default rules. A round
settled to the cent of ``manage.py settle_round``: each game's own
(tests/games/<game>/services/test_round_integrity.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils.html import escape

from table import integrity, meters, services
from table.demo import link_meters
from table.games import ENTRIES, game
from table.games.base import BET, Actor
from table.models import ProgressiveMeter, Round, Table
from tests.services.tables import EVERY_GAME, books_balance, make_table, play_out, state

from .conftest import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("the_tests_own_game")]

#: The registered games whose default rules need shared meters.
METERED = sorted(n for n in ENTRIES if game(n).meters(game(n).default_rules()))


def state_row(table: Any) -> int:
    table.refresh_from_db()
    return int(table.current_round_id)


def round_after_no_more_bets(name: str) -> tuple[Table, Any, list[ProgressiveMeter], Any]:
    """A table of the game ``name`` with its meters linked, alice's box 1 betting each wager
    its bet move offers at its least (what feeds every meter), betting closed."""
    g = game(name)
    table, dealer = make_table(f"{g.title} links", g)
    link_meters(table, table.rules)
    linked = list(ProgressiveMeter.objects.filter(tables=table).order_by("pk"))
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    [bet] = [
        m
        for m in g.moves(state(table), Actor.player(alice.username))
        if m.name == BET and m.box == 1
    ]
    services.act(table.pk, alice, BET, 1, {a.arg: a.low for a in bet.amounts})
    services.no_more_bets(table.pk, dealer)
    return table, dealer, linked, alice


def in_play(table: Table) -> str:
    """How the admin names the table's round in play."""
    return f"{escape(table.name)}&#x27;s round 1"


def unlinked(meter: ProgressiveMeter) -> dict[str, Any]:
    """The meter's admin form, posted with no table."""
    return {
        "name": meter.name,
        "meter": f"{meter.kind}|{meter.paytable}",
        "wager": str(meter.wager),
        "tables": [],
    }


@pytest.mark.parametrize("name", METERED)
def test_the_admin_refuses_to_unlink_a_meter_from_a_table_with_a_round_in_play(
    client: Any, staff: Any, name: str
) -> None:
    """Unlinking after "no more bets" left the round unsettleable (``bad_meters``, the
    dealer's hand face up): the admin now refuses it, saying why, and the round settles."""
    table, dealer, linked, alice = round_after_no_more_bets(name)
    client.force_login(staff)
    meter = linked[0]
    response = client.post(f"/admin/table/progressivemeter/{meter.pk}/change/", unlinked(meter))
    page = response.content.decode()
    assert response.status_code == 200, page[:500]
    assert f"{in_play(table)} (closed) is in play" in page
    assert "stay linked until it is settled or void" in page
    assert list(meter.tables.all()) == [table]
    # Adding a meter to that table now is refused too (the round was opened without it).
    last = linked[-1]
    response = client.post(
        "/admin/table/progressivemeter/add/",
        {
            "name": f"{last.name} 2",
            "meter": f"{last.kind}|{last.paytable}",
            "wager": "500",
            "tables": [table.pk],
        },
    )
    assert response.status_code == 200 and "is in play" in response.content.decode()
    # Whatever makes the change, not only the admin.
    with pytest.raises(meters.MeterError) as info, transaction.atomic():
        meter.tables.remove(table)
    assert info.value.code == "round_in_play"
    with pytest.raises(meters.MeterError), transaction.atomic():
        table.progressive_meters.clear()
    assert sorted(m.kind for m in ProgressiveMeter.objects.filter(tables=table)) == sorted(
        m.kind for m in linked
    )
    services.deal(table.pk, dealer)
    play_out(table, dealer, (alice,))
    assert Round.objects.get(pk=state_row(table)).phase == "settled"
    # Between rounds the links change as before.
    response = client.post(f"/admin/table/progressivemeter/{meter.pk}/change/", unlinked(meter))
    assert response.status_code == 302
    assert list(meter.tables.all()) == []
    books_balance(table)


@pytest.mark.parametrize("name", EVERY_GAME)
def test_a_player_with_wagers_in_a_round_in_play_keeps_the_name_it_pays(
    client: Any, staff: Any, name: str
) -> None:
    """A round pays its boxes by username: renamed mid-round, the settlement found no such
    player and the round could not settle. The rename is refused while the round is in play,
    in the admin (saying why) and from anywhere else."""
    table, dealer, _, alice = round_after_no_more_bets(name)
    client.force_login(staff)
    page = client.get(f"/admin/auth/user/{alice.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "password"}
    data.update(
        {
            "username": "alice2",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "groups": [],
            "user_permissions": [],
        }
    )
    data.pop("last_login", None)
    data.pop("date_joined", None)
    response = client.post(f"/admin/auth/user/{alice.pk}/change/", data)
    text = response.content.decode()
    assert response.status_code == 200, text[:300]
    assert "which pays them by this name" in text and in_play(table) in text
    alice.refresh_from_db()
    assert alice.username == "alice"
    with pytest.raises(integrity.RoundInPlay), transaction.atomic():
        user = type(alice).objects.get(pk=alice.pk)
        user.username = "alice3"
        user.save()
    services.deal(table.pk, dealer)
    play_out(table, dealer, (alice,))
    # Once the round is over the name may change.
    user = type(alice).objects.get(pk=alice.pk)
    user.username = "alice4"
    user.save()
    books_balance(table)
