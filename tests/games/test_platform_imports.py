"""The platform reaches a game only through its interface (table/games/base.py, docs/games.md):
its modules import nothing from a game's package, at the top or inside a function (but the
few on :data:`NOT_YET`, each with its reason). Only the registry (table/games/__init__.py)
names the games' modules, as strings."""

from __future__ import annotations

import ast
from importlib.util import find_spec
from pathlib import Path

import pytest

from table.games import ENTRIES, GAMES

ROOT = Path(__file__).resolve().parents[2]
#: Each game's package: ``table.games.<game>`` for ``table.games.<game>.game``.
GAME_PACKAGES = tuple(sorted(module.rpartition(".")[0] for module in GAMES.values()))
#: Platform modules that still import a game's own modules, and why (each one a debt: the
#: test fails once it no longer does, so that it leaves this list).
NOT_YET: dict[str, str] = {}
#: Every platform module: table/ but the games and the migrations.
PLATFORM = tuple(
    sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "table").rglob("*.py")
        if not p.is_relative_to(ROOT / "table" / "games") and "migrations" not in p.parts
    )
)


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports (relative imports resolved), and for ``from m import n``
    also ``m.n`` (``n`` may be a submodule)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


def game_modules(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in GAME_PACKAGES))


def is_module(name: str) -> bool:
    try:
        return find_spec(name) is not None
    except ModuleNotFoundError:  # an attribute of a module, not a submodule
        return False


def test_the_scan_sees_a_game_import() -> None:
    """The scan itself: each game's adapter imports its own package's modules (relative and
    absolute imports), each resolved to a module that exists (a relative import resolved one
    level off would name none)."""
    relative = 0
    for entry in ENTRIES.values():
        path = ROOT / Path(*entry.adapter.split(".")).with_suffix(".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        relative += sum(isinstance(n, ast.ImportFrom) and n.level > 0 for n in ast.walk(tree))
        found = game_modules(imported(path))
        assert any(n.startswith(entry.package + ".") for n in found), entry.name
        for name in found:
            assert is_module(name) or is_module(name.rpartition(".")[0]), (entry.name, name)
    assert relative, "no adapter imports relatively: the relative case is not seen"


def test_recall_imports_no_game_package() -> None:
    """Game recall (the round page, "my rounds", the felt's recall panel, the admin's account
    of a round) asks the game (``Game.recalled``, ``Game.void_words``)."""
    assert "table/recall.py" in PLATFORM
    assert game_modules(imported(ROOT / "table/recall.py")) == []


@pytest.mark.parametrize("module", PLATFORM)
def test_a_platform_module_imports_no_game_package(module: str) -> None:
    found = game_modules(imported(ROOT / module))
    if module in NOT_YET:
        assert found, f"{module} no longer imports a game: take it off NOT_YET"
    else:
        assert found == [], f"{module} reaches a game's own modules: {found}"
