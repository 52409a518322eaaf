"""A seated player's commands in a round, for any game: :func:`act` sends one of the player
moves (bets, withdrawing them, a decision, setting the hands) to the game through its
interface (the ``act`` frame). :func:`place_bets`, :func:`withdraw_bets` and :func:`decide`
are shorthands on the same path for Python callers (tests, bench): a game whose decision is
a Raise multiple (``{"raise": 0-3}``). Protocol v1's frames that used them are retired.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User

from table.games.base import BET, DECIDE, SET_HANDS, WITHDRAW, Actor, Command

from ..money import dollars
from .command import execute, player_name
from .context import Context, Result, ServiceError, made_at
from .seats import _check_box_number, _check_seat

#: The moves a player sends; everything else is the dealer's or the clock's.
PLAYER_MOVES = (BET, WITHDRAW, DECIDE, SET_HANDS)


def _stakes(wagers: Any) -> Any:
    """A bet's wagers for its fingerprint: a wager of 0 is no wager."""
    if isinstance(wagers, dict):
        return {str(k): v for k, v in wagers.items() if not (type(v) is int and v == 0)}
    return wagers


def _play(
    ctx: Context, user: User, move: str, box: int, args: Mapping[str, Any]
) -> Any:
    """Send the player's move to the game: the game checks whose box and whose turn."""
    state = ctx.live_round()
    _check_in_time(ctx, state, move, box)
    if move in (BET, WITHDRAW):
        _check_bet(ctx, state, move, box, args)
    actor = Actor.player(player_name(user))
    ctx.apply(ctx.game.apply(state, actor, Command(move, box, dict(args))))
    return state


def _check_in_time(ctx: Context, state: Any, move: str, box: int) -> None:
    """A bet or a decision made after its deadline is refused; one made before it is taken
    even when the server reaches it later (judged by when its frame reached the socket,
    :func:`made_at`; the clock waits for it, ``context.clock_due``). The betting countdown
    binds only while the clock deals the table: a dealer at the console closes betting."""
    timer = ctx.game.timer(state)
    if timer is None:
        return
    table = ctx.table
    if timer.kind == "betting":
        deadline = table.betting_deadline
        by_clock = bool(table.dealt_by) and not table.dealt_by.startswith("dealer:")
        if move in (BET, WITHDRAW) and by_clock and deadline and made_at(ctx) > deadline:
            raise ServiceError("too_late", "betting closed: the countdown ran out")
    elif move in (DECIDE, SET_HANDS) and timer.expire is not None and box in timer.boxes:
        deadline = table.turn_deadline
        if deadline and made_at(ctx) > deadline:
            raise ServiceError("too_late", "your time ran out for this decision")


def _check_bet(ctx: Context, state: Any, move: str, box: int, wagers: Mapping[str, Any]) -> None:
    """What every game's bet must be, checked before the game sees it (issue 28): a bet has
    a wager (an Ante of 0 was taken as "take my wagers back", and the log said so), every
    amount is a whole number of the table's betting unit (5.005 placed $5.01), and there is
    something to take back before a withdrawal says it was. Amounts of the wrong type are
    the game's to refuse, in its words."""
    if move == WITHDRAW:
        if not any(v > 0 for v in _box_wagers(ctx, state, box).values()):
            raise ServiceError("nothing_to_withdraw", f"box {box} has no wagers to take back")
        return
    amounts = [v for v in wagers.values() if type(v) is int]
    unit = max(1, int(ctx.table.rules.betting_unit or 1))
    for value in amounts:
        if value > 0 and value % unit:
            raise ServiceError(
                "bad_unit",
                f"{dollars(value)} cannot be bet here: every wager is a whole number of "
                f"{dollars(unit)}",
            )
    if len(amounts) == len(wagers) and all(v == 0 for v in amounts):
        raise ServiceError(
            "no_wager", f"box {box}: no wager to place (an amount above $0.00 is needed)"
        )


def _box_wagers(ctx: Context, state: Any, box: int) -> dict[str, int]:
    for b in ctx.game.boxes(state):
        if b.box == box:
            return dict(b.wagers)
    return {}


def act(
    table_id: int,
    user: User,
    move: str,
    box: int,
    args: Mapping[str, Any] | None = None,
    key: str | None = None,
    expected_version: int | None = None,
    **kw: Any,
) -> Result:
    """A player's move at a table of any game: ``bet`` (the box's complete set of wagers in
    ``args``), ``withdraw``, ``decide`` (the game's own args: ``{"raise": 2}``, ``{"play":
    1500}``, ``{"play": true}``) or ``set_hands`` (``{"high": [...], "low": [...]}``).
    Bets need the player seated at the box; the game refuses another player's box or a
    move out of turn, and a refused move changes nothing."""
    given = dict(args or {})
    if move not in PLAYER_MOVES:
        raise ServiceError(
            "unknown_command", f"{move!r} is not a player's move (one of {', '.join(PLAYER_MOVES)})"
        )

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        if move in (BET, WITHDRAW):
            _check_seat(ctx, user, number)
        state = _play(ctx, user, move, number, {} if move == WITHDRAW else given)
        if move in (BET, WITHDRAW):
            return {"box": number, "wagers": _box_wagers(ctx, state, number)}
        return {"box": number, **given}

    request = {"box": box, "move": move, "args": _stakes(given) if move == BET else given}
    return execute(
        table_id,
        player_name(user),
        move,
        body,
        request=request,
        key=key,
        expected_version=expected_version,
        hold_actor=True,
        **kw,
    )


def place_bets(
    table_id: int, user: User, box: int, wagers: dict[str, Any], **kw: Any
) -> Result:
    """Place or change a box's wagers: Ante (Odds equal to it) and optional wagers."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        _check_seat(ctx, user, number)
        state = _play(ctx, user, BET, number, wagers)
        return {"box": number, "wagers": _box_wagers(ctx, state, number)}

    request = {"box": box, "wagers": _stakes(wagers)}
    return execute(
        table_id, player_name(user), "bet", body, request=request, hold_actor=True, **kw
    )


def withdraw_bets(table_id: int, user: User, box: int, **kw: Any) -> Result:
    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        _check_seat(ctx, user, number)
        state = _play(ctx, user, WITHDRAW, number, {})
        return {"box": number, "wagers": _box_wagers(ctx, state, number)}

    request = {"box": box, "wagers": {}}
    return execute(
        table_id, player_name(user), "bet", body, request=request, hold_actor=True, **kw
    )


def decide(table_id: int, user: User, box: int, multiple: int, **kw: Any) -> Result:
    """Raise 1x/2x/3x the Ante or fold (0), when it is this box's turn (§684a.11(b))."""

    def body(ctx: Context) -> dict[str, Any]:
        number = _check_box_number(box)
        _play(ctx, user, DECIDE, number, {"raise": multiple})
        return {"box": number, "multiple": multiple}

    request = {"box": box, "raise": multiple}
    return execute(
        table_id, player_name(user), "decide", body, request=request, hold_actor=True, **kw
    )
