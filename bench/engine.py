"""Four Card Frenzy's hand evaluator, one hand at a time, as ``manage.py bench_engine`` times it
(issue #2's target: 300,000 best-four evaluations a second on one thread).

The evaluator is the game's own (:func:`~table.games.four_card_frenzy.hands.best_four_value`,
and :func:`~table.games.four_card_frenzy.hands.best_four`, which also keeps the cards): no
member of the game interface evaluates a hand alone, so the benchmark names the game's module
here, with the rest of its benchmark code (:mod:`bench.enumeration`, :mod:`bench.rounds`),
and the command stays a platform module that names no game.
"""

from __future__ import annotations

from collections.abc import Sequence

from table.games.four_card_frenzy.hands import best_four, best_four_value


def evaluate_values(hands: Sequence[list[int]]) -> None:
    """The best four-card value of each five-card hand (card numbers)."""
    for hand in hands:
        best_four_value(hand)


def evaluate_with_cards(hands: Sequence[list[int]]) -> None:
    """The best four-card value of each hand with the four cards that make it."""
    for hand in hands:
        best_four(hand)
