"""Every command's round views and stored round keep their bytes (tests/games/view_bytes.py)."""

from __future__ import annotations

from tests.games.view_bytes import check

#: The digest of the code before issue 26's cuts of the views (main at 1f5395c).
DIGEST = "ada3b6c01ec049bba14870458376d188b01963e7c9387ba795c3f022c525bf5e"


def test_every_commands_views_and_stored_round_keep_their_bytes() -> None:
    check("five_card_hi_lo", DIGEST)
