"""The limits a player sets (§814a.2), a cool-off (§814a.2(6)) and the reality check's
interval (§814a.1(e)(3)).

A new limit or a lower one takes effect at once (§814a.2: "not later than the next login";
we do it at once). A higher one, or taking a limit away, waits: it is noted as asked, and
takes effect only once the period of the limit in force has ended (:func:`periods.period_end`
of the moment it was asked) **and** the player confirms it again then (:func:`confirm`).
Every change is a :class:`LimitChange` row with its time and actor, in the same transaction.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from . import periods
from .models import LimitChange, PlayerGuard


class LimitError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Outcome:
    kind: str
    action: str  # "set", "decreased", "increase asked", "removal asked", "increased", "removed"
    amount: int | None
    effective: dt.datetime | None  # None: waiting for its time and the player's confirmation


def guard_of(user: User, lock: bool = False) -> PlayerGuard:
    """The player's guard row (made at first use); ``lock``: FOR UPDATE in the caller's
    transaction (limit changes of one player one at a time)."""
    PlayerGuard.objects.get_or_create(user_id=user.pk)
    rows = PlayerGuard.objects.filter(user_id=user.pk)
    return (rows.select_for_update() if lock else rows).get()


def _log(
    player: User,
    actor: User | None,
    kind: str,
    action: str,
    before: int | None,
    after: int | None,
    effective: dt.datetime | None,
    now: dt.datetime,
    session: int | None,
) -> None:
    LimitChange.objects.create(
        created=now,
        player_id=player.pk,
        actor_id=actor.pk if actor is not None else None,
        actor_name=actor.get_username() if actor is not None else "house",
        kind=kind,
        action=action,
        before=before,
        after=after,
        effective=effective,
        session_id=session,
    )


def _check_amount(kind: str, amount: Any) -> int | None:
    if kind not in periods.KINDS:
        raise LimitError("unknown_limit", f"there is no limit {kind!r}")
    if amount is None:
        return None
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        unit = periods.KINDS[kind][1]
        raise LimitError("bad_amount", f"a limit is a whole number of {unit} above 0")
    if kind == "time_day" and amount > 24 * 60:
        raise LimitError("bad_amount", "a day has 1440 minutes")
    return amount


def suspended(guard: PlayerGuard, now: dt.datetime) -> str:
    """Why the player may not play now ("" if they may): exclusion or cool-off."""
    if guard.excluded and (guard.excluded_until is None or guard.excluded_until > now):
        return "excluded"
    if guard.cooloff_until is not None and guard.cooloff_until > now:
        return "cooloff"
    return ""


def set_limit(
    user: User,
    kind: str,
    amount: int | None,
    *,
    now: dt.datetime | None = None,
    session: int | None = None,
) -> Outcome:
    """The player sets ``kind`` to ``amount`` (None: no limit). A decrease (or a first
    limit) is in force at once; an increase or a removal is asked, for :func:`confirm`."""
    now = now or timezone.now()
    amount = _check_amount(kind, amount)
    with transaction.atomic():
        guard = guard_of(user, lock=True)
        current = guard.limits.get(kind)
        tighter = amount is not None and (current is None or amount < current)
        if tighter:
            guard.limits = {**guard.limits, kind: amount}
            guard.pending = {k: v for k, v in guard.pending.items() if k != kind}
            guard.save(update_fields=["limits", "pending", "updated"])
            action = "set" if current is None else "decreased"
            _log(user, user, kind, action, current, amount, now, now, session)
            return Outcome(kind, action, amount, now)
        if amount == current:
            raise LimitError("no_change", f"your {periods.words(kind)} limit is already that")
        if suspended(guard, now):
            raise LimitError(
                "suspended", "limits may not be raised or removed while play is suspended"
            )
        after = periods.period_end(kind, now)
        guard.pending = {
            **guard.pending,
            kind: {"amount": amount, "asked": now.isoformat(), "after": after.isoformat()},
        }
        guard.save(update_fields=["pending", "updated"])
        action = "removal asked" if amount is None else "increase asked"
        _log(user, user, kind, action, current, amount, after, now, session)
        return Outcome(kind, action, amount, None)


def confirm(
    user: User, kind: str, *, now: dt.datetime | None = None, session: int | None = None
) -> Outcome:
    """The player confirms an increase or removal asked before: in force now if the period
    of the limit it replaces has ended; refused (and still waiting) before that."""
    now = now or timezone.now()
    with transaction.atomic():
        guard = guard_of(user, lock=True)
        asked = guard.pending.get(kind)
        if asked is None:
            raise LimitError(
                "nothing_asked", f"no change of your {periods.words(kind)} limit waits"
            )
        after = parse_datetime(asked["after"])
        assert after is not None
        if now < after:
            raise LimitError(
                "too_soon",
                f"your {periods.words(kind)} limit can be raised or removed from "
                f"{timezone.localtime(after):%Y-%m-%d %H:%M} on, when its period has ended "
                "(§814a.2); confirm it again then",
            )
        if suspended(guard, now):
            raise LimitError(
                "suspended", "limits may not be raised or removed while play is suspended"
            )
        current = guard.limits.get(kind)
        amount = asked["amount"]
        limits = dict(guard.limits)
        if amount is None:
            limits.pop(kind, None)
        else:
            limits[kind] = amount
        guard.limits = limits
        guard.pending = {k: v for k, v in guard.pending.items() if k != kind}
        guard.save(update_fields=["limits", "pending", "updated"])
        action = "removed" if amount is None else "increased"
        _log(user, user, kind, action, current, amount, now, now, session)
        return Outcome(kind, action, amount, now)


def withdraw(
    user: User, kind: str, *, now: dt.datetime | None = None, session: int | None = None
) -> None:
    """The player takes back an increase or removal they asked for (the limit stays)."""
    now = now or timezone.now()
    with transaction.atomic():
        guard = guard_of(user, lock=True)
        asked = guard.pending.get(kind)
        if asked is None:
            raise LimitError(
                "nothing_asked", f"no change of your {periods.words(kind)} limit waits"
            )
        guard.pending = {k: v for k, v in guard.pending.items() if k != kind}
        guard.save(update_fields=["pending", "updated"])
        _log(
            user,
            user,
            kind,
            "withdrawn",
            guard.limits.get(kind),
            asked["amount"],
            None,
            now,
            session,
        )


def cool_off(
    user: User,
    length: dt.timedelta,
    *,
    now: dt.datetime | None = None,
    session: int | None = None,
) -> dt.datetime:
    """A timed suspension of 24 hours to 30 days (§814a.2(6)): no wager, no seat, no credit
    until it ends (the account stays open: §814a.2(6) lets the player withdraw). A cool-off
    only ever lengthens a suspension already running."""
    now = now or timezone.now()
    if not periods.COOLOFF_SHORTEST <= length <= periods.COOLOFF_LONGEST:
        raise LimitError("bad_length", "a cool-off lasts from 24 hours to 30 days")
    with transaction.atomic():
        guard = guard_of(user, lock=True)
        until = now + length
        if guard.cooloff_until is not None and guard.cooloff_until >= until:
            ends = timezone.localtime(guard.cooloff_until)
            raise LimitError("no_change", f"you are already suspended until {ends:%Y-%m-%d %H:%M}")
        guard.cooloff_until = until
        guard.save(update_fields=["cooloff_until", "updated"])
        minutes = int(length.total_seconds() // 60)
        _log(user, user, "cooloff", "cool-off", None, minutes, now, now, session)
    _leave_tables(user)
    return until


def set_reality_minutes(
    user: User,
    minutes: int,
    *,
    now: dt.datetime | None = None,
    session: int | None = None,
) -> None:
    """How often the reality check comes: every 60 minutes, or 15 or 30 (§814a.1(e)(2)-(3))."""
    now = now or timezone.now()
    if minutes not in periods.REALITY_CHOICES:
        raise LimitError("bad_interval", "a reality check comes every 15, 30 or 60 minutes")
    with transaction.atomic():
        guard = guard_of(user, lock=True)
        before = guard.reality_minutes
        guard.reality_minutes = minutes
        guard.save(update_fields=["reality_minutes", "updated"])
        _log(user, user, "reality_check", "reality check every", before, minutes, now, now, session)


def _leave_tables(user: User) -> None:
    """Play suspended while seated: every table the player sits at lets them go as a
    player leaving does (wagers not yet dealt come back, a dealt round settles: the
    boxes fold when their turn comes, §684a.7(b)), each in its own command."""
    from table import services
    from table.models import Seat

    for table_id in sorted(
        set(Seat.objects.filter(player_id=user.pk).values_list("table_id", flat=True))
    ):
        try:
            services.leave(table_id, user)
        except services.ServiceError:
            pass  # the table is gone or closed: nothing of theirs is in play there
