"""Every time the staff read names the casino's one time zone (settings.TIME_ZONE): the admin's
lists and a round's detail page, and the round's recall page read by staff (which the
player-side script must not rewrite into the reader's own zone)."""

from __future__ import annotations

import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from table import backoffice, rollup
from table.models import Round

from .test_backoffice_admin import played  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def admin_client_ny(settings: Any) -> Client:
    settings.TIME_ZONE = "America/New_York"
    timezone.deactivate()
    client = Client()
    client.force_login(User.objects.create_superuser("boss", password="pw"))
    return client


def _abbrev(moment: Any) -> str:
    return moment.astimezone(ZoneInfo("America/New_York")).strftime("%Z")


def test_admin_lists_and_detail_name_the_casino_zone(played: Any, admin_client_ny: Client) -> None:  # noqa: F811
    rnd = Round.objects.filter(finished_at__isnull=False).order_by("-id").first()
    assert rnd is not None
    zone = _abbrev(rnd.finished_at)
    listing = admin_client_ny.get(reverse("admin:table_round_changelist")).content.decode()
    # "Nov. 26, 2026, 6:54 a.m. EST": the time, then the zone's name, not a bare 6:54 a.m.
    assert re.search(r"\d{1,2}(:\d\d)? [ap]\.m\. " + zone, listing), listing[:2000]
    audit = admin_client_ny.get(reverse("admin:table_auditentry_changelist")).content.decode()
    assert re.search(r"[ap]\.m\. " + zone, audit)
    detail = admin_client_ny.get(
        reverse("admin:table_round_change", args=[rnd.pk])
    ).content.decode()
    assert re.search(r"[ap]\.m\. " + zone, detail)


def test_staff_recall_keeps_the_casino_zone(played: Any, admin_client_ny: Client) -> None:  # noqa: F811
    rnd = Round.objects.filter(finished_at__isnull=False).order_by("-id").first()
    assert rnd is not None
    page = admin_client_ny.get(reverse("round_detail", args=[rnd.pk])).content.decode()
    zone = _abbrev(rnd.finished_at)
    finished = rnd.finished_at.astimezone(ZoneInfo("America/New_York")).strftime(
        "%Y-%m-%d %H:%M:%S"
    )
    assert f"{finished} {zone}" in page
    # The staff's times are not handed to the script that rewrites them into the reader's zone.
    assert "data-local" not in page


def test_back_office_pages_name_the_zone_of_every_time(
    played: Any,  # noqa: F811
    admin_client_ny: Client,
) -> None:

    rnd = Round.objects.filter(finished_at__isnull=False).order_by("-id").first()
    assert rnd is not None
    day = rollup.gaming_day_and_shift(rnd.finished_at)[0]
    session = backoffice.player_history("ann", *rollup.day_bounds(day, day))[1][0]
    pages = [
        admin_client_ny.get(reverse("admin:backoffice_player"), {"player": "ann"}),
        admin_client_ny.get(
            reverse("admin:backoffice_player"), {"player": "ann", "session": session.key}
        ),
        admin_client_ny.get(reverse("admin:backoffice_meters")),
    ]
    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200
        assert re.search(r"\d\d:\d\d:\d\d E[SD]T", html)
        # No time of day without its zone ("14:27:17</td>").
        bare = re.search(r"\d\d:\d\d(:\d\d)?</", html)
        assert bare is None, html[bare.start() - 200 : bare.end() + 50]
