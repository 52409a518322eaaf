"""The games this platform hosts, each an in-tree package under ``table/games/``.

Each game implements :class:`table.games.base.Game` (its adapter is ``GAME`` in its package's
``game`` module); :func:`game` finds one by name and :func:`game_of_state` the game of a stored
round. The platform calls a game only through that interface (docs/games.md).

A round given to ``manage.py settle_round`` names its game with a top-level ``"game"`` key;
a round without one is Four Card Frenzy, whose contract (RULES.md) predates the key. An array
may mix games: each round is settled by its own game's contract module, which exposes
``settle_one(raw) -> dict`` and raises ``InvalidInput`` for bad input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from table.games.errors import InvalidInput

if TYPE_CHECKING:
    from .base import Game, MeterKind, PaytableReport

FOUR_CARD_FRENZY = "four_card_frenzy"
CRAZY_4_POKER = "crazy_4_poker"
FIVE_CARD_HI_LO = "five_card_hi_lo"

#: Every game the platform hosts, by name: the module whose ``GAME`` implements the
#: interface. Imported on first use, so a batch of one game never loads another game's tables.
GAMES: dict[str, str] = {
    FOUR_CARD_FRENZY: "table.games.four_card_frenzy.game",
    FIVE_CARD_HI_LO: "table.games.five_card_hi_lo.game",
    CRAZY_4_POKER: "table.games.crazy_4_poker.game",
}
#: Every game's paytable report module (:class:`~table.games.base.PaytableReport`:
#: ``manage.py paytable_report``, docs/paytables.md), in the docs' order; imported on first
#: use, as :data:`GAMES`.
REPORTS: dict[str, str] = {
    FOUR_CARD_FRENZY: "table.games.four_card_frenzy.report",
    CRAZY_4_POKER: "table.games.crazy_4_poker.report",
    FIVE_CARD_HI_LO: "table.games.five_card_hi_lo.report",
}
#: The games' names for people, without importing them (model choices, the lobby).
GAME_TITLES: dict[str, str] = {
    FOUR_CARD_FRENZY: "Four Card Frenzy",
    CRAZY_4_POKER: "Crazy 4 Poker",
    FIVE_CARD_HI_LO: "Five Card Hi-Lo",
}
_games: dict[str, Game[Any, Any]] = {}
_settlers: dict[str, Callable[[object], dict[str, Any]]] = {}


def game(name: object) -> Game[Any, Any]:
    """The game named ``name``; an unknown name is bad input (``unknown_game``)."""
    found = _games.get(name) if isinstance(name, str) else None
    if found is None:
        if not isinstance(name, str) or name not in GAMES:
            raise InvalidInput("unknown_game", f"unknown game {name!r}")
        found = _games[name] = import_module(GAMES[name]).GAME
    return found


def paytable_report(name: object) -> PaytableReport:
    """The paytable report module of the game named ``name``; an unknown name is bad input."""
    if not isinstance(name, str) or name not in REPORTS:
        raise InvalidInput("unknown_game", f"unknown game {name!r}")
    module: PaytableReport = cast("PaytableReport", import_module(REPORTS[name]))
    return module


def game_of_state(state: Mapping[str, Any]) -> Game[Any, Any]:
    """The game of a stored round: its ``"game"`` key (Four Card Frenzy's rounds have none)."""
    return game(state.get("game", FOUR_CARD_FRENZY))


@cache
def meter_catalogue() -> Mapping[tuple[str, str], MeterKind]:
    """Every meter a table of any game may be linked to, by (kind, paytable): the union of
    the games' :meth:`~table.games.base.Game.meter_catalogue` (the meters store's and the
    admin's). Two games naming the same meter is a mistake in a game."""
    out: dict[tuple[str, str], MeterKind] = {}
    for name in GAMES:
        for kind in game(name).meter_catalogue():
            key = (kind.kind, kind.paytable)
            if key in out:
                raise ValueError(
                    f"two games have a {kind.kind} meter for paytable {kind.paytable!r}"
                )
            out[key] = kind
    return MappingProxyType(out)


def contract_settler(name: object) -> Callable[[object], dict[str, Any]]:
    """The ``settle_one`` of the game named ``name`` (the game's own ``settle_one``); an
    unknown name is bad input."""
    settler = _settlers.get(name) if isinstance(name, str) else None
    if settler is None:
        settler = _settlers[name] = game(name).settle_one  # type: ignore[index]
    return settler


def settle_one(raw: object) -> dict[str, Any]:
    """Settle one round by its game's contract."""
    if isinstance(raw, dict) and "game" in raw:
        name = raw["game"]
        if name == FOUR_CARD_FRENZY:
            # The Four Card Frenzy contract has no "game" key of its own.
            raw = {k: v for k, v in raw.items() if k != "game"}
        return contract_settler(name)(raw)
    return contract_settler(FOUR_CARD_FRENZY)(raw)


def settle_document(document: object) -> dict[str, Any] | list[dict[str, Any]]:
    """Settle one round, or an array of rounds in order. Errors name the round's index."""
    if isinstance(document, list):
        out: list[dict[str, Any]] = []
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
