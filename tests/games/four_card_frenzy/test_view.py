"""Four Card Frenzy's round view: what it works out once (issue 26)."""

from __future__ import annotations

import pytest


def test_a_dealt_boxs_hand_is_worked_out_once_for_every_command_that_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its owner's view shows a dealt box's hand at every command until the settlement: the
    hand is worked out once from the cards (issue 26), the bytes as before (test_view_bytes)."""
    from table.games.four_card_frenzy import view as module
    from tests.games.test_view_work import VIEWERS, dealt

    g, state = dealt("four_card_frenzy")
    module._hand.cache_clear()
    calls: list[object] = []
    real = module.best_four

    def counted(cards: object) -> object:
        calls.append(cards)
        return real(cards)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "best_four", counted)
    first = g.views(state, VIEWERS)
    again = g.views(g.from_dict(g.to_dict(state)), VIEWERS)
    assert again == first
    dealt_boxes = [b for b in state.boxes.values() if len(b.cards) == 5]
    assert dealt_boxes and len(calls) == len(dealt_boxes)
