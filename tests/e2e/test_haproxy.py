"""Every game through HAProxy in front of two Daphne processes, as a casino deploys it.

HAProxy runs with the deployment's configuration (docs/deploy/haproxy.cfg, only its addresses
changed) and spreads the sockets over two Daphne processes (``leastconn``): each table's
dealer and six players are split between the processes, so every command's frames reach half
the table through Redis. The load benchmark's bots play whole rounds at a table of each game;
then no command failed, every socket saw every version in order, each table settled its
rounds, and the ledger and the linked meters verify.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from bench.load import run_tables
from table.games import GAMES as REGISTERED
from tests.live import LiveStack

pytestmark = [pytest.mark.realstack, pytest.mark.slow]

REAL = os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL")
HAPROXY = Path("/usr/sbin/haproxy")
GAMES = list(REGISTERED)  # every game the registry finds
ROUNDS = 2


@pytest.mark.skipif(
    not REAL, reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL: the real-stack pass"
)
@pytest.mark.skipif(not HAPROXY.exists(), reason="needs Debian's haproxy (.ci/run installs it)")
def test_every_game_through_haproxy_and_two_daphnes() -> None:
    with LiveStack(use_redis=True, use_postgres=True) as stack:
        specs = json.loads(
            stack.python(
                "import json\n"
                "from table.management.commands.bench_load import seed\n"
                f"print(json.dumps(seed({len(GAMES)}, {GAMES!r})))\n"
            )
            .strip()
            .splitlines()[-1]
        )
        one, two = stack.daphne(), stack.daphne()
        proxy = stack.haproxy([one, two])
        try:
            result = asyncio.run(run_tables(proxy, specs, ROUNDS, 0.05, 0.3, 0.5))
        except BaseException:
            print(stack.logs())
            raise
        assert result["errors"] == [], result["errors"][:5]
        assert result["version_faults"] == 0
        # No version was given up on: none needed a snapshot in its place.
        assert (result["gap_snapshots"], result["resyncs"]) == (0, 0)
        assert result["rounds"] == ROUNDS * len(GAMES)
        # Each table's sockets went to both processes (the proxy names the one it chose).
        for table, servers in result["servers"].items():
            assert servers == ["daphne1", "daphne2"], (table, servers)
        settled = dict(
            stack.query(
                "SELECT t.id, count(r.id) FROM table_table t JOIN table_round r "
                "ON r.table_id = t.id WHERE r.phase = 'settled' GROUP BY t.id"
            )
        )
        assert {spec["id"]: settled.get(spec["id"]) for spec in specs} == {
            spec["id"]: ROUNDS for spec in specs
        }
        games = dict(
            stack.query(
                "SELECT t.id, s.game FROM table_table t JOIN table_rulessubmission s "
                "ON s.id = t.rules_id"
            )
        )
        assert sorted(games[spec["id"]] for spec in specs) == sorted(GAMES)
        out = stack.manage("verify_ledger")  # the ledger and every meter against its account
        assert "ledger OK" in out
