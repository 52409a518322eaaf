"""The back office in the admin: the compliance account and a table games manager read every
report (page and CSV) and change nothing; the CSV has the page's figures; bad input is a clear
answer that changes nothing."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.test import Client
from django.urls import reverse

from table import backoffice, reports, rollup, services
from table.games import GAMES
from table.models import AuditEntry, Entry, MeterEvent, Round, Seat, WagerShift

from ..services.conftest import make_player
from .play import Source, make_table, play_round

pytestmark = pytest.mark.django_db
User = get_user_model()
PAGES = ("admin:table_wagershift_changelist", "admin:backoffice_meters", "admin:backoffice_player")


def reader(name: str) -> Any:
    user = User.objects.create_user(name, password="pw", is_staff=True)
    group, _ = Group.objects.get_or_create(name=f"{name} readers")
    for codename in ("view_wagershift", "view_progressivemeter", "view_round"):
        group.permissions.add(Permission.objects.get(codename=codename))
    user.groups.add(group)
    return user


@pytest.fixture
def played() -> dict[str, Any]:
    src = Source(7)
    players = {n: make_player(n) for n in ("ann", "ben")}
    seats = {"ann": 1, "ben": 3}
    out = {}
    for n, game in enumerate(GAMES, start=1):
        name = f"Table {n}"
        table, dealer = make_table(name, game)
        Seat.objects.filter(table=table).delete()
        for p, box in seats.items():
            services.sit(table.pk, players[p], box)
        for _ in range(4):
            play_round(table, dealer, players, src, seats)
        out[name] = table
    return out


def _state() -> tuple[Any, ...]:
    return (
        Round.objects.count(),
        Entry.objects.count(),
        MeterEvent.objects.count(),
        WagerShift.objects.count(),
        AuditEntry.objects.exclude(action__startswith="admin").count(),
    )


@pytest.mark.parametrize("name", ["compliance", "manager"])
def test_readers_see_every_report_and_change_nothing(played: Any, name: str) -> None:
    client = Client()
    client.force_login(reader(name))
    before = _state()
    day = rollup.gaming_day_and_shift(Round.objects.first().finished_at)[0]  # type: ignore[union-attr]
    for by in reports.GROUPS:
        page = client.get(reverse(PAGES[0]), {"first": day, "last": day, "by": by})
        assert page.status_code == 200, by
        assert b"Theoretical win" in page.content
        assert client.get(reverse(PAGES[0]), {"by": by, "format": "csv"}).status_code == 200
    assert client.get(reverse(PAGES[1])).status_code == 200
    assert client.get(reverse(PAGES[1]), {"format": "csv"}).status_code == 200
    history = client.get(reverse(PAGES[2]), {"player": "ann"})
    assert history.status_code == 200 and b"Sessions" in history.content
    session = backoffice.player_history("ann", *rollup.day_bounds(day, day))[1][0]
    seen = client.get(reverse(PAGES[2]), {"player": "ann", "session": session.key})
    assert b"saw, round by round" in seen.content
    assert seen.content.count(b"(theirs)") >= len(session.rounds)
    # Nothing to change: no add, change or delete; a POST is refused.
    for url in (*(reverse(p) for p in PAGES), reverse("admin:table_wagershift_add")):
        assert client.post(url, {"lines": 1}).status_code in (403, 405)
    assert _state() == before


def test_no_permission_no_report(played: Any) -> None:
    client = Client()
    client.force_login(User.objects.create_user("clerk", password="pw", is_staff=True))
    for page in PAGES:
        assert client.get(reverse(page)).status_code == 403


def test_the_csv_has_the_pages_figures(played: Any) -> None:
    client = Client()
    client.force_login(reader("compliance"))
    day = rollup.gaming_day_and_shift(Round.objects.first().finished_at)[0]  # type: ignore[union-attr]
    report = reports.build(day, day, "table")
    got = client.get(reverse(PAGES[0]), {"first": day, "last": day, "format": "csv"})
    rows = list(csv.reader(io.StringIO(got.content.decode())))
    totals = {r[0]: r for r in rows[1:] if r[1] == "all wagers"}
    for g in [*report.groups, report.total]:
        row = totals[g.label]
        assert int(row[2]) == g.rounds
        assert row[4] == f"{g.handle / 100:.2f}"
        assert row[6] == f"{g.house_win / 100:.2f}"
        page = client.get(reverse(PAGES[0]), {"first": day, "last": day}).content.decode()
        assert f"${g.handle / 100:,.2f}" in page


def test_a_bad_range_is_a_clear_answer(played: Any) -> None:
    client = Client()
    client.force_login(reader("compliance"))
    page = client.get(reverse(PAGES[0]), {"first": "2026-03-05", "last": "2026-03-01"})
    assert page.status_code == 200 and b"before the first" in page.content
    page = client.get(reverse(PAGES[2]), {"player": "nobody"})
    assert b"There is no player" in page.content
