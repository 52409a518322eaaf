"""The platform reaches a game only through its interface (table/games/base.py, docs/games.md):
the modules below import nothing from a game's package, at the top or inside a function.
Only the registry (table/games/__init__.py) names the games' modules, as strings."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from table.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
#: Each game's package: ``table.games.four_card_frenzy`` for ``...four_card_frenzy.game``.
GAME_PACKAGES = tuple(sorted(module.rpartition(".")[0] for module in GAMES.values()))
#: The platform modules held to the rule: game recall (the round page, "my rounds", the
#: felt's recall panel, the admin's account of a round).
PLATFORM = ("table/recall.py",)


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


def test_the_scan_sees_a_game_import() -> None:
    """The scan itself: a game's adapter imports its own package (relative and absolute)."""
    found = game_modules(imported(ROOT / "table/games/four_card_frenzy/game.py"))
    assert "table.games.four_card_frenzy.round" in found
    assert "table.games.four_card_frenzy.contract" in found
    relative = game_modules(imported(ROOT / "table/games/five_card_hi_lo/game.py"))
    assert "table.games.five_card_hi_lo.recheck" in relative
    assert "table.games.base" not in relative


@pytest.mark.parametrize("module", PLATFORM)
def test_a_platform_module_imports_no_game_package(module: str) -> None:
    assert game_modules(imported(ROOT / module)) == []
