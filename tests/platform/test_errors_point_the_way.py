"""Errors that say what to do, to whoever got them: a protocol v1 command at a table whose
game takes moves names the ``act`` frame to send (not another game's unknown wager), and a
player who bets before a round is open is told to wait for the dealer (the dealer, to open
betting)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from table import ledger
from table.demo import make_user
from tests.consumers.conftest import open_socket
from tests.platform.test_a_new_game_needs_no_platform_edit import new_table, registered

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["registered"]  # the fixture, used by name


async def test_a_v1_bet_is_told_to_send_a_move_and_a_player_to_wait(registered: None) -> None:
    alice_user = await database_sync_to_async(make_user)("alice")
    await database_sync_to_async(ledger.credit)(alice_user, 100_00, "test")
    dealer_user = await database_sync_to_async(make_user)("dealer", dealer=True)
    table = await database_sync_to_async(new_table)(dealer_user)
    alice = await open_socket(table.pk, alice_user)
    dealer = await open_socket(table.pk, dealer_user, dealer=True)
    for sock in (alice, dealer):
        assert (await sock.recv())["type"] == "snapshot"
    assert (await alice.command(cmd="sit", box=2))["type"] == "ok"
    early = await alice.command(cmd="act", move="bet", box=2, args={"ante": 10_00})
    assert early["code"] == "no_round" and "wait for the dealer" in early["message"]
    assert (await dealer.command(cmd="no_more_bets"))["message"].endswith("open betting first")
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
    v1 = await alice.command(cmd="bet", box=2, wagers={"ante": 10_00}, ref="v1")
    assert v1["code"] == "wrong_protocol" and v1["ref"] == "v1"
    assert '"cmd": "act"' in v1["message"] and "all_six" not in v1["message"]
    assert (await alice.command(**{"cmd": "decide", "box": 2, "raise": 1}))["code"] == (
        "wrong_protocol"
    )
    assert (await alice.command(cmd="act", move="bet", box=2, args={"ante": 10_00}))["type"] == (
        "ok"
    )
    for sock in (alice, dealer):
        await sock.close()
