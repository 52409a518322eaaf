"""Every command's round views and stored round keep their bytes (tests/games/view_bytes.py)."""

from __future__ import annotations

from tests.games.view_bytes import check

#: The digest of the code before issue 26's cuts of the views (main at 1f5395c).
DIGEST = "23b234b756ce994f0649c468c6eea7bca446ead38c595c8d0dedd419d23db687"


def test_every_commands_views_and_stored_round_keep_their_bytes() -> None:
    check("crazy_4_poker", DIGEST)
