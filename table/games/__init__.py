"""The games this platform hosts, each an in-tree package under ``table/games/``.

A round given to ``manage.py settle_round`` names its game with a top-level ``"game"`` key;
a round without one is Four Card Frenzy, whose contract (RULES.md) predates the key. An array
may mix games: each round is settled by its own game's contract module, which exposes
``settle_one(raw) -> dict`` and raises ``InvalidInput`` for bad input.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from table.engine.errors import InvalidInput

FOUR_CARD_FRENZY = "four_card_frenzy"
CRAZY_4_POKER = "crazy_4_poker"
FIVE_CARD_HI_LO = "five_card_hi_lo"

# Imported on first use, so a batch of one game never loads another game's tables.
_CONTRACT_MODULES = {
    FOUR_CARD_FRENZY: "table.engine.contract",
    CRAZY_4_POKER: "table.games.crazy_4_poker.contract",
    FIVE_CARD_HI_LO: "table.games.five_card_hi_lo.contract",
}
_settlers: dict[str, Callable[[object], dict[str, Any]]] = {}


def contract_settler(game: object) -> Callable[[object], dict[str, Any]]:
    """The ``settle_one`` of the game named ``game``; an unknown name is bad input."""
    settler = _settlers.get(game) if isinstance(game, str) else None
    if settler is None:
        if not isinstance(game, str) or game not in _CONTRACT_MODULES:
            raise InvalidInput("unknown_game", f"unknown game {game!r}")
        settler = _settlers[game] = import_module(_CONTRACT_MODULES[game]).settle_one
    return settler


def settle_one(raw: object) -> dict[str, Any]:
    if isinstance(raw, dict) and "game" in raw:
        game = raw["game"]
        if game == FOUR_CARD_FRENZY:
            # The Four Card Frenzy contract has no "game" key of its own.
            raw = {k: v for k, v in raw.items() if k != "game"}
        return contract_settler(game)(raw)
    return contract_settler(FOUR_CARD_FRENZY)(raw)


def settle_document(document: object) -> dict[str, Any] | list[dict[str, Any]]:
    """Settle one round, or an array of rounds in order. Errors name the round's index."""
    if isinstance(document, list):
        out = []
        for index, raw in enumerate(document):
            try:
                out.append(settle_one(raw))
            except InvalidInput as exc:
                raise InvalidInput(exc.code, f"round {index}: {exc.message}") from exc
        return out
    try:
        return settle_one(document)
    except InvalidInput as exc:
        raise InvalidInput(exc.code, f"round 0: {exc.message}") from exc
