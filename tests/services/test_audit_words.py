"""The audit log in words, with a link to the object (issue 28, Casino staff: details read
"model: table.rulessubmission, object_id: 6" and "reason: wrong_card_count")."""

from __future__ import annotations

import pytest
from django.test import Client

from table import duties
from table.demo import make_user
from table.games import GAMES
from table.models import AuditEntry, RulesSubmission

pytestmark = pytest.mark.django_db


def test_audit_details_are_words_and_link_to_the_object() -> None:
    rules = RulesSubmission.objects.create(name="Words demo", game=next(iter(GAMES)), choices={})
    boss = make_user("boss", staff=True)
    duties.record(
        boss,
        "admin_change",
        {"model": "table.rulessubmission", "object_id": str(rules.pk), "object": rules.name},
    )
    duties.record(boss, "round_voided", {"reason": "wrong_card_count"})
    client = Client()
    client.force_login(boss)
    listing = client.get("/admin/table/auditentry/").content.decode()
    link = f'<a href="/admin/table/rulessubmission/{rules.pk}/change/">“Words demo”</a>'
    assert f"Rules submission {link}" in listing
    assert "table.rulessubmission" not in listing and "object_id" not in listing
    assert "reason: wrong card count" in listing and "wrong_card_count" not in listing
    entry = AuditEntry.objects.get(action="round_voided")
    detail = client.get(f"/admin/table/auditentry/{entry.pk}/change/").content.decode()
    assert "<li>reason: wrong card count</li>" in detail
