"""A game's engine figures, as ``manage.py bench_engine`` times them (issue #2's targets: 300,000
hand evaluations a second on one thread, every deal enumerated within 5 s, 5,000 six-box
rounds settled a second) and ``bench/settle_corpus.py`` feeds its rounds to ``settle_round``.

A game with such figures names its bench module in its registry entry (``GameEntry.bench``);
that module's ``ENGINE`` is an :class:`EngineBench`. No member of the game interface evaluates
a hand alone, so the evaluator and its enumeration are the game's own code, timed here and
there through this protocol, and the platform's commands name no game.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from importlib import import_module
from typing import Any, Protocol

from table.games import ENTRIES


class EngineBench(Protocol):
    """What ``bench_engine`` times of a game's engine, and the rounds it settles."""

    #: The evaluator's name and that of the one that also keeps the cards, as printed.
    evaluator: str
    evaluator_with_cards: str
    #: The deals :meth:`enumerate_deals` goes through, in words (``C(52,5)``).
    deals: str

    def evaluate(self, hands: Sequence[list[int]]) -> None:
        """Evaluate each hand (card numbers 0-51), one at a time."""

    def evaluate_with_cards(self, hands: Sequence[list[int]]) -> None:
        """The same, keeping the cards that make each hand."""

    def enumerate_deals(self) -> Any:
        """Every deal's value (vectorised)."""

    def deal_words(self, values: Any) -> str:
        """What the enumeration found, in words (its category counts)."""

    def random_rounds(self, count: int, seed: int, boxes: int | None = None) -> list[Any]:
        """``count`` random dealt rounds (``boxes`` each, else any number) in the game's
        ``settle_round`` format."""

    def broken_round(self, rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
        """One of those rounds broken one way (a key missing, a card twice ...), or now and
        then left valid."""


def engines(names: Iterable[str] | None = None) -> dict[str, EngineBench]:
    """Each game's engine bench (only those named, else every game whose bench has one)."""
    out: dict[str, EngineBench] = {}
    for name in names if names is not None else ENTRIES:
        entry = ENTRIES.get(name)
        if entry is None:
            raise ValueError(f"unknown game {name!r}: one of {', '.join(ENTRIES)}")
        found = getattr(import_module(entry.bench), "ENGINE", None) if entry.bench else None
        if found is not None:
            out[name] = found
        elif names is not None:
            raise ValueError(f"{name}: its registry entry names no bench with an ENGINE")
    return out
