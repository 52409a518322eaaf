"""Crash recovery on the real stack: PostgreSQL, Redis, Daphne processes killed with SIGKILL.

One round is played through a Daphne process that is killed with ``kill -9`` at each phase
(after the bets, after the deal, during the decisions, and in the middle of the settlement
transaction, held open by the ``FRENZY_TEST_SETTLE_DELAY`` hook in ``services.settle``).
Each time a new Daphne starts, the clients reconnect, and their snapshot shows the round
exactly where it was (their own hole cards included); the round then goes on. The settlement
that was killed is rolled back by PostgreSQL and, retried with the same idempotency key, done
exactly once. A second round survives the channel layer's Redis being killed and restarted
(our own redis-server on a free port, never the machine's shared one). At the end the ledger
verifies, every round verifies against its commitment with each wager paid once, and the
event chain is intact.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import time
from typing import Any

import pytest

from bench.client import TableClient
from tests.live import LiveStack, free_port, wait_for_port

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

REAL = os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
SETTLE_DELAY = 8.0  # seconds the settle transaction stays open before committing


class OwnRedis:
    """A throw-away redis-server on a free port (no persistence): killable at will."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, self.proc, 10)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Crasher:
    """The stack, one Daphne process on a fixed port, and the clients around it."""

    def __init__(self, stack: LiveStack, port: int, cookies: dict[str, str]) -> None:
        self.stack = stack
        self.port = port
        self.cookies = cookies
        self.proc: subprocess.Popen[bytes] | None = None
        self.clients: dict[str, TableClient] = {}
        self.kills = 0
        self.redis_restarts = 0

    def start_daphne(self, **env: str) -> None:
        self.stack.daphne(self.port, **env)
        self.proc = self.stack.processes[-1]

    def kill_daphne(self) -> None:
        assert self.proc is not None and self.proc.poll() is None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.stack.processes.remove(self.proc)
        self.kills += 1

    async def connect(self) -> None:
        host = f"127.0.0.1:{self.port}"
        for name in ("alice", "bob", "dealer"):
            path = "dealer/" if name == "dealer" else ""
            client = TableClient(
                name, f"ws://{host}/ws/tables/1/{path}", self.cookies[name], f"http://{host}"
            )
            self.clients[name] = await client.connect()

    async def drop_clients(self) -> None:
        for client in self.clients.values():
            await client.close()
        self.clients.clear()

    async def views(self) -> dict[str, Any]:
        """Each client's fresh snapshot: the round as it sees it and its balance."""
        out = {}
        for name, client in self.clients.items():
            mark = len(client.frames)
            await client.ws.send(json.dumps({"cmd": "snapshot", "ref": "v"}))
            snap = await client.wait_for(lambda f: f.get("type") == "snapshot", since=mark)
            out[name] = {"round": snap["round"], "balance": (snap["me"] or {}).get("balance")}
        return out

    async def crash_and_resume(self, **env: str) -> dict[str, Any]:
        """kill -9 Daphne, start a new one, reconnect: the round is where it was."""
        before = await self.views()
        self.kill_daphne()
        await self.drop_clients()
        self.start_daphne(**env)
        await self.connect()
        for name, client in self.clients.items():
            snap = client.snapshot
            assert snap is not None
            assert snap["round"] == before[name]["round"], name
            assert (snap["me"] or {}).get("balance") == before[name]["balance"], name
        return before

    async def ok(self, name: str, **message: Any) -> dict[str, Any]:
        reply = await self.clients[name].command(**message)
        assert reply["type"] == "ok", (name, message, reply)
        return reply

    async def wait_event(self, name: str, kind: str, since: int = 0) -> dict[str, Any]:
        return await self.clients[name].wait_for(
            lambda f: f.get("type") == "events" and any(e["kind"] == kind for e in f["events"]),
            15,
            since,
        )


