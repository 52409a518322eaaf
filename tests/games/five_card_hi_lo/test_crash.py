"""Crash recovery of a Five Card Hi-Lo table on the real stack (the machinery:
tests/integrity/crash_games.py): its round killed at every phase, mid-setting with one box set
and one not, and mid-settlement, and its automatic dealer killed and restarted."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.integrity.crash_games import (
    NEEDS,
    START,
    GameCrasher,
    kill_mid_settlement,
    run_game,
    short_clocks,
)
from tests.integrity.test_crash import SETTLE_DELAY, query

pytestmark = [pytest.mark.realstack, pytest.mark.slow]


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
    short_clocks(stack, c.table, setting_seconds=8)
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


@NEEDS
def test_five_card_hi_lo_survives_kill_minus_nine_at_every_phase_and_mid_setting() -> None:
    run_game("five_card_hi_lo", [], play_five_card_hi_lo, kills=6 + 3)
