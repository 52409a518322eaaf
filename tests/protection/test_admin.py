"""The compliance view of player protection: every limit change and exclusion with its time
and actor, read only for compliance; staff record an exclusion from the state's list and lift
one only after its term, in the audit log."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from table.demo import duty_group
from table.models import AuditEntry, SelfExclusion
from table.protection import exclusion, limits

from .conftest import Clock

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def compliance() -> Any:
    user = get_user_model().objects.create_user("officer", password="pw-officer", is_staff=True)
    user.groups.add(duty_group("Compliance officers"))
    return user


def test_compliance_sees_every_limit_change_and_exclusion_and_changes_nothing(
    clock: Clock, alice: Any, compliance: Any
) -> None:
    limits.set_limit(alice, "loss_day", 50_00)
    limits.set_limit(alice, "loss_day", 90_00)
    exclusion.exclude(alice, SelfExclusion.ONE_YEAR, by=alice)
    client = Client()
    client.force_login(compliance)
    page = client.get("/admin/table/limitchange/").content.decode()
    assert "increase asked" in page and "alice" in page and "Nov. 18, 2026" in page
    page = client.get("/admin/table/selfexclusion/").content.decode()
    assert "1 year" in page and "alice" in page
    assert client.get("/admin/table/selfexclusion/add/").status_code == 403
    assert client.get("/admin/table/playersession/").status_code == 200
    row = SelfExclusion.objects.get()
    listing = client.post(
        "/admin/table/selfexclusion/",
        {"action": "lift", "_selected_action": [row.pk]},
    )
    assert listing.status_code == 200  # no such action for compliance: nothing lifted
    row.refresh_from_db()
    assert row.lifted_at is None


def test_staff_record_from_the_state_list_and_lift_only_after_the_term(
    clock: Clock, alice: Any, staff: Any
) -> None:
    client = Client()
    client.force_login(staff)
    client.post(
        "/admin/table/selfexclusion/add/",
        {"player": alice.pk, "term": "1y", "note": "Board list of 18 Nov"},
    )
    row = SelfExclusion.objects.get()
    assert row.source == "state list" and row.recorded_by_name == "boss"
    assert exclusion.active(alice) == row
    assert AuditEntry.objects.filter(action="exclusion", actor_name="boss").exists()
    answer = client.post(
        "/admin/table/selfexclusion/",
        {"action": "lift", "_selected_action": [row.pk]},
        follow=True,
    )
    assert "can be lifted only when its term has ended" in answer.content.decode()
    clock.move(days=366)
    client.force_login(staff)
    client.post("/admin/table/selfexclusion/", {"action": "lift", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.lifted_by_name == "boss" and exclusion.active(alice) is None
    assert AuditEntry.objects.filter(action="exclusion_lifted").exists()
