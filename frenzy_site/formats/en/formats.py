"""Date formats for the staff's pages: every date-and-time the admin shows names the casino's
time zone (``TIME_ZONE``, e.g. "Nov. 26, 2026, 6:54 a.m. EST"), so a list, a detail page and a
round's recall read the same clock. The rest is Django's English formats."""

from django.conf.locale.en.formats import *  # noqa: F403

DATETIME_FORMAT = "N j, Y, P T"
SHORT_DATETIME_FORMAT = "m/d/Y P T"
