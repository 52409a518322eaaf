"""Four Card Frenzy's Rules Submission in the admin: its add page shows its own posted signs,
§684a.12, and no other game's add page does, nor, on a form error, its paytable warning or its
Four Card Bonus; a saved warning is shown once (issue 28, bug 1; every game's add page:
tests/services/test_admin_add_form.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from table.demo import make_user
from table.games import ENTRIES
from tests.games.four_card_frenzy.examples import fcf_rules
from tests.services.test_admin_add_form import add_page, shown_beside_the_form

pytestmark = pytest.mark.django_db

NAME = "four_card_frenzy"
#: What only this game's posted signs say (its chapter of 58 Pa. Code).
SECTION = "§684a.12"
FCF_WARNING = "above the usual 15.00% ceiling"


@pytest.fixture
def boss() -> Client:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    return client


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_its_signs_are_on_its_own_add_page_only(boss: Client, name: str) -> None:
    assert (SECTION in shown_beside_the_form(add_page(boss, name))) == (name == NAME)


@pytest.mark.parametrize("name", sorted(set(ENTRIES) - {NAME}))
def test_another_games_form_error_shows_none_of_its_parts(boss: Client, name: str) -> None:
    """The add page once fell back to this game's parts (the model's default game) when
    another game's form came back with its errors."""
    html = add_page(boss, name, error=True)
    assert FCF_WARNING not in html
    assert "Four Card Bonus" not in shown_beside_the_form(html)


def test_a_saved_four_card_frenzy_warning_is_marked_for_the_preview(boss: Client) -> None:
    """The saved values' warning is written once, marked so the live preview, which says
    the same for the same table, hides it (the browser test sees it once)."""
    rules = fcf_rules("flagged", four_card_bonus_paytable="A")
    html = boss.get(f"/admin/table/rulessubmission/{rules.pk}/change/").content.decode()
    assert html.count(FCF_WARNING) == 1
    assert 'class="errornote saved-warning"' in html
    assert 'data-wager="four_card_bonus" data-table="A"' in html
