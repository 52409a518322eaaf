"""Two OS processes feed and hit the same progressive meters at once, on PostgreSQL and Redis.

Each process plays its own table; both tables are linked to one Five-Card A meter and one
hand-bonus meter. Every round increments both meters, most hit them (100%, 10%, a split
dealer-hand jackpot) and some are voided. Afterwards: the meters' histories are one unbroken
chain in commit order (each change starts where the previous one ended, each hit paid what
the meter held at that moment), each hit a process made is booked and paid exactly once, the
meters and the ledger are exact, and a listener on Redis got one meter frame per change.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest

from tests.live import ROOT, LiveStack

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

REAL = os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
ROUNDS = 120
#: (primary, reserve) cents per $1 wager and the reseed: hand bonus, Five-Card A.
RATES = {False: ((13, 8), 0), True: ((21, 0), 10_000_00)}

SETUP = """
from table import ledger, meters
from table.models import RulesSubmission, Table
from django.contrib.auth import get_user_model
rules = RulesSubmission.objects.create(name="meters")
tables = [Table.objects.create(name=f"table {i}", rules=rules) for i in (1, 2)]
for name in ("ann", "ben", "both"):
    ledger.player_account(get_user_model().objects.create_user(name, password="x"))
five = meters.create_meter("linked five-card", "five_card", "A", 100, tables)
hb = meters.create_meter("linked hand bonus", "hand_bonus", "", 100, tables)
print(json.dumps({"tables": [t.pk for t in tables], "five": five.pk, "hb": hb.pk}))
"""

WORKER = """
import json, sys
import django
django.setup()
from django.db import transaction
from table import meters
from table.models import Round, Table
table = Table.objects.get(pk=int(sys.argv[1]))
me, rounds = sys.argv[2], int(sys.argv[3])
for i in range(1, rounds + 1):
    with transaction.atomic():
        rnd = Round.objects.create(table=table, number=i, rules_submission=table.rules, rules={},
                                   phase="betting", state={}, commitment="-", deck_back="red")
        meters.apply_increments(table, rnd, {"progressive": [100] * (1 + i % 4),
                                           "hand_bonus_player": [100] * (i % 3)})
        hits = [meters.Hit("five_card", 100 if i % 5 == 0 else 10, ((6, me),))]
        if i % 3 == 0:
            hits.append(meters.Hit("hand_bonus", 10 if i % 2 else 100,
                                   ((4, me), (2, "both")), "hand_bonus_dealer"))
        paid = meters.pay_hits(table, rnd, hits) if i % 7 else []
    for p in paid:
        print(json.dumps({"table": table.pk, "round": i, "box": p.box, "wager": p.wager,
                          "meter": p.meter, "paid": p.paid}), flush=True)
    if i % 11 == 0:  # a void, after the round's own commit (hits came and went meanwhile)
        with transaction.atomic():
            meters.reverse_increments(rnd)
"""

REPORT = """
import json
from table import ledger, meters
from table.models import Account, MeterEvent, ProgressiveMeter
out = {"ledger": ledger.verify(), "meters": meters.verify(), "events": {}, "standing": {},
       "players": {a.name: a.balance for a in Account.objects.filter(kind="player")}}
for m in ProgressiveMeter.objects.all():
    out["standing"][m.pk] = [m.amount, m.reserve, m.version, m.account.balance]
    out["events"][m.pk] = [
        {"v": e.version, "kind": e.kind, "table": e.table_id, "round": e.round_number,
         "box": e.box, "wager": e.wager, "stakes": e.stakes, "percent": e.percent,
         "split": e.split, "paid": e.paid,
         "ab": e.amount_before, "rb": e.reserve_before, "aa": e.amount_after,
         "ra": e.reserve_after, "funded": e.funded, "reseeded": e.reseeded}
        for e in MeterEvent.objects.filter(meter=m).order_by("version")
    ]
