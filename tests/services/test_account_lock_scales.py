"""A player's wager locks and reads the table's bankroll and the player's account by index,
however many players the casino has (``fastsql.lock_table_accounts``). Written as
"the table's account OR the player's username" over a join of every account with every user,
PostgreSQL scanned both tables whole on every wager: at 50,000 accounts the lock and the read
took 24.7 and 18.2 ms of the database where they now take 0.3 ms each (docs/capacity.md,
issue 26)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection

from table import fastsql
from table.models import Account, Table

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

#: Enough players that scanning every account costs the planner more than looking two up.
PLAYERS = 3_000


def scans(plan: Any) -> set[str]:
    """The relations a plan reads whole (its Seq Scan nodes)."""
    found = set()
    if isinstance(plan, dict):
        if plan.get("Node Type") == "Seq Scan":
            found.add(plan["Relation Name"])
        for value in plan.values():
            found |= scans(value)
    elif isinstance(plan, list):
        for value in plan:
            found |= scans(value)
    return found


def test_the_lock_and_the_read_find_the_accounts_by_index(table: Table, alice: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's plans")
    users = fastsql.table(type(alice))
    fastsql.run(
        f"INSERT INTO {users} (password, is_superuser, username, first_name, last_name, "
        "email, is_staff, is_active, date_joined) SELECT '', false, 'many' || g, '', '', '', "
        "false, true, now() FROM generate_series(1, %s) g",
        [PLAYERS],
    )
    fastsql.run(
        f"INSERT INTO {fastsql.table(Account)} (kind, name, balance, user_id) "
        f"SELECT 'player', 'many ' || u.id, 0, u.id FROM {users} u "
        "WHERE u.username LIKE 'many%%'",
    )
    fastsql.run(f"ANALYZE {users}, {fastsql.table(Account)}")
    lock, read = fastsql.lock_table_accounts(1, True).split(";\n")
    dates = ["2026-11-27", "2026-11-23", "2026-11-01"] * 2 + ["2026-11-01"]
    for sql, params in ((lock, [table.pk, "alice"]), (read, [*dates, table.pk, "alice"])):
        [(plan,)] = fastsql.rows("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = json.loads(plan) if isinstance(plan, str) else plan
        assert not scans(plan) & {type(alice)._meta.db_table, Account._meta.db_table}, sql
    # And they find what they should: the bankroll and alice's account, in id order.
    found = fastsql.last_rows(
        fastsql.lock_table_accounts(1, True),
        fastsql.lock_table_accounts_params(table.pk, ["alice"], dates),
    )
    assert [row[:3] for row in found] == sorted(
        [(Account.objects.get(table=table).pk, table.pk, None)]
        + [(Account.objects.get(user=alice).pk, None, "alice")]
    )
