"""Five Card Hi-Lo's crash test (tests/integrity/test_crash_games.py has the machinery and
Crazy 4 Poker's): a file of its own so that the two slow tests run on two test workers."""

from __future__ import annotations

import pytest

from tests.integrity.test_crash_games import NEEDS, play_five_card_hi_lo, run_game

pytestmark = [pytest.mark.realstack, pytest.mark.slow]


@NEEDS
def test_five_card_hi_lo_survives_kill_minus_nine_at_every_phase_and_mid_setting() -> None:
    run_game("five_card_hi_lo", [], play_five_card_hi_lo, kills=6 + 3)
