"""Nothing hidden from the players at the table shows in the admin before the round is over:
not a box's hole cards, not the shoe, and not a hash from which they could be recomputed
(a hole-card event's data is a few million candidates away from its SHA-256). At the service
tests' table (the registry's default game); a game's own phases:
tests/games/<game>/services/test_admin_secrecy.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table.games.cards import codes
from table.models import Round, RoundEvent, Table

from .conftest import Game, current_row, engine_round

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


@pytest.fixture
def boss(staff: Any) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def event_page(client: Client, event: RoundEvent) -> str:
    response = client.get(reverse("admin:table_roundevent_change", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def shows(page: str, card: str) -> bool:
    """A card code as the admin's JSON shows it (HTML-escaped quotes around it)."""
    return f"&quot;{card}&quot;" in page or f'"{card}"' in page


def dealt_round(game: Game, alice: Any, bob: Any) -> None:
    game.sit(alice, 1)
    game.sit(bob, 3)
    game.open()
    game.bet(alice, 1, ante=10_00)
    game.bet(bob, 3, ante=10_00)
    game.deal()


def test_hole_cards_are_hidden_in_the_admin_until_the_round_is_over(
    boss: Client, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    dealt_round(game, alice, bob)
    rnd = engine_round(table)
    row = current_row(table)
    holes = list(RoundEvent.objects.filter(round=row, kind="hole_cards").order_by("seq"))
    assert len(holes) == 2
    later = list(RoundEvent.objects.filter(table=table, version__gte=holes[0].version))
    for event in holes:
        page = event_page(boss, event)
        box = rnd.boxes[event.data["box"]]
        for card in codes(box.cards):
            assert not shows(page, card), (event.data["box"], card)
        # Nor a hash over them (or a later link of the chain): each one pins the cards down.
        for other in later:
            assert other.hash not in page
    for event in later:  # the public events after the deal: still no hash of the chain
        page = event_page(boss, event)
        for other in later:
            assert other.hash not in page
    # Once the round is over every card is public (commit-reveal): the admin shows them.
    game.decide_all()
    game.finish()
    page = event_page(boss, holes[0])
    assert all(shows(page, card) for card in codes(rnd.boxes[holes[0].data["box"]].cards))
    assert holes[0].hash in page


@pytest.mark.parametrize(
    ("model", "lookup"),
    [
        (RoundEvent, "data__icontains"),
        (RoundEvent, "data__cards__contains"),
        (RoundEvent, "hash__startswith"),
        (RoundEvent, "prev_hash__startswith"),
        (Round, "state__icontains"),
        (Round, "state__dealer_cards__0"),
    ],
)
def test_the_admin_lists_cannot_be_filtered_on_secrets(
    boss: Client, game: Game, alice: Any, bob: Any, table: Table, model: Any, lookup: str
) -> None:
    """A filter is an oracle: "which events match this card?" answers what the page hides."""
    dealt_round(game, alice, bob)
    listing = reverse(f"admin:table_{model._meta.model_name}_changelist")
    response = boss.get(listing, {lookup: "AS"})
    assert response.status_code == 400
    assert boss.get(listing, {"kind": "hole_cards"} if model is RoundEvent else {}).status_code == (
        200
    )
