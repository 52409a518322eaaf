"""The class of issue 23's stuck rounds: seeded random rounds of every game at the service
layer (random wagers and decisions, linked meters from their seeds and from $0 after a
jackpot, every drill, voids, the house's clean-up, staff changes between and during rounds):
every round reaches settled or void, with a ledger and meters equal to what ``settle_round``
answers for the stored round (:mod:`table.soak`; the long form is ``manage.py
soak_rounds``)."""

from __future__ import annotations

import pytest

from table import services
from table.soak import Soak

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_rounds_of_every_game_settle_or_void_as_settle_round_says(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    soak = Soak(seed, jackpot_rate=0.6)  # stacked shoes often: the meters' paths
    monkeypatch.setattr(services.dealing, "RANDOM", soak.source)
    figures = soak.run(60)
    assert figures.problems == []
    # Every round opened ended settled or void (a deck that miscounted opens none).
    assert sum(figures.rounds.values()) + figures.refusals["deck_removed"] == 60
    for game in soak.games:
        assert figures.rounds[game, "settled"] and figures.rounds[game, "void"], figures.lines()
    assert figures.meter_payments["hit"], figures.lines()
