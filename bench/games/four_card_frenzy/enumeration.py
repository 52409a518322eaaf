"""Every five-card deal, vectorised: the best four-card value of all C(52,5) = 2,598,960 hands.

Used by ``manage.py bench_engine`` (timed, through the game's bench ``ENGINE``) and by the
game's tests (the category counts of RULES.md). Built only from the engine's public table
pieces: ``combinations_array``, ``four_card_index`` and ``FOUR_TABLE``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from table.games.four_card_frenzy.hands import (
    CATEGORY_SHIFT,
    FOUR_TABLE,
    KING_HIGH,
    Category,
    combinations_array,
    four_card_index,
)

#: The four positions kept when each of the five sorted cards is left out.
_KEEP = tuple(tuple(i for i in range(5) if i != drop) for drop in range(5))


def best_four_values(rows: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int32]:
    """Best four-card value of each row of five sorted, distinct cards."""
    best = np.full(len(rows), -1, dtype=np.int32)
    for keep in _KEEP:
        np.maximum(best, FOUR_TABLE[four_card_index(rows[:, keep])], out=best)
    return best


def all_five_card_values() -> npt.NDArray[np.int32]:
    """Best four-card value of every five-card deal, in lexicographic order of the deals."""
    return best_four_values(combinations_array(52, 5))


def category_counts(values: npt.NDArray[np.int32]) -> dict[str, int]:
    """How many deals have each best four-card category (JSON names)."""
    counts = np.bincount(values >> CATEGORY_SHIFT, minlength=len(Category))
    return {c.key: int(counts[c]) for c in sorted(Category, reverse=True)}


def non_qualifying(values: npt.NDArray[np.int32]) -> int:
    """Dealer hands below king high (§684a.11(c)(2)(i))."""
    return int((values < KING_HIGH).sum())
