"""Bets the server refuses before any game sees them (issue 28, bugs 4 and 5): a bet of no
wager (an Ante of 0 was taken as "take my wagers back" and the log said so), a withdrawal of
nothing, and an amount that is not a whole number of the table's betting unit (5.005 placed
$5.01). Each refusal says why and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from table import meters, services
from table.demo import make_user
from table.models import RoundEvent, RulesSubmission
from table.services import place_bets, withdraw_bets
from tests.games.crazy_4_poker.services.test_at_table import C4P
from tests.games.five_card_hi_lo.services.test_at_table import HILO
from tests.services.tables import make_table, refused

from .conftest import make_player

pytestmark = [pytest.mark.django_db]


@pytest.fixture(params=["crazy_4_poker", "five_card_hi_lo"])
def table_open(request: pytest.FixtureRequest) -> Any:
    g = C4P if request.param == "crazy_4_poker" else HILO
    table, dealer = make_table(request.param, g)
    if g is C4P:
        meters.create_meter("five card A", "five_card", "A", 100, [table])
        meters.create_meter("hand bonus", "hand_bonus", "", 100, [table])
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    return table, alice


def test_an_ante_of_nothing_is_refused_with_words(table_open: Any) -> None:
    table, alice = table_open
    for wagers in ({"ante": 0}, {}):
        refused(
            "no_wager", table, (alice,), lambda w=wagers: services.act(table.pk, alice, "bet", 1, w)
        )
    # A negative Ante is the game's refusal (its words), and changes nothing either.
    refused(
        "bad_amount",
        table,
        (alice,),
        lambda: services.act(table.pk, alice, "bet", 1, {"ante": -500}),
    )
    # Nothing on the box: nothing to take back, and no "took the wagers back" line.
    refused(
        "nothing_to_withdraw", table, (alice,), lambda: services.act(table.pk, alice, "withdraw", 1)
    )
    assert not RoundEvent.objects.filter(table=table, kind="wagers_withdrawn").exists()


def test_amounts_are_whole_betting_units(table_open: Any) -> None:
    table, alice = table_open
    # Whole dollars by default: $5.01 (what 5.005 rounded to) is refused, with the unit.
    refused(
        "bad_unit", table, (alice,), lambda: services.act(table.pk, alice, "bet", 1, {"ante": 501})
    )
    services.act(table.pk, alice, "bet", 1, {"ante": 500})
    # A submission that says otherwise: bets in $5 units.
    RulesSubmission.objects.filter(pk=table.rules_id).update(betting_unit=500)
    refused(
        "bad_unit", table, (alice,), lambda: services.act(table.pk, alice, "bet", 1, {"ante": 600})
    )
    services.act(table.pk, alice, "bet", 1, {"ante": 1000})
    services.act(table.pk, alice, "withdraw", 1)
    assert RoundEvent.objects.filter(table=table, kind="wagers_withdrawn").count() == 1


def test_four_card_frenzy_commands_keep_the_same_rules(table: Any, dealer: Any) -> None:
    """Four Card Frenzy's own bet and withdraw commands (the chips' path) check the same."""
    alice = make_player("fcf-alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    refused("bad_unit", table, (alice,), lambda: place_bets(table.pk, alice, 1, {"ante": 10_50}))
    refused("nothing_to_withdraw", table, (alice,), lambda: withdraw_bets(table.pk, alice, 1))
    place_bets(table.pk, alice, 1, {"ante": 10_00})
    withdraw_bets(table.pk, alice, 1)


def test_the_admin_form_takes_a_unit_and_holds_the_limits_to_it() -> None:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    page = client.get("/admin/table/rulessubmission/add/", {"game": "crazy_4_poker"})
    assert 'name="betting_unit"' in page.content.decode()
    form = page.context["adminform"].form
    data = {k: form[k].value() for k in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    data.update(name="five dollar units", game="crazy_4_poker", betting_unit="5.00", ante_min="7")
    page = client.post("/admin/table/rulessubmission/add/?game=crazy_4_poker", data)
    assert page.status_code == 200
    assert "Not a whole number of the betting unit ($5.00)" in page.content.decode()
    data.update(ante_min="10", queens_up_min="5", six_card_bonus_min="5")
    page = client.post("/admin/table/rulessubmission/add/?game=crazy_4_poker", data)
    assert page.status_code == 302, page.context["adminform"].form.errors
    assert RulesSubmission.objects.get(name="five dollar units").betting_unit == 500
