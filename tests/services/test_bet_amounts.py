"""Bets the server refuses before any game sees them (issue 28, bugs 4 and 5): a bet of no
wager (an Ante of 0 was taken as "take my wagers back" and the log said so), a withdrawal of
nothing, and an amount that is not a whole number of the table's betting unit (5.005 placed
$5.01). Each refusal says why and changes nothing. At a table of every registered game (and
the tests' own), under its default rules with its meters linked; amounts from the wager its
bet move requires (its Ante)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from table import services
from table.demo import link_meters, make_user
from table.games import game as game_named
from table.models import RoundEvent, RulesSubmission
from table.services import place_bets, withdraw_bets
from tests.services.tables import EVERY_GAME, make_table, refused, required_stake

from .conftest import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("the_tests_own_game")]

#: The other betting unit a submission chooses: $5.
FIVE = 500


@pytest.fixture(params=EVERY_GAME)
def table_open(request: pytest.FixtureRequest) -> Any:
    table, dealer = make_table(request.param, game_named(request.param))
    link_meters(table, table.rules)
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    return table, alice


def _whole(cents: int) -> int:
    """The first whole-dollar amount from ``cents`` up."""
    return -(-cents // 100) * 100


def test_an_ante_of_nothing_is_refused_with_words(table_open: Any) -> None:
    table, alice = table_open
    ante = required_stake(table, alice, 1)
    for wagers in ({ante.arg: 0}, {}):
        refused(
            "no_wager", table, (alice,), lambda w=wagers: services.act(table.pk, alice, "bet", 1, w)
        )
    # A negative Ante is the game's refusal (its words), and changes nothing either.
    refused(
        "bad_amount",
        table,
        (alice,),
        lambda: services.act(table.pk, alice, "bet", 1, {ante.arg: -ante.low}),
    )
    # Nothing on the box: nothing to take back, and no "took the wagers back" line.
    refused(
        "nothing_to_withdraw", table, (alice,), lambda: services.act(table.pk, alice, "withdraw", 1)
    )
    assert not RoundEvent.objects.filter(table=table, kind="wagers_withdrawn").exists()


def test_amounts_are_whole_betting_units(table_open: Any) -> None:
    table, alice = table_open
    ante = required_stake(table, alice, 1)
    least = _whole(ante.low)  # $5.00 at the default limits
    # Whole dollars by default: a cent more (what 5.005 rounded to) is refused, with the unit.
    refused(
        "bad_unit",
        table,
        (alice,),
        lambda: services.act(table.pk, alice, "bet", 1, {ante.arg: least + 1}),
    )
    services.act(table.pk, alice, "bet", 1, {ante.arg: least})
    # A submission that says otherwise: bets in $5 units ($6.00 refused, $10.00 taken).
    dollars = range(least + 100, ante.high + 1, 100)
    off = next(a for a in dollars if a % FIVE)
    on = next(a for a in dollars if a > off and a % FIVE == 0)
    RulesSubmission.objects.filter(pk=table.rules_id).update(betting_unit=FIVE)
    refused(
        "bad_unit",
        table,
        (alice,),
        lambda: services.act(table.pk, alice, "bet", 1, {ante.arg: off}),
    )
    services.act(table.pk, alice, "bet", 1, {ante.arg: on})
    services.act(table.pk, alice, "withdraw", 1)
    assert RoundEvent.objects.filter(table=table, kind="wagers_withdrawn").count() == 1


def test_the_bet_and_withdraw_commands_keep_the_same_rules(table_open: Any) -> None:
    """The bet and withdraw commands (the chips' path, not a move) check the same."""
    table, alice = table_open
    ante = required_stake(table, alice, 1)
    twice = 2 * _whole(ante.low)  # $10.00 at the default limits
    refused(
        "bad_unit", table, (alice,), lambda: place_bets(table.pk, alice, 1, {ante.arg: twice + 50})
    )
    refused("nothing_to_withdraw", table, (alice,), lambda: withdraw_bets(table.pk, alice, 1))
    place_bets(table.pk, alice, 1, {ante.arg: twice})
    withdraw_bets(table.pk, alice, 1)


@pytest.mark.parametrize("name", EVERY_GAME)
def test_the_admin_form_takes_a_unit_and_holds_the_limits_to_it(name: str) -> None:
    """Each wager limit (a ``cents`` choice named ``*_min`` or ``*_max``) must be a whole
    number of the unit: the first limit moved $2 off ($7.00 for a $5.00 Ante minimum) is
    refused, saying so; every limit up to the next whole unit is saved."""
    limits = [
        f.name
        for f in game_named(name).rules_fields()
        if f.kind == "cents" and f.name.endswith(("_min", "_max"))
    ]
    assert limits, f"{name} has no wager limits to hold to a unit"
    client = Client()
    client.force_login(make_user("boss", staff=True))
    add = f"/admin/table/rulessubmission/add/?game={name}"
    page = client.get("/admin/table/rulessubmission/add/", {"game": name})
    assert 'name="betting_unit"' in page.content.decode()
    form = page.context["adminform"].form
    data = {k: form[k].value() for k in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    cents = {k: round(float(data[k]) * 100) for k in limits if data[k] != ""}
    first = next(iter(cents))
    data.update(name="five dollar units", game=name, betting_unit="5.00")
    data[first] = f"{(cents[first] + 200) / 100:.2f}"
    page = client.post(add, data)
    assert page.status_code == 200
    assert "Not a whole number of the betting unit ($5.00)" in page.content.decode()
    data.update({k: f"{-(-v // FIVE) * FIVE / 100:.2f}" for k, v in cents.items()})
    data[first] = f"{-(-(cents[first] + 200) // FIVE) * FIVE / 100:.2f}"
    page = client.post(add, data)
    assert page.status_code == 302, page.context["adminform"].form.errors
    assert RulesSubmission.objects.get(name="five dollar units").betting_unit == FIVE
