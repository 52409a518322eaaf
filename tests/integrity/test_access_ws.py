"""Who may do what over the websockets: origin checked, session authenticated, the seated
owner alone acts for a box, frames capped at 4,096 bytes, one live connection per user per
table and endpoint, idle connections closed."""

from __future__ import annotations

import asyncio
import json
import types
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from frenzy_site.asgi import application
from table import consumers
from table.demo import ensure_demo
from table.models import Seat
from table.protocol import MAX_FRAME_BYTES
from tests.consumers import conftest as ws
from tests.consumers.conftest import open_socket, refusal

# The websocket tests' fixtures: a demo table with players and a dealer, a fresh channel
# layer per test, the ledger checked after each.
table_setup = ws.table_setup
fresh_layer = ws.fresh_layer
ledger_balances_after_test = ws.ledger_balances_after_test

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


async def test_only_the_seated_owner_acts_for_a_box(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    bob = await open_socket(table.pk, table_setup["bob"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    watcher = await open_socket(table.pk, None)
    for sock in (alice, bob, dealer, watcher):
        await sock.recv()
    assert (await alice.command(cmd="sit", box=1))["type"] == "ok"
    assert (await bob.command(cmd="sit", box=4))["type"] == "ok"
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"

    async def refused(sock: Any, code: str, **message: Any) -> None:
        reply = await sock.command(**message)
        assert (reply["type"], reply.get("code")) == ("error", code), (message, reply)

    await refused(bob, "not_your_box", cmd="act", move="bet", box=1, args={"ante": 500})
    await refused(bob, "not_your_box", cmd="act", move="withdraw", box=1)
    await refused(bob, "not_your_box", cmd="stand", box=1)
    await refused(
        bob, "not_your_box", cmd="act", move="bet", box=3, args={"ante": 500}
    )  # nobody's box
    await refused(bob, "box_taken", cmd="sit", box=1)
    await refused(watcher, "login_required", cmd="act", move="bet", box=1, args={"ante": 500})
    await refused(alice, "unknown_command", cmd="deal")  # a dealer command on a player socket
    assert (await alice.command(cmd="act", move="bet", box=1, args={"ante": 500}))["type"] == "ok"
    assert (await bob.command(cmd="act", move="bet", box=4, args={"ante": 500}))["type"] == "ok"
    assert (await dealer.command(cmd="no_more_bets"))["type"] == "ok"
    assert (await dealer.command(cmd="deal"))["type"] == "ok"
    await refused(
        bob, "not_your_box", cmd="act", move="decide", box=1, args={"raise": 0}
    )  # alice's turn
    await refused(bob, "not_your_turn", cmd="act", move="decide", box=4, args={"raise": 1})
    await refused(alice, "round_in_play", cmd="stand", box=1)
    await refused(alice, "wrong_phase", cmd="act", move="bet", box=1, args={"ante": 1000})
    assert (await alice.command(cmd="act", move="decide", box=1, args={"raise": 1}))["type"] == "ok"
    assert (await bob.command(cmd="act", move="decide", box=4, args={"raise": 0}))["type"] == "ok"
    for sock in (alice, bob, dealer, watcher):
        await sock.close()


async def test_frames_are_capped_at_4096_bytes(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await alice.recv()
    head = '{"cmd": "ping", "ref": "cap"}'
    exact = head[:-1] + " " * (MAX_FRAME_BYTES - len(head)) + "}"
    assert len(exact.encode()) == MAX_FRAME_BYTES
    await alice.send_raw(exact)
    assert (await alice.until(lambda f: f["type"] in ("pong", "error")))["type"] == "pong"
    await alice.send_raw(exact[:-1] + " }")  # one byte more
    reply = await alice.until(lambda f: f["type"] in ("pong", "error"))
    assert reply["code"] == "frame_too_large"
    # Bytes, not characters: 1,400 two-byte letters are 2,800 bytes... and 2,100 are 4,200.
    wide = '{"cmd": "ping", "ref": "' + "é" * 2100 + '"}'
    assert len(wide) < MAX_FRAME_BYTES < len(wide.encode())
    await alice.send_raw(wide)
    assert (await alice.reply())["code"] == "frame_too_large"
    await alice.send_raw("x" * 1_000_000)  # a megabyte is answered, not choked on
    assert (await alice.reply())["code"] == "frame_too_large"
    await alice.send(cmd="ping", t=1)
    assert (await alice.until(lambda f: f["type"] == "pong"))["t"] == 1  # still open
    await alice.close()


async def test_idle_connections_are_closed(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_sleep = asyncio.sleep

    async def quick_sleep(seconds: float) -> None:
        await real_sleep(min(seconds, 0.05))

    # The idle watcher checks every 5 s: make its clock fast, and the limit short.
    fast = types.SimpleNamespace(**{**vars(asyncio), "sleep": quick_sleep})
    monkeypatch.setattr(consumers, "asyncio", fast)
    monkeypatch.setattr(consumers, "IDLE_SECONDS", 1.0)
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await alice.recv()
    assert (await alice.command(cmd="sit", box=2))["type"] == "ok"
    busy = await open_socket(table.pk, table_setup["bob"])
    await busy.recv()

    async def keep_talking() -> None:  # bob pings all along: his connection stays
        for i in range(1000):
            await busy.send(cmd="ping", t=i)
            await real_sleep(0.15)

    talker = asyncio.create_task(keep_talking())
    try:
        closing = await alice.until(lambda f: f["type"] == "closing", timeout=10)
        assert closing["code"] == "idle" and closing["message"]
        with pytest.raises(ConnectionError):
            await alice.recv()
        assert alice.closed_code == consumers.CLOSE_IDLE
        await alice.close()  # the server's websocket.disconnect after the closing handshake
        # The closed player's seat is marked disconnected (the grace period starts), told
        # in a presence frame: presence is not a table change (no version, not in the chain).
        gone = [f for f in busy.frames if f["type"] == "presence"]
        if not gone:
            gone = [await busy.until(lambda f: f["type"] == "presence", timeout=10)]
    finally:
        talker.cancel()
    assert not busy.events("connection")
    assert gone[-1]["events"][-1]["kind"] == "connection"
    assert gone[-1]["events"][-1]["data"] == {
        "player": "alice",
        "connected": False,
        "boxes": [2],
    }
    seat = await database_sync_to_async(Seat.objects.get)(table=table, box=2)
    assert seat.connected is False and seat.disconnected_at is not None
    await busy.send(cmd="ping", t=100_000)
    assert (await busy.until(lambda f: f["type"] == "pong" and f["t"] == 100_000))["t"]
    assert not [f for f in busy.frames if f["type"] == "closing"]
    await busy.close()


async def test_origin_is_checked_and_the_session_authenticates(
    table_setup: dict[str, Any],
) -> None:
    table = table_setup["table"]
    path = f"/ws/tables/{table.pk}/"
    bare = WebsocketCommunicator(application, path)  # no Origin header at all
    connected, _ = await bare.connect()
    assert connected  # to be told why: one closing frame, then 4403
    assert json.loads((await bare.receive_output(5))["text"])["code"] == "bad_origin"
    assert (await bare.receive_output(5)) == {
        "type": "websocket.close",
        "code": 4403,
        "reason": "bad_origin",
    }
    for origin in ("http://evil.example", "null", "http://testserver.evil.example"):
        foreign = await open_socket(table.pk, table_setup["alice"], origin=origin)
        assert await refusal(foreign) == ("bad_origin", 4403, "bad_origin"), origin
    local = await open_socket(
        table.pk, table_setup["alice"], origin="http://localhost:8000", host="localhost:8000"
    )
    assert (await local.recv())["me"]["username"] == "alice"
    await local.close()
    # A forged session cookie is nobody: a spectator who cannot act.
    headers = [
        (b"host", b"testserver"),
        (b"origin", b"http://testserver"),
        (b"cookie", b"sessionid=forged0123456789"),
    ]
    forged = WebsocketCommunicator(application, path, headers)
    connected, _ = await forged.connect()
    assert connected
    snap = await forged.receive_json_from()
    assert snap["me"] is None
    await forged.send_json_to({"cmd": "sit", "box": 1, "ref": "f"})
    reply = await forged.receive_json_from()
    assert reply["code"] == "login_required"
    await forged.disconnect()


async def handshake(path: str, headers: list[tuple[bytes, bytes]], scheme: str = "") -> bool:
    """Open and close a websocket with exactly these headers: was it let in (a snapshot), or
    refused for its origin (accepted only to be told ``bad_origin``, then closed with 4403)?"""
    comm = WebsocketCommunicator(application, path, headers)
    if scheme:
        comm.scope["scheme"] = scheme
    connected, _ = await comm.connect(timeout=5)
    assert connected  # a refusal too: a browser is told why
    first = await comm.receive_json_from()
    if first["type"] == "closing":
        assert first["code"] == "bad_origin", first
        assert (await comm.receive_output(5))["code"] == 4403
        return False
    assert first["type"] == "snapshot", first
    await comm.disconnect()
    return True


async def test_the_origin_must_match_scheme_host_and_port(
    table_setup: dict[str, Any], settings: Any
) -> None:
    """Another program on the same machine (another port), or another scheme, is another
    origin: its pages may not open a socket with the player's session cookie."""
    table = table_setup["table"]
    cookie = (await database_sync_to_async(ws.session_cookie)(table_setup["alice"])).encode()
    path = f"/ws/tables/{table.pk}/"

    async def opens(
        origin: str, host: str = "127.0.0.1:8201", scheme: str = "", *more: Any
    ) -> bool:
        headers = [(b"host", host.encode()), (b"origin", origin.encode()), (b"cookie", cookie)]
        return await handshake(path, headers + list(more), scheme)

    assert await opens("http://127.0.0.1:8201")
    for foreign in (
        "http://127.0.0.1:9999",  # another port
        "https://127.0.0.1:8201",  # another scheme
        "http://127.0.0.1",  # port 80
        "http://localhost:8201",  # another host name
        "ws://127.0.0.1:8201",
        "null",
        "http://127.0.0.1:8201@evil.example",
        "http://127.0.0.1:8201/page",
    ):
        assert not await opens(foreign), foreign
    # Default ports are the same origin written either way.
    assert await opens("http://127.0.0.1", host="127.0.0.1:80")
    assert await opens("http://127.0.0.1:80", host="127.0.0.1")
    # A Host that is not ours (DNS rebinding) is refused even when the origin matches it.
    assert not await opens("http://evil.example:8201", host="evil.example:8201")
    # Two Origin headers, or none: refused.
    assert not await handshake(
        path,
        [
            (b"host", b"127.0.0.1:8201"),
            (b"origin", b"http://127.0.0.1:8201"),
            (b"origin", b"http://evil.example"),
        ],
    )
    assert not await handshake(path, [(b"host", b"127.0.0.1:8201")])
    # Over TLS the site's origin is https.
    assert await opens("https://127.0.0.1:8201", "127.0.0.1:8201", "wss")
    assert not await opens("http://127.0.0.1:8201", "127.0.0.1:8201", "wss")
    # Behind a TLS proxy that says so (SECURE_PROXY_SSL_HEADER), as for HTTP requests.
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proto = (b"x-forwarded-proto", b"https")
    assert await opens("https://127.0.0.1:8201", "127.0.0.1:8201", "", proto)
    assert not await opens("http://127.0.0.1:8201", "127.0.0.1:8201", "", proto)
    assert await opens("http://127.0.0.1:8201", "127.0.0.1:8201", "")
    # An origin the site names in CSRF_TRUSTED_ORIGINS, port and scheme included.
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.casino.example", "https://*.lobby.example"]
    assert await opens("https://play.casino.example")
    assert await opens("https://a.lobby.example")
    assert not await opens("http://play.casino.example")
    assert not await opens("https://play.casino.example:8443")


async def test_one_live_connection_per_user_per_table_and_endpoint(
    table_setup: dict[str, Any],
) -> None:
    table = table_setup["table"]
    other = await database_sync_to_async(lambda: ensure_demo("Frenzy 2").table)()
    alice = await open_socket(table.pk, table_setup["alice"], name="tab1")
    await alice.recv()
    assert (await alice.command(cmd="sit", box=3))["type"] == "ok"
    elsewhere = await open_socket(other.pk, table_setup["alice"], name="other table")
    await elsewhere.recv()
    dealer_console = await open_socket(table.pk, table_setup["dealer"], dealer=True, name="c1")
    dealer_at_felt = await open_socket(table.pk, table_setup["dealer"], name="felt")
    await dealer_console.recv()
    await dealer_at_felt.recv()
    # A second tab at the same table takes over; the first is told why and closed.
    tab2 = await open_socket(table.pk, table_setup["alice"], name="tab2")
    await tab2.recv()
    told = await alice.until(lambda f: f["type"] == "superseded")
    assert told["code"] == "second_connection" and "another tab" in told["message"]
    with pytest.raises(ConnectionError):
        await alice.recv()
    assert alice.closed_code == consumers.CLOSE_SUPERSEDED
    # The takeover is not a disconnection: alice's seat stays connected.
    seat = await database_sync_to_async(Seat.objects.get)(table=table, box=3)
    assert seat.connected is True
    # Other tables, and the dealer's two endpoints, are separate connections: all still live.
    for sock in (elsewhere, dealer_at_felt, dealer_console, tab2):
        await sock.send(cmd="ping", t=7)
        assert (await sock.until(lambda f: f["type"] == "pong"))["t"] == 7, sock.name
    console2 = await open_socket(table.pk, table_setup["dealer"], dealer=True, name="c2")
    await console2.recv()
    assert (await dealer_console.until(lambda f: f["type"] == "superseded"))["type"]
    assert (await console2.command(cmd="open_betting"))["type"] == "ok"
    for sock in (elsewhere, dealer_at_felt, tab2, console2):
        await sock.close()


async def test_the_rate_limit_refills(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await alice.recv()
    for i in range(40):
        await alice.send(cmd="ping", t=i)
    kinds = [
        (await alice.until(lambda f: f["type"] in ("pong", "error"))).get("code", "pong")
        for _ in range(40)
    ]
    assert kinds.count("rate_limited") >= 5 and kinds[:30] == ["pong"] * 30
    await asyncio.sleep(0.5)  # 10 frames a second come back
    await alice.send(cmd="ping", t=100)
    assert (await alice.until(lambda f: f["type"] in ("pong", "error")))["type"] == "pong"
    await alice.close()
