"""The player history's rounds (§811a.7) list each box's wagers by name, in the order the box
placed them, as the felt and the console do: the box record keeps its wagers as a JSON object,
which PostgreSQL's jsonb gives back with its keys sorted ("tie, ante, play"). Every game."""

from __future__ import annotations

from typing import Any

import pytest

from table import backoffice
from table.games import ENTRIES, game

from ..platform.test_wagers_in_placed_order import as_jsonb


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_box_records_wagers_are_listed_as_placed_by_name(name: str) -> None:
    played: Any = game(name)
    rules = played.default_rules()
    specs = played.wagers(rules)
    bet = {s.key: s.low for s in specs if s.placed == "bet" and s.offered and not s.fixed}
    placed = rules.check_wagers(bet)
    placed[played.round_type.DECISION_WAGER] = placed["ante"]
    stored = as_jsonb(placed)
    assert list(stored) != list(placed), "the stored order must differ for the test to mean it"
    names = {s.key: s.label for s in specs}
    assert backoffice.placed_wagers(name, stored) == [(names[k], v) for k, v in placed.items()]
    # The same order the round's own load gives its boxes.
    box = played.round_type.BOX(1, "alice", placed).to_dict()
    box["wagers"] = stored
    assert list(played.round_type.box_from_dict(box).wagers) == list(placed)
