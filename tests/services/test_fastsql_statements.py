"""The command path's statement texts are built once per database and arguments
(``fastsql._built_once``, issue 26): the text kept is the text built anew, byte for byte, on
SQLite and on PostgreSQL, and the same object each time (it hashes once)."""

from __future__ import annotations

from typing import Any

import pytest

from table import fastsql
from table.models import BoxRecord, CommandRecord, Round, RoundEvent

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

#: Each kept builder with arguments the command path gives it.
CALLS: list[tuple[Any, tuple[Any, ...]]] = [
    (fastsql.round_phase_and_state, ()),
    (fastsql.round_update, ([],)),
    (fastsql.round_update, (["dealt_at = COALESCE(dealt_at, %s)", "finished_at = %s"],)),
    (fastsql.user_ids, (0,)),
    (fastsql.user_ids, (3,)),
    (fastsql.table_update, ()),
    (fastsql.lock_accounts, (2,)),
    (fastsql.postings, (1, 2)),
    (fastsql.postings, (7, 14)),
    (fastsql.lock_table_accounts, (0,)),
    (fastsql.lock_table_accounts, (1, True)),
    (fastsql.lock_table_accounts, (3, False)),
    (fastsql.tally_add, (2,)),
    (fastsql.session_touch, ()),
    (fastsql.meter_update, ()),
    (fastsql._insert, (RoundEvent, ("table_id", "round_id", "kind"), 5, False)),
    (fastsql._insert, (Round, ("table_id", "number"), 1, True)),
]


@pytest.mark.parametrize(("build", "args"), CALLS)
def test_a_kept_statement_is_the_statement_built_anew(build: Any, args: tuple[Any, ...]) -> None:
    fresh = build.__wrapped__(*[tuple(a) if isinstance(a, list) else a for a in args])
    kept = build(*args)
    assert kept == fresh
    assert build(*args) is kept
    if args and isinstance(args[0], list):  # a list argument is its tuple's text
        assert build.__wrapped__(*args) == kept


@pytest.mark.parametrize(
    ("model", "columns", "count"),
    [(CommandRecord, ["table_id", "actor", "key"], 1), (BoxRecord, ["round_id", "box"], 6)],
)
def test_insert_many_writes_the_statement_it_always_wrote(
    model: Any, columns: list[str], count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The INSERT of ``insert_many``, as it was written for each call before it was kept."""
    sent: list[str] = []
    monkeypatch.setattr(fastsql, "write", lambda sql, params: sent.append(sql))
    fastsql.insert_many(model, columns, [tuple(range(len(columns)))] * count, returning=False)
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    expected = (
        f"INSERT INTO {fastsql.table(model)} ({', '.join(fastsql.col(c) for c in columns)}) "
        "VALUES " + ", ".join([row] * count)
    )
    assert sent == [expected]
