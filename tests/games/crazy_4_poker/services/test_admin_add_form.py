"""Crazy 4 Poker's add page in the admin shows its own posted signs, §657a.12, before saving
and on a form error, and no other game's add page does (issue 28, bug 1; every game's:
tests/services/test_admin_add_form.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from table.demo import make_user
from table.games import ENTRIES
from tests.services.test_admin_add_form import add_page, shown_beside_the_form

pytestmark = pytest.mark.django_db

NAME = "crazy_4_poker"
#: What only this game's posted signs say (its chapter of 58 Pa. Code).
SECTION = "§657a.12"


@pytest.fixture
def boss() -> Client:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    return client


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_its_signs_are_on_its_own_add_page_only(boss: Client, name: str) -> None:
    assert (SECTION in shown_beside_the_form(add_page(boss, name))) == (name == NAME)


def test_a_form_error_keeps_its_signs(boss: Client) -> None:
    assert SECTION in shown_beside_the_form(add_page(boss, NAME, error=True))