def query(stack: LiveStack, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(stack.env["DATABASE_URL"], autocommit=True) as conn:
        return list(conn.execute(sql, params).fetchall())


def round_row(stack: LiveStack) -> tuple[int, str, int]:
    [(rid, phase, version)] = query(
        stack,
        "SELECT r.id, r.phase, t.version FROM table_table t JOIN table_round r "
        "ON r.id = t.current_round_id WHERE t.id = 1",
    )
    return rid, phase, version


async def play(c: Crasher, redis: OwnRedis) -> list[int]:
    stack = c.stack
    await c.connect()
    await c.ok("alice", cmd="sit", box=1)
    await c.ok("bob", cmd="sit", box=3)
    rounds = []

    # --- round 1: a Daphne kill at every phase --------------------------------------------
    await c.ok("dealer", cmd="open_betting")
    await c.ok(
        "alice", cmd="act", move="bet", box=1, args={"ante": 10_00, "prime": 1_00, "all_six": 1_00}
    )
    await c.ok("bob", cmd="act", move="bet", box=3, args={"ante": 25_00, "four_card_bonus": 5_00})
    views = await c.crash_and_resume()  # 1: after the bets
    assert views["alice"]["round"]["phase"] == "betting"
    assert views["alice"]["balance"] == 10_000_00 - 22_00

    await c.ok("dealer", cmd="no_more_bets")
    await c.ok("dealer", cmd="deal")
    views = await c.crash_and_resume()  # 2: after the deal
    mine = next(b for b in views["alice"]["round"]["boxes"] if b["box"] == 1)
    assert mine["cards"] and len(mine["cards"]) == 5  # her hole cards came back with her
    theirs = next(b for b in views["alice"]["round"]["boxes"] if b["box"] == 3)
    assert theirs["cards"] is None
    assert views["alice"]["round"]["to_act"] == 1

    await c.ok("alice", cmd="act", move="decide", box=1, args={"raise": 1})
    # 3: during the decisions; the next Daphne holds settlements open (the test hook).
    views = await c.crash_and_resume(FRENZY_TEST_SETTLE_DELAY=str(SETTLE_DELAY))
    assert views["dealer"]["round"]["to_act"] == 3

    await c.ok("bob", cmd="act", move="decide", box=3, args={"raise": 0})
    await c.ok("dealer", cmd="reveal")
    rid, phase, version = round_row(stack)
    assert phase == "revealed"
    rounds.append(rid)
    paid_before = query(
        stack, "SELECT count(*) FROM table_ledgertransaction WHERE round_id = %s", rid
    )
    key = "settle-round-1-key"
    await c.clients["dealer"].ws.send(json.dumps({"cmd": "settle", "key": key, "ref": "s1"}))
    # Wait until the settlement's ledger postings are written inside the open transaction.
    deadline = time.monotonic() + SETTLE_DELAY - 2
    while True:
        waiting = query(
            stack,
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
            "AND state = 'idle in transaction' AND xact_start IS NOT NULL",
            stack.db_name,
        )[0][0]
        if waiting or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)
    assert round_row(stack) == (rid, "revealed", version)  # not committed yet
    c.kill_daphne()  # 4: mid-settlement
    await c.drop_clients()
    # PostgreSQL rolled the half-done settlement back: nothing paid, nothing changed.
    assert round_row(stack) == (rid, "revealed", version)
    assert query(
        stack, "SELECT count(*) FROM table_ledgertransaction WHERE round_id = %s", rid
    ) == (paid_before)
    assert query(stack, "SELECT count(*) FROM table_commandrecord WHERE key = %s", key) == [(0,)]
    c.start_daphne()
    await c.connect()
    snap = c.clients["dealer"].snapshot
    assert snap is not None and snap["round"]["phase"] == "revealed"
    # The console retries with the same key: settled now, once; a second retry is a replay.
    first = await c.ok("dealer", cmd="settle", key=key)
    assert first["replayed"] is False
    again = await c.ok("dealer", cmd="settle", key=key)
    assert again["replayed"] is True and again["version"] == first["version"]
    late = await c.clients["dealer"].command(cmd="settle")
    assert late["type"] == "error" and late["code"] in ("wrong_phase", "no_round")
    assert round_row(stack)[1] == "settled"

    # --- round 2: the channel layer's Redis dies and comes back -----------------------------
    await c.ok("dealer", cmd="open_betting")
    await c.ok("alice", cmd="act", move="bet", box=1, args={"ante": 5_00})
    await c.ok("bob", cmd="act", move="bet", box=3, args={"ante": 5_00, "all_six": 1_00})
    await c.ok("dealer", cmd="no_more_bets")
    await c.ok("dealer", cmd="deal")
    await c.ok("alice", cmd="act", move="decide", box=1, args={"raise": 1})
    before = await c.views()
    redis.kill()
    redis.start()  # empty: every group membership and queued message is gone
    c.redis_restarts += 1
    # The sockets stay open (the layer reconnects and retries); each one joins its groups
    # again within 5 s, and events reach everyone again.
    await asyncio.sleep(6.5)
    marks = {name: len(client.frames) for name, client in c.clients.items()}
    await c.ok("bob", cmd="act", move="decide", box=3, args={"raise": 1})
    for name in c.clients:
        assert not c.clients[name].reader.done(), f"{name}'s socket dropped"  # type: ignore[union-attr]
        await c.wait_event(name, "decisions_complete", marks[name])
    # A client that reconnects (a browser reloading) gets the round as it is.
    await c.drop_clients()
    await c.connect()
    for name, client in c.clients.items():
        assert client.snapshot is not None
        # bob has decided: his Raise is on his box, in the view's words too (the felt's
        # "Raised 1x"), and the Raise he was offered (play_options) is gone.
        assert client.snapshot["round"]["boxes"] == [
            {k: v for k, v in b.items() if k != "play_options"}
            | (
                {
                    "decision": 1,
                    "wagers": {**b["wagers"], "raise": 5_00},
                    "decision_words": "Raised 1x",
                }
                if b["box"] == 3
                else {}
            )
            for b in before[name]["round"]["boxes"]
        ], name
    await c.ok("dealer", cmd="reveal")
    await c.ok("dealer", cmd="settle")
    rounds.append(round_row(stack)[0])
    assert round_row(stack)[1] == "settled"
    await c.drop_clients()
    return rounds


