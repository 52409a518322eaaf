"""The dealer's voids at every game the registry holds, through the platform's services: every
void the dealer's moves offer is the game's own, passed to it as the console sends it, and
accepted (tests/services/tables.py: ``voids_tried``; each game's own voids:
tests/games/<game>/services/test_voids.py)."""

from __future__ import annotations

import pytest

from table.games import GAMES

from .tables import voids_tried

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize("name", list(GAMES))
def test_every_void_the_console_offers_is_accepted(name: str) -> None:
    """At every game, from betting to the decisions, with the stub right and wrong: each void
    the dealer's moves offer is accepted (the table closing while betting and a stub miscount
    at least); none in the decisions, where no game lets the dealer declare a dealer card
    exposed: only the shoe exposes one (§684a.13(d), §657a.13(d)). Each game's own voids, and
    the refusals of those it does not offer: tests/games/<game>/services/."""
    tried = voids_tried(name)
    assert tried["betting"] >= 1 and tried["miscount"] >= 1, tried
    assert tried["decisions"] == 0, tried
