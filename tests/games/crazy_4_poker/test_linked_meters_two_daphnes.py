"""Two Crazy 4 Poker tables linked to the same meters, each served by its own Daphne process.

Both tables are linked to one Five-Card A progressive meter and one Five Card Hand Bonus meter
(§657a.12(e), (f)). Players at each table bet the Ante with the progressive and both hand-bonus
wagers through ``act`` frames, and the two dealers move their rounds at the same time, so the
meters' increments at "no more bets" (§657a.10(a)(2)) and their hits at the settlement
(§657a.12(e)(4), (f)(2), (f)(4)) come from two processes in whatever order the row locks give.
Each server shuffles with a scheduled shoe (``services.dealing.RANDOM`` swapped inside the
server's own process) that deals a straight flush, a royal flush or a dealer's straight flush
every few rounds, so the meters are hit at 10% and 100% and a dealer-hand jackpot is split.

Afterwards: every meter's history is one unbroken chain whose every change is the rules'
arithmetic, the meters and the ledger verify, each table's rounds were settled once, and every
player at both tables was sent ``meter`` frames of the shared meters' changes, the other
table's (through the other process and Redis) included: each hit and reset, the increments
coalesced to at most one frame an interval where they are published (table/meter_outbox.py)
and where they are received (table/meter_relay.py), the last the newest.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
from typing import Any

import pytest

from bench.client import TableClient, session_cookies
from table.consumers import RATE_PER_SECOND
from table.games.cards import parse_card
from tests.live import LiveStack, shoe_setup

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

REAL = os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
ROUNDS = 20  # per table
#: Each table's players and boxes (not the same boxes: the stacks follow the boxes in play).
SEATS = {"one": {"ann": 1, "ben": 3}, "two": {"cat": 2, "dan": 5}}
WAGERS = {"ante": 5_00, "progressive": 1_00, "hand_bonus_player": 1_00, "hand_bonus_dealer": 1_00}
#: (primary, reserve) cents per $1 wager and the reseed, by meter kind (§657a.12(e)(3), (f)(4)).
RATES = {"five_card": ((21, 0), 10_000_00), "hand_bonus": ((13, 8), 0)}

#: The shoe's schedule, one entry per shuffle in turn: the cards that go on top of a stack
#: (by the stack's first position: 0 the first box in play, 5 the second, 10 the dealer).
#: A straight flush pays 10% of the five-card and hand-bonus meters, a royal flush 100% of
#: both (which reset), a dealer's straight flush 10% of the hand-bonus meter split between
#: every box with a dealer-hand wager (§657a.12(e)(1), (f)(1), (f)(2)).
SCHEDULE: tuple[dict[int, list[str]], ...] = (
    {0: ["5H", "6H", "7H", "8H", "9H"]},
    {},
    {10: ["9S", "TS", "JS", "QS", "KS"]},
    {5: ["AC", "KC", "QC", "JC", "TC"]},
    {},
)


class ScheduledShoe:
    """A shuffle source for a live server: each shuffle comes out with the next hands of
    :data:`SCHEDULE` on top and the rest of the deck in a seeded order (Fisher-Yates run
    backwards from the order wanted, as the service tests' ``StackedSource``)."""

    def __init__(self, offset: int, seed: int) -> None:
        self.offset = offset
        self.rng = random.Random(seed)
        self.shuffles = 0
        self.lock = threading.Lock()
        self.state = threading.local()  # each command thread its own shuffle in progress

    def next_order(self) -> list[int]:
        with self.lock:
            plan = SCHEDULE[(self.shuffles + self.offset) % len(SCHEDULE)]
            self.shuffles += 1
            placed = {
                start + i: parse_card(code)
                for start, codes in plan.items()
                for i, code in enumerate(codes)
            }
            rest = [c for c in range(52) if c not in placed.values()]
            self.rng.shuffle(rest)
        others = iter(rest)
        return [placed[i] if i in placed else next(others) for i in range(52)]

    def randbelow(self, n: int) -> int:
        state = self.state
        if n == 52:  # a new shuffle starts from the deck in order
            state.target = self.next_order()
            state.current = list(range(52))
        i = n - 1
        j = state.current.index(state.target[i])
        state.current[i], state.current[j] = state.current[j], state.current[i]
        return int(j)


#: The shoe each server deals from, made in its own process (``tests.live.shoe_setup``).
SHOE = "tests.games.crazy_4_poker.test_linked_meters_two_daphnes:ScheduledShoe"

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from table import duties, ledger, meters
from table.games import game
from table.models import RulesSubmission, Table
SEATS = %r
c4p = game("crazy_4_poker")
rules = RulesSubmission.objects.create(
    name="Linked Crazy 4 Poker", game=c4p.name, choices=c4p.rules_to_dict(c4p.default_rules())
)
users = get_user_model().objects
deal = Permission.objects.get(codename="deal_table", content_type__app_label="table")
tables = {}
for name, seats in SEATS.items():
    table = Table.objects.create(name=f"Crazy 4 Poker {name}", rules=rules)
    ledger.table_bankroll(table)
    dealer = users.create_user(f"dealer-{name}")
    dealer.user_permissions.add(deal)
    duties.assign_dealer(table.pk, users.get(pk=dealer.pk), None)
    for player in seats:
        ledger.credit(users.create_user(player), 10_000_00, "play money")
    tables[name] = table
five = meters.create_meter("Bank five-card A", "five_card", "A", 100, tables.values())
hb = meters.create_meter("Bank hand bonus", "hand_bonus", "", 100, tables.values())
print(json.dumps({"tables": {n: t.pk for n, t in tables.items()}, "meters": [five.pk, hb.pk]}))
"""

REPORT = """
import json
from table import audit, ledger, meters
from table.models import MeterEvent, ProgressiveMeter, Round, RoundEvent, Table
out = {"ledger": ledger.verify(), "meters": meters.verify(), "events": {}, "standing": {},
       "rounds": {}, "chains": {}, "audits": []}
for m in ProgressiveMeter.objects.all():
    out["standing"][m.pk] = [m.kind, m.amount, m.reserve, m.version, m.account.balance]
    out["events"][m.pk] = [
        {"v": e.version, "kind": e.kind, "table": e.table_id, "round": e.round_number,
         "box": e.box, "wager": e.wager, "stakes": e.stakes, "percent": e.percent,
         "split": e.split, "paid": e.paid, "ab": e.amount_before, "rb": e.reserve_before,
         "aa": e.amount_after, "ra": e.reserve_after, "reseeded": e.reseeded}
        for e in MeterEvent.objects.filter(meter=m).order_by("version")
    ]
for t in Table.objects.all():
    out["chains"][t.pk] = audit.verify_chain(t.pk).broken
    out["rounds"][t.pk] = []
    for r in Round.objects.filter(table=t).order_by("number"):
        settled = RoundEvent.objects.filter(round=r, kind="round_settled").count()
        out["rounds"][t.pk].append([r.number, r.phase, settled])
        problems = audit.verify_round(r.pk).problems
        out["audits"] += [f"{t.name} round {r.number}: {p}" for p in problems]
print(json.dumps(out, default=str))
"""


@pytest.mark.skipif(
    not REAL, reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: the real-stack pass"
)
def test_two_tables_on_two_daphnes_share_their_meters() -> None:
    with LiveStack(use_redis=True, use_postgres=True) as stack:
        made = json.loads(stack.python(SETUP % (SEATS,)).strip().splitlines()[-1])
        # Each server its own schedule, two shuffles apart: the hits of the two tables come
        # in different rounds, between the other table's increments and hits.
        servers = {
            name: stack.daphne(setup=shoe_setup(SHOE, offset, seed))
            for name, offset, seed in (("one", 0, 1), ("two", 2, 2))
        }
        try:
            report, published, sockets = asyncio.run(play(stack, made, servers))
        except BaseException:
            print(stack.logs())
            raise
        assert "ledger OK" in stack.manage("verify_ledger")
    check(made, report, published, sockets)


async def play(
    stack: LiveStack, made: dict[str, Any], servers: dict[str, str]
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, TableClient]]:
    from channels_redis.pubsub import RedisPubSubChannelLayer

    # What Redis carried, in the order every subscriber (both servers) receives it.
    layer = RedisPubSubChannelLayer(
        hosts=[stack.env["REDIS_URL"]], prefix=stack.env["CHANNELS_PREFIX"]
    )
    channel = await layer.new_channel()
    for meter in made["meters"]:
        await layer.group_add(f"meter.{meter}", channel)
    published: list[dict[str, Any]] = []

    async def listen() -> None:
        while True:
            message = await layer.receive(channel)
            published.append(json.loads(message["text"]))

    listener = asyncio.create_task(listen())
    names = [*(f"dealer-{t}" for t in SEATS), *(p for seats in SEATS.values() for p in seats)]
    cookies = session_cookies(stack, names)
    players: dict[str, TableClient] = {}
    dealers: dict[str, TableClient] = {}
    for table, seats in SEATS.items():
        tid, where = made["tables"][table], servers[table]
        dealers[table] = await TableClient(
            f"dealer-{table}",
            f"ws://{where}/ws/tables/{tid}/dealer/",
            cookies[f"dealer-{table}"],
            f"http://{where}",
        ).connect()
        for name, box in seats.items():
            client = await TableClient(
                name, f"ws://{where}/ws/tables/{tid}/", cookies[name], f"http://{where}"
            ).connect()
            reply = await client.command(cmd="sit", box=box)
            assert reply["type"] == "ok", reply
            players[name] = client

    async def deal_rounds(table: str) -> None:
        seated = [(players[name], box) for name, box in sorted(SEATS[table].items())]
        sent = 0.0

        async def dealer(**message: Any) -> dict[str, Any]:
            """The dealer's command, sent no faster than a connection may send frames
            (docs/protocol.md): the dealer's five a round come quicker than that on an idle
            machine, and one past the limit is refused as ``rate_limited``."""
            nonlocal sent
            loop = asyncio.get_running_loop()
            await asyncio.sleep(max(0.0, sent + 1 / RATE_PER_SECOND - loop.time()))
            sent = loop.time()
            return await dealers[table].command(**message)

        for _ in range(ROUNDS):
            assert (await dealer(cmd="open_betting"))["type"] == "ok"
            for client, box in seated:
                reply = await client.command(cmd="act", move="bet", box=box, args=WAGERS)
                assert reply["type"] == "ok", reply
            marks = {client.name: len(client.frames) for client, _ in seated}
            assert (await dealer(cmd="no_more_bets"))["type"] == "ok"
            assert (await dealer(cmd="deal"))["type"] == "ok"
            for client, box in sorted(seated, key=lambda cb: cb[1]):  # from the dealer's left
                await client.wait_for(
                    lambda f, b=box: (
                        f.get("type") == "events"
                        and any(
                            e["kind"] == "turn" and e["data"].get("box") == b for e in f["events"]
                        )
                    ),
                    timeout=15,
                    since=marks[client.name],
                )
                play_1x = {"play": WAGERS["ante"]}
                reply = await client.command(cmd="act", move="decide", box=box, args=play_1x)
                assert reply["type"] == "ok", reply
            assert (await dealer(cmd="reveal"))["type"] == "ok"
            settled = await dealer(cmd="settle", timeout=30)
            assert settled["type"] == "ok", settled

    # Both dealers at once: the two processes take the meters' row locks in turn.
    await asyncio.gather(*(deal_rounds(table) for table in SEATS))

    report: dict[str, Any] = json.loads(
        (await asyncio.to_thread(stack.python, REPORT)).strip().splitlines()[-1]
    )

    # Until Redis has carried, and every socket forwarded, each meter's last change (frames
    # cross between the processes on their way).
    async def newest(client: TableClient | None, meter: str, version: int) -> None:
        for _ in range(150):
            frames = meter_frames(client.frames) if client else published
            if any(str(f["meter"]) == meter and f["version"] >= version for f in frames):
                return
            await asyncio.sleep(0.1)

    await asyncio.gather(
        *(
            newest(client, meter, standing[3])
            for meter, standing in report["standing"].items()
            for client in (None, *players.values())
        )
    )
    listener.cancel()
    await layer.flush()
    for client in [*players.values(), *dealers.values()]:
        await client.close()
    return report, published, players


def meter_frames(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A socket's meter frames, one per meter: a ``meters`` frame's entries each on its own."""
    found = []
    for frame in frames:
        if frame.get("type") == "meter":
            found.append(frame)
        elif frame.get("type") == "meters":
            found.extend(frame["meters"])
    return found


def check(
    made: dict[str, Any],
    report: dict[str, Any],
    published: list[dict[str, Any]],
    sockets: dict[str, TableClient],
) -> None:
    assert report["ledger"] == [] and report["meters"] == [] and report["audits"] == []
    table_of = {name: made["tables"][t] for t, seats in SEATS.items() for name in seats}
    ids = set(made["tables"].values())

    # Each table's rounds: ROUNDS of them, each settled once; its event chain unbroken.
    for tid in ids:
        assert report["rounds"][str(tid)] == [[n, "settled", 1] for n in range(1, ROUNDS + 1)]
        assert report["chains"][str(tid)] is None
    for name, client in sockets.items():
        assert client.kinds["round_settled"] == ROUNDS, name
        assert client.errors == [], (name, client.errors[:3])

    figures = {}
    for meter_id, events in report["events"].items():
        kind, amount, reserve, version, account = report["standing"][meter_id]
        # One unbroken chain: versions 1..n, each change starting where the last one ended.
        assert [e["v"] for e in events] == list(range(1, version + 1))
        for prev, e in zip(events, events[1:], strict=False):
            assert (e["ab"], e["rb"]) == (prev["aa"], prev["ra"]), e
        assert (events[-1]["aa"], events[-1]["ra"]) == (amount, reserve)
        assert account == amount + reserve

        # Every round of both tables fed the meter once, with every wager of its kind.
        increments = [e for e in events if e["kind"] == "increment"]
        assert sorted((e["table"], e["round"]) for e in increments) == sorted(
            (tid, n) for tid in ids for n in range(1, ROUNDS + 1)
        )
        (primary, to_reserve), reseed = RATES[kind]
        for e in increments:
            assert e["stakes"] == (2 if kind == "five_card" else 4), e
            assert (e["aa"] - e["ab"], e["ra"] - e["rb"]) == (
                primary * e["stakes"],
                to_reserve * e["stakes"],
            ), e
        # Each hit paid its percentage of what the meter held at its turn, rounded down and
        # split (§657a.12(f)(2)); a 100% hit reset the meter to the reseed plus the reserve.
        hits = [e for e in events if e["kind"] == "hit"]
        i = 0
        while i < len(hits):
            first = hits[i]
            share = first["ab"] * first["percent"] // 100 // first["split"]
            group = hits[i : i + first["split"]]
            assert [g["paid"] for g in group] == [share] * first["split"], group
            assert len({(g["table"], g["round"], g["wager"]) for g in group}) == 1, group
            i += first["split"]
        for e in hits:
            if e["reseeded"]:
                assert (e["aa"], e["ra"]) == (reseed + e["rb"] + e["ab"] - e["paid"], 0), e
        booked = [(e["table"], e["round"], e["box"], e["wager"]) for e in hits]
        assert len(booked) == len(set(booked)), "a winning wager was paid twice"
        # The schedule's hands hit both tables' wagers: 10% and 100% (and the split dealer
        # hand on the hand-bonus meter), from both tables.
        for tid in ids:
            mine = [e for e in hits if e["table"] == tid]
            assert {10, 100} <= {e["percent"] for e in mine}, (kind, tid)
            if kind == "hand_bonus":
                assert any(e["split"] == 2 for e in mine), tid
        # The two processes really interleaved on this meter, the hits among the increments.
        tables = [e["table"] for e in events[1:]]
        switches = sum(1 for a, b in zip(tables, tables[1:], strict=False) if a != b)
        hit_switches = sum(
            1
            for a, b in zip(events[1:], events[2:], strict=False)
            if a["table"] != b["table"] and "hit" in (a["kind"], b["kind"])
        )
        assert switches >= ROUNDS // 2 and hit_switches >= 2, (kind, switches, hit_switches)

        # The changes a frame may carry through Redis: a split jackpot is one change (after
        # its last share), every other history row is one.
        last_share = {}
        for e in hits:
            if e["split"] > 1:
                last_share[(e["table"], e["round"], e["wager"])] = e["v"]
        changes = [
            e["v"]
            for e in events[1:]
            if e["split"] <= 1 or e["v"] == last_share[(e["table"], e["round"], e["wager"])]
        ]
        amounts = {e["v"]: e["aa"] for e in events}
        kinds = {e["v"]: e["kind"] for e in events}
        tables_by_version = {e["v"]: e["table"] for e in events}
        order = [f["version"] for f in published if str(f["meter"]) == meter_id]
        # Coalesced where they are published too (table/meter_outbox.py): a process's
        # increments and reversals within an interval of its last frame go as the newest of
        # them, so Redis carries some of those changes, each once; every other change (a hit,
        # a reset) goes at once, and so does the newest change of all (the standing).
        assert len(order) == len(set(order)) and set(order) <= set(changes), meter_id
        at_once = {v for v in changes if kinds[v] not in ("increment", "reversal")}
        assert at_once <= set(order), (meter_id, sorted(at_once - set(order)))
        assert max(changes) in order, meter_id
        assert all(
            f["amount"] == amounts[f["version"]] for f in published if str(f["meter"]) == meter_id
        )
        # Every player at both tables got each change, in the order Redis carried them (a
        # socket forwards the newest only: a frame that crossed a newer one from the other
        # process is the one change a socket may legitimately not forward).
        crossed = 0
        for name, client in sockets.items():
            start = next(
                m["version"]
                for m in client.snapshot["table"]["meters"]  # type: ignore[index]
                if str(m["meter"]) == meter_id
            )
            expected, top = [], start
            for v in order:
                if v > top:
                    expected.append(v)
                    top = v
            got = [f for f in meter_frames(client.frames) if str(f["meter"]) == meter_id]
            versions = [f["version"] for f in got]
            # Coalesced (table/meter_relay.py): the increments and reversals that came within
            # an interval of the last frame go as the newest of them, so a socket gets some of
            # the changes, in rising versions, always ending on the newest; every hit and
            # reset that Redis carried as the newest so far goes at once, never coalesced. An
            # increment that left the amount where the socket's last frame put it is not sent:
            # what the socket shows ends on the newest amount.
            assert versions == sorted(set(versions)) and set(versions) <= set(order), name
            assert got[-1]["amount"] == amounts[max(order)], name
            must = {v for v in expected if kinds[v] in ("hit", "reset")}
            assert must <= set(versions), (name, sorted(must - set(versions)))
            assert all(f["amount"] == amounts[f["version"]] for f in got), name
            others = [f for f in got if f.get("table") not in (None, table_of[name])]
            assert others, f"{name} never saw the other table's changes of meter {meter_id}"
            crossed = max(crossed, len([v for v in order if v > start]) - len(got))
        # Which frames Redis carried after a newer one (the other process's commit came
        # later but its publication first): (version, its table, the version ahead of it).
        overtaken, top = [], 0
        for v in order:
            if v < top:
                overtaken.append((v, tables_by_version[v], top))
            top = max(top, v)
        figures[kind] = {
            "changes": len(changes),
            "increments": len(increments),
            "hits": len(hits),
            "reseeds": sum(1 for e in hits if e["reseeded"]),
            "splits": len({(e["table"], e["round"]) for e in hits if e["split"] > 1}),
            "table switches": switches,
            "frames per player": len(changes) - crossed,
            "crossed or coalesced": crossed,
            "overtaken": overtaken,
        }
    # Websocket frames: one ``meters`` frame carries both meters when both moved.
    frames = {
        n: sum(1 for f in c.frames if f.get("type") in ("meter", "meters"))
        for n, c in sockets.items()
    }
    print(f"\nlinked meters, 2 tables x {ROUNDS} rounds: {json.dumps(figures)}; frames {frames}")
