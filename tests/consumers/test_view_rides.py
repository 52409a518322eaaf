"""A version's round view rides in its public ``events`` frame: one websocket message per
version where there were two (issue 26: a socket's every message costs the server about the
same, whatever it holds). Each socket's is the view meant for it (a spectator's, a seated
player's own, a console's), never another user's; of a burst only the newest view goes, in
its own version's frame; a socket no view came for is sent one built for it, alone."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.layers import get_channel_layer

from table.broadcast import dealer_key, table_group, version_message, view_text, with_view
from table.games.events import Event

from .conftest import Sock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def views_for(version: int, *viewers: str) -> dict[str, str]:
    """A view text for each viewer key, saying whose it is ("" the spectators')."""
    return {v: view_text(version, {"probe": version, "for": v}) for v in viewers}


def probe(version: int, private_for: str | None = None) -> list[Event]:
    events = [Event("probe", {"version": version})]
    if private_for is not None:
        events.append(Event("probe", {"version": version, "hole": True}, f"player:{private_for}"))
    return events


async def messages_until_pong(sock: Sock, start: int) -> list[dict[str, Any]]:
    """The websocket messages the socket got from ``start`` on, until the pong of a ping sent
    now (everything due before it has come)."""
    await asyncio.sleep(0.2)
    await sock.send(cmd="ping", t=7)
    await sock.until(lambda f: f["type"] == "pong" and f.get("t") == 7)
    return [m for m in sock.messages[start:] if m["type"] != "pong"]


async def test_each_socket_gets_its_own_view_in_its_versions_frame(
    table_setup: dict[str, Any],
) -> None:
    table, alice, bob, dealer = (table_setup[k] for k in ("table", "alice", "bob", "dealer"))
    socks = {
        "alice": await open_socket(table.pk, alice),
        "bob": await open_socket(table.pk, bob),
        "console": await open_socket(table.pk, dealer, dealer=True),
        "spectator": await open_socket(table.pk),
    }
    versions = {name: (await sock.recv())["version"] for name, sock in socks.items()}
    v = versions["spectator"] + 1
    assert set(versions.values()) == {v - 1}
    start = {name: len(sock.messages) for name, sock in socks.items()}
    users = {"alice": alice.pk, "bob": bob.pk, dealer_key(dealer.pk): dealer.pk}
    await get_channel_layer().group_send(
        table_group(table.pk),
        version_message(
            table.pk,
            v,
            3,
            probe(v, private_for="alice"),
            users,
            views_for(v, "", "alice", "bob", dealer_key(dealer.pk)),
        ),
    )
    got = {name: await messages_until_pong(sock, start[name]) for name, sock in socks.items()}
    # Alice: her hole card alone first, then the version's events with her own view in them.
    assert [(m["type"], m.get("private", False)) for m in got["alice"]] == [
        ("events", True),
        ("events", False),
    ]
    assert "view" not in got["alice"][0]
    whose = {name: msgs[-1]["view"]["round"]["for"] for name, msgs in got.items()}
    assert whose == {
        "alice": "alice",
        "bob": "bob",
        "console": dealer_key(dealer.pk),
        "spectator": "",
    }
    for msgs in got.values():
        assert msgs[-1]["version"] == msgs[-1]["view"]["version"] == v
        assert msgs[-1]["events"] == [{"kind": "probe", "data": {"version": v}}]
        assert len([m for m in msgs if m["type"] == "view"]) == 0  # none came alone
    # The unfolded frames, as a client takes them: the events, then the view.
    assert [f["type"] for f in socks["bob"].frames[-3:]] == ["events", "view", "pong"]
    for sock in socks.values():
        await sock.close()


async def test_a_burst_sends_only_its_newest_view_in_that_versions_frame(
    table_setup: dict[str, Any],
) -> None:
    """Versions that come out of order wait for the one missing, then go together: the
    older version's frame carries no view, the newest carries its own."""
    table = table_setup["table"]
    sock = await open_socket(table.pk)
    v = (await sock.recv())["version"] + 1
    start = len(sock.messages)
    layer = get_channel_layer()
    group = table_group(table.pk)
    await layer.group_send(
        group, version_message(table.pk, v + 1, 3, probe(v + 1), {}, views_for(v + 1, ""))
    )
    await asyncio.sleep(0.1)
    assert len(sock.messages) == start  # v+1 waits for v
    await layer.group_send(group, version_message(table.pk, v, 3, probe(v), {}, views_for(v, "")))
    got = await messages_until_pong(sock, start)
    assert [(m["type"], m["version"], m.get("view", {}).get("version")) for m in got] == [
        ("events", v, None),
        ("events", v + 1, v + 1),
    ]
    await sock.close()


async def test_a_socket_no_view_came_for_is_sent_one_alone(table_setup: dict[str, Any]) -> None:
    """A logged-in watcher (no seat) has no view in the version's message: its view is built
    for it and sent after the frame, on its own."""
    table, carol = table_setup["table"], table_setup["carol"]
    sock = await open_socket(table.pk, carol)
    v = (await sock.recv())["version"] + 1
    start = len(sock.messages)
    await get_channel_layer().group_send(
        table_group(table.pk),
        version_message(table.pk, v, 3, probe(v), {}, views_for(v, "")),
    )
    got = await messages_until_pong(sock, start)
    assert [(m["type"], "view" in m) for m in got] == [("events", False), ("view", False)]
    assert got[1]["version"] >= v
    await sock.close()


def test_a_view_joins_its_events_frame_as_its_view_key() -> None:
    public = json.dumps({"type": "events", "version": 5, "events": []}, separators=(",", ":"))
    view = view_text(5, {"phase": "betting", "note": "a } in a string"})
    assert json.loads(with_view(public, view)) == {**json.loads(public), "view": json.loads(view)}
