"""The load benchmark's bots know no game: they play any game whose tables send round views
from the moves those views offer (the players' bets with the wagers offered, their decisions
and settings, the console's steps), so a game the bench has never seen plays in it. The
tests' own game (tests/platform/ante_pair), registered in the server and here only, plays
whole rounds at two tables, with the rules its registry entry gives, to settlement and with
the ledger exact."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from bench.load import run_tables
from table.games import ENTRIES, register, unregister
from tests.live import LiveStack
from tests.platform.ante_pair import ENTRY

REGISTER = (
    "from table.games import register\n"
    "from tests.platform.ante_pair import ENTRY\n"
    "register(ENTRY)\n"
)
ROUNDS = 2


@pytest.fixture
def registered() -> Iterator[None]:
    register(ENTRY)
    yield
    unregister(ENTRY.name)


def test_a_game_the_bench_never_saw_plays_from_its_views(registered: None) -> None:
    assert ENTRY.bench is None  # no bench code of its own: its views are enough
    with LiveStack() as stack:
        specs = json.loads(
            stack.python(
                REGISTER + "import json\n"
                "from table.management.commands.bench_load import seed\n"
                f"print(json.dumps(seed(2, [{ENTRY.name!r}])))\n"
            )
            .strip()
            .splitlines()[-1]
        )
        base = stack.daphne(setup=REGISTER)
        result = asyncio.run(run_tables(base, specs, ROUNDS, 0.05, 0.2, 0.2))
        assert result["errors"] == [], result["errors"][:5]
        assert result["version_faults"] == 0
        assert result["rounds"] == 2 * ROUNDS
        # Every dealer step was taken and timed, from the console's views.
        assert set(result["steps"]) == {"open_betting", "no_more_bets", "deal", "reveal", "settle"}
        settled = stack.query(
            "SELECT count(*) FROM table_round r JOIN table_table t ON t.id = r.table_id "
            "JOIN table_rulessubmission s ON s.id = t.rules_id "
            "WHERE s.game = ? AND r.phase = 'settled'",
            (ENTRY.name,),
        )
        assert settled == [(2 * ROUNDS,)]
        decided = stack.query("SELECT count(*) FROM table_roundevent WHERE kind = 'decision'")
        assert decided[0][0] >= 2 * ROUNDS  # the bots' decisions, from their views' moves
        # The side wager the bet move offers, which no bot was told of, was bet too.
        bets = stack.query("SELECT data FROM table_roundevent WHERE kind = 'wagers_placed'")
        assert any('"pair"' in str(data).replace("'", '"') for (data,) in bets), bets[:3]
        assert "ledger OK" in stack.manage("verify_ledger")


def test_every_game_registered_is_benched_by_default() -> None:
    from table.management.commands.bench_load import Command

    parser = Command().create_parser("manage.py", "bench_load")
    assert parser.parse_args([]).games.split(",") == list(ENTRIES)
