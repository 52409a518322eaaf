"""Crash recovery of a Crazy 4 Poker table on the real stack (the machinery:
tests/integrity/crash_games.py): its round killed at every phase, between the meter hits and
the payout, and its automatic dealer killed and restarted. The rounds deal box 1 a royal flush,
which takes 100% of both linked meters (§657a.12(e)(4), (f)(4))."""

from __future__ import annotations

import json

import pytest

from tests.integrity.crash_games import (
    NEEDS,
    START,
    GameCrasher,
    kill_mid_settlement,
    meter_events,
    meters_of,
    run_game,
    short_clocks,
)
from tests.integrity.test_crash import SETTLE_DELAY, query

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

#: Box 1 a royal flush in hearts, box 2 a pair of nines, the dealer king high (as in
#: tests/games/crazy_4_poker/services/test_at_table.py): the royal takes both meters whole.
C4P_SHOE = (
    ["AH", "KH", "QH", "JH", "TH"] + ["9S", "9D", "4C", "6S", "2D"] + ["KC", "8D", "5S", "3C", "7D"]
)


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


@NEEDS
def test_crazy_4_poker_survives_kill_minus_nine_at_every_phase_and_between_hit_and_payout() -> None:
    run_game("crazy_4_poker", [C4P_SHOE] * 3, play_crazy_4_poker, kills=5 + 2)
