"""Login throttling, per account and per client address, on the player login and the admin
login: after the limit of wrong passwords, logins are refused with a clear message and no
password is checked (each check costs ~0.5 s of hashing in production)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from table.demo import DEMO_PASSWORD, ensure_demo

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

LIMIT = getattr(settings, "AXES_FAILURE_LIMIT", 10)  # the documented default


@pytest.fixture
def demo() -> None:
    ensure_demo()


def attempt(page: str, username: str, password: str, ip: str) -> Any:
    return Client(REMOTE_ADDR=ip).post(reverse(page), {"username": username, "password": password})


def assert_refused(response: Any) -> None:
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins" in text and "Try again in" in text
    assert "_auth_user_id" not in response.client.session


@pytest.mark.parametrize("page, user", [("login", "alice"), ("admin:login", "admin")])
def test_an_account_is_throttled_after_the_limit_of_wrong_passwords(
    demo: None, page: str, user: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(LIMIT - 1):  # from ever new addresses: the account is what is guessed
        response = attempt(page, user, f"guess-{i}", f"10.1.0.{i + 1}")
        assert response.status_code == 200 and "_auth_user_id" not in response.client.session
    assert_refused(attempt(page, user, "guess-last", "10.1.0.200"))  # the limit: told at once
    checked: list[str] = []
    real = get_user_model().check_password

    def counting(self: Any, raw: str) -> bool:
        checked.append(raw)
        return bool(real(self, raw))

    monkeypatch.setattr(get_user_model(), "check_password", counting)
    # Now even the right password, from a fresh address, is refused, without hashing.
    assert_refused(attempt(page, user, DEMO_PASSWORD, "10.1.1.1"))
    assert checked == []
    # Other accounts are not affected.
    other = "bob" if page == "login" else "admin2"
    if other == "admin2":
        get_user_model().objects.create_superuser("admin2", password=DEMO_PASSWORD)
    response = attempt(page, other, DEMO_PASSWORD, "10.1.1.2")
    assert response.status_code == 302


def test_an_address_is_throttled_after_the_limit_of_wrong_passwords(demo: None) -> None:
    for i in range(LIMIT - 1):  # one address trying many accounts
        assert attempt("login", f"nobody{i}", "guess", "10.2.0.1").status_code == 200
    assert_refused(attempt("login", "nobody-last", "guess", "10.2.0.1"))
    assert_refused(attempt("login", "carol", DEMO_PASSWORD, "10.2.0.1"))
    assert_refused(attempt("admin:login", "admin", DEMO_PASSWORD, "10.2.0.1"))
    # carol herself, elsewhere, logs in.
    assert attempt("login", "carol", DEMO_PASSWORD, "10.2.0.2").status_code == 302


def test_a_few_mistakes_then_the_right_password_still_log_in(demo: None) -> None:
    for _ in range(LIMIT - 1):
        assert attempt("login", "dave", "typo", "10.3.0.1").status_code == 200
    assert attempt("login", "dave", DEMO_PASSWORD, "10.3.0.1").status_code == 302
