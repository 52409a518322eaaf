"""No player pays for the server's lag: a bet or a decision whose frame reached the socket
before its deadline is honoured even when a slow command path reaches it after the deadline,
and the clock waits for it; one sent after the deadline is refused; and a stamp is trusted
only up to ``LAG_ALLOWANCE`` (services.context).

The command path is slowed on purpose (the service sleeps before it runs, as a command does
waiting behind a busy table's queue or a saturated process), and the clock ticks while the
command is on its way.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from table import services
from table.autodealer import AutoDealer
from table.models import Round, Table
from table.services import context

from .conftest import Sock, open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

#: The bound, for these tests (the default, 1 s, would make them slower, not different).
ALLOWANCE = dt.timedelta(seconds=1.5)
#: How long the slowed command path holds a command: past its deadline, within the bound.
SLOW = 0.8


def slowed(monkeypatch: pytest.MonkeyPatch, name: str, seconds: float) -> Callable[..., Any]:
    """``services.<name>`` (what the consumer calls) sleeps ``seconds`` before it runs; the
    original is returned."""
    original: Callable[..., Any] = getattr(services, name)

    def late(*args: Any, **kw: Any) -> Any:
        time.sleep(seconds)
        return original(*args, **kw)

    monkeypatch.setattr(services, name, late)
    return original


def deadline_in(table: Table, field: str, seconds: float) -> dt.datetime:
    moment = timezone.now() + dt.timedelta(seconds=seconds)
    Table.objects.filter(pk=table.pk).update(**{field: moment})
    return moment


def decision_of(table: Table, box: int) -> Any:
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    return next(b["decision"] for b in row.state["boxes"] if b["box"] == box)


async def dealt(table: Table, alice: Sock, bob: Sock, dealer: Sock) -> None:
    for sock, box in ((alice, 1), (bob, 3)):
        assert (await sock.command(cmd="sit", box=box))["type"] == "ok"
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
    for sock, box in ((alice, 1), (bob, 3)):
        assert (await sock.command(cmd="act", move="bet", box=box, args={"ante": 1000}))[
            "type"
        ] == "ok"
    assert (await dealer.command(cmd="no_more_bets"))["type"] == "ok"
    assert (await dealer.command(cmd="deal"))["type"] == "ok"


async def test_a_decision_sent_in_time_is_honoured_however_late_the_server_gets_to_it(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(context, "LAG_ALLOWANCE", ALLOWANCE)
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    bob = await open_socket(table.pk, table_setup["bob"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await dealt(table, alice, bob, dealer)
    turn = await alice.until(
        lambda f: f["type"] == "events" and any(e["kind"] == "turn" for e in f["events"])
    )
    # The clock the player sees is the one the server enforces: the turn's deadline in the
    # frame is the table's, in the server's epoch milliseconds (the client's offset to the
    # server's clock comes from the pong's "server" time, within the round trip).
    shown = next(e["data"]["deadline"] for e in turn["events"] if e["kind"] == "turn")
    stored = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).turn_deadline)()
    assert stored is not None and shown == int(stored.timestamp() * 1000)

    clock = AutoDealer(table.pk, owner="clock-test", full=False)
    act = slowed(monkeypatch, "act", SLOW)
    deadline = await database_sync_to_async(deadline_in)(table, "turn_deadline", 0.3)
    await alice.send(
        cmd="act", move="decide", box=1, ref="in-time", args={"raise": 1}
    )  # before the deadline
    await asyncio.sleep(0.5)
    assert timezone.now() > deadline  # the deadline passed while the command was on its way
    # The clock does not fold the box under the decision still on its way.
    assert await database_sync_to_async(clock.tick)() is None
    reply = await alice.reply(timeout=10)
    assert reply["type"] == "ok" and reply["ref"] == "in-time", reply
    assert timezone.now() > deadline  # the server reached it after the deadline: honoured
    assert await database_sync_to_async(decision_of)(table, 1) == 1

    # Bob's turn: a decision sent after the deadline is refused, and changes nothing ...
    monkeypatch.setattr(services, "act", act)
    deadline = await database_sync_to_async(deadline_in)(table, "turn_deadline", 0.1)
    await asyncio.sleep(0.3)
    late = await bob.command(cmd="act", move="decide", box=3, args={"raise": 1})
    assert late["type"] == "error" and late["code"] == "too_late", late
    assert await database_sync_to_async(decision_of)(table, 3) is None
    # ... and the clock folds the box only once a decision sent in time would have come.
    assert await database_sync_to_async(clock.tick)() is None
    wait = (deadline + ALLOWANCE - timezone.now()).total_seconds()
    await asyncio.sleep(max(0.0, wait) + 0.05)
    assert await database_sync_to_async(clock.tick)() == "time_out"
    assert await database_sync_to_async(decision_of)(table, 3) == 0
    for sock in (alice, bob, dealer):
        await sock.close()


async def test_a_stamp_counts_only_up_to_the_allowance(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command held past the bound is judged as made ``LAG_ALLOWANCE`` ago: a server that
    far behind cannot carry a command past the clock that waited that long."""
    monkeypatch.setattr(context, "LAG_ALLOWANCE", dt.timedelta(seconds=0.4))
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    bob = await open_socket(table.pk, table_setup["bob"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await dealt(table, alice, bob, dealer)
    await alice.until(
        lambda f: f["type"] == "events" and any(e["kind"] == "turn" for e in f["events"])
    )
    slowed(monkeypatch, "act", 1.0)
    await database_sync_to_async(deadline_in)(table, "turn_deadline", 0.2)
    reply = await alice.command(cmd="act", move="decide", box=1, args={"raise": 1})  # sent in time
    assert reply["type"] == "error" and reply["code"] == "too_late", reply
    assert await database_sync_to_async(decision_of)(table, 1) is None
    for sock in (alice, bob, dealer):
        await sock.close()


async def test_a_bet_sent_before_the_countdown_ends_is_honoured(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The betting countdown, while the clock deals the table: a bet that reached the socket
    before it ran out is taken, and "no more bets" waits for it; a bet after it is refused."""
    monkeypatch.setattr(context, "LAG_ALLOWANCE", ALLOWANCE)
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    bob = await open_socket(table.pk, table_setup["bob"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    for sock, box in ((alice, 1), (bob, 3)):
        assert (await sock.command(cmd="sit", box=box))["type"] == "ok"
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
    owner = "clock-test"
    await database_sync_to_async(lambda: Table.objects.filter(pk=table.pk).update(dealt_by=owner))()
    clock = AutoDealer(table.pk, owner=owner)
    act = slowed(monkeypatch, "act", SLOW)
    deadline = await database_sync_to_async(deadline_in)(table, "betting_deadline", 0.3)
    await alice.send(cmd="act", move="bet", box=1, ref="in-time", args={"ante": 1000})
    await asyncio.sleep(0.5)
    assert timezone.now() > deadline
    assert await database_sync_to_async(clock.tick)() is None  # betting stays open for it
    reply = await alice.reply(timeout=10)
    assert reply["type"] == "ok" and reply["ref"] == "in-time", reply
    assert timezone.now() > deadline
    monkeypatch.setattr(services, "act", act)
    late = await bob.command(cmd="act", move="bet", box=3, args={"ante": 1000})
    assert late["type"] == "error" and late["code"] == "too_late", late
    wait = (deadline + ALLOWANCE - timezone.now()).total_seconds()
    await asyncio.sleep(max(0.0, wait) + 0.05)
    assert await database_sync_to_async(clock.tick)() == "no_more_bets"
    row = await database_sync_to_async(
        lambda: Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    )()
    assert {b["box"]: b["wagers"].get("ante") for b in row.state["boxes"]} == {1: 1000}
    for sock in (alice, bob, dealer):
        await sock.close()
