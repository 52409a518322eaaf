"""Ante Pair's paytable report (:class:`table.games.base.PaytableReport`): the Pair wager's
exact house edge, from the count of five-card hands without a pair (13 choose 5 rank sets,
four suits each) among the 52 choose 5. Computed whole; the main game has no figures here."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import Any

from table.games.common import whole_report

from . import ENTRY
from .game import PAYTABLES

parse_sections = whole_report


def build_report(
    progress: Callable[[str], None],
    sections: Sequence[str] | None = None,
    previous: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    progress("counting the hands of each shape")
    hands = comb(52, 5)
    # Hands by their shape (equal ranks, most first): 13 ranks, 4 suits.
    shapes = {
        (1, 1, 1, 1, 1): comb(13, 5) * 4**5,
        (2, 1, 1, 1): 13 * comb(12, 3) * comb(4, 2) * 4**3,
        (2, 2, 1): comb(13, 2) * 11 * comb(4, 2) ** 2 * 4,
        (3, 1, 1): 13 * comb(12, 2) * comb(4, 3) * 4**2,
        (3, 2): 13 * 12 * comb(4, 3) * comb(4, 2),
        (4, 1): 13 * 12 * 4,
    }
    assert sum(shapes.values()) == hands
    paytables = {}
    for letter, (least, odds, words) in PAYTABLES.items():
        hit = Fraction(sum(n for s, n in shapes.items() if s[:2] >= least), hands)
        edge = -(hit * odds - (1 - hit))
        paytables[letter] = {
            "words": f"{words} {odds} to 1",
            "hit_frequency": float(hit),
            "house_edge": float(edge),
            "exact": f"{edge.numerator}/{edge.denominator}",
        }
    return {"game": ENTRY.name, "wagers": {"pair": {"paytables": paytables}}}


def text_lines(report: Mapping[str, Any]) -> list[str]:
    tables = report["wagers"]["pair"]["paytables"]
    return [f"{ENTRY.title} Pair {k}: house edge {t['house_edge']:.4%}" for k, t in tables.items()]


def markdown_lines(report: Mapping[str, Any]) -> list[str]:
    tables = report["wagers"]["pair"]["paytables"]
    return [
        f"## {ENTRY.title} (a test's own rules)",
        "",
        "| Wager | Paytable | Hit frequency | House edge |",
        "| --- | --- | ---: | ---: |",
        *(
            f"| Pair | {k}: {t['words']} | {t['hit_frequency']:.4%} | {t['house_edge']:.4%} |"
            for k, t in tables.items()
        ),
    ]
