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


async def console_view(dealer: Sock, phase: str) -> dict[str, Any]:
    view = await dealer.until(
        lambda f: f["type"] == "view" and (f["round"] or {}).get("phase") == phase
    )
    round_view: dict[str, Any] = view["round"]
    return round_view


# --- the console's voids ------------------------------------------------------------------------


async def test_the_console_voids_a_crazy_4_poker_round_for_a_dealer_card_exposed(
    table_setup: dict[str, Any],
) -> None:
    """§657a.13(d) from the console: the void choice asks for the card seen; the frame with it
    voids the round and returns every wager; without it, or with a card not the dealer's, the
    frame is refused and nothing changes."""
    table = await table_named(C4P_TABLE)
    alice_user, bob_user = table_setup["alice"], table_setup["bob"]
    alice, bob, dealer = await joined(table, alice_user, bob_user, dealer=table_setup["dealer"])
    await ok(alice, cmd="sit", box=1)
    await ok(bob, cmd="sit", box=2)
    start = await version_and_balances(table, alice_user, bob_user)
    await ok(dealer, cmd="open_betting")
    await ok(alice, cmd="act", move="bet", box=1, args={"ante": 5_00, "progressive": 1_00})
    await ok(bob, cmd="act", move="bet", box=2, args={"ante": 5_00})
    await ok(dealer, cmd="no_more_bets")
    await ok(dealer, cmd="deal")
    view = await console_view(dealer, "decisions")
    [void] = [m for m in view["moves"] if m["move"] == "void"]
    [exposed] = [c for c in void["choices"] if c["args"]["reason"] == "dealer_card_exposed"]
    assert [a["arg"] for a in exposed["asks"]] == ["card"]
    rnd = await round_state(table)
    dealers = {card_code(c) for c in rnd.dealer_cards}
    not_dealers = next(c for c in ("2C", "3D", "4H", "5S", "6C", "7D") if c not in dealers)
    everyone = (alice_user, bob_user)
    await refused(dealer, table, everyone, "no_evidence", cmd="void", **exposed["args"])
    await refused(
        dealer,
        table,
        everyone,
        "not_dealer_card",
        cmd="void",
        evidence={"card": not_dealers},
        **exposed["args"],
    )
    seen = sorted(dealers)[0]
    await ok(dealer, cmd="void", evidence={"card": seen}, **exposed["args"])
    rnd = await round_state(table)
    assert rnd.phase.value == "void" and rnd.void_reason == "dealer_card_exposed"
    voided = await alice.until(
        lambda f: f["type"] == "events" and any(e["kind"] == "round_void" for e in f["events"])
    )
    [event] = [e for e in voided["events"] if e["kind"] == "round_void"]
    assert event["data"]["evidence"]["card"] == seen
    _, balances = await version_and_balances(table, alice_user, bob_user)
    assert balances == start[1]  # every wager back, the progressive too
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
