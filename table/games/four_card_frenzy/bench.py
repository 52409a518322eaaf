"""Four Card Frenzy's own benchmarks (its registry entry's ``bench``).

Its felt draws from the table's events, not from round views (``FeltParts.view_frames``
False): its tables send no view frames, so ``manage.py bench_load``'s bots, which play any
other game from the moves its views offer, cannot play it; its own player here plays its
events. (A bot asking for a snapshot to read its moves from would add a dozen snapshots to
every round, and the bench's figures would no longer compare with the earlier ones.)
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from types import MappingProxyType

from bench.client import TableClient
from bench.load import act, events_of


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
