"""Protocol v2 on the table socket: ``act`` frames (a move of any game), the round ``view``
that follows each table frame at every game's table (every felt draws from views), and
``meter`` frames from the table's linked progressive meters (docs/protocol.md).

Hostile ``act`` frames are refused by the protocol before any service runs: nothing changes.
The tests that play moves go through ``services.act`` and ``snapshot.round_view``; the view
and meter frame tests stand in a recorder for ``snapshot.round_view`` (this module's fixture
only) to count how many views are built."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from table import meters
from table import snapshot as snapshots
from table.broadcast import publish_async, view_text
from table.demo import link_meters
from table.games import GAMES, game
from table.games.events import Event
from table.models import DealerAssignment, Round, RulesSubmission, Table

from .conftest import Sock, open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


def version_of(table: Table) -> int:
    return Table.objects.get(pk=table.pk).version


async def settled_down(sock: Sock) -> None:
    """Wait until what the socket was due has come: a ping's pong comes after it (a
    communicator's receive that times out would cancel the application)."""
    await asyncio.sleep(0.3)
    await sock.send(cmd="ping", t=0)
    await sock.until(lambda f: f["type"] == "pong" and f.get("ref") is None and f["t"] == 0)


async def seated(sock: Sock, box: int) -> None:
    reply = await sock.command(cmd="sit", box=box)
    assert reply["type"] == "ok", reply


#: The games whose default rules need progressive meters linked.
METER_GAMES = [n for n in GAMES if game(n).meters(game(n).default_rules())]


def table_of(name: str, dealer: Any) -> Table:
    """A table of the game ``name`` under the game's default rules, dealt by ``dealer``, with
    the meters those rules need linked."""
    g = game(name)
    rules = RulesSubmission.objects.create(
        name=f"{g.title} test rules", game=name, choices=g.rules_to_dict(g.default_rules())
    )
    table = Table.objects.create(name=f"{g.title} test table", rules=rules)
    DealerAssignment.objects.create(table=table, dealer=dealer)
    link_meters(table, rules)
    return table


def box_cards(table: Table, box: int) -> tuple[str, ...]:
    """The cards dealt to ``box`` in the table's current round, as its game stores them."""
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    g = game(row.game)
    return next(b.cards for b in g.boxes(g.from_dict(row.state)) if b.box == box)


