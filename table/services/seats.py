"""Seats and presence: sitting at a box, standing up, leaving the table, and a seated player's
connection coming and going (presence is no table change: :func:`set_connected` writes no
event). The box and seat checks live here; the players' commands use them too.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from table.games.base import ABANDON, WITHDRAW, Actor, Command

from .. import duties, ledger, presence
from ..models import Seat
from ..protection import guard
from .command import execute, player_name
from .context import Context, Result, ServiceError

#: A player who drops keeps the box this long before it is given up (§684a.7(b)).
GRACE_SECONDS = 30


def _seat_of(ctx: Context, user: User, box: int) -> Seat:
    seat = Seat.objects.filter(table=ctx.table, box=box).first()
    if seat is None or seat.player_id != user.pk:
        raise ServiceError("not_your_box", f"you are not seated at box {box}")
    return seat


def _check_seat(ctx: Context, user: User, box: int) -> None:
    seat = ctx.seats.get(box)  # as read with the table's lock
    if seat is None or seat[0] != user.pk:
        raise ServiceError("not_your_box", f"you are not seated at box {box}")


def _check_box_number(box: object) -> int:
    if not isinstance(box, int) or isinstance(box, bool) or not 1 <= box <= 6:
        raise ServiceError("bad_box", f"there is no box {box!r}; boxes are 1 to 6")
    return box


def sit(table_id: int, user: User, box: int, **kw: Any) -> Result:
    """Take a free box; a player's boxes must be adjacent, at most the allowed count."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        if not ctx.table.is_open:
            raise ServiceError("table_closed", "the table is closed")
        try:
            guard.refuse_play(user.pk, ctx.now)  # ch. 815a, §814a.2(6)
        except guard.Refused as exc:
            raise ServiceError(exc.code, exc.message) from exc
        if duties.deals_table(user, ctx.table.pk):
            # Segregation of duties: the dealer of a table does not play at it.
            raise ServiceError(
                "dealer_at_table", "you deal this table: a dealer may not play at it"
            )
        taken = Seat.objects.filter(table=ctx.table, box=number).first()
        if taken is not None:
            if taken.player_id == user.pk:
                raise ServiceError("already_seated", f"you already sit at box {number}")
            raise ServiceError("box_taken", f"box {number} is taken")
        mine = sorted(
            Seat.objects.filter(table=ctx.table, player=user).values_list("box", flat=True)
        )
        settings = ctx.game.table_settings(ctx.rules)
        allowed = settings.boxes_per_player
        boxes = sorted([*mine, number])
        if len(boxes) > allowed:
            raise ServiceError(
                "too_many_boxes",
                f"a player may play at most {allowed} adjacent boxes ({settings.adjacent_rule})",
            )
        if boxes[-1] - boxes[0] != len(boxes) - 1:
            raise ServiceError("not_adjacent", "your boxes must be next to each other")
        Seat.objects.create(table=ctx.table, box=number, player=user)
        ledger.player_account(user)
        ctx.note("seated", {"box": number, "player": player_name(user)})
        return {"box": number}

    return execute(table_id, player_name(user), "sit", body, request={"box": box}, **kw)


def _box_has_stake(ctx: Context, box: int) -> bool:
    """Whether the box has wagers in the round in play."""
    state = ctx.load_round()
    status = ctx.status()
    if state is None or status is None or status.finished:
        return False
    return any(b.box == box and b.in_play for b in ctx.game.boxes(state))


def stand(table_id: int, user: User, box: int, **kw: Any) -> Result:
    """Stand up from a box. During betting its wagers come back; after "no more bets" the
    player must stay seated until the round is over (§684a.7(b))."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        seat = _seat_of(ctx, user, number)
        if _box_has_stake(ctx, number):
            state = ctx.load_round()
            status = ctx.status()
            if status is None or not status.betting:
                raise ServiceError(
                    "round_in_play", "you have cards in this round: stay until it is settled"
                )
            actor = Actor.player(player_name(user))
            ctx.apply(ctx.game.apply(state, actor, Command(WITHDRAW, number)))
        mine = sorted(
            Seat.objects.filter(table=ctx.table, player=user)
            .exclude(pk=seat.pk)
            .values_list("box", flat=True)
        )
        if mine and mine[-1] - mine[0] != len(mine) - 1:
            raise ServiceError("not_adjacent", "standing here would leave your boxes apart")
        seat.delete()
        ctx.note("stood", {"box": number, "player": player_name(user)})
        return {"box": number}

    return execute(table_id, player_name(user), "stand", body, request={"box": box}, **kw)


def leave(table_id: int, user: User, **kw: Any) -> Result:
    """The player leaves the table (or their grace period ran out): wagers in betting come
    back; boxes already dealt fold when their turn comes (§684a.7(b)); seats are freed once
    nothing of theirs is left in play."""

    def body(ctx: Context) -> dict[str, Any]:
        name = player_name(user)
        state = ctx.load_round()
        status = ctx.status()
        if state is not None and status is not None and not status.finished:
            command = Command(ABANDON, None, {"player": name})
            ctx.apply(ctx.game.apply(state, Actor.house(), command))
        freed = []
        for seat in Seat.objects.filter(table=ctx.table, player=user):
            if not _box_has_stake(ctx, seat.box):
                freed.append(seat.box)
                seat.delete()
            elif seat.connected:
                seat.connected = False
                seat.disconnected_at = seat.disconnected_at or ctx.now
                seat.save(update_fields=["connected", "disconnected_at"])
        ctx.note("player_left", {"player": name, "boxes": freed})
        return {"freed": freed}

    return execute(table_id, player_name(user), "leave", body, **kw)


def set_connected(
    table_id: int, user: User, connected: bool, socket: str = ""
) -> dict[str, Any] | None:
    """Mark a seated player here or gone at once (the grace period starts when they drop).
    Presence is no table change: no event in the chain, no version (table.presence, which
    the sockets use with its lease and debounce). Returns the change, or None if none."""
    if connected:
        return presence.claim(table_id, user, socket)
    now = timezone.now()
    mine = Seat.objects.filter(table_id=table_id, player=user, connected=True)
    boxes = sorted(mine.values_list("box", flat=True))
    if not boxes or not mine.update(
        connected=False, disconnected_at=now, presence_until=now, presence_socket=""
    ):
        return None
    return {"player": player_name(user), "connected": False, "boxes": boxes}
