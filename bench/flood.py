"""The flood benchmark (``manage.py bench_flood``): does one visitor slow every table?

T tables, each with one seated player who bets and withdraws all along (a command every
``gap`` seconds) and pings twice a second. Phases, one after the other in the same run:

- quiet: nobody else;
- snapshot flood: N anonymous sockets, spread over the tables and over several client
  addresses (127.0.0.x, within the per-address cap), each asking for a snapshot 10 times a
  second (inside its own rate limit) and reading every answer;
- after: the flood stopped (does the server recover at once?);
- slow flood: M anonymous sockets doing the same but never reading (their TCP windows fill
  and the server's buffers grow);
- after.

Printed per phase: the seated players' command latency (send -> ``ok``) and ping latency
(send -> ``pong``): p50, p90, max, and the p50 as a multiple of the quiet p50.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import websockets

from .client import TableClient
from .load import percentile


@dataclass
class Phase:
    name: str
    commands: list[float] = field(default_factory=list)
    pings: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    accepted: int = 0  # flood connections accepted (reconnections included)
    refused: int = 0  # refused at the handshake
    closed: int = 0  # closed by the server while flooding


class Recorder:
    def __init__(self) -> None:
        self.phase = Phase("setup")
        self.phases: list[Phase] = []

    def start(self, name: str) -> Phase:
        self.phase = Phase(name)
        self.phases.append(self.phase)
        return self.phase


async def seated_player(
    client: TableClient, box: int, gap: float, rec: Recorder, wagers: dict[str, Any]
) -> None:
    """Bet ``wagers`` and take them back, over and over: each is a full command."""
    n = 0
    while True:
        phase = rec.phase
        message: dict[str, Any] = (
            {"cmd": "act", "move": "bet", "box": box, "args": wagers}
            if n % 2 == 0
            else {"cmd": "act", "move": "withdraw", "box": box}
        )
        started = time.monotonic()
        try:
            reply = await client.command(timeout=30, **message)
        except TimeoutError:
            phase.errors.append("command timed out")
            continue
        if reply["type"] == "ok":
            phase.commands.append(time.monotonic() - started)
            n += 1
        else:
            phase.errors.append(str(reply.get("code")))
            if reply.get("code") in ("no_wagers", "wrong_phase"):
                n += 1
        await asyncio.sleep(gap)


async def least_bet(client: TableClient, box: int) -> dict[str, Any]:
    """The least bet the box's round view offers (each required wager at its lowest), read
    once from a snapshot, as a felt would: the flood's players know no game."""
    view = (await client.fetch_snapshot()).get("round") or {}
    move = next((m for m in view.get("moves", []) if m["move"] == "bet" and m["box"] == box), None)
    if move is None:
        raise RuntimeError(f"box {box}: no bet offered ({view.get('phase')})")
    return {a["arg"]: a["low"] for a in move["amounts"] if a["required"]}


async def pinger(client: TableClient, rec: Recorder) -> None:
    t = 0
    while True:
        t += 1
        phase = rec.phase
        started = time.monotonic()
        since = len(client.frames)
        await client.ws.send(json.dumps({"cmd": "ping", "t": t}))

        def is_pong(f: dict[str, Any], t: int = t) -> bool:
            return f.get("type") == "pong" and f.get("t") == t

        try:
            await client.wait_for(is_pong, 30, since)
            phase.pings.append(time.monotonic() - started)
        except TimeoutError:
            phase.errors.append("ping timed out")
        await asyncio.sleep(0.5)


async def flooder(
    url: str, origin: str, ip: str, read: bool, phase: Phase, stop: asyncio.Event
) -> None:
    """An anonymous socket asking for a snapshot 10 times a second (its frame rate limit);
    closed by the server, it connects again a second later, as an attacker would."""
    while not stop.is_set():
        try:
            ws = await websockets.connect(
                url,
                additional_headers={"Origin": origin},
                local_addr=(ip, 0),
                max_queue=None if read else 1,
                ping_interval=None,
                close_timeout=1,
                open_timeout=5,
            )
        except Exception:
            phase.refused += 1
            await asyncio.sleep(1)
            continue
        phase.accepted += 1

        async def drain(ws: Any = ws) -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for _ in ws:
                    pass

        reader = asyncio.create_task(drain()) if read else None
        try:
            while not stop.is_set():
                await ws.send('{"cmd":"snapshot"}')
                await asyncio.sleep(0.1)
                if ws.close_code is not None:
                    break  # the server closed it (a cap, or the rate limit)
        except websockets.ConnectionClosed:
            pass
        finally:
            if reader is not None:
                reader.cancel()
            ws.transport.abort()  # a slow socket would never finish a closing handshake
        if not stop.is_set():
            phase.closed += 1
            await asyncio.sleep(1)


