"""Crazy 4 Poker's table at the sockets (the demo's "Crazy 4 Poker 1"): the console's void
frames as the generic console sends them (static/table/console_generic.js), and hostile act
frames refused with nothing changed (the table's version and every balance)."""

from __future__ import annotations

from typing import Any

import pytest

from table.games.cards import card_code
from tests.consumers import conftest as ws
from tests.consumers.helpers import (
    console_view,
    ok,
    refused,
    round_state,
    seated_pair,
    stack_the_shoe,
)

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

# The socket tests' fixtures (tests/consumers/conftest.py): the demo with players and a dealer,
# a fresh channel layer, the ledger verified after each test.
table_setup = ws.table_setup
fresh_layer = ws.fresh_layer
ledger_balances_after_test = ws.ledger_balances_after_test


C4P_TABLE = "Crazy 4 Poker 1"


async def test_the_console_cannot_declare_a_crazy_4_poker_dealer_card_exposed(
    table_setup: dict[str, Any],
) -> None:
    """§657a.13(d): in the virtual shoe only the shoe exposes a dealer card, while dealing.
    The console offers no declared exposure, and a void frame declaring one, even naming a
    card the dealer holds, is refused and changes nothing (checked against the hand, it
    would let a dealer guess until one voided the round)."""
    table, alice_user, bob_user, alice, bob, dealer = await seated_pair(
        C4P_TABLE, table_setup, (1, 2)
    )
    await ok(dealer, cmd="open_betting")
    await ok(alice, cmd="act", move="bet", box=1, args={"ante": 5_00, "progressive": 1_00})
    await ok(bob, cmd="act", move="bet", box=2, args={"ante": 5_00})
    await ok(dealer, cmd="no_more_bets")
    await ok(dealer, cmd="deal")
    view = await console_view(dealer, "decisions")
    voids = [m for m in view["moves"] if m["move"] == "void"]
    reasons = {c["args"]["reason"] for m in voids for c in m["choices"]}
    assert "dealer_card_exposed" not in reasons
    rnd = await round_state(table)
    dealers = sorted(card_code(c) for c in rnd.dealer_cards)
    everyone = (alice_user, bob_user)
    for evidence in ({}, {"card": dealers[0]}, {"card": "2C"}):
        await refused(
            dealer,
            table,
            everyone,
            "shoe_only",
            cmd="void",
            reason="dealer_card_exposed",
            **({"evidence": evidence} if evidence else {}),
        )
    rnd = await round_state(table)
    assert rnd.phase.value == "decisions"
    for sock in (alice, bob, dealer):
        await sock.close()


# --- hostile act frames at a Crazy 4 Poker table ---------------------------------------------

#: Box 1 a royal flush in hearts (Play up to 3x), box 2 a pair of nines (below a pair of aces:
#: Play only 1x, §657a.11(b)), the dealer king high.
C4P_SHOE = (
    ["AH", "KH", "QH", "JH", "TH"] + ["9S", "9D", "4C", "6S", "2D"] + ["KC", "8D", "5S", "3C", "7D"]
)


async def test_hostile_act_frames_at_a_crazy_4_poker_table_change_nothing(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """§657a.7, §657a.11(b): a bet outside the table's limits, a Play out of turn, a Play above
    the Ante without a pair of aces or better: each refused with its reason, the table's
    version and the balances unchanged."""
    stack_the_shoe(monkeypatch, C4P_SHOE)
    table, alice_user, bob_user, alice, bob, dealer = await seated_pair(
        C4P_TABLE, table_setup, (1, 2)
    )
    await ok(dealer, cmd="open_betting")
    view = await alice.until(lambda f: f["type"] == "view" and f["round"] is not None)
    bet = next(m for m in view["round"]["moves"] if m["move"] == "bet" and m["box"] == 1)
    ante = next(a for a in bet["amounts"] if a["arg"] == "ante")
    everyone = (alice_user, bob_user)
    for amount in (ante["high"] + 100, ante["low"] - 100):
        await refused(
            alice,
            table,
            everyone,
            "out_of_limits",
            cmd="act",
            move="bet",
            box=1,
            args={"ante": amount},
        )
    await ok(alice, cmd="act", move="bet", box=1, args={"ante": 5_00})
    await ok(bob, cmd="act", move="bet", box=2, args={"ante": 5_00})
    await ok(dealer, cmd="no_more_bets")
    await ok(dealer, cmd="deal")
    # Box 1 decides first (§657a.11(b): from the dealer's left).
    await refused(
        bob, table, everyone, "not_your_turn", cmd="act", move="decide", box=2, args={"play": 5_00}
    )
    await ok(alice, cmd="act", move="decide", box=1, args={"play": 15_00})  # 3x: a royal flush
    # Bob's pair of nines is below a pair of aces: the Ante, or fold.
    for play in (10_00, 15_00):
        reply = await refused(
            bob,
            table,
            everyone,
            "play_not_allowed",
            cmd="act",
            move="decide",
            box=2,
            args={"play": play},
        )
        assert "§657a.11(b)" in reply["message"]
    await ok(bob, cmd="act", move="decide", box=2, args={"play": 5_00})
    for sock in (alice, bob, dealer):
        await sock.close()
