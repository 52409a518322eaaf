"""Each game says its rule for a box its player leaves (issue 23, §663a.7(b)) on the leave
dialog (the snapshot's felt), every game the registry holds. A game's own rule (what its
player loses): tests/games/<game>/services/test_leave_rule.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from table.games import ENTRIES
from table.games import game as game_named
from table.snapshot import snapshot
from tests.services.tables import make_table

pytestmark = [pytest.mark.django_db]


def test_each_game_says_its_leave_rule_on_the_leave_dialog() -> None:
    assert ENTRIES
    for name in ENTRIES:
        table, _ = make_table(name, game_named(name))
        rule = snapshot(table.pk, AnonymousUser())["table"]["felt"]["leave_rule"]
        assert "leave" in rule and "freed" in rule, name
        assert rule == game_named(name).felt.leave_rule, name
