"""The machinery of the games' crash tests on the real stack (tests/games/<game>/test_crash.py):
PostgreSQL, Redis, Daphne and automatic-dealer processes killed with SIGKILL (issues #16, #17).

It is the default game's test's (tests/integrity/test_crash.py): one Daphne on a fixed port,
the players' and the dealer's sockets reconnecting after each ``kill -9``, and a settlement
transaction held open by ``FRENZY_TEST_SETTLE_DELAY`` (services/dealing.py) so that the process
dies after the settlement's writes and before its commit. The processes are started with a
stacked shoe in ``services.dealing.RANDOM`` of the child process (``tests.live.shoe_setup``).

Each game's test kills its round at every phase it has: afterwards every socket's snapshot
shows the round exactly where it was, and the round goes on from the store. A round killed
with its dealer hand revealed is settled, never voided (§684a.11(c)); its settlement, rolled
back by PostgreSQL with the meter hits it had booked, is done exactly once
(:func:`kill_mid_settlement`). :func:`run_game` runs a game's play on a fresh stack and then
checks the books: the ledger and the meters verify, each meter's history is one unbroken
chain, every round verifies against its commitment with each player's net moved once, and the
event chain is intact.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
import time
from typing import Any

import pytest

from bench.client import TableClient
from tests.integrity.test_crash import REAL, SETTLE_DELAY, Crasher, query
from tests.live import LiveStack, free_port, shoe_setup

START = 10_000_00  # the demo's play money


def stacked_shoe(orders: list[list[str]]) -> str:
    """A process's setup that deals these orders first (none: the production shuffle)."""
    return shoe_setup("tests.services.conftest:StackedSource", *orders) if orders else ""


def kill(stack: LiveStack, proc: subprocess.Popen[bytes]) -> None:
    assert proc.poll() is None, stack.logs()
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    stack.processes.remove(proc)


class GameCrasher(Crasher):
    """The FCF test's crasher at a table of another game: its Daphne started with a stacked
    shoe for the rounds it opens, its players at their own boxes."""

    def __init__(
        self,
        stack: LiveStack,
        cookies: dict[str, str],
        table: int,
        orders: list[list[str]] | None = None,
    ) -> None:
        super().__init__(stack, free_port(), cookies)
        self.table = table
        self.orders = orders or []
        self.autodealer: subprocess.Popen[bytes] | None = None
        self.autodealer_kills = 0

    def start_daphne(self, **env: str) -> None:
        self.stack.daphne(self.port, setup=stacked_shoe(self.orders), **env)
        self.proc = self.stack.processes[-1]

    async def connect(self) -> None:
        host = f"127.0.0.1:{self.port}"
        for name in ("alice", "bob", "dealer"):
            path = "dealer/" if name == "dealer" else ""
            url = f"ws://{host}/ws/tables/{self.table}/{path}"
            client = TableClient(name, url, self.cookies[name], f"http://{host}")
            self.clients[name] = await client.connect()

    def start_autodealer(self, orders: list[list[str]] | None = None, **env: str) -> None:
        self.autodealer = self.stack.spawn(
            "autodealer", "--table", str(self.table), setup=stacked_shoe(orders or []), **env
        )

    def kill_autodealer(self) -> None:
        assert self.autodealer is not None
        kill(self.stack, self.autodealer)
        self.autodealer = None
        self.autodealer_kills += 1

    async def act(self, name: str, move: str, box: int, **args: Any) -> dict[str, Any]:
        return await self.ok(name, cmd="act", move=move, box=box, args=args)

    async def moves(self, name: str) -> list[dict[str, Any]]:
        """The moves this player's fresh view offers."""
        return list((await self.views())[name]["round"]["moves"])

    def round(self) -> tuple[int, str, int]:
        [(rid, phase, version)] = query(
            self.stack,
            "SELECT r.id, r.phase, t.version FROM table_table t JOIN table_round r "
            "ON r.id = t.current_round_id WHERE t.id = %s",
            self.table,
        )
        return rid, phase, version

    async def until_phase(self, phase: str, timeout: float = 60) -> int:
        """Wait until the table's current round is in ``phase`` (the clock moves it)."""
        deadline = time.monotonic() + timeout
        while True:
            rows = query(
                self.stack,
                "SELECT r.id, r.phase FROM table_table t JOIN table_round r "
                "ON r.id = t.current_round_id WHERE t.id = %s",
                self.table,
            )
            if rows and rows[0][1] == phase:
                return int(rows[0][0])
            assert time.monotonic() < deadline, (rows, self.stack.logs())
            await asyncio.sleep(0.1)

    async def until_settling(self) -> None:
        """Wait until a settlement's transaction is open and idle (its writes done, the test
        hook holding the commit back)."""
        deadline = time.monotonic() + SETTLE_DELAY - 2
        while True:
            waiting = query(
                self.stack,
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                "AND state = 'idle in transaction' AND xact_start IS NOT NULL",
                self.stack.db_name,
            )[0][0]
            assert time.monotonic() < deadline, "no settlement transaction held open"
            if waiting:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)


