"""What a command's round views no longer redo (issue 26): no import inside a view's code (a
module lookup for every viewer of every command), and a dealt box's hand in words worked out
once from its cards, not at every command and for every view that shows it. The bytes the
views make are pinned by test_view_bytes.py."""

from __future__ import annotations

import builtins
from typing import Any

import pytest

from table.games import ENTRIES, game
from table.games.base import DEAL, Actor, Command
from table.games.driver import TableDriver, place_bets
from tests.conftest import SeededSource

PLAYERS = tuple(f"p{n}" for n in range(1, 7))
VIEWERS = [Actor.spectator(), *(Actor.player(p) for p in PLAYERS), Actor.dealer("dealer")]


def dealt(name: str) -> tuple[Any, Any]:
    """A game and its round just dealt, six players at the table."""
    g = game(name)
    rng = SeededSource(4)
    driver = TableDriver(g, g.default_rules(), rng)
    driver.open()
    place_bets(driver, PLAYERS, rng, most=1)
    dealer = Actor.dealer("dealer")
    for step in ("close_betting", DEAL):
        driver.send(dealer, Command(step))
    return g, driver.state()


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_commands_views_import_nothing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    g, state = dealt(name)
    g.views(state, VIEWERS)  # whatever is imported once, at the first views
    imported: list[str] = []
    real = builtins.__import__

    def counted(module: str, *args: Any, **kwargs: Any) -> Any:
        imported.append(module)
        return real(module, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", counted)
    g.views(state, VIEWERS)
    g.view(state, Actor.player(PLAYERS[0]))
    assert imported == []


def assert_hand_worked_out_once(
    monkeypatch: pytest.MonkeyPatch, name: str, module: Any, cache: Any, work: str
) -> None:
    """A game's owner view shows a dealt box's hand at every command until the settlement:
    ``module.<work>`` (what works the hand out from the cards, memoised by ``cache``) runs
    once per dealt box however often the round's views are built, the views as before."""
    g, state = dealt(name)
    cache.cache_clear()
    calls: list[object] = []
    real = getattr(module, work)

    def counted(cards: object) -> object:
        calls.append(cards)
        return real(cards)

    monkeypatch.setattr(module, work, counted)
    first = g.views(state, VIEWERS)
    again = g.views(g.from_dict(g.to_dict(state)), VIEWERS)
    assert again == first
    dealt_boxes = [b for b in state.boxes.values() if len(b.cards) == 5]
    assert dealt_boxes and len(calls) == len(dealt_boxes)
