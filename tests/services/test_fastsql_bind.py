"""The command path's writes are bound by :func:`table.fastsql.bind`, not the driver's
``mogrify``: the text that reaches PostgreSQL is the same, for every kind of value the
command path writes."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pytest
from django.db import connection

from table import fastsql

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def test_bind_writes_what_the_driver_writes() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite writes at once, with the driver's own binding")
    when = dt.datetime(2026, 11, 26, 21, 0, 5, 123456, tzinfo=dt.UTC)
    values = [
        1,
        -5_00,
        None,
        True,
        False,
        "plain",
        "it's a \\ backslash; -- and 'quotes'",
        "naïve ♠ ünïcödé",
        json.dumps({"cards": ["AS", "KD"], "note": "it's"}),
        Decimal("12.50"),
        fastsql.when(when),
        dt.date(2026, 11, 26),
        b"\x00\xffbytes",
    ]
    sql = "SELECT " + ", ".join(["%s"] * len(values)) + " WHERE 100 %% 7 = 2"
    with connection.cursor() as cursor:
        from psycopg.adapt import Transformer

        literal = Transformer.from_context(cursor.cursor).as_literal
        ours = fastsql.bind(literal, sql, values)
        assert ours.decode() == cursor.cursor.mogrify(sql, values)
        # Past the driver's 50-parameter cache, the same.
        many = "INSERT INTO x VALUES " + ", ".join(["(%s, %s, %s)"] * 40)
        params = [v for n in range(40) for v in (n, f"row {n}'s", None)]
        assert fastsql.bind(literal, many, params).decode() == cursor.cursor.mogrify(many, params)
        cursor.execute(ours)
        row = cursor.fetchone()
    assert row[0] == 1 and row[2] is None and row[6] == values[6] and row[7] == values[7]
