"""Self-exclusion (58 Pa. Code ch. 815a).

A player excludes themself for 1 year, 5 years or life (§815a.3(c)); staff record an
exclusion from the state's list (§815a.5: the operator keeps players on the Board's list from
play). From that moment the player cannot log in, sit, wager or be credited; a player seated
at tables is let go at each (wagers not yet dealt come back, a round already dealt settles).
An exclusion is lifted only once its term has ended (§815a.6(a); never for life here: the
Board decides a lifetime petition, §815a.6(c)), by staff, in the audit log.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from table import duties

from .limits import LimitError, _leave_tables, guard_of
from .models import PlayerGuard, PlayerSession, SelfExclusion

YEARS = {SelfExclusion.ONE_YEAR: 1, SelfExclusion.FIVE_YEARS: 5, SelfExclusion.LIFE: None}


def _ends(term: str, now: dt.datetime) -> dt.datetime | None:
    if term not in YEARS:
        raise LimitError("bad_term", "an exclusion is for 1 year, 5 years or life")
    years = YEARS[term]
    if years is None:
        return None
    local = timezone.localtime(now)
    try:
        return local.replace(year=local.year + years)
    except ValueError:  # 29 February
        return local.replace(year=local.year + years, day=28)


def _refresh(guard: PlayerGuard, player_id: int, now: dt.datetime) -> None:
    """The guard's exclusion as the exclusions in force make it: until the furthest end
    (none: for life), or none."""
    ends = [
        r.ends
        for r in SelfExclusion.objects.filter(player_id=player_id, lifted_at__isnull=True)
        if r.ends is None or r.ends > now
    ]
    guard.excluded = bool(ends)
    guard.excluded_until = None if (not ends or None in ends) else max(e for e in ends if e)
    guard.save(update_fields=["excluded", "excluded_until", "updated"])


def active(user: User, now: dt.datetime | None = None) -> SelfExclusion | None:
    """The exclusion in force for this player, if any."""
    now = now or timezone.now()
    for row in SelfExclusion.objects.filter(player_id=user.pk, lifted_at__isnull=True):
        if row.ends is None or row.ends > now:
            return row
    return None


def exclude(
    player: User,
    term: str,
    *,
    by: User | None = None,
    source: str = SelfExclusion.PLAYER,
    note: str = "",
    now: dt.datetime | None = None,
) -> SelfExclusion:
    """Exclude ``player`` for ``term``: asked by the player (``by`` is the player) or
    recorded by staff from the state's list (``by`` staff, ``source`` "state list"). In the
    audit log. The player is let go at every table where seated, after it is recorded."""
    now = now or timezone.now()
    ends = _ends(term, now)
    if source == SelfExclusion.STATE_LIST and (
        by is None or not by.has_perm("table.add_selfexclusion")
    ):
        raise LimitError("not_allowed", "only staff record an exclusion from the state's list")
    with transaction.atomic():
        guard = guard_of(player, lock=True)
        row = SelfExclusion.objects.create(
            player_id=player.pk,
            term=term,
            source=source,
            started=now,
            ends=ends,
            recorded_by_id=by.pk if by is not None else None,
            recorded_by_name=by.get_username() if by is not None else "house",
            note=note,
        )
        _refresh(guard, player.pk, now)
        # Every open session ends: its commands are refused, its pages log out.
        PlayerSession.objects.filter(user_id=player.pk, ended__isnull=True).update(ended=now)
        duties.record(
            by,
            "exclusion",
            {
                "player": player.get_username(),
                "term": term,
                "source": source,
                "ends": ends.isoformat() if ends else None,
                "exclusion": row.pk,
            },
            when=now,
        )
    _leave_tables(player)
    return row


def lift(
    row: SelfExclusion, by: User, *, now: dt.datetime | None = None
) -> SelfExclusion:
    """Staff lift an exclusion whose term has ended (§815a.6(a)); refused before that, and
    for a lifetime exclusion. In the audit log."""
    now = now or timezone.now()
    if not by.has_perm("table.change_selfexclusion"):
        raise LimitError("not_allowed", "lifting an exclusion is a staff action")
    with transaction.atomic():
        row = SelfExclusion.objects.select_for_update().get(pk=row.pk)
        if row.lifted_at is not None:
            raise LimitError("already_lifted", "this exclusion was lifted already")
        if row.ends is None:
            raise LimitError(
                "lifetime", "a lifetime exclusion is not lifted here: only by the Board's order"
            )
        if now < row.ends:
            raise LimitError(
                "term_running",
                f"this exclusion runs until {timezone.localtime(row.ends):%Y-%m-%d %H:%M}: "
                "it can be lifted only when its term has ended",
            )
        row.lifted_at = now
        row.lifted_by_id = by.pk
        row.lifted_by_name = by.get_username()
        row.save(update_fields=["lifted_at", "lifted_by", "lifted_by_name"])
        _refresh(guard_of(row.player, lock=True), row.player_id, now)
        duties.record(
            by,
            "exclusion_lifted",
            {"player": row.player.get_username(), "term": row.term, "exclusion": row.pk},
            when=now,
        )
    return row
