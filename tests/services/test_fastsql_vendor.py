"""``fastsql.vendor()``: the database's vendor, read once per engine rather than through
Django's connection proxy on every statement of a command; it must always be the vendor of
the connection the statements run on, on SQLite and on PostgreSQL alike (the realstack pass)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from table import fastsql
from table.models import Table

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def test_the_vendor_is_the_connections() -> None:
    assert fastsql.vendor() == connection.vendor
    assert fastsql.vendor() == connection.vendor  # the kept answer, the second time


def test_a_time_written_through_when_reads_back_the_same(table: Table) -> None:
    moment = dt.datetime(2026, 11, 27, 17, 5, 9, 654321, tzinfo=dt.UTC)
    fastsql.run(
        f"UPDATE {fastsql.table(Table)} SET {fastsql.col('betting_deadline')} = %s "
        f"WHERE {fastsql.col('id')} = %s",
        [fastsql.when(moment), table.pk],
    )
    table.refresh_from_db()
    assert table.betting_deadline == moment
