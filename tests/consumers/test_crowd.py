"""One visitor must not slow every table: watchers are capped per address and per table,
a socket that ignores "rate_limited" is closed (4429), snapshots and pongs never wait for
the command threads (and a spectator's snapshot is built once per version), and a seated
player's reconnects are no table change: nothing in the chain, nothing told to others."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from frenzy_site.asgi import application
from table import consumers, crowd, presence
from table.models import RoundEvent, Seat, Table

from .conftest import Sock, open_socket, session_cookie

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


async def from_address(table_id: int, ip: str, user: Any = None, name: str = "") -> Sock:
    headers = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers)
    comm.scope["client"] = (ip, 40000)
    connected, code = await comm.connect(timeout=5)
    sock = Sock(comm, name or ip)
    if not connected:
        sock.closed_code = code
    return sock


async def refused(sock: Sock) -> str:
    """The socket was told why and closed with 4429; returns the reason's code."""
    told = await sock.recv()
    assert told["type"] == "closing" and told["message"], told
    with pytest.raises(ConnectionError):
        await sock.recv()
    assert sock.closed_code == consumers.CLOSE_RATE
    return str(told["code"])


async def watching(sock: Sock) -> None:
    assert (await sock.recv())["type"] == "snapshot"


async def test_anonymous_sockets_are_capped_per_address(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(crowd, "ANONYMOUS_PER_IP", 3)
    table = table_setup["table"]
    first = [await from_address(table.pk, "203.0.113.7") for _ in range(3)]
    for sock in first:
        await watching(sock)
    extra = await from_address(table.pk, "203.0.113.7")
    assert await refused(extra) == "too_many_connections"
    other = await from_address(table.pk, "198.51.100.9")  # another address is not affected
    await watching(other)
    await first[0].close()  # a place frees up when a socket closes
    again = await from_address(table.pk, "203.0.113.7")
    await watching(again)
    # A logged-in player is not an anonymous socket: never counted against the address.
    alice = await from_address(table.pk, "203.0.113.7", table_setup["alice"])
    await watching(alice)
    for sock in (*first[1:], other, again, alice):
        await sock.close()


async def test_new_anonymous_connections_per_address_are_rate_limited(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(crowd, "CONNECTS_BURST", 5.0)
    monkeypatch.setattr(crowd, "CONNECTS_PER_SECOND", 0.01)
    table = table_setup["table"]
    for _ in range(5):  # open and close at once, over and over
        sock = await from_address(table.pk, "192.0.2.44")
        await watching(sock)
        await sock.close()
    assert await refused(await from_address(table.pk, "192.0.2.44")) == "too_many_connections"


async def test_watchers_are_capped_per_table_seated_players_always_get_in(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await watching(alice)
    assert (await alice.command(cmd="sit", box=1))["type"] == "ok"
    await alice.close()
    monkeypatch.setattr(crowd, "WATCHERS_PER_TABLE", 2)
    a = await from_address(table.pk, "198.51.100.1")
    b = await from_address(table.pk, "198.51.100.2")
    await watching(a)
    await watching(b)
    # A third watcher, anonymous or logged in without a seat, waits for a place.
    assert await refused(await from_address(table.pk, "198.51.100.3")) == "too_many_connections"
    carol = await open_socket(table.pk, table_setup["carol"])
    assert await refused(carol) == "too_many_connections"
    # The seated player comes back whatever the crowd, and the dealer's console opens.
    alice = await open_socket(table.pk, table_setup["alice"])
    await watching(alice)
    console = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await watching(console)
    for sock in (a, b, alice, console):
        await sock.close()


async def test_a_socket_that_ignores_rate_limited_is_closed(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    spam = await open_socket(table.pk, None)
    await watching(spam)
    for i in range(150):
        await spam.send(cmd="ping", t=i)
    closing = await spam.until(lambda f: f["type"] == "closing", timeout=10)
    assert closing["code"] == "rate_limited" and closing["message"]
    with pytest.raises(ConnectionError):
        while True:
            await spam.recv()
    assert spam.closed_code == consumers.CLOSE_RATE


async def test_snapshots_and_pongs_do_not_wait_for_the_command_threads(
    table_setup: dict[str, Any],
) -> None:
    table = table_setup["table"]
    release = threading.Event()
    # Every command thread busy (say, a slow settlement at every table).
    busy = [
        consumers._service_pool.submit(release.wait, 20) for _ in range(consumers.SERVICE_THREADS)
    ]
    try:
        started = time.monotonic()
        watcher = await open_socket(table.pk, None)
        await watching(watcher)
        await watcher.send(cmd="snapshot", ref="s1")
        assert (await watcher.until(lambda f: f.get("ref") == "s1", 3))["type"] == "snapshot"
        await watcher.send(cmd="ping", t=5)
        assert (await watcher.until(lambda f: f["type"] == "pong", 3))["version"] is not None
        bob = await open_socket(table.pk, table_setup["bob"])
        await watching(bob)
        await bob.send(cmd="snapshot", ref="s2")
        assert (await bob.until(lambda f: f.get("ref") == "s2", 3))["me"]["username"] == "bob"
        assert time.monotonic() - started < 5
    finally:
        release.set()
        for job in busy:
            job.result(5)
    await watcher.close()
    await bob.close()


async def test_a_spectator_snapshot_is_built_once_per_version(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = table_setup["table"]
    built: list[int] = []
    modules = [consumers, crowd]
    for module in modules:
        real = module.snapshot

        def counting(table_id: int, user: Any, real: Any = real) -> dict[str, Any]:
            built.append(table_id)
            return real(table_id, user)

        monkeypatch.setattr(module, "snapshot", counting)
    watchers = [await open_socket(table.pk, None, name=f"w{i}") for i in range(5)]
    for sock in watchers:
        await watching(sock)
    for round_ in range(4):
        for sock in watchers:
            await sock.send(cmd="snapshot", ref=f"r{round_}")
    for sock in watchers:
        for round_ in range(4):
            snap = await sock.until(lambda f, r=round_: f.get("ref") == f"r{r}")
            assert snap["type"] == "snapshot" and snap["me"] is None and snap["now"]
    assert len(built) == 1  # 25 snapshots, one table version: built once
    # The table moves on: the next snapshot is of the new version.
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await watching(dealer)
    moved = await dealer.command(cmd="open_betting")
    await asyncio.sleep(crowd.VERSION_TTL + 0.1)
    await watchers[0].send(cmd="snapshot", ref="after")
    snap = await watchers[0].until(lambda f: f.get("ref") == "after")
    assert snap["version"] == moved["version"] and snap["round"] is not None
    for sock in (*watchers, dealer):
        await sock.close()


async def test_a_reconnect_storm_tells_nobody_and_writes_nothing(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "DEBOUNCE_SECONDS", 2.0)
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await watching(alice)
    assert (await alice.command(cmd="sit", box=2))["type"] == "ok"
    bob = await open_socket(table.pk, table_setup["bob"])
    await watching(bob)

    def chain() -> tuple[int, int]:
        version = Table.objects.get(pk=table.pk).version
        return version, RoundEvent.objects.filter(table=table).count()

    before = await database_sync_to_async(chain)()
    for _ in range(20):  # a flaky connection: drop, come back, over and over
        await alice.close()
        alice = await open_socket(table.pk, table_setup["alice"])
        await watching(alice)
    await asyncio.sleep(2.5)  # every debounce has run out
    await bob.send(cmd="ping", t=99)  # whatever bob was sent before comes before the pong
    await bob.until(lambda f: f["type"] == "pong")
    assert await database_sync_to_async(chain)() == before
    told = [f for f in bob.frames if f["type"] in ("events", "presence")]
    assert told == [], told
    seat = await database_sync_to_async(Seat.objects.get)(table=table, box=2)
    assert seat.connected is True
    # Gone for good: others are told once, after the debounce, outside the version sequence.
    await alice.close()
    gone = await bob.until(lambda f: f["type"] == "presence", timeout=5)
    assert gone["events"] == [
        {"kind": "connection", "data": {"player": "alice", "connected": False, "boxes": [2]}}
    ]
    assert await database_sync_to_async(chain)() == before
    await bob.close()


async def test_snapshot_requests_beyond_the_burst_wait_and_a_flood_is_closed(
    table_setup: dict[str, Any],
) -> None:
    table = table_setup["table"]
    asker = await open_socket(table.pk, None)
    await watching(asker)
    for i in range(int(consumers.SNAPSHOT_BURST) + 1):  # a burst, and one more that waits
        await asker.send(cmd="snapshot", ref=f"s{i}")
    last = await asker.until(lambda f: f.get("ref") == f"s{int(consumers.SNAPSHOT_BURST)}", 5)
    assert last["type"] == "snapshot"
    flood = await open_socket(table.pk, None, name="flood")
    await watching(flood)
    for i in range(60):  # within the frame rate limit's burst, far beyond the snapshots'
        await flood.send(cmd="snapshot", ref=f"f{i}")
    closing = await flood.until(lambda f: f["type"] == "closing", 10)
    assert closing["code"] == "rate_limited"
    served = [f for f in flood.frames if f["type"] == "snapshot"]
    assert len(served) <= consumers.SNAPSHOT_BURST + 2  # the first, the burst, one waiting
    with pytest.raises(ConnectionError):
        while True:
            await flood.recv()
    assert flood.closed_code == consumers.CLOSE_RATE
    await asker.close()


async def test_a_snapshot_is_never_older_than_the_frames_the_socket_was_sent(
    table_setup: dict[str, Any],
) -> None:
    """A logged-in socket asking again within REUSE_SECONDS, while the shared version read is
    still the old one (VERSION_TTL), must not get back the snapshot it had before the frames
    it has since been sent: the page would go back in time (the console showed a settled
    round as still waiting for decisions)."""
    table = table_setup["table"]
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await watching(dealer)
    await dealer.send(cmd="ping", t=1)  # the shared version read: now the current one
    await dealer.until(lambda f: f["type"] == "pong")
    await dealer.send(cmd="snapshot", ref="before")
    before = await dealer.until(lambda f: f.get("ref") == "before")
    moved = await dealer.command(cmd="open_betting")
    assert moved["type"] == "ok"
    sent = await dealer.until(lambda f: f["type"] == "events")
    assert sent["version"] > before["version"]
    await dealer.send(cmd="snapshot", ref="after")  # within VERSION_TTL and REUSE_SECONDS
    after = await dealer.until(lambda f: f.get("ref") == "after")
    assert after["version"] >= sent["version"], (before["version"], sent["version"])
    assert after["round"] is not None and after["round"]["phase"] == "betting"
    await dealer.close()


@pytest.mark.skipif(not settings.REDIS_URL, reason="the shared counts need REDIS_URL")
def test_with_redis_the_watcher_caps_hold_across_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each event loop is a process of its own to table.crowd (its counts are per loop): two
    loops on one Redis share the caps, and a process that dies holding places (its loop gone
    without a word) frees them when they lapse."""
    monkeypatch.setattr(crowd, "WATCHERS_PER_TABLE", 3)
    monkeypatch.setattr(crowd, "ANONYMOUS_PER_IP", 2)
    monkeypatch.setattr(crowd, "WATCH_LEASE_SECONDS", 1.0)
    table_id = 900_000 + int(time.time()) % 1000  # no other test's table

    async def admit(*ips: str) -> list[tuple[crowd.Admission | None, str]]:
        return [await crowd.admit(table_id, ip, True) for ip in ips]

    one = asyncio.run(admit("203.0.113.1", "203.0.113.1"))  # the first process
    assert all(a is not None for a, _ in one)
    two = asyncio.run(admit("203.0.113.1", "203.0.113.2", "203.0.113.3"))  # the second
    # The address's third socket is refused in the other process; the table's fourth too.
    assert [why for _, why in two] == [crowd.ADDRESS_FULL, "", crowd.TABLE_FULL]
    time.sleep(1.2)  # both processes died (no leave): their places lapse
    again = asyncio.run(admit("203.0.113.1", "203.0.113.1", "203.0.113.4"))
    assert [why for _, why in again] == ["", "", ""]

    async def leave_all() -> None:
        for admission, _ in again:
            assert admission is not None
            await admission.leave()

    asyncio.run(leave_all())
    assert all(why == "" for _, why in asyncio.run(admit("203.0.113.1", "203.0.113.1")))
