"""Fan a command's events out over the channel layer, after the transaction commits.

One message per command, to the table's group: the public frame, and for each player with
private events (their hole cards) that player's private frame, keyed by their user id. Each
socket sends on only the public frame and its own user's private frame: another player's
private frame never leaves the server toward a socket that is not theirs (the layer's Redis
is the servers' own, behind them). Every command sends one public frame, even when it holds
no public event, so each client sees every version in order and knows it missed something
when a version is skipped (then it asks for a snapshot).

Every felt draws from round views (protocol v2), so the message also carries the round as
each kind of viewer sees it, built once by the command from the state it holds: the
spectators' view, each seated player's own and each assigned dealer's console's, keyed by user
id like the private frames. A socket sends its view inside its version's public frame
(:func:`with_view`: one websocket message per version); no socket reads the database for it.

One message, not one per audience: a command at a table of six players and a dealer used to
publish eight messages (each seated player's view went to the player's own group) and each
socket handled two of them; the layer's work (publish, receive, unpack, dispatch) is per
message (issue 26).
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
    #: ``dealer_key(id)`` an assigned dealer's console's.
    views: dict[str, str] = field(default_factory=dict)
    #: When the command committed (``time.monotonic()`` in its process): the publishing
    #: socket notes how late its frame left (table.lag.note_publish).
    committed: float = 0.0


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


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
    message = version_message(table_id, version, round_id, events, user_ids, views or {})
    await group_send_many(layer, [(table_group(table_id), message)])


#: Where a user's part of a version's message (``mine[str(user id)]``) holds each text.
PRIVATE, PLAYER_VIEW, CONSOLE_VIEW = 0, 1, 2


def version_message(
    table_id: int,
    version: int,
    round_id: int | None,
    events: Sequence[Event],
    user_ids: dict[str, int],
    views: dict[str, str],
) -> dict[str, Any]:
    """A version's one message to the table's group, every text serialised once:

    - ``text``: the public frame, for every socket;
    - ``view``: the spectators' round view (a felt drawn from views only);
    - ``mine``: per user id (a string: the layer's msgpack takes no other keys), the user's
      private frame, their view as a seated player and their console's view (a dealer
      assigned to the table), each None when there is none. A socket reads its own user's
      entry only.
    """
    public, private = frames(table_id, version, round_id, events)
    mine: dict[str, list[str | None]] = {}
    for player, frame in private.items():
        if player in user_ids:
            mine.setdefault(str(user_ids[player]), [None, None, None])[PRIVATE] = fastsql.dumps(
                frame
            )
    for viewer, text in views.items():
        if viewer and viewer in user_ids:
            entry = mine.setdefault(str(user_ids[viewer]), [None, None, None])
            entry[CONSOLE_VIEW if viewer.startswith(DEALER_PREFIX) else PLAYER_VIEW] = text
    message: dict[str, Any] = {
        "type": "table.version",
        "version": version,
        "text": fastsql.dumps(public),
        "mine": mine,
    }
    if "" in views:
        message["view"] = views[""]
    return message


async def group_send_many(layer: Any, sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Several group sends, in order. On the Redis pub/sub layer they travel as one pipeline
    (one round trip; a single one as a plain PUBLISH), and beside other tables' publishes:
    channels_redis's own group_send takes one round trip per frame under a lock shared by the
    whole process, so a dealt round's seven frames would queue behind every other table's
    frames."""
    if isinstance(layer, RedisPubSubChannelLayer):
        loop_layer = layer._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = defaultdict(list)
        for group, message in sends:
            channel = loop_layer._get_group_channel_name(group)
            by_shard[loop_layer._get_shard(channel)].append((channel, layer.serialize(message)))
        for shard, items in by_shard.items():
            shard._ensure_redis()  # the shard's client, with its pool of connections
            if len(items) == 1:
                # A command's one message (the usual case): a plain PUBLISH, without building
                # and resetting a pipeline (~25% less of the loop's CPU for the publish).
                await shard._redis.publish(*items[0])
                continue
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


def with_view(public: str, view: str) -> str:
    """A public ``events`` frame carrying the socket's ``view`` frame of the same version as
    its ``view`` key: both texts were serialised once for the whole table (the view for its
    audience), so the socket joins them rather than parsing them again. Both are JSON objects
    with no whitespace after their last value (orjson), and the public frame has no ``view``
    key of its own."""
    return f'{public[:-1]},"view":{view}}}'


#: The key of an assigned dealer's round view in ``Publication.views`` (a username holds no
#: colon, so it never meets a player's name).
DEALER_PREFIX = "dealer:"


def dealer_key(user_id: int) -> str:
    return f"{DEALER_PREFIX}{user_id}"


def publish(publication: Publication) -> None:
    """Publish from synchronous code (the clock, the admin, tests), after commit."""
    async_to_sync(deliver)(publication)
