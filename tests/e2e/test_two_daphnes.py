"""Two Daphne processes serving one table through Redis and PostgreSQL.

Players are seated through both processes and full rounds are played: every socket sees the
same versions in the same order, and the ledger verifies.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from bench.client import TableClient
from tests.live import LiveStack

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

REAL = os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")


@pytest.mark.skipif(
    not REAL, reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: the real-stack pass"
)
def test_two_daphne_processes_share_one_table() -> None:
    with LiveStack(use_redis=True, use_postgres=True) as stack:
        cookies = stack.demo("alice", "bob", "carol", "dave", "dealer")
        one, two = stack.daphne(), stack.daphne()
        try:
            asyncio.run(play(stack, one, two, cookies))
        except BaseException:
            print(stack.logs())
            raise
        out = stack.manage("verify_ledger")
        assert "ledger OK" in out


async def play(stack: LiveStack, one: str, two: str, cookies: dict[str, str]) -> None:
    where = {"alice": one, "bob": one, "carol": two, "dave": two}
    boxes = {"alice": 1, "bob": 2, "carol": 4, "dave": 5}
    players = {
        n: await TableClient(
            n, f"ws://{where[n]}/ws/tables/1/", cookies[n], f"http://{where[n]}"
        ).connect()
        for n in where
    }
    dealer = await TableClient(
        "dealer", f"ws://{two}/ws/tables/1/dealer/", cookies["dealer"], f"http://{two}"
    ).connect()
    watcher = await TableClient(
        "watcher", f"ws://{one}/ws/tables/1/", None, f"http://{one}"
    ).connect()
    everyone = [*players.values(), dealer, watcher]
    start = max(c.snapshot["version"] for c in everyone if c.snapshot)
    for name, client in players.items():
        reply = await client.command(cmd="sit", box=boxes[name])
        assert reply["type"] == "ok", reply
    rounds = 3
    for _ in range(rounds):
        assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
        for name, client in players.items():
            reply = await client.command(
                cmd="act", move="bet", box=boxes[name], args={"ante": 1000, "all_six": 100}
            )
            assert reply["type"] == "ok", reply
        assert (await dealer.command(cmd="no_more_bets"))["type"] == "ok"
        marks = {name: len(client.frames) for name, client in players.items()}
        assert (await dealer.command(cmd="deal"))["type"] == "ok"
        for name in ("alice", "bob", "carol", "dave"):
            client = players[name]
            # Its turn is announced to it (through whichever process it is connected to).
            await client.wait_for(
                lambda f, b=boxes[name]: (
                    f.get("type") == "events"
                    and any(e["kind"] == "turn" and e["data"]["box"] == b for e in f["events"])
                ),
                since=marks[name],
            )
            multiple = 0 if name == "bob" else 1
            reply = await client.command(
                cmd="act", move="decide", box=boxes[name], args={"raise": multiple}
            )
            assert reply["type"] == "ok", reply
        assert (await dealer.command(cmd="reveal"))["type"] == "ok"
        settled = await dealer.command(cmd="settle")
        assert settled["type"] == "ok"
    final = settled["version"]
    for client in everyone:
        await client.wait_for(lambda f: f.get("type") == "events" and f["version"] == final, 15)
    # The same versions, in the same order, at every socket on both processes.
    expected = list(range(start + 1, final + 1))
    sequences = {}
    for client in everyone:
        seen = [v for v in client.versions if v > start]
        assert seen == expected, (client.name, seen[:10], expected[:10])
        sequences[client.name] = [
            (f["version"], [e["kind"] for e in f["events"]])
            for f in client.frames
            if f.get("type") == "events" and not f.get("private") and f["version"] > start
        ]
    first = next(iter(sequences.values()))
    assert all(seq == first for seq in sequences.values())
    assert sum(1 for _, kinds in first if "round_settled" in kinds) == rounds
    for client in everyone:
        await client.close()
