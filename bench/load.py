"""Load benchmark: T tables x (6 bot players + a dealer) over real websockets.

Run through ``python manage.py bench_load`` (it seeds the tables in the configured database,
starts a Daphne process with the same settings unless ``--url`` is given, drives the sockets,
then checks the ledger). Figures printed: rounds/s, p50/p99 latency from a dealer command to
the last socket of the table receiving its event frame, messages/s, errors, lost or
out-of-order versions, ledger discrepancies, and the same latency for a bare Channels
``group_send`` to the same number of sockets, as the baseline, with our ratio to it.
"""

from __future__ import annotations

import asyncio
import gc
import random
import statistics
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bench.client import Refused, TableClient

#: The dealer's moves a view offers, as the console's commands (docs/protocol.md, "view
#: frames"); the console never times a box out or voids in the bench.
DEALER_COMMANDS = {
    "close_betting": "no_more_bets",
    "deal": "deal",
    "reveal": "reveal",
    "settle": "settle",
}
#: The players' moves a bot makes (it never takes its wagers back).
PLAYER_MOVES = ("bet", "decide", "set_hands")
#: A bot's required wagers (the Ante), in cents, within the move's limits; each optional
#: wager it makes (half the time each) at its lowest.
STAKE = 1000
#: How often a bot picks a move's last choice (the most it may commit: the largest Raise or
#: Play, the last setting offered) rather than its first (fold, the first setting).
COMMIT = 0.8
#: How long a bot or the console waits for the answer to a command. Past capacity a busy
#: server answers late but answers (it queues, it does not drop): a bot that gave up after
#: 10 s died with its task, never decided, and its table stalled (150 tables, 2026-11-26).
REPLY_SECONDS = 120.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class TableRun:
    table_id: int
    dealer: TableClient
    players: list[tuple[TableClient, int]]
    game: str
    latencies: list[float] = field(default_factory=list)
    pending: list[tuple[float, int, str]] = field(default_factory=list)  # sent, version, step
    #: Each dealer command's time from its sending to its "ok" (the server's queue, its
    #: service and the publication: the reply goes after the frames are handed to the layer).
    answers: list[float] = field(default_factory=list)
    by_step: dict[str, list[float]] = field(default_factory=dict)
    rounds: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def sockets(self) -> list[TableClient]:
        return [self.dealer, *(c for c, _ in self.players)]


async def connect_retrying(
    make: Callable[[], TableClient], refusals: list[str], attempts: int = 30
) -> TableClient:
    """A player's socket, connecting again after a pause when the server turned it away (a
    process past capacity takes no new watchers: table.lag), as a browser's client does with
    its backoff; each refusal is noted."""
    for attempt in range(attempts):
        try:
            return await make().connect()
        except Refused as exc:
            refusals.append(exc.code)
            await asyncio.sleep(min(10.0, 1.0 + attempt))
    raise RuntimeError(f"turned away {attempts} times: {refusals[-1]}")


async def sit_retrying(
    client: TableClient, box: int, refusals: list[str], attempts: int = 30
) -> None:
    """Sit, and sit again after a pause while the server says it is too busy to seat anyone
    (``server_busy``: the overload guard, table.lag, takes no new seats while it is behind;
    the seated play on), as a player would; each refusal is noted."""
    for attempt in range(attempts):
        reply = await client.command(cmd="sit", box=box, timeout=REPLY_SECONDS)
        if reply["type"] == "ok":
            return
        if reply.get("code") != "server_busy":
            break
        refusals.append("server_busy")
        await asyncio.sleep(min(10.0, 1.0 + attempt))
    raise RuntimeError(f"could not sit: {reply}")


async def views_of(client: TableClient) -> AsyncIterator[dict[str, Any]]:
    """The round as this socket's viewer sees it, each time a newer view comes (the
    snapshot's first), for ever; of a burst only the newest, as a felt draws it. Between
    rounds: an empty dict."""
    seen = 0
    newest = -1
    if client.snapshot is not None:
        newest = client.snapshot["version"]
        yield client.snapshot.get("round") or {}
    while True:
        await client.wait_for(lambda f: True, timeout=3600, since=seen)
        frames = client.frames[seen:]
        seen += len(frames)
        # A snapshot the server sent in place of a version it gave up on holds the round too.
        views = [
            f for f in frames if f.get("type") in ("view", "snapshot") and f["version"] > newest
        ]
        if views:
            newest = views[-1]["version"]
            yield views[-1].get("round") or {}


