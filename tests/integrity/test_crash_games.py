"""Crash recovery of Crazy 4 Poker and Five Card Hi-Lo tables on the real stack: PostgreSQL,
Redis, Daphne and automatic-dealer processes killed with SIGKILL (issues #16, #17).

The machinery is the Four Card Frenzy test's (tests/integrity/test_crash.py): one Daphne on a
fixed port, the players' and the dealer's sockets reconnecting after each ``kill -9``, and a
settlement transaction held open by ``FRENZY_TEST_SETTLE_DELAY`` (services/dealing.py) so that
the process dies after the settlement's writes and before its commit. The processes here are
started with a stacked shoe in ``services.dealing.RANDOM`` of the child process
(``tests.live.shoe_setup``; the Crazy 4 Poker rounds deal box 1 a royal flush, which takes 100%
of both linked meters: §657a.12(e)(4), (f)(4)).

Each round is killed at every phase it has (betting, closed, decisions, Hi-Lo's setting with
one box set and one not, revealed, mid-settlement): afterwards every socket's snapshot shows
the round exactly where it was, and the round goes on from the store. A round killed with its
dealer hand revealed is settled, never voided (§684a.11(c)); its settlement, rolled back by
PostgreSQL with the meter hits it had booked, is done exactly once. A second round of each
game is run by the automatic dealer (``manage.py autodealer``), itself killed in the betting,
in the setting and in the middle of the settlement, and restarted: the new one takes the clock
over at once and finishes the round. At the end the ledger and the meters verify, each
meter's history is one unbroken chain, every round verifies against its commitment with each
player's net moved once, and the event chain is intact.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import subprocess
import time
from typing import Any

import pytest

from bench.client import TableClient
from tests.live import LiveStack, free_port, shoe_setup

from .test_crash import REAL, SETTLE_DELAY, Crasher, query

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

START = 10_000_00  # the demo's play money
#: Box 1 a royal flush in hearts, box 2 a pair of nines, the dealer king high (as in
#: tests/services/test_games_at_table.py): the royal takes both meters whole.
C4P_SHOE = (
    ["AH", "KH", "QH", "JH", "TH"] + ["9S", "9D", "4C", "6S", "2D"] + ["KC", "8D", "5S", "3C", "7D"]
)


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


def short_clocks(stack: LiveStack, table: int) -> None:
    """The table's countdowns short from its next round on, so that the automatic dealer's
    round does not wait 15 s for betting to close nor 30 s for a setting to time out."""
    stack.python(
        "from table.models import Table\n"
        f"r = Table.objects.get(pk={table}).rules\n"
        "r.choices = {**r.choices, 'betting_seconds': 6}\n"
        "if r.game == 'five_card_hi_lo':\n"
        "    r.choices['setting_seconds'] = 8\n"
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


# --- Crazy 4 Poker ----------------------------------------------------------------------------


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


async def play_crazy_4_poker(c: GameCrasher) -> list[int]:
    stack = c.stack
    await c.connect()
    await c.ok("alice", cmd="sit", box=1)
    await c.ok("bob", cmd="sit", box=2)
    seeded = meters_of(stack, c.table)
    assert len(seeded) == 2  # the demo's five-card and hand-bonus meters

    # --- round 1: the dealer at the console; Daphne killed at every phase ------------------
    await c.ok("dealer", cmd="open_betting")
    bet = await c.act("alice", "bet", 1, ante=5_00, progressive=1_00, hand_bonus_player=1_00)
    assert bet["result"]["wagers"]["super_bonus"] == 5_00  # §657a.7(d)(1)
    await c.act("bob", "bet", 2, ante=10_00)
    views = await c.crash_and_resume()  # 1: betting
    assert views["alice"]["round"]["phase"] == "betting"
    assert views["alice"]["balance"] == START - 12_00
    rid = c.round()[0]
    assert meters_of(stack, c.table) == seeded

    await c.ok("dealer", cmd="no_more_bets")
    fed = meters_of(stack, c.table)
    assert fed != seeded  # §657a.10(a)(2): the meters grew at "no more bets"
    increments = meter_events(stack, rid, "increment")
    views = await c.crash_and_resume()  # 2: closed, the increments booked
    assert views["dealer"]["round"]["phase"] == "closed"
    assert meters_of(stack, c.table) == fed
    assert meter_events(stack, rid, "increment") == increments and len(increments) == 2

    await c.ok("dealer", cmd="deal")
    [decide] = [m for m in await c.moves("alice") if m["move"] == "decide"]
    play = decide["choices"][-1]["args"]
    assert play["play"] > 0
    await c.act("alice", "decide", 1, **play)
    views = await c.crash_and_resume()  # 3: decisions, box 2 to act
    assert views["alice"]["round"]["phase"] == "decisions"
    assert views["bob"]["round"]["to_act"] == 2
    mine = next(b for b in views["alice"]["round"]["boxes"] if b["box"] == 1)
    assert sorted(mine["cards"]) == sorted(C4P_SHOE[:5])  # her hole cards came back with her
    theirs = next(b for b in views["alice"]["round"]["boxes"] if b["box"] == 2)
    assert theirs["cards"] is None

    [decide] = [m for m in await c.moves("bob") if m["move"] == "decide"]
    await c.act("bob", "decide", 2, **decide["choices"][-1]["args"])
    await c.ok("dealer", cmd="reveal")
    # 4: revealed; the next Daphne holds its settlements open (the test hook).
    views = await c.crash_and_resume(FRENZY_TEST_SETTLE_DELAY=str(SETTLE_DELAY))
    assert views["dealer"]["round"]["phase"] == "revealed"
    assert meters_of(stack, c.table) == fed

    key = "settle-c4p-round-1"
    await c.clients["dealer"].ws.send(json.dumps({"cmd": "settle", "key": key, "ref": "s1"}))

    await kill_mid_settlement(c, c.kill_daphne)  # 5: between the meter hits and the commit
    await c.drop_clients()
    assert query(stack, "SELECT count(*) FROM table_commandrecord WHERE key = %s", key) == [(0,)]
    c.start_daphne()
    await c.connect()
    snap = c.clients["dealer"].snapshot
    assert snap is not None and snap["round"]["phase"] == "revealed"  # settled, never voided
    first = await c.ok("dealer", cmd="settle", key=key)
    assert first["replayed"] is False
    again = await c.ok("dealer", cmd="settle", key=key)
    assert again["replayed"] is True and again["version"] == first["version"]
    late = await c.clients["dealer"].command(cmd="settle")
    assert late["type"] == "error" and late["code"] in ("wrong_phase", "no_round")
    # The royal took each meter once (§657a.12(e)(4), (f)(4)): what it stood at after the
    # increments, paid to box 1, and the meter reset.
    hits = meter_events(stack, rid, "hit")
    standing = {kind: amount for kind, amount, _, _ in fed}
    assert [(k, box, wager) for k, box, wager, _ in hits] == [
        ("five_card", 1, "progressive"),
        ("hand_bonus", 1, "hand_bonus_player"),
    ]
    assert {k: paid for k, _, _, paid in hits} == standing
    net = first["result"]["players"]["alice"]["net"]
    balance = (await c.views())["alice"]["balance"]
    assert balance == START + net
    assert net >= sum(standing.values()) - 12_00
    rounds = [rid]

    # --- round 2: the automatic dealer, killed in the betting and mid-settlement -------------
    short_clocks(stack, c.table)
    c.start_autodealer(orders=[C4P_SHOE] * 3)  # it opens the round: it shuffles
    rid = await c.until_phase("betting")
    await c.act("alice", "bet", 1, ante=5_00, progressive=1_00, hand_bonus_player=1_00)
    await c.act("bob", "bet", 2, ante=5_00)
    c.kill_autodealer()  # 6: betting, the countdown running
    assert c.round()[:2] == (rid, "betting")
    # The next one takes the clock over at once and holds its settlement open.
    c.start_autodealer(FRENZY_TEST_SETTLE_DELAY=str(SETTLE_DELAY))
    await c.until_phase("decisions")
    fed = meters_of(stack, c.table)
    assert len(meter_events(stack, rid, "increment")) == 2
    for name, box in (("alice", 1), ("bob", 2)):
        [decide] = [m for m in await c.moves(name) if m["move"] == "decide"]
        await c.act(name, "decide", box, **decide["choices"][-1]["args"])
    await c.until_phase("revealed")
    await kill_mid_settlement(c, c.kill_autodealer)  # 7: the autodealer mid-settlement
    c.start_autodealer()
    await c.until_phase("settled")
    hits = meter_events(stack, rid, "hit")
    assert [(k, box) for k, box, _, _ in hits] == [("five_card", 1), ("hand_bonus", 1)]
    assert {k: paid for k, _, _, paid in hits} == {kind: amount for kind, amount, _, _ in fed}
    rounds.append(rid)
    await c.drop_clients()
    return rounds


# --- Five Card Hi-Lo ----------------------------------------------------------------------------


async def set_hands(c: GameCrasher, name: str, box: int) -> dict[str, Any]:
    """The player sets their box's hands: the first setting their view offers."""
    [move] = [m for m in await c.moves(name) if m["move"] == "set_hands" and m["box"] == box]
    return await c.act(name, "set_hands", box, **move["choices"][0]["args"])


