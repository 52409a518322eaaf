"""The dealer console's socket is per table: the dealers assigned to that table only, and a
dealer taken off the table stops at their next command; a dealer does not sit at it."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async

from table.demo import STAFF, make_user
from table.models import DealerAssignment, Table

from .conftest import open_socket, refusal

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


async def test_the_dealer_socket_is_for_the_tables_dealers_only(
    table_setup: dict[str, Any],
) -> None:
    table = table_setup["table"]
    other = await database_sync_to_async(
        lambda: Table.objects.create(name="Unassigned", rules=table.rules)
    )()
    dealer = table_setup["dealer"]
    elsewhere = await open_socket(other.pk, dealer, dealer=True)
    assert (await refusal(elsewhere))[:2] == ("forbidden", 4403)  # the role alone deals none
    admin = await database_sync_to_async(make_user)(STAFF, staff=True)
    superuser = await open_socket(table.pk, admin, dealer=True)
    assert (await refusal(superuser))[:2] == ("forbidden", 4403)  # every permission, no table
    console = await open_socket(table.pk, dealer, dealer=True)
    await console.recv()
    felt = await open_socket(table.pk, dealer)  # the felt, as a spectator
    await felt.recv()
    reply = await felt.command(cmd="sit", box=1)
    assert (reply["type"], reply["code"]) == ("error", "dealer_at_table")
    assert (await console.command(cmd="open_betting"))["type"] == "ok"
    await database_sync_to_async(
        lambda: DealerAssignment.objects.filter(table=table, dealer=dealer).delete()
    )()
    for cmd in ("no_more_bets", "time_out", "close_table"):
        reply = await console.command(cmd=cmd)
        assert (reply["type"], reply["code"]) == ("error", "not_your_table"), cmd
    for sock in (console, felt):
        await sock.close()
