"""More time on the player's own clock (WCAG 2.2.1, timing adjustable; issue 28).

A player whose decision or setting clock is running may ask once per box per round for
:data:`EXTRA_SECONDS` more. Every player has the same allowance, the table sees it in the
log (an event with the new deadline), and the clock owner reads the deadline from the table
row as always, so the extension holds for every process. Nothing else changes: the game's
time-out (a fold, the house way) applies as before when the longer clock runs out.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User

from ..models import RoundEvent
from .command import execute, player_name
from .context import Context, Result, ServiceError, made_at
from .seats import _check_box_number, _check_seat

#: What one request adds to the running clock.
EXTRA_SECONDS = 20
MORE_TIME = "more_time"


def more_time(table_id: int, user: User, box: int, **kw: Any) -> Result:
    """Add :data:`EXTRA_SECONDS` to the box's running decision or setting clock, once a
    round; refused when it is not this box's clock, when the time has run out, or when the
    box has had its extension this round."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        _check_seat(ctx, user, number)
        state = ctx.load_round()
        timer = ctx.game.timer(state) if state is not None else None
        if timer is None or timer.kind not in ("decision", "setting") or number not in timer.boxes:
            raise ServiceError("not_your_turn", f"box {number} has no clock running to extend")
        deadline = ctx.table.turn_deadline
        if deadline is None or made_at(ctx) > deadline:
            raise ServiceError("too_late", "your time has already run out")
        assert ctx.round_row is not None
        taken = RoundEvent.objects.filter(
            round_id=ctx.round_row.pk, kind=MORE_TIME, data__box=number
        ).exists()
        if taken:
            raise ServiceError(
                "no_more_time", f"box {number} has had its extra time this round (once a round)"
            )
        ctx.table.turn_deadline = deadline + dt.timedelta(seconds=EXTRA_SECONDS)
        new = int(ctx.table.turn_deadline.timestamp() * 1000)
        ctx.note(
            MORE_TIME,
            {
                "box": number,
                "player": player_name(user),
                "seconds": EXTRA_SECONDS,
                "deadline": new,
            },
        )
        return {"box": number, "deadline": new}

    return execute(table_id, player_name(user), MORE_TIME, body, request={"box": box}, **kw)
