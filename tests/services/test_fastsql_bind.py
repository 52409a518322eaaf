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


@pytest.mark.parametrize(
    "text",
    [
        '{"a": [1, 2.5, -0.0, 1e-7, 12345678901234567890123], "b": null, "c": "caf\\u00e9"}',
        '{"big": 99999999999999999999, "neg": -18446744073709551617}',  # past 64 bits
        '[NaN, Infinity, -Infinity]',  # what json.dumps writes of them
        '["\\ud800 alone"]',  # a lone surrogate
        '{"k": 1, "k": 2}',  # the last of a repeated key
        '"é ♠ 10♦"',
    ],
)
def test_loads_reads_what_json_reads(text: str) -> None:
    """The command path's JSON columns read the same values as the standard library's reader
    (orjson for speed; ``json`` for what orjson refuses), as text and as bytes."""
    expected = json.dumps(json.loads(text), sort_keys=True)
    assert json.dumps(fastsql.loads(text), sort_keys=True) == expected
    assert json.dumps(fastsql.loads(text.encode()), sort_keys=True) == expected
    assert fastsql.loads({"already": "decoded"}) == {"already": "decoded"}
