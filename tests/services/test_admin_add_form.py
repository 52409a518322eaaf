"""The Rules Submission add page of each game shows that game's signs, limits and house edge
beside its form, before saving and on a form error (issue 28, bug 1). A saved warning shown
once: tests/games/four_card_frenzy/services/test_admin_add_form.py."""

from __future__ import annotations

import pytest
from django.test import Client

from table.demo import make_user

pytestmark = pytest.mark.django_db

ADD = "/admin/table/rulessubmission/add/"
#: What only each game's posted signs say (its chapter of 58 Pa. Code).
SECTIONS = {
    "four_card_frenzy": "§684a.12",
    "crazy_4_poker": "§657a.12",
    "five_card_hi_lo": "§663a.12",
}
FCF_WARNING = "above the usual 15.00% ceiling"


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    return client


def _shown_beside_the_form(html: str) -> str:
    """The read-only parts after the game's choices: signs, limits, mathematics."""
    start = html.index("As posted at the table")
    return html[start:]


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_the_add_page_shows_the_chosen_games_signs_and_edges(staff: Client, name: str) -> None:
    page = staff.get(ADD, {"game": name})
    assert page.status_code == 200
    shown = _shown_beside_the_form(page.content.decode())
    assert SECTIONS[name] in shown
    for other, section in SECTIONS.items():
        if other != name:
            assert section not in shown, f"{other}'s signs on the {name} add page"
    assert "defaults, until saved" in shown


@pytest.mark.parametrize("name", ["crazy_4_poker", "five_card_hi_lo"])
def test_a_form_error_keeps_the_chosen_games_parts(staff: Client, name: str) -> None:
    page = staff.post(ADD + f"?game={name}", {"name": "", "game": name})
    assert page.status_code == 200  # the form again, with its errors
    html = page.content.decode()
    assert "errorlist" in html
    shown = _shown_beside_the_form(html)
    assert FCF_WARNING not in html
    assert "Four Card Bonus" not in shown
    assert SECTIONS[name] in shown
