"""Five Card Hi-Lo through the game interface (the interface for every game:
tests/games/test_interface.py): its decisions, best cards, adjacent boxes rule and felt."""

from __future__ import annotations

from typing import Any

from table.games import game
from table.snapshot import felt_parts
from tests.games import through_the_interface as played

NAME = "five_card_hi_lo"


def decisions() -> list[tuple[dict[str, Any], int]]:
    return played.decisions(NAME)


def best_cards() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return played.best_cards(NAME)


def test_its_adjacent_boxes_rule_and_felt() -> None:
    g = game(NAME)
    assert g.table_settings(g.default_rules()).adjacent_rule == "§663a.7(f)"

    # Drawn by the generic felt and console, from its round views.
    assert g.felt.felt_module is None and g.felt.console_module is None


def test_its_layout_prints_how_the_ante_and_play_win() -> None:
    """§663a.11(g): no dealer qualifies here; the line under the game's name says what wins:
    both hands must beat the dealer's."""
    [line] = felt_parts(game(NAME).felt)["printed"]
    assert "higher high hand" in line and "lower low hand" in line and "§" not in line


def test_the_decisions_it_really_has() -> None:
    """Play and fold, and a setting with an ace low, come up when players pick among the
    moves."""
    hilo = [d for d, _ in decisions()]
    assert any(d.get("play") is True for d in hilo) and any(d.get("play") is False for d in hilo)
    # One ace low: an ace among the two low cards.
    assert any("low" in d and any(c.startswith("A") for c in d["low"]) for d in hilo)


def test_it_names_no_best_cards() -> None:
    boxes = best_cards()
    assert boxes and all(best == () for _, best in boxes)