# --- what a kill must leave as it was -----------------------------------------------------------


def meters_of(stack: LiveStack, table: int) -> list[tuple[Any, ...]]:
    """The table's meters as committed: (kind, amount, reserve, version)."""
    return query(
        stack,
        "SELECT m.kind, m.amount, m.reserve, m.version FROM table_progressivemeter m "
        "JOIN table_progressivemeter_tables l ON l.progressivemeter_id = m.id "
        "WHERE l.table_id = %s ORDER BY m.kind",
        table,
    )


def meter_events(stack: LiveStack, round_id: int, kind: str) -> list[tuple[Any, ...]]:
    return query(
        stack,
        "SELECT k.kind, e.box, e.wager, e.paid FROM table_meterevent e "
        "JOIN table_progressivemeter k ON k.id = e.meter_id "
        "WHERE e.round_id = %s AND e.kind = %s ORDER BY k.kind",
        round_id,
        kind,
    )


def books(stack: LiveStack, round_id: int) -> tuple[Any, ...]:
    """The committed money and history of a round: ledger transactions, meter history."""
    return (
        query(stack, "SELECT count(*) FROM table_ledgertransaction WHERE round_id = %s", round_id),
        query(stack, "SELECT count(*) FROM table_meterevent WHERE round_id = %s", round_id),
        query(
            stack,
            "SELECT count(*), coalesce(sum(net), 0) FROM table_settlementline WHERE round_id = %s",
            round_id,
        ),
    )


def meters_locked(stack: LiveStack, table: int) -> bool:
    """Whether another transaction holds the table's meter rows (a settlement that read them
    to pay a hit)."""
    import psycopg

    with psycopg.connect(stack.env["DATABASE_URL"]) as conn:
        try:
            conn.execute(
                "SELECT m.id FROM table_progressivemeter m "
                "JOIN table_progressivemeter_tables l ON l.progressivemeter_id = m.id "
                "WHERE l.table_id = %s FOR UPDATE OF m NOWAIT",
                (table,),
            )
        except psycopg.errors.LockNotAvailable:
            return True
        finally:
            conn.rollback()
    return False


