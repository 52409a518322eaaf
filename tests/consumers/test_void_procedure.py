"""What the regulation tells the dealer to do after a void reaches the dealer's console live,
and nobody else (docs/protocol.md, "view": ``round.procedure``). At every game the registry
holds (and the tests' own), over the websockets: a round voided by a jammed shoe (a drill at a
test table) gives the dealer's socket a view whose ``procedure`` is the stored
``irregularity_procedure`` event's (the chapter's section and words, what becomes of the
cards); the player's and the spectator's sockets never get one, nor its words; a console
reconnecting gets it in its snapshot; the next round's opening takes it away. A game whose
shoe can expose a dealer card gets the same for that drill's void, the main game's or the
round's."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from table import ledger
from table.demo import make_user
from table.frames import check
from table.games import ENTRIES, game
from table.games.words import procedure_view
from table.models import Round, RoundEvent, Table

from .conftest import Sock, open_socket
from .helpers import new_table, ok, round_of

pytestmark = pytest.mark.django_db(transaction=True)

#: The in-tree games: each gives its chapter's section and words for a jammed shoe.
IN_TREE = [name for name, e in ENTRIES.items() if e.adapter.startswith("table.games.")]


def stored_procedure(table_id: int) -> dict[str, Any]:
    """The dealer-audience event the void stored, of the table's current round."""
    row = Round.objects.get(pk=Table.objects.get(pk=table_id).current_round_id)
    event = RoundEvent.objects.get(round=row, kind="irregularity_procedure")
    assert event.audience == "dealer"
    return dict(event.data)


def rounds_seen(sock: Sock) -> list[dict[str, Any]]:
    """Every round view a socket got, in a view frame or a snapshot."""
    return [
        f["round"]
        for f in sock.frames
        if f["type"] in ("view", "snapshot") and f.get("round") is not None
    ]


async def void_by_drill(
    name: str, people: dict[str, Any], fault: str
) -> tuple[int, Sock, Sock, Sock, dict[str, Any]]:
    """A round of ``name`` with one box in play, dealt with ``fault`` armed: the dealer's
    socket, the player's, the spectator's, and the dealer's view once the drill ended it."""
    table = await database_sync_to_async(new_table)(
        name, people["dealer"], "procedure", is_test=True
    )
    player = await open_socket(table.pk, people["alice"])
    dealer = await open_socket(table.pk, people["dealer"], dealer=True)
    spectator = await open_socket(table.pk)
    for sock in (player, dealer, spectator):
        assert (await sock.recv())["type"] == "snapshot"
    await ok(player, cmd="sit", box=2)
    await ok(dealer, cmd="open_betting")
    view = await round_of(player)
    bet = next(m for m in view["moves"] if m["move"] == "bet" and m["box"] == 2)
    await ok(
        player, cmd="act", move="bet", box=2, args={a["arg"]: a["low"] for a in bet["amounts"]}
    )
    assert "procedure" not in await round_of(dealer)  # nothing void yet
    await ok(dealer, cmd="arm_fault", fault=fault)
    await ok(dealer, cmd="no_more_bets")
    await ok(dealer, cmd="deal")
    ended = await dealer.until(
        lambda f: f["type"] == "view" and "procedure" in (f["round"] or {}), timeout=5
    )
    return table.pk, dealer, player, spectator, ended["round"]


async def closed_for_good(*socks: Sock) -> None:
    await asyncio.sleep(0.2)
    for sock in socks:  # every frame due has come once its pong does
        await sock.send(cmd="ping", t=9)
        await sock.until(lambda f: f["type"] == "pong" and f["t"] == 9)


def in_schema(*socks: Sock) -> None:
    """Every frame each socket got keeps its published schema (docs/schemas/), the dealer's
    views with their procedure included."""
    bad = {(s.name, f["type"]): check(f) for s in socks for f in s.frames if check(f)}
    assert not bad, bad


def never_told(sock: Sock, procedure: dict[str, Any]) -> None:
    """No round view this socket got carries a procedure, nor any frame its words."""
    assert not [r for r in rounds_seen(sock) if "procedure" in r], sock.name
    if procedure["words"]:
        assert procedure["words"] not in str(sock.frames), sock.name


async def test_a_void_rounds_procedure_reaches_the_dealer_alone(every_game: list[str]) -> None:
    people = await database_sync_to_async(
        lambda: {"alice": make_user("alice"), "dealer": make_user("dealer", dealer=True)}
    )()
    await database_sync_to_async(ledger.credit)(people["alice"], 10_000_00, "procedure")
    for name in every_game:
        table_id, dealer, player, spectator, shown = await void_by_drill(name, people, "jam")
        assert shown["phase"] == "void", name
        stored = await database_sync_to_async(stored_procedure)(table_id)
        # The console shows what the dealer was told: the stored event, in the view's shape.
        assert shown["procedure"] == procedure_view(stored, "round"), name
        procedure = shown["procedure"]
        assert procedure["steps"] and procedure["title"].startswith("Void: "), procedure
        if name in IN_TREE:  # a jammed shoe is an irregularity of every chapter
            assert procedure["section"].startswith("§") and procedure["words"], (name, procedure)
            assert procedure["reshuffle_with_dealt"], (name, procedure)
        await closed_for_good(dealer, player, spectator)
        for sock in (player, spectator):
            never_told(sock, procedure)
        # Until the next round opens it stays: the console reloaded has it in its snapshot...
        await dealer.close()
        again = await open_socket(table_id, people["dealer"], dealer=True)
        snap = await again.recv()
        assert snap["type"] == "snapshot" and snap["round"]["procedure"] == procedure, name
        # ...and a player's or a spectator's snapshot never has it.
        assert "procedure" not in await round_of(player)
        assert "procedure" not in await round_of(spectator)
        await ok(again, cmd="open_betting")
        opened = await again.until(
            lambda f: f["type"] == "view" and (f["round"] or {}).get("phase") == "betting"
        )
        assert "procedure" not in opened["round"], name
        assert "procedure" not in await round_of(again)
        in_schema(dealer, player, spectator, again)
        for sock in (player, spectator, again):
            await sock.close()


async def test_a_dealer_card_exposed_tells_the_dealer_alone(every_game: list[str]) -> None:
    """Each game whose deal can expose a dealer card (a drill): the void it makes, the round's
    or the main game's alone (the round settles its other wagers), comes with its procedure
    to the dealer, and to nobody else."""
    people = await database_sync_to_async(
        lambda: {"alice": make_user("alice"), "dealer": make_user("dealer", dealer=True)}
    )()
    await database_sync_to_async(ledger.credit)(people["alice"], 10_000_00, "procedure")
    exposing = [n for n in every_game if "dealer_card_exposed" in {f.value for f in game(n).drills}]
    assert exposing
    for name in exposing:
        table_id, dealer, player, spectator, shown = await void_by_drill(
            name, people, "dealer_card_exposed"
        )
        procedure = shown["procedure"]
        assert procedure["reason"] == "dealer_card_exposed", (name, procedure)
        voided = "round" if shown["phase"] == "void" else "main_game"
        stored = await database_sync_to_async(stored_procedure)(table_id)
        assert procedure == procedure_view(stored, voided), name
        assert procedure["section"] and procedure["words"], (name, procedure)
        await closed_for_good(dealer, player, spectator)
        for sock in (player, spectator):
            never_told(sock, procedure)
        in_schema(dealer, player, spectator)
        for sock in (dealer, player, spectator):
            await sock.close()
