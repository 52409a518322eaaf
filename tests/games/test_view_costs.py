"""What a command's views built together (``Game.views``) do once for all their viewers, not
once per viewer (issue 26: the round's views are a large part of a command's CPU). The bytes
they make are pinned by test_view_bytes.py and checked against views built alone by
test_interface.py; these tests pin the work saved."""

from __future__ import annotations

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