print(json.dumps(out))
"""


@pytest.mark.skipif(
    not REAL, reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: the real-stack pass"
)
def test_two_processes_feed_and_hit_the_same_meters() -> None:
    with LiveStack(use_redis=True, use_postgres=True) as stack:
        made = json.loads(stack.python("import json\n" + SETUP).strip().splitlines()[-1])
        frames, outputs = asyncio.run(race(stack, made))
        report = json.loads(stack.python(REPORT).strip().splitlines()[-1])
        assert "ledger OK" in stack.manage("verify_ledger")
    assert report["ledger"] == [] and report["meters"] == []

    hits_reported = [json.loads(line) for out in outputs for line in out.splitlines() if line]
    paid_total = 0
    for meter_id, events in report["events"].items():
        amount, reserve, version, account = report["standing"][meter_id]
        # One unbroken chain: versions 1..n, each change starting where the last one ended.
        assert [e["v"] for e in events] == list(range(1, version + 1))
        for prev, e in zip(events, events[1:], strict=False):
            assert (e["ab"], e["rb"]) == (prev["aa"], prev["ra"]), e
        assert (events[-1]["aa"], events[-1]["ra"]) == (amount, reserve)
        assert account == amount + reserve
        # Every change is the rules' arithmetic: increments at the rates per $1 wager, a
        # 100% hit resetting to the reseed plus the reserve.
        rates, reseed = RATES[meter_id == str(made["five"])]
        for e in events:
            if e["kind"] == "increment":
                stakes = e["stakes"]
                assert (e["aa"] - e["ab"], e["ra"] - e["rb"]) == (
                    rates[0] * stakes,
                    rates[1] * stakes,
                )
            if e["reseeded"]:
                assert (e["aa"], e["ra"]) == (reseed + e["rb"] + e["ab"] - e["paid"], 0)
        # Each hit paid what the meter held at its turn, in commit order: the first share of
        # a hit is its percentage of the amount it found, rounded down, split.
        for e in events:
            if e["kind"] == "hit":
                paid_total += e["paid"]
        starts = [e for e in events if e["kind"] == "hit"]
        i = 0
        while i < len(starts):
            first = starts[i]
            share = first["ab"] * first["percent"] // 100 // first["split"]
            group = starts[i : i + first["split"]]
            assert [g["paid"] for g in group] == [share] * first["split"], group
            i += first["split"]
        # Both processes really raced on this meter: their changes interleave.
        tables = [e["table"] for e in events if e["table"]]
        switches = sum(1 for a, b in zip(tables, tables[1:], strict=False) if a != b)
        assert switches > 10, f"the two processes never interleaved on meter {meter_id}"

    # Each hit a process paid is booked exactly once, with the amount it was paid.
    booked = [
        (e["table"], e["round"], e["box"], e["wager"], e["paid"])
        for events in report["events"].values()
        for e in events
        if e["kind"] == "hit"
    ]
    assert len(booked) == len(set(booked))
    assert sorted(booked) == sorted(
        (h["table"], h["round"], h["box"], h["wager"], h["paid"]) for h in hits_reported
    )
    assert sum(report["players"].values()) == paid_total

    # One frame per change reached a Redis listener, with the amount of that change.
    for meter_id, events in report["events"].items():
        got = [f for f in frames if str(f["meter"]) == meter_id]
        # A split jackpot is one change of the meter (one frame) booked as one row per share.
        shares = {(e["table"], e["round"], e["wager"]) for e in events if e["split"] > 1}
        last_share = {
            (e["table"], e["round"], e["wager"]): e["v"] for e in events if e["split"] > 1
        }
        changes = [
            e["v"]
            for e in events[1:]
            if (e["table"], e["round"], e["wager"]) not in shares
            or e["v"] == last_share[(e["table"], e["round"], e["wager"])]
        ]
        assert sorted(f["version"] for f in got) == changes
        by_version = {e["v"]: e["aa"] for e in events}
        assert all(f["amount"] == by_version[f["version"]] for f in got)


async def race(
    stack: LiveStack, made: dict[str, object]
) -> tuple[list[dict[str, object]], list[str]]:
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = RedisPubSubChannelLayer(
        hosts=[stack.env["REDIS_URL"]], prefix=stack.env["CHANNELS_PREFIX"]
    )
    channel = await layer.new_channel()
    for key in ("five", "hb"):
        await layer.group_add(f"meter.{made[key]}", channel)
    frames: list[dict[str, object]] = []

    async def listen() -> None:
        while True:
            message = await layer.receive(channel)
            frames.append(json.loads(message["text"]))

    listener = asyncio.create_task(listen())
    tables = made["tables"]
    assert isinstance(tables, list)
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            WORKER,
            str(table),
            who,
            str(ROUNDS),
            env=stack.env,
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for table, who in zip(tables, ("ann", "ben"), strict=True)
    ]
    results = await asyncio.gather(*(p.communicate() for p in procs))
    for proc, (_, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err.decode()[-4000:]
    await asyncio.sleep(2)  # the last frames on their way
    listener.cancel()
    await layer.flush()
    return frames, [out.decode() for out, _ in results]
