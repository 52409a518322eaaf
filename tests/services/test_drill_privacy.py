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
