"""Limit kinds and their periods, in the casino's time zone (settings.TIME_ZONE).

A day starts at local midnight, a week on Monday, a month on its first. The kinds of §814a.2:
credits (our deposits, (1)), loss ((2): money spent, net), amount wagered (the issue's own
addition, counted like the loss), each per day, week and month; the largest single wager
((3)); time per day ((4), in minutes); the table limit ((5): the most at risk at one table in
one round). A limit without a period of its own (single wager, table) counts a day as its
period when an increase waits (docs/player-protection.md, "Readings").
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

PERIODS = ("day", "week", "month")
MONEY_KINDS = ("credits", "loss", "wagered")
#: kind -> (words, unit): every limit a player may set.
KINDS: dict[str, tuple[str, str]] = {
    **{
        f"{k}_{p}": (
            f"{dict(credits='credits', loss='net loss', wagered='amount wagered')[k]} per {p}",
            "cents",
        )
        for k in MONEY_KINDS
        for p in PERIODS
    },
    "wager_max": ("largest single wager", "cents"),
    "table_max": ("most at risk at one table in a round", "cents"),
    "time_day": ("time played per day", "minutes"),
}
COOLOFF_SHORTEST = dt.timedelta(hours=24)
COOLOFF_LONGEST = dt.timedelta(days=30)
REALITY_CHOICES = (15, 30, 60)


#: The last moment asked, the casino's zone then and its day (one tuple: safe beside another
#: thread's call).
_last: tuple[dt.datetime, Any, dt.date] | None = None


def local_day(moment: dt.datetime) -> dt.date:
    """The casino's day ``moment`` falls in. A command asks it of its own time several times
    (its account lock's dates, its tallies): the last answer is kept for that same moment
    object in the same casino zone (``timezone.localtime`` is ~6 us, most of it the current
    time zone's lookup, issue 26; the platform never activates another zone than the
    casino's, settings.TIME_ZONE, whose zone object is kept until the setting changes)."""
    global _last
    last = _last
    zone = timezone.get_default_timezone()
    if last is not None and last[0] is moment and last[1] is zone:
        return last[2]
    day = timezone.localtime(moment).date()
    _last = (moment, zone, day)
    return day


def starts(moment: dt.datetime) -> tuple[dt.date, dt.date, dt.date]:
    """The first days of the day, the week and the month ``moment`` falls in."""
    day = local_day(moment)
    return day, day - dt.timedelta(days=day.weekday()), day.replace(day=1)


def period_start(period: str, moment: dt.datetime) -> dt.date:
    """The first day of the period ``moment`` falls in."""
    day, week, month = starts(moment)
    if period == "week":
        return week
    if period == "month":
        return month
    return day


def period_end(kind: str, moment: dt.datetime) -> dt.datetime:
    """When the period of a limit of ``kind`` that ``moment`` falls in ends (local midnight)."""
    period = kind.rsplit("_", 1)[1] if kind.rsplit("_", 1)[1] in PERIODS else "day"
    start = period_start(period, moment)
    if period == "day":
        end = start + dt.timedelta(days=1)
    elif period == "week":
        end = start + dt.timedelta(days=7)
    else:
        end = (start.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    zone = timezone.get_current_timezone()
    return dt.datetime.combine(end, dt.time(), tzinfo=zone)


def words(kind: str) -> str:
    return KINDS[kind][0]


def amount_words(kind: str, amount: int | None) -> str:
    if amount is None:
        return "no limit"
    if KINDS[kind][1] == "minutes":
        hours, minutes = divmod(amount, 60)
        return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
    return f"${amount / 100:,.2f}"
