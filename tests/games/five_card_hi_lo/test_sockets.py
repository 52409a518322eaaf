"""Five Card Hi-Lo's table at the sockets (the demo's "Hi-Lo 1"): the console's void frames as
the generic console sends them (static/table/console_generic.js), and hostile setting frames
refused with nothing changed (the table's version and every balance)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.consumers import conftest as ws
from tests.consumers.helpers import (
    console_view,
    joined,
    ok,
    refused,
    seated_pair,
    settled_down,
    stack_the_shoe,
    table_named,
    version_and_balances,
)

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

# The socket tests' fixtures (tests/consumers/conftest.py): the demo with players and a dealer,
# a fresh channel layer, the ledger verified after each test.
table_setup = ws.table_setup
fresh_layer = ws.fresh_layer
ledger_balances_after_test = ws.ledger_balances_after_test


HILO_TABLE = "Hi-Lo 1"


async def test_the_console_closes_a_hi_lo_table_with_its_void(
    table_setup: dict[str, Any],
) -> None:
    """The void the console offers before the deal at Five Card Hi-Lo: the table closes, the
    wagers come back."""
    table = await table_named(HILO_TABLE)
    alice_user = table_setup["alice"]
    alice, dealer = await joined(table, alice_user, dealer=table_setup["dealer"])
    await ok(alice, cmd="sit", box=1)
    start = await version_and_balances(table, alice_user)
    await ok(dealer, cmd="open_betting")
    await ok(alice, cmd="act", move="bet", box=1, args={"ante": 10_00})
    await ok(dealer, cmd="no_more_bets")
    view = await console_view(dealer, "closed")
    [void] = [m for m in view["moves"] if m["move"] == "void"]
    assert [c["args"] for c in void["choices"]] == [{"reason": "table_closed"}]
    await ok(dealer, cmd="void", **void["choices"][0]["args"])
    assert not (await table_named(HILO_TABLE)).is_open
    assert (await version_and_balances(table, alice_user))[1] == start[1]
    for sock in (alice, dealer):
        await sock.close()


# --- hostile frames at a Five Card Hi-Lo table ------------------------------------------------

#: Alice's box 1: two aces (one may go low, §663a.11(d)); bob's box 3: a straight; the dealer's.
HILO_SHOE = (
    ["AS", "AD", "7C", "4H", "2S"] + ["5C", "6D", "7H", "8S", "9C"] + ["KC", "QD", "JS", "3C", "8D"]
)


async def test_hostile_settings_at_a_hi_lo_table_change_nothing(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """§663a.11(a)(1), (d): each player sets only their own box, with its own five cards, up
    to one ace low, while the hands are being set. Every other setting frame is refused with
    the reason in words; the table's version and the balances stay as they were."""
    stack_the_shoe(monkeypatch, HILO_SHOE)
    table, alice_user, bob_user, alice, bob, dealer = await seated_pair(
        HILO_TABLE, table_setup, (1, 3)
    )
    await ok(dealer, cmd="open_betting")
    await ok(alice, cmd="act", move="bet", box=1, args={"ante": 10_00})
    await ok(bob, cmd="act", move="bet", box=3, args={"ante": 10_00})
    await ok(dealer, cmd="no_more_bets")
    await ok(dealer, cmd="deal")
    await ok(alice, cmd="act", move="decide", box=1, args={"play": True})
    await ok(bob, cmd="act", move="decide", box=3, args={"play": True})
    await settled_down(alice)
    everyone = (alice_user, bob_user)
    legal = {"high": ["AS", "7C", "4H"], "low": ["AD", "2S"]}  # one ace low
    hostile = [
        # Two aces low: §663a.11(d) allows up to one.
        (alice, "illegal_setting", 1, {"high": ["7C", "4H", "2S"], "low": ["AS", "AD"]}),
        # A card the box does not hold (the dealer's king).
        (alice, "bad_setting", 1, {"high": ["AS", "AD", "7C"], "low": ["4H", "KC"]}),
        # Bob setting alice's box (§663a.11(a)(1): nobody touches another player's cards).
        (bob, "not_your_box", 1, legal),
    ]
    for sock, code, box, args in hostile:
        reply = await refused(
            sock, table, everyone, code, cmd="act", move="set_hands", box=box, args=args
        )
        assert reply["message"]
    await ok(alice, cmd="act", move="set_hands", box=1, args=legal)
    await ok(
        bob,
        cmd="act",
        move="set_hands",
        box=3,
        args={"high": ["9C", "8S", "7H"], "low": ["6D", "5C"]},
    )
    await ok(dealer, cmd="reveal")
    # Once the dealer's hand is face up nobody sets (or sets again).
    for sock, box, args in (
        (alice, 1, legal),
        (bob, 3, {"high": ["9C", "8S", "5C"], "low": ["7H", "6D"]}),
    ):
        await refused(
            sock, table, everyone, "wrong_phase", cmd="act", move="set_hands", box=box, args=args
        )
    await ok(dealer, cmd="settle")
    for sock in (alice, bob, dealer):
        await sock.close()
