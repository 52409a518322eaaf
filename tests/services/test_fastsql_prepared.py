"""The command path's statements prepared on PostgreSQL (``fastsql._compose``): a builder's
statement goes out as ``PREPARE`` + ``EXECUTE`` the first time on a connection, as ``EXECUTE``
alone after it, and reads what the plain statement reads; a rollback or a failed text never
leaves a connection naming a statement it does not hold. Planning every statement again was
half of PostgreSQL's time at 100 tables (issue 26)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from table import fastsql
from table.models import Account, Table

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite prepares nothing: it plans in the process, with no round trip")


@pytest.fixture
def fresh(table: Table) -> None:
    """This connection with nothing prepared (the worker's connection outlives a test)."""
    if connection.vendor == "postgresql":
        fastsql.run("DEALLOCATE ALL")
        connection.connection._frenzy_prepared = ({}, {})


def held() -> set[str]:
    """The statements prepared on this connection, as PostgreSQL lists them."""
    return {name for (name,) in fastsql.rows("SELECT name FROM pg_prepared_statements")}


def sent(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_the_placeholders_are_numbered_and_a_doubled_percent_is_one() -> None:
    text = fastsql._prepared("SELECT %s, '100%%' WHERE a = %s AND b LIKE 'x%%' OR c = %s")
    [(part, count, body)] = fastsql._parts(text)
    assert (part, count) == (text, 3)
    assert body == b"SELECT $1, '100%' WHERE a = $2 AND b LIKE 'x%' OR c = $3"


def test_a_text_of_several_statements_is_prepared_statement_by_statement() -> None:
    first = fastsql._prepared("SELECT id FROM t WHERE id = %s FOR UPDATE;\nSELECT a FROM t")
    other = "UPDATE u SET a = a + CASE id WHEN 1 THEN 5 END WHERE id IN (%s)"  # not a builder's
    parts = fastsql._parts(first + ";\n" + other)
    assert [(count, body is not None) for _, count, body in parts] == [
        (1, True),
        (0, True),
        (1, False),
    ]


def test_a_statement_is_prepared_once_and_then_executed_by_name(fresh: None) -> None:
    postgres_only()
    sql = fastsql.round_phase_and_state()
    with CaptureQueriesContext(connection) as first:
        assert fastsql.one(sql, [-1]) is None
    with CaptureQueriesContext(connection) as second:
        assert fastsql.one(sql, [-1]) is None
    [text] = sent(first)
    prepare, execute = text.split(";\n")
    assert prepare.startswith("PREPARE fs") and " AS SELECT phase, state FROM " in prepare
    assert execute.startswith("EXECUTE fs") and execute.endswith("( -1)")  # as the driver writes -1
    [again] = sent(second)
    assert again == execute  # by name alone, the same values
    name = execute.split()[1].split("(")[0]
    assert name in held()
    assert fastsql.readable(again) == sql.replace("%s", "$1")


def test_prepared_and_plain_read_the_same(table: Table, monkeypatch: Any) -> None:
    postgres_only()
    sql = fastsql.lock_accounts(1)
    account = Account.objects.get(table=table)
    prepared = [fastsql.rows(sql, [account.pk]) for _ in range(7)]  # past the plan cache's 5
    monkeypatch.setattr(fastsql, "PREPARE", False)
    with CaptureQueriesContext(connection) as plain_queries:
        plain = fastsql.rows(sql, [account.pk])
    assert "EXECUTE" not in sent(plain_queries)[0]
    assert prepared == [plain] * 7
    assert plain == [(account.pk, account.kind, account.name, account.balance)]


def test_a_rollback_keeps_what_was_prepared(table: Table, fresh: None) -> None:
    postgres_only()
    sql = fastsql.round_phase_and_state()
    with pytest.raises(RuntimeError), transaction.atomic():
        fastsql.one(sql, [table.pk])
        raise RuntimeError("the command fails after its read")
    # PostgreSQL's prepared statements are not transactional: the name is still good.
    with CaptureQueriesContext(connection) as queries:
        assert fastsql.one(sql, [-5]) is None
    assert not sent(queries)[0].startswith("PREPARE")


def test_a_failed_text_is_prepared_again_under_a_new_name(fresh: None) -> None:
    postgres_only()
    sql = fastsql.meter_update()
    with pytest.raises(DatabaseError), transaction.atomic(), fastsql.batched_writes():
        fastsql.write(sql, [1, 2, 3, -1])  # prepared in the text that fails
        fastsql.write("SELECT 1 / %s", [0])
        fastsql.flush()
    names = held()
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        fastsql.run(sql, [1, 2, 3, -1])
    [text] = sent(queries)
    assert text.startswith("PREPARE fs")  # not remembered from the failed text
    name = text.split()[1]
    assert name not in names and name in held()
    assert name.endswith("_2")  # its second attempt on this connection


@pytest.mark.django_db(transaction=True)
def test_a_new_connection_prepares_anew() -> None:
    postgres_only()
    sql = fastsql.round_phase_and_state()
    fastsql.one(sql, [-1])
    connection.close()
    connection.connect()
    with CaptureQueriesContext(connection) as queries:
        assert fastsql.one(sql, [-1]) is None
    assert sent(queries)[0].startswith("PREPARE fs")


def test_past_the_most_prepared_a_statement_goes_bound(fresh: None, monkeypatch: Any) -> None:
    postgres_only()
    monkeypatch.setattr(fastsql, "MOST_PREPARED", 0)
    sql = fastsql.round_phase_and_state()
    with CaptureQueriesContext(connection) as queries:
        assert fastsql.one(sql, [-1]) is None
    assert sent(queries) == [sql.replace("%s", " -1")]
    assert held() == set()
