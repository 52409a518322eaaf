"""Crazy 4 Poker through the game interface (the interface for every game:
tests/games/test_interface.py): its decisions, best cards, adjacent boxes rule and felt."""

from __future__ import annotations

from typing import Any

from table.games import game
from table.games.base import DECIDE, SET_HANDS
from table.games.driver import TableDriver, play_round
from tests.conftest import SeededSource

PLAYERS = ("ann", "bob", "cat")
SEEDS = range(24)
NAME = "crazy_4_poker"


def decisions() -> list[tuple[dict[str, Any], int]]:
    """Each decision the players took, with its box's Ante, over a round of each seed in which
    players pick among the moves offered."""
    seen: list[tuple[dict[str, Any], int]] = []
    for seed in SEEDS:
        g = game(NAME)
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


def best_cards() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each box's cards and best cards after a round."""
    g = game(NAME)
    rng = SeededSource(2)
    driver = TableDriver(g, g.default_rules(), rng)
    play_round(driver, PLAYERS, rng)
    return [(tuple(b.cards), tuple(b.best_cards)) for b in g.boxes(driver.state()) if b.cards]


def test_its_adjacent_boxes_rule_and_felt() -> None:
    g = game(NAME)
    assert g.table_settings(g.default_rules()).adjacent_rule == "§657a.7(e)"

    # Drawn by the generic felt and console, from its round views.
    assert g.felt.felt_module is None and g.felt.console_module is None


def test_the_decisions_it_really_has() -> None:
    """A fold, a Play equal to the Ante and one above it come up when players pick among the
    moves."""
    plays = decisions()
    assert any(d["play"] == 0 for d, _ in plays)
    assert any(d["play"] == ante for d, ante in plays)
    # §657a.11(b): with aces or better, up to three times the Ante.
    assert any(ante < d["play"] <= 3 * ante for d, ante in plays)


def test_it_names_no_best_cards() -> None:
    boxes = best_cards()
    assert boxes and all(best == () for _, best in boxes)
