"""Fan a command's events out over the channel layer, after the transaction commits.

Public events go to the table's group; a player's private events (their hole cards) go only
to that player's own group, never to a group anyone else listens on. Every command sends one
public frame, even when it holds no public event, so each client sees every version in order
and knows it missed something when a version is skipped (then it asks for a snapshot).
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model

from table.engine.round import PUBLIC, Event

log = logging.getLogger(__name__)


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
) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    public, private = frames(table_id, version, round_id, events)
    for player, frame in private.items():
        if player in user_ids:
            await layer.group_send(user_group(table_id, user_ids[player]), frame_message(frame))
    await layer.group_send(table_group(table_id), frame_message(public))


def frame_message(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame serialised once for the whole group: each socket sends the text as it is."""
    return {"type": "table.frame", "text": json.dumps(frame, separators=(",", ":"))}


def publish(table_id: int, version: int, round_id: int | None, events: Sequence[Event]) -> None:
    players = {e.audience.removeprefix("player:") for e in events if e.audience != PUBLIC}
    user_ids: dict[str, int] = {}
    if players:
        user_ids = dict(
            get_user_model().objects.filter(username__in=players).values_list("username", "pk")
        )
    try:
        async_to_sync(publish_async)(table_id, version, round_id, events, user_ids)
    except Exception:  # a lost frame is recovered by the client's version check
        log.exception("could not publish version %s of table %s", version, table_id)
