"""The flood benchmark runs to its figures: its dealer is let in (since the split of duties a
console is refused at the handshake at a table the dealer is not assigned to; the bench's
seeding assigns it) and its seated player plays through every phase with no error."""

from __future__ import annotations

import re

from tests.live import LiveStack


def test_bench_flood_runs_every_phase() -> None:
    with LiveStack() as stack:
        base = stack.daphne()
        out = stack.manage(
            "bench_flood",
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
