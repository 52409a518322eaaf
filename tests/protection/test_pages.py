"""The player's pages: login makes a session and shows the previous login (§812a.9(a)(4));
an excluded player cannot log in (ch. 815a); every page has the helpline (§814a.1(b)); the
status the bar draws (§814a.1(e)); the reality check's answers; the password after the idle
lock (§812a.3(a)(6)); the limits page's actions."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from table.models import LimitChange, PlayerSession, SelfExclusion
from table.protection import exclusion, limits

from .conftest import Clock

pytestmark = [pytest.mark.django_db]


def login(client: Client, name: str) -> Any:
    return client.post("/login/", {"username": name, "password": f"pw-{name}"}, follow=True)


def test_login_makes_a_session_and_says_when_the_previous_one_was(clock: Clock, alice: Any) -> None:
    first = login(Client(), "alice")
    assert "Your previous login none: this is your first" in first.content.decode()
    clock.move(hours=2)
    page = login(Client(), "alice").content.decode()
    assert "Your previous login is shown above" in page
    # The bar shows it in the browser's own zone (static/table/protection.js).
    assert 'data-previous="2026-11-18T17:00:00+00:00"' in page
    assert PlayerSession.objects.filter(user=alice).count() == 2
    assert "data-protection" in page and "1-800-GAMBLER" in page


def test_an_excluded_player_cannot_log_in(clock: Clock, alice: Any) -> None:
    exclusion.exclude(alice, SelfExclusion.ONE_YEAR, by=alice)
    page = login(Client(), "alice").content.decode()
    assert "excluded from play" in page and "1-800-GAMBLER" in page
    assert not PlayerSession.objects.filter(user=alice).exists()


def test_excluded_while_logged_in_the_next_page_logs_out(clock: Clock, alice: Any) -> None:
    client = Client()
    login(client, "alice")
    exclusion.exclude(alice, SelfExclusion.ONE_YEAR, by=alice)
    page = client.get("/", follow=True)
    assert page.redirect_chain[-1][0].startswith("/login/")


def test_the_helpline_is_on_pages_for_visitors_too() -> None:
    page = Client().get("/login/").content.decode()
    assert "call 1-800-GAMBLER" in page
    assert "1-800-GAMBLER" in Client().get("/responsible-gaming/").content.decode()


def test_status_reality_check_and_idle_lock(clock: Clock, alice: Any) -> None:
    client = Client()
    login(client, "alice")
    status = client.get("/protection/status.json").json()
    assert status["elapsed_seconds"] == 0 and not status["reality_due"] and not status["locked"]
    for _ in range(4):
        clock.move(minutes=15)
        client.get("/")  # a page is activity
    status = client.get("/protection/status.json").json()
    assert status["reality_due"] and status["elapsed_seconds"] == 60 * 60
    assert client.post("/protection/reality-check/", {"answer": "maybe"}).status_code == 400
    answered = client.post("/protection/reality-check/", {"answer": "keep"}).json()
    assert not answered["reality_due"]
    clock.move(minutes=16)  # idle: the status poll is no activity
    assert client.get("/protection/status.json").json()["locked"]
    assert client.post("/protection/unlock/", {"password": "nope"}).status_code == 403
    assert not client.post("/protection/unlock/", {"password": "pw-alice"}).json()["locked"]
    assert client.post("/protection/reality-check/", {"answer": "logout"}).json() == {
        "next": "/login/"
    }
    assert client.get("/protection/status.json").status_code == 302  # logged out


def test_the_limits_page_sets_asks_confirms_and_lists_changes(clock: Clock, alice: Any) -> None:
    client = Client()
    login(client, "alice")
    client.post("/protection/limits/", {"action": "set", "kind": "loss_day", "amount": "50"})
    assert limits.guard_of(alice).limits == {"loss_day": 50_00}
    client.post("/protection/limits/", {"action": "set", "kind": "loss_day", "amount": "80.00"})
    page = client.get("/protection/limits/").content.decode()
    assert "You asked for $80.00" in page and "can be confirmed from" in page
    clock.move(hours=12, minutes=1)
    page = client.get("/protection/limits/").content.decode()
    assert "Confirm $80.00" in page
    client.post("/protection/limits/", {"action": "confirm", "kind": "loss_day"})
    assert limits.guard_of(alice).limits == {"loss_day": 80_00}
    bad = client.post(
        "/protection/limits/", {"action": "set", "kind": "loss_day", "amount": "1.234"}, follow=True
    )
    assert "dollars and cents" in bad.content.decode()
    client.post("/protection/limits/", {"action": "reality", "minutes": "15"})
    assert limits.guard_of(alice).reality_minutes == 15
    changes = LimitChange.objects.filter(player=alice)
    assert set(changes.values_list("session", flat=True)) == {
        PlayerSession.objects.get(user=alice).pk
    }


def test_self_exclusion_from_the_limits_page_logs_out(clock: Clock, alice: Any) -> None:
    client = Client()
    login(client, "alice")
    client.post("/protection/limits/", {"action": "exclude", "term": "1y"})  # not ticked
    assert exclusion.active(alice) is None
    page = client.post("/protection/limits/", {"action": "exclude", "term": "1y", "sure": "yes"})
    assert "You are excluded from play" in page.content.decode()
    assert exclusion.active(alice) is not None
    assert client.get("/protection/status.json").status_code == 302
