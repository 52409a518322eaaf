"""Four Card Frenzy's read side through the platform: its snapshot and felt, the lobby, its
admin form's boxes control, and a table that runs it refusing another game's rules (the read
side of every game: tests/services/test_games_read_side.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table.games import GAMES, game
from table.models import Table
from table.snapshot import snapshot
from tests.services.conftest import make_player
from tests.services.read_side import (
    admin_url,
    boss_client,
    game_table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people() -> dict[str, Any]:
    return {name: make_player(name) for name in ("ann", "bob", "cy")}


@pytest.fixture
def boss() -> Client:
    return boss_client()


FOUR_CARD_FRENZY = "four_card_frenzy"


def test_four_card_frenzys_snapshot_names_its_game_and_felt(table: Table) -> None:
    snap = snapshot(table.pk, None)
    assert snap["table"]["game"] == FOUR_CARD_FRENZY
    assert snap["table"]["felt"]["felt_module"] is None  # the generic felt draws it
    assert snap["table"]["meters"] == []


def test_the_lobby_shows_its_wagers(people: dict[str, Any]) -> None:
    game_table(FOUR_CARD_FRENZY, "one")
    client = Client()
    client.force_login(people["ann"])
    text = client.get(reverse("lobby")).content.decode()
    assert "Ante &amp; Odds" in text


def test_adjacent_boxes_are_a_number(boss: Client) -> None:
    """Issue 28: the boxes a player may play are one number control at every game."""
    form = boss.get(admin_url("add") + f"?game={FOUR_CARD_FRENZY}").context["adminform"].form
    assert form.fields["adjacent_boxes"].widget.input_type == "number"


def test_a_table_runs_one_game(boss: Client, table: Table) -> None:
    other = next(n for n in GAMES if n != FOUR_CARD_FRENZY)
    title = game(other).title
    theirs = game_table(other)
    answer = boss.post(
        reverse("admin:table_table_change", args=[table.pk]),
        {"name": table.name, "is_open": "on", "rules": theirs.rules.pk},
    )
    assert answer.status_code == 200
    words = " ".join(answer.context["adminform"].form.errors["rules"])
    assert "runs Four Card Frenzy" in words and title in words
    table.refresh_from_db()
    assert table.rules.game == FOUR_CARD_FRENZY
    listing = boss.get(reverse("admin:table_table_changelist")).content.decode()
    assert title in listing and "Four Card Frenzy" in listing
