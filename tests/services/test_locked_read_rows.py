"""The locked read builds the table's and its Rules Submission's rows by position (issue 26:
half the cost of building them from keywords): each field as the ORM reads it, ``created``
of the table left at its default as before (the command path never reads it)."""

from __future__ import annotations

import pytest
from django.db import models, transaction

from table.models import RulesSubmission, Table
from table.services import command

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def test_the_locked_read_s_rows_are_the_orm_s(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(
        shoe={"decks": [1, 2]}, last_hash="ab" * 32, rounds_since_stub_count=3, version=9
    )
    with transaction.atomic():
        locked = command._lock_table(table.pk, "clock")
    orm = Table.objects.get(pk=table.pk)
    for field in Table._meta.concrete_fields:
        if field.name == "created":
            assert getattr(locked.table, field.attname) is None  # as from keywords
            continue
        assert getattr(locked.table, field.attname) == getattr(orm, field.attname), field.name
    rules = RulesSubmission.objects.get(pk=table.rules_id)
    for field in RulesSubmission._meta.concrete_fields:
        if isinstance(field, models.DateTimeField):  # naive on SQLite by plain SQL (unused)
            continue
        ours, theirs = getattr(locked.table.rules, field.attname), getattr(rules, field.attname)
        assert ours == theirs and type(ours) is type(theirs), field.name
    assert locked.table.rules.game_rules() == rules.game_rules()