def check_the_books(stack: LiveStack, table: int, rounds: list[int]) -> None:
    """The ledger and the meters verify, each meter's history is one chain with no gap, every
    round verifies and settles each player's net once, the table's event chain is intact."""
    assert "ledger OK" in stack.manage("verify_ledger")  # ledger.verify() + meters.verify()
    assert stack.python("from table import meters; print(meters.verify())").split()[-1] == "[]"
    for meter, versions, low, high in query(
        stack,
        "SELECT meter_id, count(*), min(version), max(version) FROM table_meterevent "
        "GROUP BY meter_id",
    ):
        assert (low, high) == (1, versions), f"meter {meter}'s history has a gap"
    for rid in rounds:
        out = stack.manage("verify_round", str(rid))
        assert "round verifies" in out, out
        assert "the ledger moved exactly the settled amounts, each wager paid once" in out, out
        [(phase,)] = query(stack, "SELECT phase FROM table_round WHERE id = %s", rid)
        assert phase == "settled", (rid, phase)
        # One settlement: each wager of each box has one line, each player one result.
        lines = query(
            stack,
            "SELECT box, wager, count(*) FROM table_settlementline WHERE round_id = %s "
            "GROUP BY box, wager",
            rid,
        )
        assert lines and all(n == 1 for _, _, n in lines), lines
        settled = query(
            stack,
            "SELECT count(*) FROM table_roundevent WHERE round_id = %s AND kind = 'round_settled'",
            rid,
        )
        assert settled == [(1,)], settled
        voided = query(
            stack,
            "SELECT count(*) FROM table_roundevent WHERE round_id = %s AND kind = 'round_void'",
            rid,
        )
        assert voided == [(0,)]
    assert "chain OK" in stack.manage("verify_chain", "--table", str(table))


def short_clocks(stack: LiveStack, table: int, **more: int) -> None:
    """The table's countdowns short from its next round on, so that the automatic dealer's
    round does not wait 15 s for betting to close (nor for the game's other clocks, ``more``:
    its rules' own names, as seconds)."""
    stack.python(
        "from table.models import Table\n"
        f"r = Table.objects.get(pk={table}).rules\n"
        f"r.choices = {{**r.choices, 'betting_seconds': 6, **{more!r}}}\n"
        "r.save()\n"
    )


def demo_table(stack: LiveStack, game: str) -> int:
    [(pk,)] = query(
        stack,
        "SELECT t.id FROM table_table t JOIN table_rulessubmission r ON r.id = t.rules_id "
        "WHERE r.game = %s",
        game,
    )
    return int(pk)


# --- a kill in the middle of the settlement ------------------------------------------------------


async def kill_mid_settlement(c: GameCrasher, kill_it: Any) -> tuple[int, tuple[Any, ...]]:
    """With the settlement's transaction open (its meter hits and payments written), kill the
    process running it: PostgreSQL rolls all of it back."""
    rid, phase, version = c.round()
    assert phase == "revealed"
    before = books(c.stack, rid), meters_of(c.stack, c.table)
    await c.until_settling()
    assert c.round() == (rid, "revealed", version)  # not committed yet
    if meters_of(c.stack, c.table):
        # The settlement is past its meter hits: it holds the meters' rows.
        assert meters_locked(c.stack, c.table)
    kill_it()
    # Rolled back: no hit booked, no meter moved, nothing paid, the round as it was.
    assert c.round() == (rid, "revealed", version)
    assert (books(c.stack, rid), meters_of(c.stack, c.table)) == before
    assert meter_events(c.stack, rid, "hit") == []
    assert not meters_locked(c.stack, c.table)
    return rid, before


# --- the tests ----------------------------------------------------------------------------------


def run_game(game: str, orders: list[list[str]], play: Any, kills: int) -> None:
    stack = LiveStack(use_redis=True, use_postgres=True)
    started = time.monotonic()
    with stack:
        cookies = stack.demo("alice", "bob", "dealer")
        table = demo_table(stack, game)
        crasher = GameCrasher(stack, cookies, table, orders)
        crasher.start_daphne()
        try:
            rounds = asyncio.run(play(crasher))
        except BaseException:
            print(stack.logs())
            raise
        check_the_books(stack, table, rounds)
        print(
            f"\n{game} crash test: {crasher.kills} kill -9 of Daphne and "
            f"{crasher.autodealer_kills} of the automatic dealer, "
            f"{len(rounds)} rounds settled once, in {time.monotonic() - started:.0f} s"
        )
        assert crasher.kills + crasher.autodealer_kills == kills


NEEDS = pytest.mark.skipif(
    not REAL or not shutil.which("redis-server"),
    reason="needs DATABASE_URL (PostgreSQL), REDIS_URL and redis-server: the real-stack pass",
)
