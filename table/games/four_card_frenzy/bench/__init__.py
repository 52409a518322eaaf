"""Four Card Frenzy's own benchmarks (its registry entry's ``bench``): its engine's figures
(:data:`ENGINE`: the hand evaluator, the enumeration of every deal in :mod:`.enumeration`, the
random rounds of :mod:`.rounds`) and its bench player (:data:`PLAYER`).

Its felt draws from the table's events, not from round views (``FeltParts.view_frames``
False): its tables send no view frames, so ``manage.py bench_load``'s bots, which play any
other game from the moves its views offer, cannot play it; its own player here plays its
events. (A bot asking for a snapshot to read its moves from would add a dozen snapshots to
every round, and the bench's figures would no longer compare with the earlier ones.)
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from bench.client import TableClient
from bench.load import act, events_of
from table.games.four_card_frenzy.hands import best_four, best_four_value

from .enumeration import all_five_card_values, category_counts, non_qualifying
from .rounds import broken_round, random_rounds


class EventPlayer:
    """A player of the table's events: on ``round_opened`` an Ante of $10, half the time a
    $5 Four Card Bonus and now and then a $1 All-Six Bonus; on its ``turn`` the largest
    Raise its hand allows (``hole_cards``' ``max_raise``) four times in five, else a fold."""

    #: The console says "no more bets" once every box has bet, reveals once the decisions
    #: are complete.
    waits: Mapping[str, tuple[str, bool]] = MappingProxyType(
        {"no_more_bets": ("wagers_placed", True), "reveal": ("decisions_complete", False)}
    )

    async def play(self, client: TableClient, box: int, rng: random.Random, think: float) -> None:
        hand_max = 1
        async for kind, data, _ in events_of(client):
            if kind == "round_opened":
                await asyncio.sleep(rng.uniform(0, think))
                wagers = {"ante": 1000}
                if rng.random() < 0.5:
                    wagers["four_card_bonus"] = 500
                if rng.random() < 0.3:
                    wagers["all_six"] = 100
                await act(client, "bet", box, wagers)
            elif kind == "hole_cards" and data["box"] == box:
                hand_max = data["max_raise"]
            elif kind == "turn" and data["box"] == box:
                await asyncio.sleep(rng.uniform(0, think))
                multiple = hand_max if rng.random() < 0.8 else 0
                await act(client, "decide", box, {"raise": multiple})


PLAYER = EventPlayer()


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
