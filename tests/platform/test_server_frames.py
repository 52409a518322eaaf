"""Every frame the server sends is one the published JSON Schemas allow (docs/schemas/, from
:mod:`table.frames`): a round of every game (the in-tree games and the tests' own) is played
over the websockets by a bot that knows no game, only the moves each frame offers, with a
spectator watching; every frame any socket received is checked against its schema."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async

from table import ledger
from table.demo import make_user
from table.frames import FRAMES, check, frame_type
from table.management.commands.export_schemas import schema_files
from tests.consumers.conftest import Sock, open_socket
from tests.consumers.helpers import new_table, ok, round_of

pytestmark = pytest.mark.django_db(transaction=True)

#: The dealer's moves (a view's) as the console's commands.
DEALER_COMMANDS = {
    "close_betting": "no_more_bets",
    "deal": "deal",
    "reveal": "reveal",
    "settle": "settle",
}


async def play_a_round(name: str, people: dict[str, Any]) -> list[Sock]:
    table = await database_sync_to_async(new_table)(name, people["dealer"], "frames")
    players = [await open_socket(table.pk, people[p]) for p in ("alice", "bob")]
    dealer = await open_socket(table.pk, people["dealer"], dealer=True)
    spectator = await open_socket(table.pk)
    socks = [*players, dealer, spectator]
    for sock in socks:
        assert (await sock.recv())["type"] == "snapshot"
    for sock, box in zip(players, (1, 3), strict=True):
        await ok(sock, cmd="sit", box=box)
    await ok(dealer, cmd="open_betting")
    for sock, box in zip(players, (1, 3), strict=True):
        view = await round_of(sock)
        bet = next(m for m in view["moves"] if m["move"] == "bet" and m["box"] == box)
        args = {a["arg"]: a["low"] for a in bet["amounts"]}
        await ok(sock, cmd="act", move="bet", box=box, args=args)
    for _ in range(40):
        acted = False
        for sock in players:
            view = await round_of(sock)
            for move in view.get("moves", []):
                if move["move"] in ("decide", "set_hands") and move["choices"]:
                    args = move["choices"][-1]["args"]
                    await ok(sock, cmd="act", move=move["move"], box=move["box"], args=args)
                    acted = True
                    break
        if acted:
            continue
        view = await round_of(dealer)
        if view.get("phase") in ("settled", "void"):
            break
        step = next(m for m in view["moves"] if m["move"] in DEALER_COMMANDS)
        await ok(dealer, cmd=DEALER_COMMANDS[step["move"]])
    assert (await round_of(spectator))["phase"] == "settled"
    await dealer.send(cmd="ping", t=1)
    await dealer.until(lambda f: f["type"] == "pong")
    await players[0].send(cmd="bogus")
    assert (await players[0].reply())["type"] == "error"
    await asyncio.sleep(0.3)
    for sock in socks:  # what each was due has come once its pong does
        await sock.send(cmd="ping", t=2)
        await sock.until(lambda f: f["type"] == "pong" and f["t"] == 2)
        await sock.close()
    return socks


async def test_every_frame_of_every_game_keeps_its_schema(every_game: list[str]) -> None:
    people = await database_sync_to_async(
        lambda: {
            "alice": make_user("alice"),
            "bob": make_user("bob"),
            "dealer": make_user("dealer", dealer=True),
        }
    )()
    for user in ("alice", "bob"):
        await database_sync_to_async(ledger.credit)(people[user], 1_000_00, "frames")
    frames: list[dict[str, Any]] = []
    for name in every_game:
        for sock in await play_a_round(name, people):
            frames += [{"game": name, "socket": sock.name, **f} for f in sock.messages]
    if os.environ.get("FRAMES_DUMP"):
        with open(os.environ["FRAMES_DUMP"], "w", encoding="utf-8") as fh:
            json.dump(frames, fh, indent=1)
    assert {f["type"] for f in frames} >= {"snapshot", "events", "ok", "error", "pong"}
    # The round views ride in their versions' events frames, every game's, for every socket.
    riding = {(f["game"], f["socket"]) for f in frames if f["type"] == "events" and "view" in f}
    assert riding == {(f["game"], f["socket"]) for f in frames}
    assert {f["game"] for f in frames if f["type"] == "meter"}  # a game with meters moved one
    known = {frame_type(model) for model in FRAMES}
    bad = {}
    for f in frames:
        frame = {k: v for k, v in f.items() if k not in ("game", "socket")}
        assert frame["type"] in known, f"a frame with no schema: {frame['type']}"
        problems = check(frame)
        if problems:
            bad.setdefault((f["game"], frame["type"]), problems)
    assert not bad, bad
    # docs/protocol.md lists every event kind of every game (its "Events by game").
    page = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    kinds = {e["kind"] for f in frames if f["type"] == "events" for e in f["events"]}
    assert not {k for k in kinds if f"`{k}`" not in page}


def test_a_frame_out_of_its_schema_is_found() -> None:
    assert (
        check(
            {"type": "ok", "cmd": "sit", "ref": None, "version": 3, "replayed": False, "result": {}}
        )
        == []
    )
    assert check(
        {"type": "ok", "cmd": "sit", "ref": None, "version": "3", "replayed": False, "result": {}}
    )
    assert check({"type": "error", "code": "x", "message": "", "ref": None})
    assert check(
        {"type": "events", "table": 1, "version": 1, "round": None, "events": [], "extra": 1}
    )
    assert check({"type": "telepathy"})
    events = {"type": "events", "table": 1, "version": 4, "round": 2, "events": []}
    assert check({**events, "view": {"type": "view", "version": 4, "round": None}}) == []
    assert check({**events, "view": {"type": "view", "version": 4, "round": {"game": "x"}}})
    assert check({**events, "view": {"version": 4, "round": None}})


def test_the_published_schemas_are_the_models() -> None:
    """docs/schemas/ is what ``manage.py export_schemas`` writes (run it after a change)."""
    for path, text in schema_files().items():
        assert path.exists() and path.read_text(encoding="utf-8") == text, path.name


def test_every_error_code_is_in_the_catalogue() -> None:
    """docs/protocol.md's "Error codes" names every code the code can refuse with."""
    import re

    root = Path(__file__).resolve().parents[2]
    raised = re.compile(
        r"\b(?:ServiceError|RuleViolation|InvalidInput|ProtocolError|EngineError|self\.error)"
        r'\(\s*"([a-z][a-z0-9_]*)"'
    )
    codes = {
        m.group(1)
        for p in (root / "table").rglob("*.py")
        if "migrations" not in p.parts
        for m in raised.finditer(p.read_text(encoding="utf-8"))
    }
    page = (root / "docs" / "protocol.md").read_text(encoding="utf-8")
    catalogue = page[page.index("### Error codes") :]
    missing = sorted(c for c in codes if f"`{c}`" not in catalogue)
    assert len(codes) > 100 and not missing, missing
