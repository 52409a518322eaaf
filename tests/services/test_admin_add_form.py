"""The Rules Submission add page of each game shows that game's signs, limits and house edge
beside its form, before saving and on a form error, never another game's (issue 28, bug 1):
at every registered game and the tests' own. What each game's own signs say there (its
chapter's sections) and a saved warning shown once: tests/games/<game>/services/
test_admin_add_form.py."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.html import escape

from table.admin.game_rules import signs_html
from table.demo import make_user
from table.games import default_game, game
from tests.services.tables import EVERY_GAME

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("the_tests_own_game")]

ADD = "/admin/table/rulessubmission/add/"


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    return client


def shown_beside_the_form(html: str) -> str:
    """The read-only parts after the game's choices: signs, limits, mathematics."""
    start = html.index("As posted at the table")
    return html[start:]


def add_page(client: Client, name: str, error: bool = False) -> str:
    """The add page of the game ``name``: as first shown, or (``error``) posted without a
    name, the form again with its errors."""
    if error:
        page = client.post(ADD + f"?game={name}", {"name": "", "game": name})
        assert page.status_code == 200  # the form again, with its errors
        assert "errorlist" in page.content.decode()
    else:
        page = client.get(ADD, {"game": name})
        assert page.status_code == 200
    return str(page.content.decode())


def signs(name: str) -> str:
    """A game's signs and limits under its default rules, as its add page draws them."""
    g = game(name)
    return str(signs_html(g, g.default_rules()))


def others_shown(name: str, shown: str) -> list[str]:
    """The other games whose signs, or regulation, are in ``shown``."""
    return [
        other
        for other in EVERY_GAME
        if other != name
        and (signs(other) in shown or game(other).regulation in shown)
        and game(other).regulation != game(name).regulation
    ]


@pytest.mark.parametrize("name", EVERY_GAME)
def test_the_add_page_shows_the_chosen_games_signs_and_edges(staff: Client, name: str) -> None:
    shown = shown_beside_the_form(add_page(staff, name))
    assert signs(name) in shown
    assert not others_shown(name, shown), f"other games' signs on the {name} add page"
    assert f"{escape(game(name).title)}&#x27;s defaults, until saved" in shown


@pytest.mark.parametrize("name", [n for n in EVERY_GAME if n != default_game()])
def test_a_form_error_keeps_the_chosen_games_parts(staff: Client, name: str) -> None:
    """The page once fell back to the default game's parts (the model's default) when the
    form came back with its errors."""
    shown = shown_beside_the_form(add_page(staff, name, error=True))
    assert signs(name) in shown
    assert not others_shown(name, shown), f"other games' signs on the {name} add page"
    first = game(default_game())
    own = {w.label for w in game(name).wagers(game(name).default_rules())}
    theirs = {w.label for w in first.wagers(first.default_rules()) if w.offered} - own
    assert theirs and not [label for label in theirs if label in shown]
