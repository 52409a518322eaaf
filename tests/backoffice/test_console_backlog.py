"""The dealer console's round log starts with the table's last public events
(views.dealer_log_json, issue 28: the console's log stayed empty while the players' was full):
only up to the version asked, never a player's private event, only to the table's dealers."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from table.games.events import PUBLIC
from table.models import DealerAssignment, RoundEvent, Table

from .test_backoffice_admin import played  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db
User = get_user_model()


def _dealer_client(table: Table) -> Client:
    client = Client()
    client.force_login(DealerAssignment.objects.get(table=table).dealer)
    return client


def test_the_console_backlog_is_the_public_events_up_to_the_snapshot(played: Any) -> None:  # noqa: F811
    for table in played.values():  # a table of each game
        url = reverse("dealer_log_json", args=[table.pk])
        top = RoundEvent.objects.filter(table=table).order_by("-version").first()
        assert top is not None
        upto = top.version - 3
        body = _dealer_client(table).get(url, {"upto": upto}).json()
        events = body["events"]
        assert events, body
        wanted = RoundEvent.objects.filter(table=table, audience=PUBLIC, version__lte=upto)
        last = list(wanted.order_by("-version", "-seq")[: len(events)])[::-1]
        assert [(e["kind"], e["data"]) for e in events] == [(e.kind, e.data) for e in last]
        assert "hole_cards" not in {e["kind"] for e in events}  # a player's own cards stay theirs
        assert RoundEvent.objects.filter(table=table, kind="hole_cards").exists()
        assert all(e["created"] for e in events)


def test_the_backlog_is_the_dealers_only_and_asks_a_version(played: Any) -> None:  # noqa: F811
    table = next(iter(played.values()))
    url = reverse("dealer_log_json", args=[table.pk])
    stranger = Client()
    stranger.force_login(User.objects.create_user("walker", password="pw"))
    assert stranger.get(url, {"upto": 10}).status_code == 403
    bad = _dealer_client(table).get(url, {"upto": "latest"})
    assert bad.status_code == 400
    assert "whole number" in bad.json()["error"]
