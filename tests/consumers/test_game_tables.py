"""The dealer console's and the players' sockets at tables of Crazy 4 Poker and Five Card Hi-Lo
(the demo's "Crazy 4 Poker 1" and "Hi-Lo 1"): the console's void frames as the generic console
sends them (static/table/console_generic.js), and hostile frames refused with nothing changed
(the table's version and every balance)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from table import ledger
from table.games import game as game_named
from table.games.cards import card_code
from table.models import Round, Table

from .conftest import Sock, open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

C4P_TABLE = "Crazy 4 Poker 1"
HILO_TABLE = "Hi-Lo 1"


@database_sync_to_async
def table_named(name: str) -> Table:
    return Table.objects.get(name=name)


@database_sync_to_async
def version_and_balances(table: Table, *users: Any) -> tuple[int, tuple[int, ...]]:
    version = Table.objects.get(pk=table.pk).version
    return version, tuple(ledger.player_account(u).balance for u in users)


@database_sync_to_async
def round_state(table: Table) -> Any:
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    return game_named(row.game).from_dict(row.state)


async def joined(table: Table, *users: Any, dealer: Any = None) -> list[Sock]:
    socks = [await open_socket(table.pk, u) for u in users]
    if dealer is not None:
        socks.append(await open_socket(table.pk, dealer, dealer=True))
    for sock in socks:
        assert (await sock.recv())["type"] == "snapshot"
    return socks


async def ok(sock: Sock, **frame: Any) -> dict[str, Any]:
    reply = await sock.command(**frame)
    assert reply["type"] == "ok", (frame, reply)
    return reply


async def settled_down(sock: Sock) -> None:
    """Wait until what the socket was due has come (a pong comes after it)."""
    await asyncio.sleep(0.3)
    await sock.send(cmd="ping", t=0)
    await sock.until(lambda f: f["type"] == "pong" and f.get("ref") is None and f["t"] == 0)


async def refused(
    sock: Sock, table: Table, users: tuple[Any, ...], code: str, **frame: Any
) -> dict[str, Any]:
    """The frame is refused with ``code`` and a message; the table's version and every
    balance stay as they were."""
    before = await version_and_balances(table, *users)
    reply = await sock.command(ref="hostile", **frame)
    assert reply["type"] == "error" and reply["code"] == code, (frame, reply)
    assert reply["message"] and reply["ref"] == "hostile"
    assert await version_and_balances(table, *users) == before
    return reply


async def seated_pair(
    name: str, table_setup: dict[str, Any], boxes: tuple[int, int]
) -> tuple[Table, Any, Any, Sock, Sock, Sock]:
    """The table ``name`` with alice and bob seated at ``boxes`` and its dealer at the
    console: the table, the two users, and the three sockets."""
    table = await table_named(name)
    alice_user, bob_user = table_setup["alice"], table_setup["bob"]
    alice, bob, dealer = await joined(table, alice_user, bob_user, dealer=table_setup["dealer"])
    await ok(alice, cmd="sit", box=boxes[0])
    await ok(bob, cmd="sit", box=boxes[1])
    return table, alice_user, bob_user, alice, bob, dealer


def stack_the_shoe(monkeypatch: pytest.MonkeyPatch, cards: list[str]) -> None:
    """The next shuffles deal ``cards`` first (the services' seeded source)."""
    from table import services
    from tests.services.conftest import StackedSource

    monkeypatch.setattr(services.dealing, "RANDOM", StackedSource(cards))


async def console_view(dealer: Sock, phase: str) -> dict[str, Any]:
    view = await dealer.until(
        lambda f: f["type"] == "view" and (f["round"] or {}).get("phase") == phase
    )
    round_view: dict[str, Any] = view["round"]
    return round_view


# --- the console's voids ------------------------------------------------------------------------


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