async def flood(
    base: str,
    table_ids: list[int],
    sockets: int,
    ips: int,
    read: bool,
    seconds: float,
    phase: Phase,
) -> None:
    stop = asyncio.Event()
    tasks = []
    for i in range(sockets):
        tid = table_ids[i % len(table_ids)]
        ip = f"127.0.0.{2 + i % ips}"
        url = f"ws://{base}/ws/tables/{tid}/"
        tasks.append(asyncio.create_task(flooder(url, f"http://{base}", ip, read, phase, stop)))
        await asyncio.sleep(0.02)
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)


async def run(
    base: str,
    specs: list[dict[str, Any]],
    seconds: float,
    snapshot_sockets: int,
    slow_sockets: int,
    ips: int,
    gap: float,
) -> list[Phase]:
    rec = Recorder()
    players = []
    for spec in specs:
        tid = spec["id"]
        dealer = TableClient(
            f"dealer{tid}",
            f"ws://{base}/ws/tables/{tid}/dealer/",
            spec["dealer_cookie"],
            f"http://{base}",
        )
        await dealer.connect()
        client = TableClient(
            f"t{tid}", f"ws://{base}/ws/tables/{tid}/", spec["player_cookie"], f"http://{base}"
        )
        await client.connect()
        reply = await client.command(cmd="sit", box=1, key=uuid.uuid4().hex)
        if reply["type"] != "ok":
            raise RuntimeError(f"could not sit: {reply}")
        reply = await dealer.command(cmd="open_betting")
        if reply["type"] != "ok":
            raise RuntimeError(f"could not open betting: {reply}")
        await dealer.close()
        client.keep_frames = True
        players.append((client, await least_bet(client, 1)))
    gc.freeze()
    loops = [asyncio.create_task(seated_player(c, 1, gap, rec, bet)) for c, bet in players]
    loops += [asyncio.create_task(pinger(c, rec)) for c, _ in players]
    ids = [spec["id"] for spec in specs]
    await asyncio.sleep(2)  # warm up
    rec.start("quiet")
    await asyncio.sleep(seconds)
    await flood(base, ids, snapshot_sockets, ips, True, seconds, rec.start("snapshot flood"))
    rec.start("after it (5 s)")
    await asyncio.sleep(5)
    await flood(base, ids, slow_sockets, ips, False, seconds, rec.start("slow-socket flood"))
    rec.start("after it (5 s) ")
    await asyncio.sleep(5)
    for task in loops:
        task.cancel()
    await asyncio.gather(*loops, return_exceptions=True)
    for c, _ in players:
        with contextlib.suppress(Exception):
            await c.ws.send(json.dumps({"cmd": "leave", "key": uuid.uuid4().hex}))
        await c.close()
    return rec.phases


def summary(phases: list[Phase]) -> list[str]:
    quiet = next(p for p in phases if p.name == "quiet")
    q50 = percentile(quiet.commands, 50) * 1000 if quiet.commands else float("nan")
    p50q = percentile(quiet.pings, 50) * 1000 if quiet.pings else float("nan")
    lines = [
        f"{'phase':<20} {'flood sockets':>13}  {'command p50/p90/max ms':>24} {'x quiet':>8}"
        f"  {'ping p50/p90/max ms':>22} {'x quiet':>8}  errors"
    ]
    for p in phases:
        c = [v * 1000 for v in p.commands] or [float("nan")]
        g = [v * 1000 for v in p.pings] or [float("nan")]
        c50, g50 = percentile(c, 50), percentile(g, 50)
        socks = f"{p.accepted} in/{p.closed} shut" if p.accepted or p.refused else "-"
        lines.append(
            f"{p.name:<20} {socks:>13}  {c50:7.1f} /{percentile(c, 90):6.1f} /{max(c):7.1f}"
            f" {c50 / q50:7.2f}x  {g50:6.1f} /{percentile(g, 90):6.1f} /{max(g):7.1f}"
            f" {g50 / p50q:7.2f}x  {len(p.errors)}"
        )
    return lines