def box_of(view: dict[str, Any], box: int) -> dict[str, Any]:
    return next(b for b in view["round"]["boxes"] if b["box"] == box)


async def play_five_card_hi_lo(c: GameCrasher) -> list[int]:
    stack = c.stack
    await c.connect()
    await c.ok("alice", cmd="sit", box=1)
    await c.ok("bob", cmd="sit", box=3)

    # --- round 1: the dealer at the console; Daphne killed at every phase ------------------
    await c.ok("dealer", cmd="open_betting")
    await c.act("alice", "bet", 1, ante=10_00, tie=1_00)
    await c.act("bob", "bet", 3, ante=5_00)
    views = await c.crash_and_resume()  # 1: betting
    assert views["alice"]["round"]["phase"] == "betting"
    assert views["alice"]["balance"] == START - 11_00

    await c.ok("dealer", cmd="no_more_bets")
    views = await c.crash_and_resume()  # 2: closed
    assert views["dealer"]["round"]["phase"] == "closed"

    await c.ok("dealer", cmd="deal")
    await c.act("alice", "decide", 1, play=True)
    views = await c.crash_and_resume()  # 3: decisions, box 3 to act
    assert views["bob"]["round"]["phase"] == "decisions"
    assert views["bob"]["round"]["to_act"] == 3
    assert len(box_of(views["alice"], 1)["cards"]) == 5
    assert box_of(views["alice"], 3)["cards"] is None

    await c.act("bob", "decide", 3, play=True)
    await set_hands(c, "alice", 1)
    views = await c.crash_and_resume()  # 4: setting, box 1 set and box 3 not
    assert views["alice"]["round"]["phase"] == "setting"
    assert box_of(views["alice"], 1)["set"] and box_of(views["alice"], 1)["setting"]
    assert not box_of(views["alice"], 3)["set"]
    # Set face down (§663a.11): bob sees that box 1 is set, not how; his own box is not.
    assert box_of(views["bob"], 1)["set"] and box_of(views["bob"], 1)["setting"] is None
    assert not box_of(views["bob"], 3)["set"] and box_of(views["bob"], 3)["may_set"]
    assert [m["box"] for m in views["bob"]["round"]["moves"] if m["move"] == "set_hands"] == [3]
    assert not [m for m in views["alice"]["round"]["moves"] if m["move"] == "set_hands"]

    await set_hands(c, "bob", 3)
    await c.ok("dealer", cmd="reveal")
    # 5: revealed; the next Daphne holds its settlements open (the test hook).
    views = await c.crash_and_resume(FRENZY_TEST_SETTLE_DELAY=str(SETTLE_DELAY))
    assert views["dealer"]["round"]["phase"] == "revealed"

    key = "settle-hilo-round-1"
    await c.clients["dealer"].ws.send(json.dumps({"cmd": "settle", "key": key, "ref": "s1"}))

    rid, _ = await kill_mid_settlement(c, c.kill_daphne)  # 6: mid-settlement
    await c.drop_clients()
    c.start_daphne()
    await c.connect()
    snap = c.clients["dealer"].snapshot
    assert snap is not None and snap["round"]["phase"] == "revealed"  # settled, never voided
    first = await c.ok("dealer", cmd="settle", key=key)
    again = await c.ok("dealer", cmd="settle", key=key)
    assert (first["replayed"], again["replayed"]) == (False, True)
    assert again["version"] == first["version"]
    rounds = [rid]

    # --- round 2: the automatic dealer, killed in the setting and mid-settlement -------------
    short_clocks(stack, c.table)
    c.start_autodealer()
    rid = await c.until_phase("betting")
    await c.act("alice", "bet", 1, ante=10_00)
    await c.act("bob", "bet", 3, ante=5_00)
    c.kill_autodealer()  # 7: betting, the countdown running
    c.start_autodealer()
    await c.until_phase("decisions")
    await c.act("alice", "decide", 1, play=True)
    await c.act("bob", "decide", 3, play=True)
    await c.until_phase("setting")
    await set_hands(c, "alice", 1)
    deadline = query(stack, "SELECT turn_deadline FROM table_table WHERE id = %s", c.table)
    c.kill_autodealer()  # 8: setting, box 1 set and box 3 waiting on the clock
    assert c.round()[:2] == (rid, "setting")
    assert query(stack, "SELECT turn_deadline FROM table_table WHERE id = %s", c.table) == deadline
    # The next one takes the clock over: bob's setting times out (set aces high, house rule),
    # then the reveal, and a settlement it holds open.
    c.start_autodealer(FRENZY_TEST_SETTLE_DELAY=str(SETTLE_DELAY))
    await c.until_phase("revealed", timeout=60)
    set_by = query(
        stack,
        "SELECT data->>'box', data->>'why' FROM table_roundevent WHERE round_id = %s "
        "AND kind = 'hands_set' ORDER BY id",
        rid,
    )
    assert set_by == [("1", "player"), ("3", "timeout")], set_by
    view = (await c.views())["bob"]
    assert box_of(view, 3)["set"] and box_of(view, 3)["setting"]
    await kill_mid_settlement(c, c.kill_autodealer)  # 9: the autodealer mid-settlement
    c.start_autodealer()
    await c.until_phase("settled")
    rounds.append(rid)
    await c.drop_clients()
    return rounds


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


@NEEDS
def test_crazy_4_poker_survives_kill_minus_nine_at_every_phase_and_between_hit_and_payout() -> None:
    run_game("crazy_4_poker", [C4P_SHOE] * 3, play_crazy_4_poker, kills=5 + 2)
