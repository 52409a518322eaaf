"""A seated player's commands in a round: placing, changing and withdrawing bets, and the
decision (raise or fold) on the box's turn.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from .command import execute, player_name
from .context import Context, Result
from .seats import _check_box_number, _check_seat


def _stakes(wagers: Any) -> Any:
    """A bet's wagers for its fingerprint: a wager of 0 is no wager."""
    if isinstance(wagers, dict):
        return {str(k): v for k, v in wagers.items() if not (type(v) is int and v == 0)}
    return wagers


def place_bets(
    table_id: int, user: AbstractBaseUser, box: int, wagers: dict[str, Any], **kw: Any
) -> Result:
    """Place or change a box's wagers: Ante (Odds equal to it) and optional wagers."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        _check_seat(ctx, user, number)
        rnd = ctx.live_round()
        ctx.apply(rnd.bet(number, player_name(user), dict(wagers)))
        return {"box": number, "wagers": rnd.boxes[number].wagers if number in rnd.boxes else {}}

    request = {"box": box, "wagers": _stakes(wagers)}
    return execute(table_id, player_name(user), "bet", body, request=request, **kw)


def withdraw_bets(table_id: int, user: AbstractBaseUser, box: int, **kw: Any) -> Result:
    return place_bets(table_id, user, box, {}, **kw)


def decide(table_id: int, user: AbstractBaseUser, box: int, multiple: int, **kw: Any) -> Result:
    """Raise 1x/2x/3x the Ante or fold (0), when it is this box's turn (§684a.11(b))."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        rnd = ctx.live_round()
        ctx.apply(rnd.decide(number, player_name(user), multiple))
        return {"box": number, "multiple": multiple}

    request = {"box": box, "raise": multiple}
    return execute(table_id, player_name(user), "decide", body, request=request, **kw)
