"""Who deals a table: the automatic dealer, or a dealer who took it over at the console.
:func:`_check_driver` lets only that one move the rounds on; :func:`take_over`,
:func:`hand_back`, :func:`claim_dealing` and :func:`release_dealing` pass the table between them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import User

from ..models import Table
from .command import _as_dealer, dealer_name, execute
from .context import Context, Result, ServiceError, _audit

#: An automatic dealer whose heartbeat is older than this has stopped (autodealer.STALE_AFTER).
DEALER_STALE = dt.timedelta(seconds=15)


def _dealing_autodealer(table: Table, now: dt.datetime) -> str:
    """The automatic dealer dealing this table now, or ""."""
    by = table.dealt_by
    if not by or by.startswith("dealer:"):
        return ""
    alive = table.clock_heartbeat is not None and now - table.clock_heartbeat < DEALER_STALE
    return by if alive and table.clock_owner == by else ""


def _check_driver(ctx: Context) -> None:
    """One driver moves the rounds on: the automatic dealer, or a dealer who took over at
    the console (the demo had both pressing, "No more bets" 2 s into a 15 s countdown)."""
    by = ctx.table.dealt_by
    if ctx.actor.startswith("dealer:") and _dealing_autodealer(ctx.table, ctx.now):
        raise ServiceError(
            "autodealer_deals",
            f"the automatic dealer ({by}) deals this table: take over at the console first",
        )
    if ctx.actor == "clock" and by.startswith("dealer:"):
        raise ServiceError(
            "dealer_deals", f"{by.removeprefix('dealer:')} has taken this table over at the console"
        )


def _set_dealt_by(ctx: Context, by: str) -> None:
    # Not among _write_events' columns: changed only here, under the table's lock.
    Table.objects.filter(pk=ctx.table.pk).update(dealt_by=by)
    ctx.table.dealt_by = by


def take_over(table_id: int, dealer: User, **kw: Any) -> Result:
    """A dealer at the console takes the table over: the automatic dealer (if one runs) keeps
    only the decision clock and lets dropped players go; the round in play goes on."""

    def body(ctx: Context) -> dict[str, Any]:
        name = dealer_name(dealer)
        was = ctx.table.dealt_by
        if was == name:
            raise ServiceError("already_dealing", "you already deal this table")
        _set_dealt_by(ctx, name)
        ctx.note("dealing", {"by": name, "was": was})
        _audit(ctx, "take_over", {"was": was})  # who dealt the table, and from when
        return {"by": name}

    return execute(table_id, dealer_name(dealer), "take_over", _as_dealer(dealer, body), **kw)


def hand_back(table_id: int, dealer: User, **kw: Any) -> Result:
    """The dealer who took over gives the table back to the automatic dealer (if one runs)."""

    def body(ctx: Context) -> dict[str, Any]:
        name = dealer_name(dealer)
        if ctx.table.dealt_by != name:
            raise ServiceError("not_dealing", "you do not deal this table: nothing to hand back")
        _set_dealt_by(ctx, "")
        ctx.note("dealing", {"by": "", "was": name})
        _audit(ctx, "hand_back", {})
        return {"by": ""}

    return execute(table_id, dealer_name(dealer), "hand_back", _as_dealer(dealer, body), **kw)


def claim_dealing(table_id: int, owner: str) -> Result:
    """The automatic dealer that owns the table's clock starts dealing, unless a dealer has
    taken the table over."""

    def body(ctx: Context) -> dict[str, Any]:
        was = ctx.table.dealt_by
        if was.startswith("dealer:"):
            raise ServiceError("dealer_deals", f"{was.removeprefix('dealer:')} deals this table")
        _set_dealt_by(ctx, owner)
        ctx.note("dealing", {"by": owner, "was": was})
        return {"by": owner}

    return execute(table_id, "clock", "claim_dealing", body)


def release_dealing(table_id: int, owner: str) -> Result | None:
    """The automatic dealer stops: the table is nobody's to deal until someone presses."""
    if not Table.objects.filter(pk=table_id, dealt_by=owner).exists():
        return None

    def body(ctx: Context) -> dict[str, Any]:
        if ctx.table.dealt_by == owner:
            _set_dealt_by(ctx, "")
            ctx.note("dealing", {"by": "", "was": owner})
        return {}

    return execute(table_id, "clock", "release_dealing", body)
