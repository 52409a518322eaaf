"""A shoe drill armed at the console is the dealer's and the record's: players' logs and
recall never announce it (issue 28, bug 6: every player read "Shoe fault armed: misdeal ...
on the next deal")."""

from __future__ import annotations

from typing import Any

import pytest

from table import services
from table.broadcast import frames
from table.games.events import Event
from table.models import AuditEntry, RoundEvent, Table

from .conftest import Game

pytestmark = [pytest.mark.django_db]


def test_an_armed_drill_reaches_no_player(game: Game, alice: Any, table: Table) -> None:
    game.sit(alice, 1)
    services.arm_fault(table.pk, "misdeal", game.dealer)
    armed = RoundEvent.objects.get(table=table, kind="shoe_fault_armed")
    assert armed.audience == "dealer"
    public, private = frames(table.pk, 1, None, [Event(armed.kind, armed.data, armed.audience)])
    assert public["events"] == [] and private == {}
    # Kept for the record: the audit log says who armed which drill.
    assert AuditEntry.objects.filter(action="drill_armed").exists()


def test_drills_only_at_a_test_table(game: Game, alice: Any, table: Table) -> None:
    """Bug 6: drills are for testing and training; a table open to ordinary play refuses
    them and changes nothing."""
    Table.objects.filter(pk=table.pk).update(is_test=False)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(services.ServiceError) as refused:
        services.arm_fault(table.pk, "jam", game.dealer)
    assert refused.value.code == "not_a_test_table"
    assert "test table" in refused.value.message
    assert Table.objects.get(pk=table.pk).version == version
    assert not RoundEvent.objects.filter(table=table, kind="shoe_fault_armed").exists()


def test_setting_a_test_table_in_the_admin_is_audited(table: Table) -> None:
    from django.test import Client

    from table.demo import make_user

    Table.objects.filter(pk=table.pk).update(is_test=False)
    client = Client()
    client.force_login(make_user("boss", staff=True))
    page = client.get(f"/admin/table/table/{table.pk}/change/")
    form = page.context["adminform"].form
    data = {k: form[k].value() for k in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    data["is_test"] = "on"
    answer = client.post(f"/admin/table/table/{table.pk}/change/", data)
    assert answer.status_code == 302, page.context["adminform"].form.errors
    assert Table.objects.get(pk=table.pk).is_test
    entry = AuditEntry.objects.filter(action="test_table_set", table_id=table.pk).get()
    assert entry.details == {"test_table": True}
    lobby = client.get("/").content.decode()
    assert "Test table</span>" in lobby
