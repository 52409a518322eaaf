"""Four Card Frenzy's round view: what it works out once (issue 26)."""

from __future__ import annotations

import pytest


def test_a_dealt_boxs_hand_is_worked_out_once_for_every_command_that_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its owner's view shows a dealt box's hand at every command until the settlement: the
    hand is worked out once from the cards (issue 26), the bytes as before (test_view_bytes)."""
    from table.games.four_card_frenzy import view as module
    from tests.games.test_view_work import assert_hand_worked_out_once

    assert_hand_worked_out_once(monkeypatch, "four_card_frenzy", module, module._hand, "best_four")
