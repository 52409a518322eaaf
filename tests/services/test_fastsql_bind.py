"""The command path's writes are bound by :func:`table.fastsql.bind`, not the driver's
``mogrify``: the text that reaches PostgreSQL is the same, for every kind of value the
command path writes."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

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


#: Text meant to break out of a literal: quotes, backslashes (standard_conforming_strings or
#: not), comments, a statement after a semicolon, dollar quoting, multibyte characters next to
#: a quote, placeholders and percent signs (the template is filled with ``%``).
HOSTILE = [
    "'",
    "''",
    "\\'",
    "\\",
    "'; DROP TABLE table_table; --",
    "x'); DELETE FROM table_account; SELECT ('",
    "-- a comment",
    "/* a comment",
    "$$ dollar $$",
    "$tag$ dollar $tag$",
    "%s %% %(name)s %",
    "é'",
    "'é",
    "♠'♠",
    "\U0001f0a1'\U0001f0a1",
    "\n\r\t\x01\x1f\x7f",
    "E'\\x41'",
    "",
]


def driver() -> Any:
    from psycopg.adapt import Transformer

    cursor = connection.cursor()
    return cursor, Transformer.from_context(cursor.cursor).as_literal


def postgres_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite writes at once, with the driver's own binding")


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_bound_as_the_driver_binds_it_and_reads_back_whole(text: str) -> None:
    """The text bound here is the driver's literal, byte for byte, and PostgreSQL reads it
    back as the very same text (nothing of it runs as SQL)."""
    postgres_only()
    cursor, literal = driver()
    with cursor:
        sql = "SELECT %s::text, %s, -%s, %s::text"
        values = [text, 7, -3, text + "'" + text]
        ours = fastsql.bind(literal, sql, values)
        assert ours.decode() == cursor.cursor.mogrify(sql, values)
        cursor.execute(ours.decode())
        assert cursor.fetchone() == (text, 7, 3, text + "'" + text)


def test_text_the_driver_refuses_is_refused_the_same() -> None:
    """A NUL, a lone surrogate: the driver's own error, as before."""
    postgres_only()
    cursor, literal = driver()
    with cursor:
        for bad in ("a\x00b", "\ud800"):
            with pytest.raises(Exception) as theirs:
                cursor.cursor.mogrify("SELECT %s", [bad])
            with pytest.raises(Exception) as ours:
                fastsql.bind(literal, "SELECT %s", [bad])
            assert type(ours.value) is type(theirs.value)


def test_integers_and_text_are_bound_without_the_driver_other_values_once_each() -> None:
    """Integers, text and None are written here; every other value goes to the driver once per
    object in a batch (the command's time is in most of its rows)."""
    postgres_only()
    cursor, real = driver()
    asked: list[Any] = []

    def literal(value: Any) -> bytes:
        asked.append(value)
        return bytes(real(value))

    now = dt.datetime(2026, 11, 27, 10, 0, tzinfo=dt.UTC)
    seen: dict[int, bytes] = {}
    with cursor:
        a = fastsql.bind(literal, "SELECT %s, %s, %s, %s", [1, "a", None, now], seen)
        b = fastsql.bind(literal, "SELECT %s, %s, %s", [now, True, -2], seen)
        assert a.decode() == cursor.cursor.mogrify("SELECT %s, %s, %s, %s", [1, "a", None, now])
        assert b.decode() == cursor.cursor.mogrify("SELECT %s, %s, %s", [now, True, -2])
    assert asked == [now, True]


@hypothesis_settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(),
            st.integers(min_value=-(2**63), max_value=2**63),
            st.text(),
            st.text(alphabet=st.sampled_from("'\\\"%$;-/*é♠\U0001f0a1 \n")),
            st.none(),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_any_integers_and_text_are_bound_as_the_driver_binds_them(values: list[Any]) -> None:
    postgres_only()
    cursor, literal = driver()
    values = [v.replace("\x00", "") if isinstance(v, str) else v for v in values]
    values = [v for v in values if not (isinstance(v, str) and _surrogate(v))]
    sql = "SELECT " + ", ".join(["%s"] * len(values)) if values else "SELECT 1"
    with cursor:
        assert fastsql.bind(literal, sql, values).decode() == cursor.cursor.mogrify(sql, values)


def _surrogate(text: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)
