"""A supervisor's way out of a round in play, needing no code (issue 23): the admin's "void"
action (the ``void_round`` permission, a reason required) voids the round in any phase before
settled, the dealer's hand face up included: every stake back, the meter increments taken back
out, the reason and the supervisor in the audit log. Nobody else can send that void. At a table
of every registered game (the meters' increments at each whose default rules need meters)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission

from table import services
from table.games.base import SUPERVISOR_VOID
from table.models import AuditEntry, MeterEvent, Round

from .conftest import START, User, balance
from .tables import EVERY_GAME, books_balance, play_turns
from .test_round_integrity import METERED, round_after_no_more_bets, state_row

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("the_tests_own_game")]


def supervisor(name: str = "super") -> Any:
    user = User.objects.create_user(name, password="pw", is_staff=True)
    user.user_permissions.add(
        Permission.objects.get(codename="void_round", content_type__app_label="table"),
        Permission.objects.get(codename="view_round", content_type__app_label="table"),
    )
    return User.objects.get(pk=user.pk)


@pytest.mark.parametrize("name", METERED)
def test_a_supervisor_voids_a_round_with_the_dealer_s_hand_face_up(name: str) -> None:
    table, dealer, linked, alice = round_after_no_more_bets(name)
    fed = {
        e.meter_id: e for e in MeterEvent.objects.filter(kind=MeterEvent.INCREMENT).order_by("-pk")
    }  # each meter's first increment (its standing before the round)
    assert fed and set(fed) <= {m.pk for m in linked}
    services.deal(table.pk, dealer)
    play_turns(table, (alice,))
    services.reveal(table.pk, dealer)  # the outcome is known: the dealer may not void now
    with pytest.raises(services.ServiceError) as info:
        services.void_round(table.pk, SUPERVISOR_VOID, dealer)
    assert info.value.code == "platform_reason"
    boss = supervisor()
    with pytest.raises(services.ServiceError) as info:
        services.supervisor_void(table.pk, "   ", boss)
    assert info.value.code == "reason_required"
    clerk = User.objects.create_user("clerk", password="pw", is_staff=True)
    with pytest.raises(services.ServiceError) as info:
        services.supervisor_void(table.pk, "stuck", clerk)
    assert info.value.code == "forbidden"
    assert Round.objects.get(pk=state_row(table)).phase == "revealed"

    services.supervisor_void(table.pk, "the settlement is refused; ticket 4711", boss)
    row = Round.objects.get(pk=state_row(table))
    assert (row.phase, row.void_reason) == ("void", SUPERVISOR_VOID)
    assert balance(alice) == START  # every stake back: the Ante, the Play, each side wager
    # Fed at "no more bets", taken back out.
    reversed_ = MeterEvent.objects.filter(round=row, kind=MeterEvent.REVERSAL)
    assert {e.meter_id for e in reversed_} == set(fed)
    for meter in linked:
        if meter.pk in fed:
            meter.refresh_from_db()
            before = fed[meter.pk]
            assert (meter.amount, meter.reserve) == (before.amount_before, before.reserve_before)
    entry = AuditEntry.objects.get(action="round_voided")
    assert (entry.actor_name, entry.round_id) == ("super", row.pk)
    assert entry.details["reason"] == "the settlement is refused; ticket 4711"
    assert entry.details["phase"] == "revealed"
    with pytest.raises(services.ServiceError) as info:  # over: nothing more to void
        services.supervisor_void(table.pk, "again", boss)
    assert info.value.code == "no_round"
    books_balance(table)


# Every game, the tests' own included: the skeleton gives each the platform's void.
@pytest.mark.parametrize("name", EVERY_GAME)
def test_the_admin_action_asks_for_a_reason_and_voids(client: Any, name: str) -> None:
    table, dealer, linked, alice = round_after_no_more_bets(name)
    row = Round.objects.get(pk=state_row(table))
    url = "/admin/table/round/"
    # Staff without the permission are not offered the action.
    viewer = User.objects.create_user("viewer", password="pw", is_staff=True)
    viewer.user_permissions.add(
        Permission.objects.get(codename="view_round", content_type__app_label="table")
    )
    client.force_login(viewer)
    assert "void_in_play" not in client.get(url).content.decode()
    refused = client.post(url, {"action": "void_in_play", "_selected_action": [row.pk]})
    assert Round.objects.get(pk=row.pk).phase == "closed", refused.status_code

    client.force_login(supervisor())
    assert "void_in_play" in client.get(url).content.decode()
    page = client.post(url, {"action": "void_in_play", "_selected_action": [row.pk]})
    text = page.content.decode()
    assert page.status_code == 200 and "Void rounds in play" in text and "Reason" in text
    assert "alice (1)" in text
    empty = client.post(
        url, {"action": "void_in_play", "_selected_action": [row.pk], "apply": "1", "reason": ""}
    )
    assert empty.status_code == 200 and "This field is required" in empty.content.decode()
    assert Round.objects.get(pk=row.pk).phase == "closed"
    done = client.post(
        url,
        {"action": "void_in_play", "_selected_action": [row.pk], "apply": "1", "reason": "stuck"},
        follow=True,
    )
    assert "is void: every wager returned" in done.content.decode()
    assert Round.objects.get(pk=row.pk).phase == "void"
    assert balance(alice) == START
    assert AuditEntry.objects.get(action="round_voided").details["reason"] == "stuck"
    books_balance(table)
