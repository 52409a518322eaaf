"""A game is one package: the tests' own game (tests/platform/ante_pair), registered here and
nowhere else, is played over the websockets (the players' felt and the dealer's console
frames, to settlement, the ledger balanced), listed in the lobby with its title, edited in the
admin from its own fields, recalled, audited, and reported in ``manage.py paytable_report``
and docs/paytables.md, with no platform file naming it (tests/platform/test_no_game_named.py
keeps that true of the in-tree games)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from table import ledger
from table.audit import verify_round
from table.demo import make_user
from table.games import GAMES, game, register, unregister
from table.models import DealerAssignment, Round, RulesSubmission, Table
from table.paytable_report import markdown
from table.recall import round_record
from tests.consumers.conftest import Sock, open_socket
from tests.platform.ante_pair import ENTRY

NAME = ENTRY.name


@pytest.fixture
def registered() -> Iterator[None]:
    register(ENTRY)
    yield
    unregister(NAME)


def new_table(dealer: Any) -> Table:
    g = game(NAME)
    rules = RulesSubmission.objects.create(
        name=f"{ENTRY.title} rules", game=NAME, choices=g.rules_to_dict(g.default_rules())
    )
    table = Table.objects.create(name=f"{ENTRY.title} 1", rules=rules)
    ledger.table_bankroll(table)
    DealerAssignment.objects.create(table=table, dealer=dealer)
    return table


@pytest.fixture
def people(registered: None, transactional_db: Any) -> dict[str, Any]:
    people = {n: make_user(n) for n in ("alice", "bob")}
    for user in people.values():
        ledger.credit(user, 1_000_00, "test money")
    people["dealer"] = make_user("dealer", dealer=True)
    people["staff"] = make_user("boss", staff=True)
    return people


def test_the_registry_lists_it_only_while_registered() -> None:
    assert NAME not in GAMES
    register(ENTRY)
    try:
        assert NAME in GAMES and game(NAME).title == ENTRY.title
    finally:
        unregister(NAME)
    assert NAME not in GAMES


async def ok(sock: Sock, **frame: Any) -> dict[str, Any]:
    reply = await sock.command(**frame)
    assert reply["type"] == "ok", (frame, reply)
    return reply


async def latest_view(sock: Sock, phase: str) -> dict[str, Any]:
    frame = await sock.until(
        lambda f: f["type"] == "view" and (f.get("round") or {}).get("phase") == phase
    )
    view: dict[str, Any] = frame["round"]
    return view


@pytest.mark.django_db(transaction=True)
async def test_played_over_the_websockets_to_settlement(people: dict[str, Any]) -> None:
    table = await database_sync_to_async(new_table)(people["dealer"])
    alice = await open_socket(table.pk, people["alice"])
    bob = await open_socket(table.pk, people["bob"])
    dealer = await open_socket(table.pk, people["dealer"], dealer=True)
    for sock in (alice, bob, dealer):
        snap = await sock.recv()
        assert snap["type"] == "snapshot" and snap["table"]["game"] == NAME
        assert snap["table"]["game_title"] == ENTRY.title
    await ok(alice, cmd="sit", box=1)
    await ok(bob, cmd="sit", box=3)
    await ok(dealer, cmd="open_betting")
    betting = await latest_view(alice, "betting")
    bet = next(m for m in betting["moves"] if m["move"] == "bet" and m["box"] == 1)
    assert {a["arg"] for a in bet["amounts"]} == {"ante", "pair"}  # the felt draws these
    await ok(alice, cmd="act", move="bet", box=1, args={"ante": 10_00, "pair": 5_00})
    await ok(bob, cmd="act", move="bet", box=3, args={"ante": 10_00})
    await ok(dealer, cmd="no_more_bets")
    await ok(dealer, cmd="deal")
    for sock, box, choice in ((alice, 1, "Play"), (bob, 3, "Fold")):
        view = await sock.until(
            lambda f, box=box: f["type"] == "view" and (f.get("round") or {}).get("to_act") == box
        )
        mine = next(b for b in view["round"]["boxes"] if b["box"] == box)
        assert mine["cards"] and len(mine["cards"]) == 5  # the owner's own cards
        others = [b for b in view["round"]["boxes"] if b["box"] != box]
        assert all(b["cards"] is None for b in others)  # and nobody else's
        move = next(m for m in view["round"]["moves"] if m["move"] == "decide")
        args = next(c["args"] for c in move["choices"] if c["label"] == choice)
        await ok(sock, cmd="act", move="decide", box=box, args=args)
    await ok(dealer, cmd="reveal")
    await ok(dealer, cmd="settle")
    settled = await latest_view(bob, "settled")
    assert settled["dealer"]["cards"] and settled["shoe"] and settled["salt"]
    nets = {b["box"]: b["net"] for b in settled["boxes"]}
    assert nets[3] == -10_00  # a fold loses the Ante
    for sock in (alice, bob, dealer):
        await sock.close()

    @database_sync_to_async
    def after() -> None:
        assert ledger.verify() == []
        row = Round.objects.get(table=table)
        assert row.game == NAME and row.phase == "settled"
        audit = verify_round(row.pk)  # the commitment, the chain, the re-deal, the money
        assert audit.problems == [] and audit.checks, audit
        record = round_record(row)
        assert record["game_title"] == ENTRY.title
        assert {b["box"] for b in record["boxes"]} == {1, 3}
        client = Client()
        client.force_login(people["alice"])
        page = client.get(reverse("round_detail", args=[row.pk]))
        assert page.status_code == 200 and ENTRY.title in page.content.decode()

    await after()


@pytest.mark.django_db
def test_listed_in_the_lobby_and_edited_in_the_admin(people: dict[str, Any]) -> None:
    table = new_table(people["dealer"])
    client = Client()
    client.force_login(people["alice"])
    lobby = client.get(reverse("lobby"))
    sections = {s["name"]: s for s in lobby.context["games"]}
    assert sections[NAME]["title"] == ENTRY.title
    assert [t["table"].pk for t in sections[NAME]["tables"]] == [table.pk]
    felt = client.get(reverse("table", args=[table.pk])).content.decode()
    assert f'data-game="{NAME}"' in felt
    staff = Client()
    staff.force_login(people["staff"])
    add = staff.get(reverse("admin:table_rulessubmission_add") + f"?game={NAME}")
    assert add.status_code == 200
    form = add.content.decode()
    assert 'name="pair_paytable"' in form and 'name="offers_pair"' in form
    change = staff.get(reverse("admin:table_rulessubmission_change", args=[table.rules.pk]))
    assert change.status_code == 200 and "Pair" in change.content.decode()


def test_reported_by_paytable_report(registered: None, tmp_path: Path) -> None:
    page = markdown()
    assert f"\n## {ENTRY.title} (" in page and "Two pairs or better 12 to 1" in page
    call_command("paytable_report", "--game", "ap", "--output-dir", str(tmp_path), "--quiet")
    written = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    committed = json.loads(Path(ENTRY.report_file or "").read_text(encoding="utf-8"))
    assert written == committed
