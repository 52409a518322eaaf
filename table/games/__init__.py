"""The games this platform hosts, each a package under ``table/games/`` found by its ``ENTRY``.

A package's ``__init__`` names the game once (:class:`table.games.entry.GameEntry`: its name,
title, adapter, report, demo table...); every list below derives from those entries, and
:func:`register` adds a game that lives elsewhere (a test's own). Each game implements
:class:`table.games.base.Game` (its adapter is ``GAME`` in the module its entry names);
:func:`game` finds one by name and :func:`game_of_state` the game of a stored round.
The platform calls a game only through that interface (docs/games.md).

A round given to ``manage.py settle_round`` names its game with a top-level ``"game"`` key;
a round without one is the game whose entry is ``unkeyed`` (its contract predates the key).
An array may mix games: each round is settled by its own game's contract module, which exposes
``settle_one(raw) -> dict`` and raises ``InvalidInput`` for bad input.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Mapping
from functools import cache
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from table.games.entry import GameEntry
from table.games.errors import InvalidInput

if TYPE_CHECKING:
    from .base import Game, MeterKind, PaytableReport

#: Every game the platform hosts, by name: its registry entry (the ``ENTRY`` of its package's
#: ``__init__``), in the lobby's order. Filled by discovery below and :func:`register`; the
#: lists after it derive from it and change with it (they are the same objects throughout).
ENTRIES: dict[str, GameEntry] = {}
#: Every game by name: the module whose ``GAME`` implements the interface. Imported on first
#: use, so a batch of one game never loads another game's tables.
GAMES: dict[str, str] = {}
#: Every game's paytable report module (:class:`~table.games.base.PaytableReport`:
#: ``manage.py paytable_report``, docs/paytables.md), in the docs' order; imported on first
#: use, as :data:`GAMES`.
REPORTS: dict[str, str] = {}
#: Every game's report file (in its package, or an absolute path), in the docs' order.
REPORT_FILES: dict[str, str] = {}
#: The games' names for people, without importing them (model choices, the lobby).
GAME_TITLES: dict[str, str] = {}
#: The other names ``manage.py paytable_report --game`` accepts, to the game's name.
ALIASES: dict[str, str] = {}


def _derive() -> None:
    """Every list from :data:`ENTRIES`, in place (modules hold these dicts by name)."""
    entries = sorted(ENTRIES.values(), key=lambda e: e.sort_key)
    by_report = sorted(ENTRIES.values(), key=lambda e: e.report_sort_key)
    ordered = {e.name: e for e in entries}
    ENTRIES.clear()
    ENTRIES.update(ordered)
    for target, values in (
        (GAMES, {e.name: e.adapter for e in entries}),
        (GAME_TITLES, {e.name: e.title for e in entries}),
        (REPORTS, {e.name: e.report for e in by_report if e.report}),
        (REPORT_FILES, {e.name: e.report_file for e in by_report if e.report_file}),
        (ALIASES, {a: e.name for e in entries for a in e.aliases}),
    ):
        target.clear()
        target.update(values)
    for flag in ("unkeyed", "default"):
        named = [e.name for e in entries if getattr(e, flag)]
        if len(named) > 1:
            raise ValueError(f"two games say they are {flag}: {', '.join(named)}")
    _games.clear()
    _settlers.clear()
    meter_catalogue.cache_clear()


def register(entry: GameEntry) -> None:
    """Add a game found elsewhere than ``table/games/`` (a test's own game); a second game
    of the same name is a mistake."""
    if entry.name in ENTRIES and ENTRIES[entry.name] != entry:
        raise ValueError(f"a game named {entry.name!r} is registered already")
    ENTRIES[entry.name] = entry
    _derive()


def unregister(name: str) -> None:
    """Remove a game :func:`register` added (a test's own game, once the test is over)."""
    ENTRIES.pop(name, None)
    _derive()


def _discover() -> None:
    """Every package under ``table/games/`` whose ``__init__`` has an ``ENTRY``."""
    for info in pkgutil.iter_modules(__path__, f"{__name__}."):
        if info.ispkg:
            entry = getattr(import_module(info.name), "ENTRY", None)
            if isinstance(entry, GameEntry):
                ENTRIES[entry.name] = entry


def unkeyed_game() -> str | None:
    """The game whose rounds and ``settle_round`` documents have no ``"game"`` key, if any."""
    return next((e.name for e in ENTRIES.values() if e.unkeyed), None)


def default_game() -> str:
    """The game offered first (the admin's Rules Submission form): the one that says it is
    the default, else the first in order."""
    return next((e.name for e in ENTRIES.values() if e.default), next(iter(ENTRIES)))


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
    """The game of a stored round: its ``"game"`` key (the unkeyed game's rounds have none)."""
    return game(state.get("game", unkeyed_game()))


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
    unkeyed = unkeyed_game()
    if isinstance(raw, dict) and "game" in raw:
        name = raw["game"]
        if name == unkeyed:
            # That game's contract has no "game" key of its own.
            raw = {k: v for k, v in raw.items() if k != "game"}
        return contract_settler(name)(raw)
    if unkeyed is None:
        raise InvalidInput("unknown_game", 'name the round\'s game with a "game" key')
    return contract_settler(unkeyed)(raw)


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


_discover()
_derive()
