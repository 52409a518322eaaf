"""Who may do what over HTTP: players log in with the demo accounts; only dealers reach the
dealer console; only staff reach the admin; the recall is for logged-in players."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table.demo import DEMO_PASSWORD, ensure_demo
from table.models import Table

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


@pytest.fixture
def demo() -> Table:
    return ensure_demo().table


def logged_in(username: str, password: str = DEMO_PASSWORD) -> Client:
    client = Client()
    assert client.login(username=username, password=password), username
    return client


def test_demo_accounts_log_in_through_the_login_form(demo: Table) -> None:
    client = Client()
    response = client.post(
        reverse("login"), {"username": "alice", "password": DEMO_PASSWORD}, follow=False
    )
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert client.get(reverse("lobby")).status_code == 200
    wrong = Client().post(reverse("login"), {"username": "alice", "password": "guess"})
    assert wrong.status_code == 200 and "_auth_user_id" not in wrong.client.session


def test_the_lobby_needs_a_login(demo: Table) -> None:
    response = Client().get(reverse("lobby"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_dealer_console_is_for_dealers_only(demo: Table) -> None:
    path = reverse("dealer_console", args=[demo.pk])
    anonymous = Client().get(path)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert logged_in("alice").get(path).status_code == 403
    assert logged_in("dealer").get(path).status_code == 200
    # Dealing is per table and apart from the other duties: the superuser, the cashier and
    # the compliance officer deal no table.
    for other in ("admin", "cashier", "compliance"):
        assert logged_in(other).get(path).status_code == 403, other


def test_the_admin_is_for_staff_only(demo: Table) -> None:
    login = reverse("admin:login")
    pages = [
        reverse("admin:index"),
        reverse("admin:table_rulessubmission_changelist"),
        reverse("admin:table_rulessubmission_add"),
        reverse("admin:table_roundevent_changelist"),
        reverse("admin:table_account_changelist"),
    ]
    for who in (None, "alice", "dealer"):
        client = logged_in(who) if who else Client()
        for page in pages:
            response = client.get(page)
            assert response.status_code == 302, (who, page)
            assert response["Location"].startswith(login), (who, page)
        # Posting to an admin form without being staff changes nothing either.
        response = client.post(reverse("admin:table_rulessubmission_add"), {"name": "sneaky"})
        assert response.status_code == 302 and response["Location"].startswith(login)
    staff = logged_in("admin")
    for page in pages:
        assert staff.get(page).status_code == 200, page
    from table.models import RulesSubmission

    assert not RulesSubmission.objects.filter(name="sneaky").exists()


def test_the_table_page_is_open_to_spectators(demo: Table) -> None:
    assert Client().get(reverse("table", args=[demo.pk])).status_code == 200
    assert Client().get(reverse("table", args=[999_999])).status_code == 404


def test_recall_needs_a_login(demo: Table) -> None:
    response = Client().get(reverse("recall_json", args=[demo.pk]))
    assert response.status_code == 403 and response.json()["login_required"] is True
    mine = Client().get(reverse("my_rounds"))
    assert mine.status_code == 302


def test_logout_needs_a_post(demo: Table) -> None:
    client = logged_in("alice")
    assert client.get(reverse("logout")).status_code == 405
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("lobby")).status_code == 302


def test_csrf_is_enforced_on_forms(demo: Table, settings: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "alice", "password": DEMO_PASSWORD})
    assert response.status_code == 403
