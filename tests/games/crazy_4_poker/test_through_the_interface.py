"""Crazy 4 Poker through the game interface (the interface for every game:
tests/games/test_interface.py): its decisions, best cards, adjacent boxes rule and felt."""

from __future__ import annotations

from typing import Any

from table.games import game
from table.snapshot import felt_parts
from tests.games import through_the_interface as played

NAME = "crazy_4_poker"


def decisions() -> list[tuple[dict[str, Any], int]]:
    return played.decisions(NAME)


def best_cards() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return played.best_cards(NAME)


def test_its_adjacent_boxes_rule_and_felt() -> None:
    g = game(NAME)
    assert g.table_settings(g.default_rules()).adjacent_rule == "§657a.7(e)"

    # Drawn by the generic felt and console, from its round views.
    assert g.felt.felt_module is None and g.felt.console_module is None


def test_its_layout_prints_the_inscriptions_of_its_chapter() -> None:
    """§657a.2(b)(7): the best four cards play, the dealer qualifies with king high or better,
    a Play up to 3x with aces or better, when the Super Bonus is returned; on the felt under
    the game's name (the snapshot's table.felt), with no citation."""
    printed = felt_parts(game(NAME).felt)["printed"]
    assert "Dealer qualifies with king high or better" in printed
    assert len(printed) == 4 and not any("§" in line for line in printed)


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