@pytest.mark.skipif(
    not REAL or not shutil.which("redis-server"),
    reason="needs DATABASE_URL (PostgreSQL), REDIS_URL and redis-server: the real-stack pass",
)
def test_kill_minus_nine_at_every_phase_and_a_redis_restart() -> None:
    redis = OwnRedis()
    redis.start()
    stack = LiveStack(use_redis=True, use_postgres=True)
    stack.env["REDIS_URL"] = redis.url
    started = time.monotonic()
    try:
        with stack:
            cookies = stack.demo("alice", "bob", "dealer")
            crasher = Crasher(stack, free_port(), cookies)
            crasher.start_daphne()
            try:
                rounds = asyncio.run(play(crasher, redis))
            except BaseException:
                print(stack.logs())
                raise
            assert "ledger OK" in stack.manage("verify_ledger")
            for rid in rounds:
                out = stack.manage("verify_round", str(rid))
                assert "round verifies" in out and "each wager paid once" in out, out
            assert "chain OK" in stack.manage("verify_chain", "--table", "1")
            # Every wager of the killed settlement was paid exactly once.
            paid = query(
                stack,
                "SELECT box, wager, count(*) FROM table_ledgertransaction WHERE round_id = %s "
                "AND memo IN ('win', 'push', 'returned (void)') GROUP BY box, wager",
                rounds[0],
            )
            owed = query(
                stack,
                "SELECT box, wager FROM table_settlementline WHERE round_id = %s "
                "AND outcome <> 'lose'",
                rounds[0],
            )
            # (A round where every wager lost pays nothing: then there is nothing to count.)
            assert sorted((b, w) for b, w, _ in paid) == sorted(owed), (paid, owed)
            assert all(n == 1 for _, _, n in paid), paid
            print(
                f"\ncrash test: survived {crasher.kills} kill -9 of Daphne (after bets, after "
                f"the deal, during decisions, mid-settlement) and {crasher.redis_restarts} Redis "
                f"restart(s) in "
                f"{time.monotonic() - started:.0f} s"
            )
            assert crasher.kills == 4 and crasher.redis_restarts == 1
    finally:
        redis.stop()
