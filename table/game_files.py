"""Each game's own templates and static files, found in its package (issue 27: a game is one
package): a template loader and a static files finder that ask the registry
(:data:`table.games.ENTRIES`, each entry's :attr:`~table.games.entry.GameEntry.directory`)
for ``templates/`` and ``static/`` in every game's package, so that no setting, template
directory or static directory of the platform names a game. A game registered later (a
test's own, :func:`table.games.register`) is found the same way: the directories are asked
for on every look-up, not once at start-up.

A game's files keep their own names under those directories (``static/<game>/...``,
``templates/admin/table/<game>/...``): two games' files never share a name. The project's
``templates/`` and ``static/`` come first (settings: ``TEMPLATES``, ``STATICFILES_FINDERS``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.storage import FileSystemStorage
from django.template.loaders.filesystem import Loader as FilesystemLoader
from django.utils._os import safe_join

from table.games import ENTRIES


def game_dirs(kind: str) -> list[Path]:
    """Every registered game's ``kind`` directory (``templates``, ``static``) that exists, in
    the registry's order."""
    found = []
    for entry in ENTRIES.values():
        path = entry.directory / kind
        if path.is_dir():
            found.append(path)
    return found


class GameTemplateLoader(FilesystemLoader):
    """Templates in each game's package (``<package>/templates/``)."""

    def get_dirs(self) -> list[Path]:  # type: ignore[override]
        return game_dirs("templates")


class GameStaticFinder(BaseFinder):
    """Static files in each game's package (``<package>/static/``): served (WhiteNoise, the
    finders) and collected (``collectstatic``) as the project's own."""

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str]:
        find_all = find_all or bool(kwargs.get("all", False))
        matches: list[str] = []
        for root in game_dirs("static"):
            try:
                candidate = safe_join(str(root), path)
            except Exception:  # a path that climbs out of the directory (SuspiciousFileOperation)
                continue
            if os.path.exists(candidate):
                if not find_all:
                    return candidate
                matches.append(candidate)
        return matches

    def list(self, ignore_patterns: list[str] | None) -> Iterator[tuple[str, FileSystemStorage]]:
        for root in game_dirs("static"):
            storage = FileSystemStorage(location=str(root))
            for path in utils.get_files(storage, ignore_patterns):
                yield path, storage