def move_args(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """What a bot sends with a move a view offers, knowing no game: one of its choices
    (:data:`COMMIT`), or its amounts filled in (each required one at :data:`STAKE` within its
    limits, each optional one half the time at its lowest)."""
    choices = move["choices"]
    if choices:
        return dict(choices[-1 if rng.random() < COMMIT else 0]["args"])
    args = {}
    for amount in move["amounts"]:
        if amount["required"]:
            args[amount["arg"]] = min(max(STAKE, amount["low"]), amount["high"])
        elif rng.random() < 0.5:
            args[amount["arg"]] = amount["low"]
    return args


async def player_bot(client: TableClient, box: int, rng: random.Random, think: float) -> None:
    """A player who knows no game: each of its box's moves its round views offer (a bet
    when betting opens, its decision or setting when its turn comes), once a round, after
    thinking up to ``think`` seconds, as a felt's player would (static/table/felt_generic.js
    draws the same moves)."""
    made: set[tuple[int, str]] = set()
    async for view in views_of(client):
        for move in view.get("moves", ()):
            key = (view["round"], move["move"])
            if move["box"] != box or move["move"] not in PLAYER_MOVES or key in made:
                continue
            made.add(key)
            await asyncio.sleep(rng.uniform(0, think))
            await act(client, move["move"], box, move_args(move, rng))
            break


async def answered(client: TableClient, **message: Any) -> None:
    """A bot's command; a refusal, or no answer within :data:`REPLY_SECONDS`, is noted as an
    error and the bot plays on (a bot that died with its task would stall its table)."""
    try:
        reply = await client.command(timeout=REPLY_SECONDS, **message)
    except TimeoutError:
        reply = {"type": "error", "code": "no_reply", "message": f"{message.get('cmd')}"}
    if reply["type"] != "ok":
        client.errors.append(reply)


async def act(client: TableClient, move: str, box: int, args: dict[str, Any]) -> None:
    await answered(client, cmd="act", move=move, box=box, args=args)


async def dealer_command(run: TableRun, step: str, pause: float) -> dict[str, Any] | None:
    """The console's ``step`` after ``pause``, timed from its sending when it is done; a
    refusal is noted (and returned); None: no answer (noted: the table stops)."""
    await asyncio.sleep(pause)
    sent = time.monotonic()
    try:
        reply = await run.dealer.command(cmd=step, timeout=REPLY_SECONDS)
    except TimeoutError:
        run.errors.append(f"table {run.table_id}: no answer to {step}")
        return None
    if reply["type"] != "ok":
        run.errors.append(f"{step}: {reply.get('code')} {reply.get('message')}")
    else:
        run.answers.append(time.monotonic() - sent)
        run.pending.append((sent, reply["version"], step))
    return reply


def due_step(view: dict[str, Any], seated: int) -> str | None:
    """The console's command the dealer's view offers now, if the bench's dealer takes it:
    no more bets once every seated box has bet, the deal, the reveal (once no box is
    awaited: the view offers it then) and the settlement; "open_betting" between rounds."""
    if not view or view.get("phase") in ("settled", "void"):
        return "open_betting"
    for move in view.get("moves", ()):
        step = DEALER_COMMANDS.get(move["move"])
        if step == "no_more_bets":
            if sum(1 for b in view["boxes"] if b["wagers"]) < seated:
                continue
        if step is not None:
            return step
    return None


async def dealer_loop(run: TableRun, rounds: int, pause: float, start: float = 0.0) -> None:
    """The console: each step its round views offer when it is due (:func:`due_step`), for
    ``rounds`` rounds from opening the betting to the settlement."""
    dealer = run.dealer
    await asyncio.sleep(start)  # real tables do not all open betting at the same instant
    snapshot = dealer.snapshot or {}
    view: dict[str, Any] = snapshot.get("round") or {}
    seen = snapshot.get("version", 0)  # the version of the view in hand
    since = 0
    while run.rounds < rounds:
        step = due_step(view, len(run.players))
        after = seen + 1  # nothing due: a newer view
        if step is not None:
            reply = await dealer_command(run, step, pause)
            if reply is None:
                return
            if reply["type"] == "ok":
                # The view of this command's version or a later one: an older one would
                # offer the step just taken.
                after = reply["version"]
                if step == "settle":
                    run.rounds += 1
                    view, seen = {}, after  # the betting opens next
                    continue

        def fresh(f: dict[str, Any], after: int = after) -> bool:
            # A snapshot in place of a version given up on holds the round as well.
            return f.get("type") in ("view", "snapshot") and f["version"] >= after

        try:
            found = await dealer.wait_for(fresh, timeout=60, since=since)
        except TimeoutError:
            # The table stops here, counted as an error: the run goes on to its report.
            run.errors.append(
                f"table {run.table_id}: no view from version {after} within 60 s of waiting "
                "(a frame the console never got: see lost/out-of-order)"
            )
            return
        since += dealer.frames[since:].index(found) + 1
        view, seen = found.get("round") or {}, found["version"]


def collect_latencies(run: TableRun) -> None:
    for sent, version, step in run.pending:
        arrivals = [c.arrivals.get(version) for c in run.sockets]
        reached = [a for a in arrivals if a is not None]
        if len(reached) < len(arrivals):
            run.errors.append(f"version {version} never reached every socket")
            continue
        latency = max(reached) - sent
        run.latencies.append(latency)
        run.by_step.setdefault(step, []).append(latency)


def version_faults(client: TableClient) -> int:
    """Lost or out-of-order public versions seen by one socket, counted as they came
    (bench.client: each version missing before a newer one, each one that came after a newer
    one or again; a snapshot covers the versions up to its own). (Until 2026-11-26 every
    version after a gap counted as out of place: one lost frame early in a run counted
    hundreds; until 2026-11-27 a socket's last snapshot hid the faults before it.)"""
    return client.lost + client.late


async def run_tables(
    base: str,
    tables: list[dict[str, Any]],
    rounds: int,
    pause: float,
    think: float,
    stagger: float = 0.0,
    cpu: Callable[[], float] = lambda: 0.0,
    loop_cpu: Callable[[], float] = lambda: 0.0,
) -> dict[str, Any]:
    """``cpu``: the server's CPU seconds so far (:func:`bench.servers.cpu_seconds`), read
    when the dealing starts and once its last frames landed: the seating is not counted;
    ``loop_cpu`` the same for its event loop's thread alone."""
    rng = random.Random(2026)
    runs: list[TableRun] = []
    refusals: list[str] = []
    for spec in tables:
        tid = spec["id"]
        dealer = TableClient(
            f"dealer{tid}",
            f"ws://{base}/ws/tables/{tid}/dealer/",
            spec["dealer_cookie"],
            f"http://{base}",
        )
        await dealer.connect()
        players = []
        for box, cookie in enumerate(spec["player_cookies"], start=1):
            client = await connect_retrying(
                partial(
                    TableClient,
                    f"t{tid}b{box}",
                    f"ws://{base}/ws/tables/{tid}/",
                    cookie,
                    f"http://{base}",
                ),
                refusals,
            )
            await sit_retrying(client, box, refusals)
            players.append((client, box))
        runs.append(TableRun(tid, dealer, players, spec["game"]))
    bots = [
        asyncio.create_task(player_bot(c, box, random.Random(rng.random()), think))
        for run in runs
        for c, box in run.players
    ]
    messages_before = sum(c.messages for run in runs for c in run.sockets)
    # The clients keep every frame (an acyclic heap that only grows): a full collection of it
    # pauses this process for hundreds of milliseconds, which would be counted as latency.
    gc.freeze()
    gc.disable()
    lags: list[float] = []
    watch = asyncio.create_task(loop_lag(lags))
    cpu_before, loop_before = cpu(), loop_cpu()
    started = time.monotonic()
    await asyncio.gather(
        *(dealer_loop(run, rounds, pause, rng.uniform(0, stagger)) for run in runs)
    )
    elapsed = time.monotonic() - started
    watch.cancel()
    await asyncio.sleep(1.0)  # let the last frames land
    server_cpu = cpu() - cpu_before
    server_loop_cpu = loop_cpu() - loop_before
    messages = sum(c.messages for run in runs for c in run.sockets) - messages_before
    types: Counter[str] = Counter()
    for run in runs:
        for c in run.sockets:
            types.update(c.types)
    gc.enable()
    for bot in bots:
        bot.cancel()
    for run in runs:
        collect_latencies(run)
    faults = sum(version_faults(c) for run in runs for c in run.sockets)
    client_errors = [e for run in runs for c in run.sockets for e in c.errors]
    for run in runs:
        for c in run.sockets:
            await c.close()
    latencies = [lat for run in runs for lat in run.latencies]
    answers = [a for run in runs for a in run.answers]
    steps: dict[str, list[float]] = {}
    games: dict[str, list[float]] = {}
    for run in runs:
        games.setdefault(run.game, []).extend(run.latencies)
        for step, values in run.by_step.items():
            steps.setdefault(step, []).extend(values)
    return {
        "tables": len(runs),
        "sockets": sum(len(run.sockets) for run in runs),
        "rounds": sum(run.rounds for run in runs),
        "seconds": elapsed,
        "rounds_per_second": sum(run.rounds for run in runs) / elapsed,
        "messages_per_second": messages / elapsed,
        "messages": messages,
        "server_cpu": server_cpu,
        "loop_cpu": server_loop_cpu,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "samples": len(latencies),
        "ok_p50_ms": percentile(answers, 50) * 1000,
        "ok_p99_ms": percentile(answers, 99) * 1000,
        "errors": [e for run in runs for e in run.errors] + [str(e) for e in client_errors],
        # What went wrong, by kind: the consoles' stalls and each refusal's code.
        "error_codes": Counter(
            ["stalled" for run in runs for _ in run.errors]
            + [str(e.get("code")) for e in client_errors]
        ),
        # Frames the sockets received, by type, over the whole run (the seating's included).
        "frame_types": types,
        "version_faults": faults,
        # Snapshots the clients asked for on a gap, and those the server sent in place of a
        # version it gave up on (table.consumers.give_up_gap).
        "gap_snapshots": sum(c.gap_snapshots for run in runs for c in run.sockets),
        "resyncs": sum(c.resyncs for run in runs for c in run.sockets),
        "refusals": refusals,
        # Behind a proxy that names the process (docs/deploy/haproxy.cfg): each table's
        # sockets by process.
        "servers": {run.table_id: sorted({str(c.server) for c in run.sockets}) for run in runs},
        "client_lag_p99_ms": percentile(lags, 99) * 1000,
        "client_lag_max_ms": max(lags, default=0.0) * 1000,
        "games": {
            name: (
                sum(1 for r in runs if r.game == name),
                percentile(v, 50) * 1000,
                percentile(v, 99) * 1000,
            )
            for name, v in games.items()
        },
        "steps": {
            step: (percentile(v, 50) * 1000, percentile(v, 99) * 1000, max(v) * 1000)
            for step, v in steps.items()
        },
    }


async def loop_lag(lags: list[float], tick: float = 0.01) -> None:
    """This client's own event-loop lag (how late a 10 ms sleep wakes): latency the load
    tool adds to every figure it measures, since it shares the machine with the server."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(tick)
        lags.append(max(0.0, loop.time() - before - tick))


async def run_baseline(
    base: str,
    groups: int,
    per_group: int,
    sends: int,
    pause: float,
    cpu: Callable[[], float] = lambda: 0.0,
    loop_cpu: Callable[[], float] = lambda: 0.0,
) -> dict[str, Any]:
    """The same fan-out with a bare group_send: one sender per group, ``per_group`` sockets
    (``cpu`` and ``loop_cpu`` as for :func:`run_tables`)."""
    import websockets

    latencies: list[float] = []
    sockets: list[list[Any]] = []

    async def connect(g: int, attempts: int = 10) -> Any:
        """A socket of group ``g``. Right after the tables' run a busy server is still closing
        their sockets and may fail a handshake (Daphne gives up on one it cannot accept within
        5 s; HAProxy then answers 502): try again after a pause, as a browser would."""
        for attempt in range(attempts):
            try:
                return await websockets.connect(
                    f"ws://{base}/ws/bench/g{g}/",
                    additional_headers={"Origin": f"http://{base}"},
                    max_queue=None,
                    ping_interval=None,
                )
            except (OSError, websockets.InvalidHandshake):
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(min(5.0, 0.5 * (attempt + 1)))
        raise AssertionError("unreachable")

    for g in range(groups):
        sockets.append([await connect(g) for _ in range(per_group)])
    await asyncio.sleep(0.5)

    async def group_loop(g: int) -> None:
        members = sockets[g]
        for n in range(sends):
            await asyncio.sleep(pause)
            token = f"g{g}-{n}"
            sent = time.monotonic()
            await members[0].send(token)
            last = sent
            for ws in members:
                while True:
                    text = await asyncio.wait_for(ws.recv(), 30)
                    if text == token:
                        last = max(last, time.monotonic())
                        break
            latencies.append(last - sent)

    cpu_before, loop_before = cpu(), loop_cpu()
    started = time.monotonic()
    await asyncio.gather(*(group_loop(g) for g in range(groups)))
    elapsed = time.monotonic() - started
    server_cpu = cpu() - cpu_before
    server_loop_cpu = loop_cpu() - loop_before
    for members in sockets:
        for ws in members:
            await ws.close()
    return {
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "samples": len(latencies),
        "seconds": elapsed,
        "messages": len(latencies) * per_group,
        "server_cpu": server_cpu,
        "loop_cpu": server_loop_cpu,
    }


def host_pace(additions: int = 1_000_000, tries: int = 3) -> float:
    """Milliseconds of this thread's CPU for a fixed pure-Python loop, the best of ``tries``:
    the host's pace at the moment. A shared two-core machine here ran a 10,000,000-addition
    loop in 0.53 s and in 0.94 s on one afternoon (2026-11-27): a run at the slow pace is not
    comparable with one at the fast. The pace is not all of a shared host's noise (runs at
    one pace still ranged 0.068-0.078 s of server CPU a round, p99 150-285 ms, the same
    code): compare side by side, at a like pace (issue 26)."""
    best = float("inf")
    for _ in range(tries):
        started = time.thread_time()
        total = 0
        for i in range(additions):
            total += i
        best = min(best, time.thread_time() - started)
    return best * 1000


def summary(result: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    lines = [
        f"tables x sockets      {result['tables']} x {result['sockets'] // max(1, result['tables'])} = {result['sockets']} sockets",
        f"rounds played         {result['rounds']} in {result['seconds']:.1f} s = {result['rounds_per_second']:.2f} rounds/s",
        f"messages received     {result['messages_per_second']:.0f} messages/s",
        f"dealer command -> last socket   p50 {result['p50_ms']:.1f} ms   p99 {result['p99_ms']:.1f} ms   ({result['samples']} commands)",
        f"dealer command -> its ok      p50 {result['ok_p50_ms']:.1f} ms   p99 {result['ok_p99_ms']:.1f} ms   (the queue, the service and the hand-off to the layer)",
        f"bare group_send baseline        p50 {baseline['p50_ms']:.1f} ms   p99 {baseline['p99_ms']:.1f} ms   ({baseline['samples']} broadcasts)",
        f"ratio to baseline     p50 {result['p50_ms'] / baseline['p50_ms']:.2f}x   p99 {result['p99_ms'] / baseline['p99_ms']:.2f}x",
        *cpu_lines(result, baseline),
        f"seating refused       {len(result['refusals'])} times (sockets turned away or seats refused by the guard; then let in)",
        f"errors                {len(result['errors'])}",
        f"lost/out-of-order     {result['version_faults']} versions   (snapshots asked on a gap "
        f"{result['gap_snapshots']}, sent by the server in place of a lost version {result['resyncs']})",
        f"load client loop lag  p99 {result['client_lag_p99_ms']:.1f} ms   max {result['client_lag_max_ms']:.1f} ms   (the tool's own share of the latencies above)",
    ]
    if len(result["games"]) > 1:
        for name, (tables, p50, p99) in result["games"].items():
            lines.append(f"  {name:<17} {tables:3d} tables   p50 {p50:7.1f} ms   p99 {p99:7.1f} ms")
    for step, (p50, p99, worst) in result["steps"].items():
        lines.append(f"  {step:<14} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   max {worst:7.1f} ms")
    rounds = max(1, result["rounds"])
    lines.append(
        "frames per round      "
        + ", ".join(f"{t} {n / rounds:.1f}" for t, n in result["frame_types"].most_common())
    )
    if result["error_codes"]:
        lines.append(
            "errors by kind        "
            + ", ".join(f"{k} {n}" for k, n in result["error_codes"].most_common())
        )
    lines += [f"  error: {e}" for e in result["errors"][:10]]
    return lines


def cpu_lines(result: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """The server's CPU seconds (every Daphne process measured) per round and per frame
    delivered to a socket, beside the bare broadcast's per frame: what a round costs, which
    load on a shared machine disturbs far less than latency."""
    if not result["server_cpu"]:
        return ["server CPU            not measured (--url without --pids)"]
    frames = max(1, result["messages"])
    bare = baseline["server_cpu"] / max(1, baseline["messages"])
    ours = result["server_cpu"] / frames
    lines = [
        f"server CPU            {result['server_cpu']:.1f} s = "
        f"{result['server_cpu'] / max(1, result['rounds']):.3f} s per round, "
        f"{ours * 1000:.3f} ms per delivered frame ({frames} frames)",
        f"bare group_send CPU   {baseline['server_cpu']:.1f} s = {bare * 1000:.3f} ms per delivered "
        f"frame ({baseline['messages']} frames); ratio per frame {ours / bare if bare else float('nan'):.2f}x",
    ]
    if result.get("loop_cpu"):
        # The event loop's thread alone (Daphne's main thread): every socket waits for it.
        loop_bare = baseline.get("loop_cpu", 0.0) / max(1, baseline["messages"])
        lines.append(
            f"event loop CPU        {result['loop_cpu']:.1f} s = "
            f"{result['loop_cpu'] / max(1, result['rounds']):.3f} s per round, "
            f"{result['loop_cpu'] / frames * 1000:.3f} ms per delivered frame "
            f"(bare group_send {loop_bare * 1000:.3f} ms)"
        )
    return lines


def mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")
