"""Every command's round views and stored round keep their bytes (tests/games/view_bytes.py)."""

from __future__ import annotations

from tests.games.view_bytes import check

#: The digest of the code before issue 26's cuts of the views (main at 1f5395c).
DIGEST = "40ce46590ed3c7325699b839e47ecc2aa4484648380f8ea680e121c93495d5a9"


def test_every_commands_views_and_stored_round_keep_their_bytes() -> None:
    check("four_card_frenzy", DIGEST)
