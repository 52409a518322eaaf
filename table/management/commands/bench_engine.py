"""``python manage.py bench_engine``: how fast the engine is (issue #2). Not a test.

Prints, with the targets:

* single best-four evaluations per second on one thread (``best_four_value`` on random
  five-card hands; ``best_four``, which also keeps the cards, for comparison);
* seconds to enumerate every C(52,5) = 2,598,960 deal with numpy (and the category counts);
* ``settle_round`` rounds per second: a big batch of random six-box rounds through
  ``settle_document``, and end to end through ``manage.py settle_round --input FILE`` in a
  fresh process (start-up, JSON parsing and printing included).

Each game whose registry entry names a bench with an engine (:mod:`bench.engine`; ``--games``
picks some): its hand evaluator, its enumeration and its random rounds are its own code, timed
here through that protocol; the rounds are settled as ``manage.py settle_round`` settles them,
through the games' registry (:func:`table.games.settle_document`). So this command names no
game.

Wall-clock and CPU seconds are both shown: on a busy machine the CPU figure is the fairer one.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.engine import EngineBench, engines
from table.games import ENTRIES, settle_document

EVALS_TARGET = 300_000
ENUM_TARGET = 5.0
ROUNDS_TARGET = 5_000


def _timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


class Command(BaseCommand):
    help = "Benchmark each game's engine against the issue #2 targets."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hands", type=int, default=300_000, help="hands to evaluate")
        parser.add_argument("--rounds", type=int, default=20_000, help="six-box rounds to settle")
        parser.add_argument("--seed", type=int, default=2, help="seed of the random data")
        parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
        parser.add_argument(
            "--games", help="comma-separated (default: every game whose bench has an engine)"
        )

    def line(self, label: str, value: str, ok: bool | None = None) -> None:
        mark = "" if ok is None else ("  OK" if ok else "  MISSED")
        self.stdout.write(f"{label:<52} {value}{mark}")

    def handle(self, *args: Any, **options: Any) -> None:
        names = [g.strip() for g in options["games"].split(",")] if options["games"] else None
        try:
            found = engines(names)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        for name, engine in found.items():
            if len(found) > 1:
                self.stdout.write(ENTRIES[name].title)
            self.bench(engine, options)

    def bench(self, engine: EngineBench, options: dict[str, Any]) -> None:
        repeat = max(1, options["repeat"])
        rng = np.random.default_rng(options["seed"])
        count = options["hands"]
        hands = [
            [int(c) for c in row] for row in np.argsort(rng.random((count, 52)), axis=1)[:, :5]
        ]

        runs = [_timed(lambda: engine.evaluate(hands)) for _ in range(repeat)]
        wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        self.line(
            f"{engine.evaluator} evaluations/s (one thread)",
            f"{count / wall:>12,.0f} wall {count / cpu:>12,.0f} cpu  (target >= {EVALS_TARGET:,})",
            count / min(wall, cpu) >= EVALS_TARGET,
        )
        runs = [_timed(lambda: engine.evaluate_with_cards(hands)) for _ in range(repeat)]
        wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        self.line(
            f"{engine.evaluator_with_cards} (value + cards) evaluations/s",
            f"{count / wall:>12,.0f} wall {count / cpu:>12,.0f} cpu",
        )

        runs = [_timed(engine.enumerate_deals) for _ in range(repeat)]
        wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        values = runs[0][2]
        self.line(
            f"enumerate all {engine.deals} deals, seconds",
            f"{wall:>12.3f} wall {cpu:>12.3f} cpu  (target <= {ENUM_TARGET})",
            min(wall, cpu) <= ENUM_TARGET,
        )
        self.stdout.write("    " + engine.deal_words(values))

        n = options["rounds"]
        rounds = engine.random_rounds(n, options["seed"], boxes=6)
        # As in the settle_round command: the cyclic GC off for the batch (no cycles made).
        gc.disable()
        try:
            runs = [_timed(lambda: settle_document(rounds)) for _ in range(repeat)]
        finally:
            gc.enable()
        wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        self.line(
            f"settle_document, {n:,} six-box rounds (GC off): rounds/s",
            f"{n / wall:>12,.0f} wall {n / cpu:>12,.0f} cpu  (target >= {ROUNDS_TARGET:,})",
            n / min(wall, cpu) >= ROUNDS_TARGET,
        )

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "rounds.json"
            path.write_text(json.dumps(rounds), encoding="utf-8")
            manage = Path(settings.BASE_DIR) / "manage.py"
            command = [sys.executable, str(manage), "settle_round", "--input", str(path)]
            env = {**os.environ, "PYTHONHASHSEED": "0"}
            best_wall = best_cpu = float("inf")
            for _ in range(repeat):
                before = os.times()
                start = time.perf_counter()
                done = subprocess.run(command, capture_output=True, env=env, check=False)
                elapsed = time.perf_counter() - start
                after = os.times()
                if done.returncode != 0:
                    self.stderr.write(done.stderr.decode(errors="replace").strip())
                    raise SystemExit(1)
                best_wall = min(best_wall, elapsed)
                child = (after.children_user - before.children_user) + (
                    after.children_system - before.children_system
                )
                best_cpu = min(best_cpu, child)
            settled = len(json.loads(done.stdout))
        self.line(
            f"manage.py settle_round --input ({settled:,} rounds)",
            f"{n / best_wall:>12,.0f} wall {n / best_cpu:>12,.0f} cpu rounds/s "
            f"({best_wall:.2f} s incl. start-up)",
        )
