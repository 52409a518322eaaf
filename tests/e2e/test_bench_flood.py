"""The flood benchmark runs to its figures: its dealer is let in (since the split of duties a
console is refused at the handshake at a table the dealer is not assigned to; the bench's
seeding assigns it) and its seated player plays through every phase with no error, at a table
of the default game and of another game (its bet read from its round view: the flood's
player knows no game)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from table.games import ENTRIES, default_game
from tests.live import LiveStack

OTHER = next(name for name in ENTRIES if name != default_game())


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[LiveStack, str]]:
    """One live stack and Daphne for both games' floods (each seeds tables of its own game)."""
    with LiveStack() as live:
        yield live, live.daphne()


@pytest.mark.parametrize("game", [None, OTHER])
def test_bench_flood_runs_every_phase(game: str | None, stack: tuple[LiveStack, str]) -> None:
    live, base = stack
    out = live.manage(
        "bench_flood",
        *([f"--game={game}"] if game else []),
        "--tables=1",
        "--seconds=1",
        "--snapshot-sockets=2",
        "--slow-sockets=1",
        "--addresses=2",
        f"--url={base}",
        timeout=180,
    )
    rows = [line for line in out.splitlines() if re.match(r"(quiet|snapshot|after|slow)", line)]
    assert len(rows) == 5, out
    assert all(line.split()[-1] == "0" for line in rows), out  # no errors in any phase
    assert "ledger discrepancies  0" in out, out
