"""A command's gaming day, week and month are read once per moment (issue 26: the current
time zone's lookup made ``guard.lock_dates`` ~30 us, asked twice a wager): the same dates as
``timezone.localtime`` gives, in the casino's time zone, across midnight, a week's and a
month's turn and daylight saving."""

from __future__ import annotations

import datetime as dt
from typing import Any
from unittest import mock

from django.utils import timezone
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from table.protection import guard, periods

MOMENTS = st.datetimes(
    min_value=dt.datetime(2020, 1, 1),
    max_value=dt.datetime(2035, 12, 31),
    timezones=st.just(dt.UTC),
)


def expected(moment: dt.datetime) -> tuple[dt.date, ...]:
    day = timezone.localtime(moment).date()
    week = day - dt.timedelta(days=day.weekday())
    month = day.replace(day=1)
    return (day, week, month, day, week, month, min(week, month))


@hypothesis_settings(max_examples=300, deadline=None)
@given(MOMENTS)
def test_the_dates_are_the_casino_s(moment: dt.datetime) -> None:
    for zone in ("America/New_York", "UTC", "Pacific/Chatham"):
        with timezone.override(zone):
            periods._last = None
            assert guard.lock_dates(moment) == expected(moment)
            assert periods.period_start("week", moment) == expected(moment)[1]
            assert periods.period_start("month", moment) == expected(moment)[2]
            assert periods.period_start("day", moment) == expected(moment)[0]
    periods._last = None


def test_a_moment_s_day_is_read_once_and_an_equal_moment_is_read_again() -> None:
    real = timezone.localtime
    calls: list[Any] = []

    def localtime(value: Any = None, zone: Any = None) -> Any:
        calls.append(value)
        return real(value, zone)

    now = dt.datetime(2026, 11, 27, 4, 59, 59, tzinfo=dt.UTC)  # 23:59:59 in New York
    with timezone.override("America/New_York"), mock.patch.object(
        periods.timezone, "localtime", localtime
    ):
        assert guard.lock_dates(now)[0] == dt.date(2026, 11, 26)
        guard.lock_dates(now)
        periods.local_day(now)
        assert calls == [now]
        same = now.replace()  # equal, another object: read again (the zone may differ)
        assert periods.local_day(same) == dt.date(2026, 11, 26) and len(calls) == 2
    periods._last = None
