"""What a command's views built together (``Game.views``) do once for all their viewers, not
once per viewer (issue 26: the round's views are a large part of a command's CPU). The bytes
they make are pinned by test_view_bytes.py and checked against views built alone by
test_interface.py; these tests pin the work saved."""

from __future__ import annotations

import json
from typing import Any

import pytest

from table.games import ENTRIES, game
from table.games.base import Actor, Amount
from table.games.driver import TableDriver
from tests.conftest import SeededSource

PLAYERS = tuple(f"p{n}" for n in range(1, 7))
VIEWERS = [Actor.spectator(), *(Actor.player(p) for p in PLAYERS), Actor.dealer("dealer")]


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_betting_rounds_amounts_become_dicts_once_for_every_box_and_player(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = game(name)
    driver = TableDriver(g, g.default_rules(), SeededSource(1))
    driver.open()
    state = driver.state()
    made: list[Amount] = []
    to_dict = Amount.to_dict

    def counted(self: Amount) -> dict[str, Any]:
        made.append(self)
        return to_dict(self)

    monkeypatch.setattr(Amount, "to_dict", counted)
    views = g.views(state, VIEWERS)
    offered = [m for v in views for m in v["moves"] if m["amounts"]]
    # Six players, each offered wagers on several boxes: one set of amounts, made once.
    assert len(offered) >= 6
    assert len(made) == len(offered[0]["amounts"])
    assert all(m["amounts"] == offered[0]["amounts"] for m in offered)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_rounds_rules_are_read_once_from_the_same_stored_text(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = game(name)
    driver = TableDriver(g, g.default_rules(), SeededSource(2))
    driver.open()
    stored = driver.stored
    assert stored is not None
    round_type = type(driver.state())
    read: list[Any] = []
    rules_from_dict = round_type.rules_from_dict

    def counted(data: Any) -> Any:
        read.append(data)
        return rules_from_dict(data)

    monkeypatch.setattr(round_type, "rules_from_dict", counted)
    monkeypatch.setattr("table.games.skeleton._RULES_READ", {})
    first = g.from_dict(json.loads(json.dumps(stored)))
    again = g.from_dict(json.loads(json.dumps(stored)))
    assert len(read) == 1
    assert again.rules is first.rules  # a frozen value, shared
    assert g.to_dict(again) == g.to_dict(first) == stored
    # Other rules (another text) are read for themselves.
    other = json.loads(json.dumps(stored))
    other["rules"] = {**other["rules"], "betting_seconds": other["rules"]["betting_seconds"] + 1}
    assert g.from_dict(other).rules.betting_seconds == other["rules"]["betting_seconds"]
    assert len(read) == 2
