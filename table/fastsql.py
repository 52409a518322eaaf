"""Plain SQL for the few statements every table command runs.

The ORM costs about a millisecond of Python per statement here, which at a busy table
server is most of a command's time; these are the same statements written once, portable
between SQLite and PostgreSQL (placeholders and JSON as text; PostgreSQL casts the text).
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.models import Model


@lru_cache(maxsize=256)
def _quoted(vendor: str, name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[Model]) -> str:
    return _quoted(connection.vendor, model._meta.db_table)


def col(name: str) -> str:
    return _quoted(connection.vendor, name)


def one(sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def last_one(sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
    """The first row of the last statement of ``sql`` (several statements, one round trip;
    PostgreSQL only when there are several)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            while cursor.nextset():
                pass
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def rows(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(r) for r in cursor.fetchall()]


def run(sql: str, params: Sequence[Any] = ()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


_pending = threading.local()


@contextmanager
def batched_writes() -> Iterator[None]:
    """Hold the writes made through :func:`write` and send them together at :func:`flush`.

    On PostgreSQL a command's writes (ledger, round, events, table, command record) then
    cost one round trip instead of one each: the driver binds parameters client-side, so
    several statements travel in one query string. Nothing reads these rows back before
    the command commits. SQLite has no round trip to save (and runs one statement per
    call): there each write runs at once.
    """
    if connection.vendor != "postgresql":
        yield
        return
    outer = getattr(_pending, "writes", None)
    _pending.writes = []
    try:
        yield
    finally:
        _pending.writes = outer


def write(sql: str, params: Sequence[Any] = ()) -> None:
    """A statement whose result nobody reads: held for :func:`flush` inside
    :func:`batched_writes`, run at once otherwise."""
    writes = getattr(_pending, "writes", None)
    if writes is None:
        run(sql, params)
    else:
        writes.append((sql, params))


def flush(commit: bool = False) -> None:
    """Send the held writes, in the order they were made, as one query; with ``commit``, the
    COMMIT travels in the same query (the caller's outermost ``atomic()`` then finds the
    transaction already committed: the driver's commit() does nothing on an idle connection)."""
    writes = getattr(_pending, "writes", None)
    if not writes:
        return
    _pending.writes = []
    with connection.cursor() as cursor:
        # Each statement is bound on its own (the driver caches the parse of a statement's
        # text, and most repeat exactly); the joined text then goes out with no parameters
        # left to find, so the driver does not parse the whole batch again.
        statements = [cursor.cursor.mogrify(sql, params) for sql, params in writes]
        if commit:
            statements.append("COMMIT")
        cursor.execute(";\n".join(statements))


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def loads(value: Any) -> Any:
    """A JSON column as read back: PostgreSQL's driver decodes jsonb, SQLite gives text."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def when(value: dt.datetime | None) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def insert_many(
    model: type[Model], columns: Sequence[str], values: Sequence[Sequence[Any]], returning: bool
) -> list[int]:
    """One multi-row INSERT; with ``returning`` the new ids, in the order of ``values``."""
    if not values:
        return []
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = f"INSERT INTO {table(model)} ({', '.join(col(c) for c in columns)}) VALUES " + ", ".join(
        [row] * len(values)
    )
    params = [p for v in values for p in v]
    if not returning:
        write(sql, params)
        return []
    return [r[0] for r in rows(sql + " RETURNING " + col("id"), params)]
