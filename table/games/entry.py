"""A game's one registry entry: everything the platform needs to find a game without naming it.

Each game package under ``table/games/`` defines ``ENTRY`` (a :class:`GameEntry`) in its
``__init__``; :mod:`table.games` discovers them at import and derives every list the platform
keeps (``GAMES``, ``REPORTS``, ``GAME_TITLES``, ``REPORT_FILES``, the demo tables, the
short names ``manage.py paytable_report`` accepts). A game defined elsewhere (a test's own game
under ``tests/``) is added with :func:`table.games.register`. Pure, typed, no Django: a
package's ``__init__`` imports only this module, so discovering a game loads none of its
tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib.util import find_spec
from pathlib import Path
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class DemoTable:
    """The game's table in the demo (``manage.py demo``): its name, its Rules Submission's
    name and the choices it makes besides the game's defaults (the game's own names)."""

    table: str
    rules: str
    choices: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class GameEntry:
    """One game as the platform finds it.

    ``name`` is the game's code name (stored with every Rules Submission and round), ``title``
    its name for people. ``adapter`` is the module whose ``GAME`` implements
    :class:`table.games.base.Game` and ``report`` the module that is its
    :class:`table.games.base.PaytableReport` (imported on first use, so a batch of one game
    never loads another's tables); ``report_file`` the report's JSON, a path relative to the
    game's package (:attr:`directory`) or an absolute one. ``order`` places the game in the
    lobby and the admin, ``report_order`` in docs/paytables.md, ``manage.py paytable_report``
    and the demo (lowest first). ``aliases`` are the other names ``manage.py paytable_report
    --game`` accepts.
    ``unkeyed``: the game's stored rounds and ``settle_round`` documents predate the
    ``"game"`` key, so a round without one is this game's (at most one game says so).
    ``default``: the game the admin's Rules Submission form offers first and the demo's first
    table (at most one).
    ``bench``: the module of the game's own benchmarks, if any (under ``bench/games/``, outside
    the engine, since its seeded rounds use :mod:`random`): its engine's figures
    (``manage.py bench_engine`` and ``bench/settle_corpus.py`` take its ``ENGINE``,
    ``bench.engine.EngineBench``). ``manage.py bench_load`` needs nothing of the game: its
    bots play the moves the game's round views offer.
    """

    name: str
    title: str
    adapter: str
    report: str | None = None
    report_file: str | None = None
    demo: DemoTable | None = None
    aliases: tuple[str, ...] = ()
    order: int = 100
    report_order: int | None = None
    unkeyed: bool = False
    default: bool = False
    bench: str | None = None

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"a game's name is a lower-case identifier, not {self.name!r}")
        if (self.report is None) != (self.report_file is None):
            raise ValueError(f"{self.name}: a report module and its file go together")

    @property
    def package(self) -> str:
        """The game's package: the one its adapter module is in (its files live there)."""
        return self.adapter.rpartition(".")[0]

    @cached_property
    def directory(self) -> Path:
        """The game's package directory: its report, templates and static files are found
        there (the platform asks the entry, never a path that names the game)."""
        spec = find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise ValueError(f"{self.name}: no package {self.package!r}")
        return Path(next(iter(spec.submodule_search_locations)))

    @property
    def report_path(self) -> Path | None:
        """The report's JSON file (:attr:`report_file` under :attr:`directory`), if any."""
        return None if self.report_file is None else self.directory / self.report_file

    @property
    def sort_key(self) -> tuple[int, str]:
        return (self.order, self.name)

    @property
    def report_sort_key(self) -> tuple[int, str]:
        return (self.order if self.report_order is None else self.report_order, self.name)
