"""What the game tables' socket tests share (tests/games/<game>/test_sockets.py): joining a
table's sockets, commands that must succeed or be refused with nothing changed (the table's
version and every balance), a stacked shoe, and the console's round view."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from table import ledger
from table.demo import link_meters
from table.games import game as game_named
from table.models import DealerAssignment, Round, RulesSubmission, Table

from .conftest import Sock, open_socket


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


def new_table(name: str, dealer: Any, label: str, is_test: bool = False) -> Table:
    """A table of the game ``name`` under its default rules ("<title> <label>"), with its
    bankroll and meters, dealt by ``dealer``; ``is_test``: a test table, where the console's
    drills are allowed."""
    g = game_named(name)
    rules = RulesSubmission.objects.create(
        name=f"{g.title} {label}", game=name, choices=g.rules_to_dict(g.default_rules())
    )
    table = Table.objects.create(name=f"{g.title} {label}", rules=rules, is_test=is_test)
    ledger.table_bankroll(table)
    link_meters(table, rules)
    DealerAssignment.objects.create(table=table, dealer=dealer)
    return table


async def round_of(sock: Sock) -> dict[str, Any]:
    """The socket's round view, from a snapshot it asks for."""
    await sock.send(cmd="snapshot")
    snap = await sock.until(lambda f: f["type"] == "snapshot")
    return snap["round"] or {}


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
