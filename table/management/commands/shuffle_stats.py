"""Statistical check of the shuffle (§684a.5(a)): ``manage.py shuffle_stats --shuffles 100000``.

Runs the production shuffle (``table.games.shoe.shuffle`` fed by ``SecretsSource``, the OS
CSPRNG) many times and tests two things against uniformity with chi-square:

- **card by position**: a 52 x 52 table of how often each card lands at each position. Each
  shuffle is a whole permutation, so all 52 cells of a row (and of a column) move together:
  the centred counts live in a space of dimension 51 x 51 = 2,601 with covariance
  ``N/51 * (C (x) C)`` (C the centring projection). Pearson's sum ``X = sum (O-E)^2/E`` is
  therefore ``52/51 * chi2(2601)``; the statistic reported is ``X * 51/52`` on 2,601 degrees
  of freedom (without the correction the p-values would come out too small).
- **first-card pairs**: the ordered pair of the first two cards, 52 x 51 = 2,652 equally likely
  cells, one observation per shuffle: plain Pearson chi-square on 2,651 degrees of freedom.

It exits non-zero if a p-value is below ``--alpha`` (0.001). ``scipy.stats.chi2.sf`` gives the
p-values.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from django.core.management.base import BaseCommand, CommandError
from scipy.stats import chi2

from table.games.cards import DECK
from table.games.shoe import SecretsSource, shuffle

N_CARDS = len(DECK)

Shuffle = Callable[[Sequence[int]], list[int]]


def production_shuffle(cards: Sequence[int]) -> list[int]:
    return shuffle(cards, SecretsSource())


@dataclass
class ChiSquare:
    name: str
    statistic: float
    dof: int
    p_value: float
    cells: int
    expected_per_cell: float


@dataclass
class ShuffleStats:
    shuffles: int
    seconds_shuffling: float
    seconds_total: float
    tests: list[ChiSquare]

    def failures(self, alpha: float) -> list[ChiSquare]:
        return [t for t in self.tests if t.p_value < alpha]


def orders(shuffles: int, shuffle_fn: Shuffle) -> np.ndarray:
    """``shuffles`` x 52 array: row k is the k-th shuffled deck (card ids 0-51)."""
    out = np.empty((shuffles, N_CARDS), dtype=np.uint8)
    deck = list(DECK)
    for k in range(shuffles):
        out[k] = shuffle_fn(deck)
    return out


def position_test(decks: np.ndarray) -> ChiSquare:
    n_shuffles, n = decks.shape
    positions = np.tile(np.arange(n), n_shuffles)
    counts = np.bincount(positions * n + decks.ravel().astype(np.int64), minlength=n * n)
    expected = n_shuffles / n
    pearson = float(((counts - expected) ** 2).sum() / expected)
    statistic = pearson * (n - 1) / n  # see the module docstring
    dof = (n - 1) ** 2
    return ChiSquare(
        "card by position (52x52)", statistic, dof, float(chi2.sf(statistic, dof)), n * n, expected
    )


def first_pair_test(decks: np.ndarray) -> ChiSquare:
    n_shuffles, n = decks.shape
    first = decks[:, 0].astype(np.int64)
    second = decks[:, 1].astype(np.int64)
    counts = np.bincount(first * n + second, minlength=n * n).reshape(n, n)
    if np.trace(counts):
        raise AssertionError("a card appeared twice in the first two positions")
    observed = counts[~np.eye(n, dtype=bool)]  # the 52 x 51 possible ordered pairs
    expected = n_shuffles / observed.size
    statistic = float(((observed - expected) ** 2).sum() / expected)
    dof = observed.size - 1
    return ChiSquare(
        "first-card pairs (52x51)",
        statistic,
        dof,
        float(chi2.sf(statistic, dof)),
        int(observed.size),
        expected,
    )


def run(
    shuffles: int, shuffle_fn: Shuffle = production_shuffle, pairs: bool = True
) -> ShuffleStats:
    started = time.perf_counter()
    decks = orders(shuffles, shuffle_fn)
    shuffled = time.perf_counter()
    if not all(sorted(row) == list(DECK) for row in decks[: min(shuffles, 1000)].tolist()):
        raise AssertionError("a shuffle did not return the 52 cards")
    tests = [position_test(decks)]
    if pairs:
        tests.append(first_pair_test(decks))
    return ShuffleStats(shuffles, shuffled - started, time.perf_counter() - started, tests)


class Command(BaseCommand):
    help = (
        "Shuffle many decks with the production shuffle (secrets) and chi-square test card "
        "positions and first-card pairs for uniformity; exit non-zero if p < alpha."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--shuffles", type=int, default=100_000)
        parser.add_argument("--alpha", type=float, default=0.001)
        parser.add_argument(
            "--positions-only", action="store_true", help="skip the first-card pair test"
        )
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        n = options["shuffles"]
        if n < 1000:
            raise CommandError("--shuffles must be at least 1,000")
        stats = run(n, pairs=not options["positions_only"])
        alpha = options["alpha"]
        if options["json"]:
            self.stdout.write(json.dumps({**asdict(stats), "alpha": alpha}, indent=2))
        else:
            self.stdout.write(
                f"{stats.shuffles:,} shuffles (secrets) in {stats.seconds_shuffling:.1f} s "
                f"({stats.seconds_shuffling / stats.shuffles * 1e6:.0f} us each); "
                f"total {stats.seconds_total:.1f} s"
            )
            for t in stats.tests:
                self.stdout.write(
                    f"  {t.name}: chi-square {t.statistic:,.1f} on {t.dof:,} dof "
                    f"(expected {t.expected_per_cell:,.1f} per cell), p = {t.p_value:.4f}"
                )
        failed = stats.failures(alpha)
        if failed:
            raise CommandError(
                "shuffle looks non-uniform: "
                + ", ".join(f"{t.name} p = {t.p_value:.2g} < {alpha}" for t in failed)
            )
        if not options["json"]:
            self.stdout.write(f"OK: every p-value >= {alpha}")
