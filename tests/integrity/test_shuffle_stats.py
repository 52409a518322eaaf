"""The shuffle is uniform (chi-square over card positions), and the test has teeth: it
catches a biased shuffle. ``manage.py shuffle_stats --shuffles 100000`` is the full check."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from table.games import shoe
from table.management.commands import shuffle_stats


def naive_shuffle(cards: Sequence[int]) -> list[int]:
    """The classic mistake: swap every position with *any* position (n^n paths onto n!
    orders, so some orders come up more often than others)."""
    order = list(cards)
    n = len(order)
    for i in range(n):
        j = secrets.randbelow(n)
        order[i], order[j] = order[j], order[i]
    return order


class ModuloBiased:
    """A ``randbelow`` that takes six random bits modulo n: low numbers come up too often."""

    def randbelow(self, n: int) -> int:
        return secrets.randbits(6) % n


def test_the_production_shuffle_uses_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = secrets.randbelow

    def spy(n: int) -> int:
        calls.append(n)
        return real(n)

    monkeypatch.setattr(shoe.secrets, "randbelow", spy)
    order = shuffle_stats.production_shuffle(list(range(52)))
    assert sorted(order) == list(range(52))
    assert calls == list(range(52, 1, -1))  # Fisher-Yates: randbelow(52), (51), ... (2)


def test_the_production_shuffle_passes_20000_shuffles() -> None:
    stats = shuffle_stats.run(20_000, pairs=False)
    [positions] = stats.tests
    assert positions.dof == 51 * 51
    assert positions.expected_per_cell == pytest.approx(20_000 / 52)
    # One run in a thousand of a perfect shuffle fails this by chance.
    assert positions.p_value >= 0.001, positions


@pytest.mark.parametrize(
    "biased",
    [naive_shuffle, lambda cards: shoe.shuffle(cards, ModuloBiased())],
    ids=["swap-with-any-position", "modulo-biased-randbelow"],
)
def test_a_biased_shuffle_is_caught(biased: shuffle_stats.Shuffle) -> None:
    stats = shuffle_stats.run(5_000, biased, pairs=False)
    assert stats.tests[0].p_value < 1e-6, stats.tests[0]
    assert stats.failures(0.001)


def test_the_first_pair_test_catches_a_stuck_second_card() -> None:
    """A shuffle that is uniform by position but too often repeats one pair of first cards."""
    count = 0

    def sticky(cards: Sequence[int]) -> list[int]:
        nonlocal count
        count += 1
        order = shuffle_stats.production_shuffle(cards)
        if count % 20 == 0:  # every 20th deal starts with the ace and king of spades
            a, b = order.index(51), order.index(47)
            order[0], order[a] = order[a], order[0]
            b = order.index(47)
            order[1], order[b] = order[b], order[1]
        return order

    stats = shuffle_stats.run(5_000, sticky)
    pairs = stats.tests[1]
    assert pairs.name.startswith("first-card pairs") and pairs.dof == 52 * 51 - 1
    assert pairs.p_value < 1e-6


def test_the_command_reports_and_exits_non_zero_when_biased(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = StringIO()
    call_command("shuffle_stats", "--shuffles", "3000", stdout=out)
    text = out.getvalue()
    assert "3,000 shuffles (secrets)" in text
    assert "card by position (52x52): chi-square" in text and "first-card pairs" in text
    assert "p = " in text and "OK: every p-value >= 0.001" in text
    monkeypatch.setattr(shuffle_stats, "production_shuffle", naive_shuffle)
    monkeypatch.setattr(
        shuffle_stats.run, "__defaults__", (naive_shuffle, True)
    )  # the command's default shuffle
    with pytest.raises(CommandError, match="non-uniform"):
        call_command("shuffle_stats", "--shuffles", "3000", stdout=StringIO())