@pytest.fixture
def view_recorder(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """Stands in for ``snapshot.round_view`` (the read side's, not in this branch): a view
    naming its viewer, and a record of whom each was built for."""
    built: list[str | None] = []

    def round_view(table_id: int, user: Any) -> dict[str, Any]:
        name = user.get_username() if user is not None and user.is_authenticated else None
        built.append(name)
        return {"game": "recorded", "viewer": {"name": name}, "moves": []}

    monkeypatch.setattr(snapshots, "round_view", round_view, raising=False)
    return built


# --- hostile frames: refused by the protocol, nothing changed ---------------------------------

HOSTILE: list[tuple[dict[str, Any], str]] = [
    ({"move": "settle", "box": 1, "args": {}}, "bad_frame"),  # a dealer step, not a move
    ({"move": "bet", "box": 7, "args": {"ante": 500}}, "bad_frame"),
    ({"move": "bet", "box": True, "args": {"ante": 500}}, "bad_frame"),
    ({"move": "bet", "box": 1, "args": {"ante": 5.5}}, "bad_frame"),  # money is whole cents
    ({"move": "bet", "box": 1, "args": {"ante": "500"}}, None),  # well-formed: the game decides
    ({"move": "bet", "box": 1, "args": {"ante": 10**12}}, "bad_frame"),
    ({"move": "bet", "box": 1, "args": {"Ante": 500}}, "bad_frame"),
    ({"move": "bet", "box": 1, "args": {f"w{i}": 100 for i in range(9)}}, "bad_frame"),
    ({"move": "decide", "box": 1, "args": {"play": {"deep": {"er": 1}}}}, "bad_frame"),
    ({"move": "set_hands", "box": 1, "args": {"high": ["AS", "ZZ", "2C"]}}, "bad_frame"),
    ({"move": "set_hands", "box": 1, "args": {"high": [1, 2, 3]}}, "bad_frame"),
    ({"move": "set_hands", "box": 1, "args": {"high": ["AS"] * 9}}, "bad_frame"),
    ({"move": "bet", "box": 1, "args": [500]}, "bad_frame"),
    ({"box": 1, "args": {}}, "bad_frame"),  # no move
    ({"move": "bet", "box": 1, "args": {}, "extra": 1}, "bad_frame"),
]


@pytest.mark.parametrize("frame,code", [h for h in HOSTILE if h[1] is not None])
async def test_hostile_act_frame_refused_nothing_changed(
    table_setup: dict[str, Any], frame: dict[str, Any], code: str
) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    assert (await alice.recv())["type"] == "snapshot"
    await seated(alice, 1)
    await settled_down(alice)
    before = await database_sync_to_async(version_of)(table)
    seen = len(alice.frames)
    reply = await alice.command(cmd="act", ref="r1", **frame)
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert reply["ref"] == "r1"  # the refusal is matched to the frame
    assert await database_sync_to_async(version_of)(table) == before
    await alice.send(cmd="ping", t=1)
    assert (await alice.until(lambda f: f["type"] == "pong"))["version"] == before
    assert [f["type"] for f in alice.frames[seen:] if f["type"] != "presence"] == ["error", "pong"]
    await alice.close()


async def test_oversized_and_repeated_key_act_frames(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    assert (await alice.recv())["type"] == "snapshot"
    big = json.dumps({"cmd": "act", "move": "bet", "box": 1, "args": {"note": "x" * 5000}})
    await alice.send_raw(big)
    assert (await alice.reply())["code"] == "frame_too_large"
    twice = '{"cmd":"act","move":"bet","box":1,"args":{"ante":500,"ante":50000}}'
    await alice.send_raw(twice)
    assert (await alice.reply())["code"] == "duplicate_key"
    long_text = {"cmd": "act", "move": "bet", "box": 1, "args": {"note": "x" * 65}}
    assert (await alice.command(**long_text))["code"] == "bad_frame"
    await alice.close()


async def test_a_spectator_may_not_act(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    watcher = await open_socket(table.pk, None)
    assert (await watcher.recv())["type"] == "snapshot"
    reply = await watcher.command(cmd="act", move="bet", box=1, args={"ante": 500})
    assert reply["code"] == "login_required"
    await watcher.close()


# --- the round view after each table frame ------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
async def test_view_follows_each_table_frame_at_a_view_game(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str
) -> None:
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    alice = await open_socket(table.pk, table_setup["alice"])
    watchers = [await open_socket(table.pk, None, name=f"w{i}") for i in range(2)]
    for sock in (alice, *watchers):
        assert (await sock.recv())["type"] == "snapshot"
    await publish_async(table.pk, 1, None, [], {})
    for sock in (alice, *watchers):
        events = await sock.recv()
        assert events["type"] == "events" and events["version"] == 1
        view = await sock.until(lambda f: f["type"] == "view")
        assert view["version"] == 1
    assert [f for f in alice.frames if f["type"] == "view"][0]["round"]["viewer"]["name"] == "alice"
    assert watchers[0].frames[-1]["round"]["viewer"]["name"] is None
    # Both spectators were sent one view, built once; alice's was her own.
    assert view_recorder.count(None) == 1 and view_recorder.count("alice") == 1
    for sock in (alice, *watchers):
        await sock.close()


@pytest.mark.parametrize("name", GAMES)
async def test_views_come_with_a_commands_frames(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str
) -> None:
    """A command at another game's table hands each seated player their own view, the
    dealer's console its own and the spectators theirs with its frames: no socket reads the
    round from the database (the recorder sees none built). A player's cards are in their
    own view and in nobody else's."""
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    alice = await open_socket(table.pk, table_setup["alice"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    watcher = await open_socket(table.pk, None)
    for sock in (alice, dealer, watcher):
        assert (await sock.recv())["type"] == "snapshot"
    await seated(alice, 1)
    # The command that seated her read the seats before she sat: that one view of hers
    # was built for her socket. From now on hers come with the frames.
    await settled_down(alice)
    view_recorder.clear()
    opened = await dealer.command(cmd="open_betting")
    assert opened["type"] == "ok"
    mine = await alice.until(lambda f: f["type"] == "view" and f["version"] >= opened["version"])
    assert mine["round"]["viewer"]["name"] == "alice"
    bet = next(m for m in mine["round"]["moves"] if m["move"] == "bet" and m["box"] == 1)
    ante = next(a for a in bet["amounts"] if a["required"])
    reply = await alice.command(cmd="act", move="bet", box=1, args={ante["arg"]: ante["low"]})
    assert reply["type"] == "ok", reply
    for step in ("no_more_bets", "deal"):
        assert (await dealer.command(cmd=step))["type"] == "ok", step
    dealt = reply["version"] + 2

    def dealt_view(f: dict[str, Any]) -> bool:
        return f["type"] == "view" and f["version"] >= dealt

    own = (await alice.until(dealt_view))["round"]["boxes"][0]
    seen = (await watcher.until(dealt_view))["round"]["boxes"][0]
    console = await dealer.until(dealt_view)
    dealt_cards = await database_sync_to_async(box_cards)(table, 1)
    assert own["mine"] and dealt_cards and sorted(own["cards"]) == sorted(dealt_cards)
    assert seen["cards"] is None and not seen["mine"]
    # The console sees the dealer's moves, not the player's cards (e.g. §657a.11(a)).
    assert console["round"]["boxes"][0]["cards"] is None
    viewer = console["round"]["viewer"]
    assert (viewer["role"], viewer["name"]) == ("dealer", "dealer")
    # Each socket's views are in version order, one per burst at most, none older than
    # the frames before it.
    for sock in (alice, watcher):
        versions = [f["version"] for f in sock.frames if f["type"] == "view"]
        assert versions == sorted(set(versions)), versions
    assert view_recorder == [], view_recorder
    for sock in (alice, dealer, watcher):
        await sock.close()


@pytest.mark.parametrize("name", GAMES)
async def test_a_socket_sends_only_its_own_users_part_of_a_version(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str
) -> None:
    """A version's one layer message carries every player's private frame and view; alice's
    socket sends the public frame, her private frame and her view, never bob's; a
    spectator's socket the public frame and the spectators' view only."""
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    alice, bob = table_setup["alice"], table_setup["bob"]
    mine = await open_socket(table.pk, alice)
    watcher = await open_socket(table.pk, None)
    v = 0
    for sock in (mine, watcher):
        v = (await sock.recv())["version"]
    await settled_down(mine)
    await settled_down(watcher)
    events = [
        Event("probe", {"secret": f"{name} only"}, f"player:{name}") for name in ("alice", "bob")
    ]
    views = {
        who: view_text(v + 1, {"viewer": {"name": who}, "secret": f"{who or 'everyone'} sees"})
        for who in ("", "alice", "bob")
    }
    await publish_async(table.pk, v + 1, None, events, {"alice": alice.pk, "bob": bob.pk}, views)
    await mine.until(lambda f: f["type"] == "view")
    await watcher.until(lambda f: f["type"] == "view")
    await settled_down(mine)
    await settled_down(watcher)
    got = [f for f in mine.frames if f.get("version") == v + 1]
    assert [(f["type"], bool(f.get("private"))) for f in got] == [
        ("events", True),
        ("events", False),
        ("view", False),
    ]
    assert got[0]["events"][0]["data"]["secret"] == "alice only"
    assert got[2]["round"]["secret"] == "alice sees"
    seen = [f for f in watcher.frames if f.get("version") == v + 1]
    assert [f["type"] for f in seen] == ["events", "view"]
    assert seen[1]["round"]["secret"] == "everyone sees"
    for sock, other in ((mine, "bob"), (watcher, "alice"), (watcher, "bob")):
        assert f"{other} only" not in json.dumps(sock.frames)
        assert f"{other} sees" not in json.dumps(sock.frames)
    assert view_recorder == []  # every view came with the message
    for sock in (mine, watcher):
        await sock.close()


@pytest.mark.parametrize("name", METER_GAMES)
async def test_meter_frames_of_the_linked_meters(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str
) -> None:
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    meter = await database_sync_to_async(lambda: table.progressive_meters.order_by("pk")[0])()
    alice = await open_socket(table.pk, table_setup["alice"])
    watcher = await open_socket(table.pk, None)
    for sock in (alice, watcher):
        assert (await sock.recv())["type"] == "snapshot"
    layer = get_channel_layer()
    frame = {**meters.meter_frame(meter), "amount": meter.amount + 21, "version": meter.version + 1}
    await layer.group_send(meters.meter_group(meter.pk), meters.frame_message(frame))
    for sock in (alice, watcher):
        got = await sock.until(lambda f: f["type"] == "meter")
        assert got["meter"] == meter.pk and got["amount"] == meter.amount + 21
    # An older frame that crossed it on the way is dropped.
    stale = {**frame, "amount": meter.amount, "version": meter.version}
    await layer.group_send(meters.meter_group(meter.pk), meters.frame_message(stale))
    await settled_down(alice)
    assert [f["version"] for f in alice.frames if f["type"] == "meter"] == [meter.version + 1]
    for sock in (alice, watcher):
        await sock.close()


def group_members(group: str) -> set[str]:
    """The channels of this process in a group of the layer (pub/sub or in-memory)."""
    layer = get_channel_layer()
    if hasattr(layer, "_get_layer"):  # channels_redis pub/sub: per event loop
        loop_layer = layer._get_layer()
        return set(loop_layer.groups.get(loop_layer._get_group_channel_name(group), ()))
    return set(layer.groups.get(group, {}))


@pytest.mark.parametrize("name", METER_GAMES[:1])
async def test_a_process_reads_each_meter_once_for_all_its_sockets(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str
) -> None:
    """Three sockets watch the table's meters: the process is in each meter's group once
    (one channel, table.meter_relay), not once per socket; each socket still gets every
    frame; the last socket out takes the process out of the group."""
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    meter = await database_sync_to_async(lambda: table.progressive_meters.order_by("pk")[0])()
    socks = [
        await open_socket(table.pk, table_setup["alice"]),
        await open_socket(table.pk, table_setup["bob"]),
        await open_socket(table.pk, None),
    ]
    for sock in socks:
        assert (await sock.recv())["type"] == "snapshot"
    group = meters.meter_group(meter.pk)
    assert len(group_members(group)) == 1
    frame = {**meters.meter_frame(meter), "amount": meter.amount + 7, "version": meter.version + 1}
    await get_channel_layer().group_send(group, meters.frame_message(frame))
    for sock in socks:
        got = await sock.until(lambda f: f["type"] == "meter")
        assert got["amount"] == meter.amount + 7
    for sock in socks:
        await sock.close()
    for _ in range(50):
        if not group_members(group):
            break
        await asyncio.sleep(0.05)
    assert group_members(group) == set()


# --- moves through the services (the platform's services.act) ---------------------------------


@pytest.mark.parametrize("name", GAMES)
async def test_act_places_a_bet_and_the_game_refuses_what_its_rules_forbid(
    table_setup: dict[str, Any], name: str
) -> None:
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    alice = await open_socket(table.pk, table_setup["alice"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    for sock in (alice, dealer):
        assert (await sock.recv())["type"] == "snapshot"
    await seated(alice, 1)
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
    view = await alice.until(lambda f: f["type"] == "view" and f["round"] is not None)
    bet = next(m for m in view["round"]["moves"] if m["move"] == "bet" and m["box"] == 1)
    ante = next(a for a in bet["amounts"] if a["required"])
    reply = await alice.command(cmd="act", move="bet", box=1, args={ante["arg"]: ante["low"]})
    assert reply["type"] == "ok", reply
    placed = await alice.until(
        lambda f: f["type"] == "view" and any(b["box"] == 1 for b in f["round"]["boxes"])
    )
    assert placed["round"]["boxes"][0]["wagers"][ante["arg"]] == ante["low"]
    before = await database_sync_to_async(version_of)(table)
    # Over the limit, a decision before the deal, another player's box: refused, unchanged.
    for frame in (
        {"move": "bet", "box": 1, "args": {ante["arg"]: ante["high"] + 100}},
        {"move": "decide", "box": 1, "args": {"play": ante["low"]}},
        {"move": "set_hands", "box": 1, "args": {"high": ["AS", "KS", "QS"], "low": ["2C", "3C"]}},
    ):
        refused = await alice.command(cmd="act", **frame)
        assert refused["type"] == "error", refused
        assert await database_sync_to_async(version_of)(table) == before
    # The console's no_more_bets is the game's close_betting.
    assert (await dealer.command(cmd="no_more_bets"))["type"] == "ok"
    closed = await dealer.until(lambda f: f["type"] == "view" and f["round"]["phase"] == "closed")
    assert [m["move"] for m in closed["round"]["moves"]][0] == "deal"
    for sock in (alice, dealer):
        await sock.close()


def meter_frames(sock: Sock, meter_id: int) -> list[dict[str, Any]]:
    return [f for f in sock.frames if f["type"] == "meter" and f["meter"] == meter_id]


@pytest.mark.parametrize("name", METER_GAMES[:1])
async def test_a_burst_of_meter_changes_coalesces_to_the_newest(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str, settings: Any
) -> None:
    """Ten increments within the interval (rounds closing at the linked tables at once):
    each socket gets at most two meter frames, the first at once, the last carrying the
    newest amount no later than one interval after it (docs/protocol.md "Meter frames")."""
    settings.METER_FRAME_INTERVAL = 0.5
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    meter = await database_sync_to_async(lambda: table.progressive_meters.order_by("pk")[0])()
    socks = [await open_socket(table.pk, table_setup["alice"]), await open_socket(table.pk, None)]
    for sock in socks:
        assert (await sock.recv())["type"] == "snapshot"
    layer = get_channel_layer()
    group = meters.meter_group(meter.pk)
    base = meters.meter_frame(meter, "increment", table)
    loop = asyncio.get_running_loop()
    # A single change after a quiet spell goes at once (well within the interval).
    start = loop.time()
    first = {**base, "amount": meter.amount + 1, "version": meter.version + 1}
    await layer.group_send(group, meters.frame_message(first))
    for sock in socks:
        got = await sock.until(lambda f: f["type"] == "meter", timeout=0.4)
        assert got["version"] == meter.version + 1
    assert loop.time() - start < 0.4
    # Ten more at once: held, and only the newest goes when the interval ends.
    for n in range(2, 12):
        frame = {**base, "amount": meter.amount + n, "version": meter.version + n}
        await layer.group_send(group, meters.frame_message(frame))
    for sock in socks:
        got = await sock.until(lambda f: f["type"] == "meter", timeout=1.0)
        assert got["amount"] == meter.amount + 11 and got["version"] == meter.version + 11
    assert loop.time() - start < 1.0
    await settled_down(socks[0])
    for sock in socks:
        assert [f["version"] for f in meter_frames(sock, meter.pk)] == [
            meter.version + 1,
            meter.version + 11,
        ]
        await sock.close()


@pytest.mark.parametrize("name", METER_GAMES[:1])
async def test_a_hit_among_held_increments_goes_at_once(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str, settings: Any
) -> None:
    """A hit names what happened (``cause``, ``table``): it is never held nor dropped for
    the increments around it; the increment after it comes at the interval's end."""
    settings.METER_FRAME_INTERVAL = 0.5
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    meter = await database_sync_to_async(lambda: table.progressive_meters.order_by("pk")[0])()
    alice = await open_socket(table.pk, table_setup["alice"])
    assert (await alice.recv())["type"] == "snapshot"
    layer = get_channel_layer()
    group = meters.meter_group(meter.pk)
    v, amount = meter.version, meter.amount
    sent = [
        ("increment", amount + 1),
        ("increment", amount + 2),
        ("increment", amount + 3),
        ("hit", 500),
        ("increment", 501),
        ("reset", 400),
        ("increment", 402),
        ("increment", 403),
    ]
    for n, (cause, cents) in enumerate(sent, start=1):
        frame = {**meters.meter_frame(meter, cause, table), "amount": cents, "version": v + n}
        await layer.group_send(group, meters.frame_message(frame))
    await alice.until(lambda f: f["type"] == "meter" and f["version"] == v + 8, timeout=1.0)
    await settled_down(alice)
    got = [(f["version"], f["cause"], f["amount"]) for f in meter_frames(alice, meter.pk)]
    assert got == [
        (v + 1, "increment", amount + 1),
        (v + 4, "hit", 500),
        (v + 6, "reset", 400),
        (v + 8, "increment", 403),
    ]
    await alice.close()


@pytest.mark.parametrize("name", METER_GAMES[:1])
async def test_meter_frames_spaced_beyond_the_interval_each_go(
    table_setup: dict[str, Any], view_recorder: list[str | None], name: str, settings: Any
) -> None:
    """Coalescing holds nothing back once the interval has passed: changes further apart
    than it each reach the socket at once."""
    settings.METER_FRAME_INTERVAL = 0.2
    table = await database_sync_to_async(table_of)(name, table_setup["dealer"])
    meter = await database_sync_to_async(lambda: table.progressive_meters.order_by("pk")[0])()
    alice = await open_socket(table.pk, table_setup["alice"])
    assert (await alice.recv())["type"] == "snapshot"
    layer = get_channel_layer()
    group = meters.meter_group(meter.pk)
    for n in (1, 2, 3):
        frame = {
            **meters.meter_frame(meter, "increment", table),
            "amount": meter.amount + n,
            "version": meter.version + n,
        }
        await layer.group_send(group, meters.frame_message(frame))
        got = await alice.until(lambda f: f["type"] == "meter", timeout=0.15)
        assert got["version"] == meter.version + n
        await asyncio.sleep(0.25)
    await alice.close()
