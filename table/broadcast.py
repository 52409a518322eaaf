"""Fan a command's events out over the channel layer, after the transaction commits.

Public events go to the table's group; a player's private events (their hole cards) go only
to that player's own group, never to a group anyone else listens on. Every command sends one
public frame, even when it holds no public event, so each client sees every version in order
and knows it missed something when a version is skipped (then it asks for a snapshot).

At a table whose felt draws from round views (protocol v2, ``FeltParts.view_frames``) the
command also hands over the round as each kind of viewer sees it, built once from the state
it holds: the spectators' view rides beside the public frame, each seated player's own view
beside a frame to that player's group (one with no events when the player had none). A
socket sends the view after its version's frames; no socket reads the database for it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from table import fastsql
from table.games.events import PUBLIC, Event

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Publication:
    """A committed command's events, for the channel layer. Made by the services, published
    here; it lives here so that the services import this module and this module imports none
    of theirs."""

    table_id: int
    version: int
    round_id: int | None
    events: list[Event]
    user_ids: dict[str, int]  # player name -> user id, for each private audience
    #: The round views' frame texts: "" the spectators', a player's name that player's own,
    #: ``dealer_key(id)`` an assigned dealer's console's (empty at a table whose felt draws
    #: from events alone).
    views: dict[str, str] = field(default_factory=dict)


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def user_group(table_id: int, user_id: int) -> str:
    return f"table.{table_id}.user.{user_id}"


def frames(
    table_id: int, version: int, round_id: int | None, events: Sequence[Event]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The public frame and one private frame per player that has private events."""
    public = [{"kind": e.kind, "data": e.data} for e in events if e.audience == PUBLIC]
    private: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if e.audience.startswith("player:"):
            private[e.audience.removeprefix("player:")].append({"kind": e.kind, "data": e.data})
    head = {"type": "events", "table": table_id, "version": version, "round": round_id}
    return (
        {**head, "events": public},
        {player: {**head, "private": True, "events": evs} for player, evs in private.items()},
    )


async def publish_async(
    table_id: int,
    version: int,
    round_id: int | None,
    events: Sequence[Event],
    user_ids: dict[str, int],
    views: dict[str, str] | None = None,
) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    views = views or {}
    public, private = frames(table_id, version, round_id, events)
    # Private frames first: a client applies a box's hole cards, then the public frame of
    # the same version (docs/protocol.md).
    sends = [
        (user_group(table_id, user_ids[player]), frame_message(frame, views.get(player)))
        for player, frame in private.items()
        if player in user_ids
    ]
    # A seated player with no private event this version still gets their own view; so
    # does an assigned dealer's console.
    sends += [
        (
            user_group(table_id, user_ids[viewer]),
            view_message(version, text, console=viewer.startswith(DEALER_PREFIX)),
        )
        for viewer, text in views.items()
        if viewer and viewer not in private and viewer in user_ids
    ]
    sends.append((table_group(table_id), frame_message(public, views.get(""))))
    await group_send_many(layer, sends)


async def group_send_many(layer: Any, sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Several group sends, in order. On the Redis pub/sub layer they travel as one pipeline
    (one round trip), and beside other tables' publishes: channels_redis's own group_send
    takes one round trip per frame under a lock shared by the whole process, so a dealt
    round's seven frames would queue behind every other table's frames."""
    if isinstance(layer, RedisPubSubChannelLayer):
        loop_layer = layer._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = defaultdict(list)
        for group, message in sends:
            channel = loop_layer._get_group_channel_name(group)
            by_shard[loop_layer._get_shard(channel)].append((channel, layer.serialize(message)))
        for shard, items in by_shard.items():
            shard._ensure_redis()  # the shard's client, with its pool of connections
            pipe = shard._redis.pipeline(transaction=False)
            for channel, data in items:
                pipe.publish(channel, data)
            await pipe.execute()
        return
    for group, message in sends:
        await layer.group_send(group, message)


async def deliver(publication: Publication) -> None:
    """Publish a committed command's events from the event loop."""
    try:
        await publish_async(
            publication.table_id,
            publication.version,
            publication.round_id,
            publication.events,
            publication.user_ids,
            publication.views,
        )
    except Exception:  # a lost frame is recovered by the client's version check
        log.exception(
            "could not publish version %s of table %s", publication.version, publication.table_id
        )


def view_text(version: int, round_view: dict[str, Any] | None) -> str:
    """A ``view`` frame (protocol v2): the round in play as one viewer sees it."""
    return fastsql.dumps({"type": "view", "version": version, "round": round_view})


def frame_message(frame: dict[str, Any], view: str | None = None) -> dict[str, Any]:
    """A frame serialised once for the whole group: each socket sends the text as it is.
    The version (and whether the frame is private) ride beside it, so that a socket can
    put frames that crossed on the way back in order without parsing them; so does the
    round view's frame text for this audience, if the table's felt draws from views."""
    message = {
        "type": "table.frame",
        "text": fastsql.dumps(frame),
        "version": frame["version"],
        "private": bool(frame.get("private")),
    }
    if view is not None:
        message["view"] = view
    return message


def view_message(version: int, view: str, console: bool = False) -> dict[str, Any]:
    """A player's own round view for a version that held no private event for them, or a
    dealer console's (``console``): a private message with no frame text (the socket sends
    only the view)."""
    message = {"type": "table.frame", "text": None, "version": version, "private": True}
    return message | {"view": view, "console": console}


#: The key of an assigned dealer's round view in ``Publication.views`` (a username holds no
#: colon, so it never meets a player's name).
DEALER_PREFIX = "dealer:"


def dealer_key(user_id: int) -> str:
    return f"{DEALER_PREFIX}{user_id}"


def publish(publication: Publication) -> None:
    """Publish from synchronous code (the clock, the admin, tests), after commit."""
    async_to_sync(deliver)(publication)
