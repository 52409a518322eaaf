"""What one command costs the process that runs it, per game: CPU time and statements.

Run through ``python manage.py bench_commands``. One table per game, six seated players and
an assigned dealer; each round goes through the services (open betting, six bets, no more
bets, the deal, every turn the round views offer (decisions, settings), the reveal, the settlement) with
``publish=False``, so what is timed is the command path itself: the locked read, the game,
the writes, the commit and the publication built for the channel layer (the round views
included: every felt draws from them). Not timed: the channel layer and sockets
(``bench_load`` measures those).

CPU time is the thread's (``time.thread_time``): on a machine shared with other work it moves
far less than wall time, so two versions of the code can be compared in one sitting. The
figures are medians over the rounds, per command kind.
"""

from __future__ import annotations

import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Costs:
    """Per command kind: CPU ms, wall ms and statements of each successful command."""

    cpu: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    wall: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statements: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))

    def rows(self) -> Iterator[tuple[str, float, float, str]]:
        for kind in self.cpu:
            counts = sorted(set(self.statements[kind]))
            yield (
                kind,
                statistics.median(self.cpu[kind]),
                statistics.median(self.wall[kind]),
                "/".join(str(c) for c in counts),
            )


@contextmanager
def counting(connection: Any) -> Iterator[list[int]]:
    """The statements the connection executes inside the block."""
    seen = [0]

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, ctx: Any) -> Any:
        seen[0] += 1
        return execute(sql, params, many, ctx)

    with connection.execute_wrapper(wrapper):
        yield seen


def timed(costs: Costs, kind: str, run: Callable[[], Any]) -> Any:
    """Run one command and keep its cost; a refused command raises and is not kept."""
    from django.db import connection

    with counting(connection) as seen:
        cpu, wall = time.thread_time(), time.perf_counter()
        result = run()
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    costs.cpu[kind].append(cpu * 1000)
    costs.wall[kind].append(wall * 1000)
    costs.statements[kind].append(seen[0])
    return result
