"""Login throttling in tiers (issue 23, table/login_throttle.py): wrong passwords lock the
account-and-address pair first, on the player login and the admin login (refused with a clear
message, and no password hashed); the whole address or the whole account only far later; and
neither wide lock holds a browser that logged in to the account before, so nobody can keep a
dealer out. Players sharing a casino's address are not locked out by one of them."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from table import login_throttle
from table.demo import DEMO_PASSWORD, ensure_demo

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

LIMIT = getattr(settings, "AXES_FAILURE_LIMIT", 10)  # the documented default


@pytest.fixture
def demo() -> None:
    ensure_demo()


def attempt(page: str, username: str, password: str, ip: str, client: Client | None = None) -> Any:
    client = client or Client(REMOTE_ADDR=ip)
    client.defaults["REMOTE_ADDR"] = ip
    return client.post(reverse(page), {"username": username, "password": password})


def assert_refused(response: Any) -> None:
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins" in text and "Try again in" in text
    assert "_auth_user_id" not in response.client.session


def logged_in(response: Any) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def log_out(client: Client) -> None:
    """End the session but keep the browser's other cookies (Client.logout drops them all)."""
    client.cookies.pop(settings.SESSION_COOKIE_NAME, None)


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords checked (hashed) from now on."""
    checked: list[str] = []
    real = get_user_model().check_password

    def counting(self: Any, raw: str) -> bool:
        checked.append(raw)
        return bool(real(self, raw))

    monkeypatch.setattr(get_user_model(), "check_password", counting)
    return checked


@pytest.mark.parametrize("page, user", [("login", "alice"), ("admin:login", "admin")])
def test_wrong_passwords_lock_the_account_at_that_address_only(
    demo: None, page: str, user: str, hashed: list[str]
) -> None:
    for i in range(LIMIT - 1):
        response = attempt(page, user, f"guess-{i}", "10.1.0.1")
        assert response.status_code == 200 and "_auth_user_id" not in response.client.session
    assert_refused(attempt(page, user, "guess-last", "10.1.0.1"))  # the limit: told at once
    hashed.clear()
    # Now even the right password, from that address, is refused, without hashing.
    assert_refused(attempt(page, user, DEMO_PASSWORD, "10.1.0.1"))
    assert hashed == []
    # The same account from another address logs in; so does another account at that address
    # (a casino's players share an address).
    assert logged_in(attempt(page, user, DEMO_PASSWORD, "10.1.0.2"))
    other = "bob" if page == "login" else "admin2"
    if other == "admin2":
        get_user_model().objects.create_superuser("admin2", password=DEMO_PASSWORD)
    assert logged_in(attempt(page, other, DEMO_PASSWORD, "10.1.0.1"))


def test_a_stranger_cannot_keep_the_dealer_out(demo: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dealer's console browser has logged in before. A stranger guessing the dealer's
    password locks only their own address; from many addresses they reach the account-wide
    lock, which holds a fresh browser but never the dealer's own."""
    monkeypatch.setattr(login_throttle, "ACCOUNT_FAILURE_LIMIT", 3 * LIMIT)
    console = Client()
    assert logged_in(attempt("login", "dealer", DEMO_PASSWORD, "10.4.0.1", console))
    assert login_throttle.DEVICE_COOKIE in console.cookies
    log_out(console)
    for i in range(LIMIT):
        attempt("login", "dealer", f"guess-{i}", "10.4.9.9")
    assert_refused(attempt("login", "dealer", DEMO_PASSWORD, "10.4.9.9"))
    assert logged_in(attempt("login", "dealer", DEMO_PASSWORD, "10.4.0.1"))  # not locked
    # A botnet: the account-wide lock, far later.
    for n in range(3):
        for i in range(LIMIT - 1):
            attempt("login", "dealer", f"guess-{n}-{i}", f"10.4.{n + 1}.1")
    assert_refused(attempt("login", "dealer", DEMO_PASSWORD, "10.4.0.77"))  # a fresh browser
    log_out(console)
    assert logged_in(attempt("login", "dealer", DEMO_PASSWORD, "10.4.0.77", console))
    # A forged or tampered cookie is no known device.
    forged = Client()
    forged.cookies[login_throttle.DEVICE_COOKIE] = "dealer"
    assert_refused(attempt("login", "dealer", DEMO_PASSWORD, "10.4.0.78", forged))


def test_an_address_locks_only_far_later_and_not_for_known_devices(
    demo: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(login_throttle, "ADDRESS_FAILURE_LIMIT", 3 * LIMIT)
    carols_phone = Client()
    assert logged_in(attempt("login", "carol", DEMO_PASSWORD, "10.2.0.1", carols_phone))
    log_out(carols_phone)
    # One address trying many accounts, each under the pair's limit: nobody is locked yet.
    for i in range(2 * LIMIT):
        assert attempt("login", f"nobody{i}", "guess", "10.2.0.1").status_code == 200
    assert logged_in(attempt("login", "erin", DEMO_PASSWORD, "10.2.0.1"))
    for i in range(LIMIT):
        attempt("login", f"more{i}", "guess", "10.2.0.1")
    # Far later: the whole address, for a browser new to the account...
    assert_refused(attempt("login", "frank", DEMO_PASSWORD, "10.2.0.1"))
    assert_refused(attempt("admin:login", "admin", DEMO_PASSWORD, "10.2.0.1"))
    # ...but not carol's phone, nor frank elsewhere.
    assert logged_in(attempt("login", "carol", DEMO_PASSWORD, "10.2.0.1", carols_phone))
    assert logged_in(attempt("login", "frank", DEMO_PASSWORD, "10.2.0.2"))


def test_a_few_mistakes_then_the_right_password_still_log_in(demo: None) -> None:
    for _ in range(LIMIT - 1):
        assert attempt("login", "dave", "typo", "10.3.0.1").status_code == 200
    assert logged_in(attempt("login", "dave", DEMO_PASSWORD, "10.3.0.1"))
