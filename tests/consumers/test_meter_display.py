"""A table's linked meters reach its sockets as a progressive display updates (issue 26,
table/meter_relay.py, docs/protocol.md "Meter frames"): at most one frame of increments and
reversals per ``METER_FRAME_INTERVAL`` for each socket, carrying every linked meter that moved
(a ``meters`` frame when several did), each meter's newest amount always delivered; a hit goes
at once, alone, whatever is held. The tests take a game whose default rules link two meters
to a table (e.g. a progressive and a hand bonus, which a round's "no more bets" moves
together).

Frames are published to the meters' channel-layer groups as ``table.meters`` publishes them
after a commit, so the tests set each change's version and amount."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from table import meters
from table.demo import link_meters
from table.frames import SERVER_FRAME
from table.games import GAMES, game
from table.models import DealerAssignment, ProgressiveMeter, RulesSubmission, Table

from .conftest import Sock, open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

#: A game whose default rules link two meters or more to a table.
TWO_METER_GAME = next(n for n in GAMES if len(game(n).meters(game(n).default_rules())) >= 2)
INTERVAL = 0.6


def linked_table(dealer: Any) -> tuple[Table, list[ProgressiveMeter]]:
    g = game(TWO_METER_GAME)
    rules = RulesSubmission.objects.create(
        name=f"{g.title} display rules",
        game=TWO_METER_GAME,
        choices=g.rules_to_dict(g.default_rules()),
    )
    table = Table.objects.create(name=f"{g.title} display table", rules=rules)
    DealerAssignment.objects.create(table=table, dealer=dealer)
    link_meters(table, rules)
    return table, list(table.progressive_meters.order_by("pk"))


class Changes:
    """Publishes changes of the table's meters as the commands' commits do."""

    def __init__(self, table: Table, linked: list[ProgressiveMeter]) -> None:
        self.table = table
        self.meters = {m.pk: m for m in linked}
        self.version = {m.pk: m.version for m in linked}
        self.amount = {m.pk: m.amount for m in linked}

    async def __call__(self, meter: ProgressiveMeter, cause: str, cents: int) -> None:
        self.version[meter.pk] += 1
        self.amount[meter.pk] += cents
        frame = {
            **meters.meter_frame(meter, cause, self.table),
            "amount": self.amount[meter.pk],
            "version": self.version[meter.pk],
        }
        await get_channel_layer().group_send(
            meters.meter_group(meter.pk), meters.frame_message(frame)
        )


async def watching(table_setup: dict[str, Any]) -> tuple[list[Sock], Changes, Any, Any]:
    table, linked = await database_sync_to_async(linked_table)(table_setup["dealer"])
    assert len(linked) >= 2
    socks = [await open_socket(table.pk, table_setup["alice"]), await open_socket(table.pk, None)]
    for sock in socks:
        assert (await sock.recv())["type"] == "snapshot"
    return socks, Changes(table, linked), linked[0], linked[1]


async def frames_for(socks: list[Sock], seconds: float) -> list[list[tuple[float, dict[str, Any]]]]:
    """The frames each socket gets within ``seconds``, each with the loop's time it came
    (polled: a communicator's receive that times out would cancel the application)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    got: list[list[tuple[float, dict[str, Any]]]] = [[] for _ in socks]
    while loop.time() < end:
        for sock, frames in zip(socks, got, strict=True):
            while not sock.comm.output_queue.empty():
                frames.append((loop.time(), await sock.recv()))
        await asyncio.sleep(0.01)
    return got


def shown(frames: list[tuple[float, dict[str, Any]]]) -> list[tuple[int, int, str]]:
    """(meter, amount, cause) of each meter each frame carries, in order."""
    entries = []
    for _, frame in frames:
        SERVER_FRAME.validate_python(frame)  # in the published schema
        for m in frame["meters"] if frame["type"] == "meters" else [frame]:
            entries.append((m["meter"], m["amount"], m["cause"]))
    return entries


async def test_one_frame_an_interval_carries_every_linked_meter_that_moved(
    table_setup: dict[str, Any], settings: Any
) -> None:
    """A round's "no more bets" at one table after a quiet spell, then rounds closing at the
    linked tables within the interval: each socket gets the first change at once, then one
    ``meters`` frame, no sooner than an interval after it, with both meters' newest amounts.
    Before, each meter was paced on its own: two frames at once, two more at the end."""
    settings.METER_FRAME_INTERVAL = INTERVAL
    socks, change, first, second = await watching(table_setup)
    await change(first, "increment", 5)
    for cents in (7, 11, 13):
        await change(second, "increment", cents)
        await change(first, "increment", cents)
    for sock, got in zip(socks, await frames_for(socks, 2.5 * INTERVAL), strict=True):
        assert [f["type"] for _, f in got] == ["meter", "meters"], got
        assert shown(got) == [
            (first.pk, first.amount + 5, "increment"),
            (first.pk, change.amount[first.pk], "increment"),
            (second.pk, change.amount[second.pk], "increment"),
        ]
        assert got[1][0] - got[0][0] >= INTERVAL * 0.9  # at most one an interval
        await sock.close()


async def test_a_hit_goes_at_once_and_the_held_meters_end_on_their_newest(
    table_setup: dict[str, Any], settings: Any
) -> None:
    """A hit of one meter while increments of both are held: the hit at once, alone, in
    place of that meter's older increments (it carries the amount); the other meter's newest
    when the interval ends. A reset likewise."""
    settings.METER_FRAME_INTERVAL = INTERVAL
    socks, change, first, second = await watching(table_setup)
    loop = asyncio.get_running_loop()
    await change(first, "increment", 5)  # at once: the interval starts
    await change(second, "increment", 3)  # held
    await change(first, "increment", 4)  # held
    start = loop.time()
    await change(first, "hit", -change.amount[first.pk] + 1000)
    hit_amount = change.amount[first.pk]
    for got in await frames_for(socks, 2 * INTERVAL):
        assert shown(got) == [
            (first.pk, first.amount + 5, "increment"),
            (first.pk, hit_amount, "hit"),
            (second.pk, change.amount[second.pk], "increment"),
        ]
        assert [f["type"] for _, f in got] == ["meter", "meter", "meter"]
        assert got[1][0] - start < INTERVAL / 2  # the hit was not held for the interval
    await change(second, "reset", -change.amount[second.pk] + 500)  # at once, like a hit
    for sock, got in zip(socks, await frames_for(socks, INTERVAL / 2), strict=True):
        assert shown(got) == [(second.pk, 500, "reset")]
        await sock.close()


async def test_an_increment_undone_within_the_interval_sends_nothing(
    table_setup: dict[str, Any], settings: Any
) -> None:
    """An increment and its round's void within the interval leave the amount where the
    socket's display shows it: no frame. The next change that moves it comes as ever."""
    settings.METER_FRAME_INTERVAL = INTERVAL
    socks, change, first, _ = await watching(table_setup)
    await change(first, "increment", 5)
    await change(first, "increment", 9)
    await change(first, "reversal", -9)
    for got in await frames_for(socks, 2 * INTERVAL):
        assert shown(got) == [(first.pk, first.amount + 5, "increment")]
    await change(first, "increment", 2)
    for sock, got in zip(socks, await frames_for(socks, INTERVAL / 2), strict=True):
        assert shown(got) == [(first.pk, first.amount + 7, "increment")]
        await sock.close()


async def test_a_change_held_where_it_is_published_still_makes_the_next_display_frame(
    table_setup: dict[str, Any], settings: Any
) -> None:
    """Published by a command's thread (table.meter_outbox holds a burst's newest for
    ``METER_PUBLISH_INTERVAL``, not a whole display interval): a meter's second change within
    the publishing hold reaches the relay before the display's interval ends and goes with its
    frame, not one interval later. Before, the outbox held it for the display interval too and
    it missed the frame: shown two intervals after the first change."""
    settings.METER_FRAME_INTERVAL = INTERVAL
    socks, change, first, second = await watching(table_setup)

    def frame_of(meter: ProgressiveMeter, cents: int) -> dict[str, Any]:
        change.version[meter.pk] += 1
        change.amount[meter.pk] += cents
        return {
            **meters.meter_frame(meter, "increment", change.table),
            "amount": change.amount[meter.pk],
            "version": change.version[meter.pk],
        }

    # meters.publish as a command's on_commit calls it, here from the loop's own thread (a
    # service thread's hop to the loop would make the timing the host's).
    meters.publish(frame_of(first, 5))  # at once: the display's interval starts
    await asyncio.sleep(INTERVAL / 6)
    meters.publish(frame_of(second, 3))  # published at once, held by the display
    await asyncio.sleep(INTERVAL / 12)
    meters.publish(frame_of(second, 4))  # held where it is published, for a short while
    for got in await frames_for(socks, 2.5 * INTERVAL):
        assert shown(got) == [
            (first.pk, first.amount + 5, "increment"),
            (second.pk, second.amount + 7, "increment"),
        ]
        assert got[1][0] - got[0][0] < 1.5 * INTERVAL  # the display's next frame, ~1 interval
    for sock in socks:
        await sock.close()


async def test_the_dealers_console_is_sent_no_meter_frames(
    table_setup: dict[str, Any], settings: Any
) -> None:
    """The console draws no meter (a meter's payment comes in the settlement): a change goes
    to the players' pages, not to the console, which still gets the table's versions."""
    settings.METER_FRAME_INTERVAL = INTERVAL
    socks, change, first, _ = await watching(table_setup)
    console = await open_socket(change.table.pk, table_setup["dealer"], dealer=True)
    assert (await console.recv())["type"] == "snapshot"
    await change(first, "increment", 5)
    *players, on_console = await frames_for([*socks, console], INTERVAL)
    for got in players:
        assert shown(got) == [(first.pk, first.amount + 5, "increment")]
    assert on_console == []
    for sock in [*socks, console]:
        await sock.close()
