"""The bytes a command sends and stores, pinned: over seeded rounds of every game with six
players (every command: bets with side wagers, decisions, settings, time-outs, the reveal and
settlement), the round views a command builds together for its eight viewers (spectators,
six players, the dealer's console), each as JSON, and the stored round as JSON, digested per
game. The command path's CPU cuts (issue 26: views built together, moves shared between
viewers, rounds loaded once) must keep these bytes exactly: key order included, since a
felt draws some maps in their order (a box's wagers).

Each game's digest is in its own tests (tests/games/<game>/test_view_bytes.py). A change to
what a view or the stored round holds on purpose changes a digest: print the new ones with
``python -m tests.games.view_bytes`` and put them there, saying why in the commit."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from table.games import ENTRIES, game
from table.games.base import Actor
from table.games.driver import TableDriver, play_round
from tests.conftest import SeededSource

PLAYERS = tuple(f"p{n}" for n in range(1, 7))
VIEWERS = (Actor.spectator(), *(Actor.player(p) for p in PLAYERS), Actor.dealer("dealer"))
ROUNDS = 6


def _text(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def digest(name: str) -> tuple[str, int]:
    """The game's digest over every command of its seeded rounds, and how many commands."""
    g = game(name)
    rng = SeededSource(26)
    driver = TableDriver(g, g.default_rules(), rng)
    seen = hashlib.sha256()
    commands = [0]

    def after(d: TableDriver) -> None:
        # The state the command left, as the command path holds it (its views are built from
        # it before it is stored), then as stored.
        state = d.game.from_dict(d.stored or {})
        for view in d.game.views(state, VIEWERS):
            seen.update(_text(view))
        seen.update(_text(d.game.to_dict(state)))
        commands[0] += 1

    driver.observers.append(after)
    for _ in range(ROUNDS):
        play_round(driver, PLAYERS, rng, time_outs=True)
    return seen.hexdigest(), commands[0]


def check(name: str, expected: str) -> None:
    """The game's test (in its own tests, tests/games/<game>/test_view_bytes.py)."""
    found, commands = digest(name)
    assert commands > 10 * ROUNDS
    assert found == expected, f"{name}: the views or the stored round changed"


if __name__ == "__main__":
    for entry in sorted(ENTRIES):
        print(f"{entry}: {digest(entry)[0]}")
