"""What each game's own test_through_the_interface.py plays, once: seeded rounds of a game through
the interface alone (table.games.driver), where the players pick among the moves offered, and
what they decided or what the box records name as the best cards."""

from __future__ import annotations

from typing import Any

from table.games import game
from table.games.base import DECIDE, SET_HANDS
from table.games.driver import TableDriver, play_round
from tests.conftest import SeededSource

PLAYERS = ("ann", "bob", "cat")
SEEDS = range(24)


def decisions(name: str) -> list[tuple[dict[str, Any], int]]:
    """Each decision the players took, with its box's Ante, over a round of each seed in which
    players pick among the moves offered."""
    seen: list[tuple[dict[str, Any], int]] = []
    for seed in SEEDS:
        g = game(name)
        rng = SeededSource(seed)
        driver = TableDriver(g, g.default_rules(), rng)
        play_round(driver, PLAYERS, rng, time_outs=False)
        antes = {b.box: b.wagers.get("ante", 0) for b in g.boxes(driver.state())}
        seen += [
            (dict(c.args), antes.get(c.box or 0, 0))
            for _, c, _ in driver.log
            if c.name in (DECIDE, SET_HANDS)
        ]
    return seen


def best_cards(name: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each box's cards and best cards after a round."""
    g = game(name)
    rng = SeededSource(2)
    driver = TableDriver(g, g.default_rules(), rng)
    play_round(driver, PLAYERS, rng)
    return [(tuple(b.cards), tuple(b.best_cards)) for b in g.boxes(driver.state()) if b.cards]
