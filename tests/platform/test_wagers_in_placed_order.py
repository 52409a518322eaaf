"""A box read back from storage lists its wagers in the order they were placed (its bet's, as
the rules checked them, then its decision's), whatever order storage gave the keys:
PostgreSQL's jsonb keeps an object's keys sorted, shortest first, and every felt and console
listed them so ("Tie Wager $5.00, Ante $10.00, Play $10.00"; SQLite: "Ante $10.00, Tie Wager
$5.00, Play $10.00"). Every game, through its entry."""

from __future__ import annotations

from typing import Any

import pytest

from table.games import ENTRIES, game


def as_jsonb(wagers: dict[str, int]) -> dict[str, int]:
    """An object's keys as PostgreSQL's jsonb keeps them: shorter first, then by bytes."""
    return dict(sorted(wagers.items(), key=lambda item: (len(item[0]), item[0].encode())))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_stored_box_lists_its_wagers_as_placed(name: str) -> None:
    played: Any = game(name)
    rules = played.default_rules()
    bet = {
        spec.key: spec.low
        for spec in played.wagers(rules)
        if spec.placed == "bet" and spec.offered and not spec.fixed
    }
    placed = rules.check_wagers(bet)  # the bet as the rules place it
    placed[played.round_type.DECISION_WAGER] = placed["ante"]  # the decision's, added last
    assert len(placed) >= 3, placed
    stored = played.round_type.BOX(1, "alice", placed).to_dict()
    stored["wagers"] = as_jsonb(stored["wagers"])
    read = played.round_type.box_from_dict(stored)
    assert list(read.wagers) == list(placed)
    assert read.wagers == placed
