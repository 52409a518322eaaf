"""No platform file names a game: the platform finds games by their registry entries
(``ENTRY`` in each game package's ``__init__``, :mod:`table.games.entry`) and reaches them
through the interface (docs/games.md), so a new game is one package and no platform edit.

"Names" is a game's code name or title, in any case (``four_card_frenzy``,
``FOUR_CARD_FRENZY``, "Four Card Frenzy"), in code, a docstring or a comment. Platform files:
every module, template, script, style sheet and setting outside the games' own packages and
the migrations, and every test outside ``tests/games/<game>/``. :data:`NOT_YET` lists the
files that still do, each with how many mentions it may keep and why: a debt that may only
shrink (a file with more mentions fails, and so does one that no longer has any, so that it
leaves the list).
"""

from __future__ import annotations

import re
from pathlib import Path

from table.games import ENTRIES

ROOT = Path(__file__).resolve().parents[2]
#: The in-tree games (packages under table/games/), not a test's own game.
IN_TREE = tuple(e for e in ENTRIES.values() if e.adapter.startswith("table.games."))
NAMES = re.compile(
    "|".join(re.escape(word) for e in IN_TREE for word in (e.name, e.title)), re.IGNORECASE
)
#: Where platform files are, and which kinds of file.
PLACES = ("table", "frenzy_site", "templates", "static", "bench", "tests")
TOP_FILES = ("manage.py", "pyproject.toml", "Makefile", "requirements.txt")
SUFFIXES = {".py", ".html", ".js", ".css", ".json", ".toml", ".txt", ".sh", ".cfg", ".ini"}
#: Never scanned: the games' own packages, tests and benchmarks, the migrations (history, as it was
#: written), vendored code, this file.
GAME_DIRS = (
    tuple(Path(*e.adapter.split(".")[:-1]) for e in IN_TREE)
    + tuple(Path("tests", "games", e.name) for e in IN_TREE)
    + tuple(Path("bench", "games", e.name) for e in IN_TREE)
)
SKIPPED = (*GAME_DIRS, Path("table", "migrations"), Path("static", "vendor"))
SKIPPED_FILES = {Path(__file__).relative_to(ROOT), Path("tests", "game_names.py")}

#: Platform tests that still name a game, by directory: directory -> why (a test that does
#: moves under tests/games/<game>/ or takes its games from the registry). None now: the
#: browser tests' machinery and the platform's browser tests (tests/browser/) and the services'
#: tests take their games from the registry (``table.games.ENTRIES``) or the page (the felt's
#: ``data-game``), and each game's own tests are in tests/games/<game>/ (its browser tests in
#: tests/games/<game>/browser/).
TESTS_NOT_YET: dict[str, str] = {}

#: Platform files that still name a game: path -> (mentions at most, why). None now: the
#: bench's bots play any game from its round views' moves, a game's own benchmarks and bench
#: player are in its package (``GameEntry.bench``), and its bench rules are its demo's.
NOT_YET: dict[str, tuple[int, str]] = {}


def platform_files() -> list[Path]:
    found = [ROOT / name for name in TOP_FILES if (ROOT / name).exists()]
    for place in PLACES:
        for path in (ROOT / place).rglob("*"):
            rel = path.relative_to(ROOT)
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and rel not in SKIPPED_FILES
                and not any(rel.is_relative_to(d) for d in SKIPPED)
                and "__pycache__" not in rel.parts
            ):
                found.append(path)
    return sorted(found)


def mentions() -> dict[str, int]:
    """Every platform file (but the tests under :data:`TESTS_NOT_YET`) naming a game."""
    out = {}
    for path in platform_files():
        rel = path.relative_to(ROOT)
        if any(rel.is_relative_to(Path(d)) for d in TESTS_NOT_YET):
            continue
        hits = len(NAMES.findall(path.read_text(encoding="utf-8", errors="replace")))
        if hits:
            out[str(path.relative_to(ROOT))] = hits
    return out


def test_the_registry_finds_the_in_tree_games() -> None:
    assert len(IN_TREE) >= 1 and all(p.is_dir() for p in GAME_DIRS[: len(IN_TREE)])


def test_no_platform_file_names_a_game() -> None:
    found = mentions()
    grown = {
        path: (hits, NOT_YET.get(path, (0, ""))[0])
        for path, hits in found.items()
        if hits > NOT_YET.get(path, (0, ""))[0]
    }
    assert not grown, (
        "platform files that name a game (mentions, allowed): reach the game through its "
        f"registry entry or the interface instead: {grown}"
    )


def test_the_allow_list_only_shrinks() -> None:
    found = mentions()
    clean = sorted(path for path in NOT_YET if path not in found)
    assert not clean, f"these no longer name a game: take them off NOT_YET: {clean}"
    assert all((ROOT / d).exists() for d in TESTS_NOT_YET)


def test_the_tests_that_name_games_for_the_record() -> None:
    """How many mentions each listed test directory holds (printed, for the closing note); one
    that no longer names a game leaves :data:`TESTS_NOT_YET`, as a file leaves :data:`NOT_YET`."""
    held = dict.fromkeys(TESTS_NOT_YET, 0)
    for path in (ROOT / "tests").rglob("*.py"):
        rel = path.relative_to(ROOT)
        if any(rel.is_relative_to(d) for d in SKIPPED):
            continue
        for directory in held:
            if rel.is_relative_to(Path(directory)):
                held[directory] += len(NAMES.findall(path.read_text(encoding="utf-8")))
    print(f"game names in the listed platform tests: {sum(held.values())} {held}")
    clean = sorted(d for d, hits in held.items() if not hits)
    assert not clean, f"these name no game any more: take them off TESTS_NOT_YET: {clean}"
