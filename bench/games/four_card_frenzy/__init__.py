"""Four Card Frenzy's own benchmarks (its registry entry's ``bench``): its engine's figures,
:data:`ENGINE` (the hand evaluator, the enumeration of every deal in :mod:`.enumeration`, the
random rounds of :mod:`.rounds`). Its tables are benched as every game's: the bench's bots play
the moves its round views offer."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from table.games.four_card_frenzy.hands import best_four, best_four_value

from .enumeration import all_five_card_values, category_counts, non_qualifying
from .rounds import broken_round, random_rounds


class EngineBench:
    """The engine's figures (``bench.engine.EngineBench``): the best four of five cards
    (:func:`~table.games.four_card_frenzy.hands.best_four_value`, and
    :func:`~table.games.four_card_frenzy.hands.best_four`, which also keeps the cards), all
    C(52,5) = 2,598,960 deals, and six-box rounds of the ``settle_round`` contract (RULES.md;
    without a ``"game"`` key: this game's)."""

    evaluator = "best_four_value"
    evaluator_with_cards = "best_four"
    deals = "C(52,5)"

    def evaluate(self, hands: Sequence[list[int]]) -> None:
        for hand in hands:
            best_four_value(hand)

    def evaluate_with_cards(self, hands: Sequence[list[int]]) -> None:
        for hand in hands:
            best_four(hand)

    def enumerate_deals(self) -> npt.NDArray[np.int32]:
        return all_five_card_values()

    def deal_words(self, values: npt.NDArray[np.int32]) -> str:
        counts = category_counts(values)
        return (
            ", ".join(f"{k} {v:,}" for k, v in counts.items())
            + f"; dealer does not qualify {non_qualifying(values):,}"
        )

    def random_rounds(self, count: int, seed: int, boxes: int | None = None) -> list[Any]:
        return random_rounds(count, seed, boxes=boxes)

    def broken_round(self, rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
        return broken_round(rng, doc)


ENGINE = EngineBench()
