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
#: Never scanned: the games' own packages and tests, the migrations (history, as it was
#: written), vendored code, this file.
GAME_DIRS = tuple(Path(*e.adapter.split(".")[:-1]) for e in IN_TREE) + tuple(
    Path("tests", "games", e.name) for e in IN_TREE
)
SKIPPED = (*GAME_DIRS, Path("table", "migrations"), Path("static", "vendor"))
SKIPPED_FILES = {Path(__file__).relative_to(ROOT), Path("tests", "game_names.py")}

V1 = "Four Card Frenzy's own felt, console, protocol v1, recall shape (to the common path)"
WORDS = "game words in shared JS/CSS that belong in the games' views (issue 27)"
EXAMPLE = "a comment or docstring citing a game as its example (reword to the interface's terms)"
BENCH = "bench bots and rules per game: each game's own commands (until the bots play moves)"
PLAYS = "a platform test playing a game by name (to derive from the registry or move)"
DATA = "a game's paytable report JSON in table/data/ (to move into its package)"
OWN = "a game's own template outside its package (to move into its package)"
OWNTESTS = "a game's own tests outside tests/games/<game>/ (tests/engine/ is Four Card Frenzy's)"
MODEL = "a model field's default names the first game (a callable default needs a migration)"

#: Platform files that still name a game: path -> (mentions at most, why).
NOT_YET: dict[str, tuple[int, str]] = {
    "tests/services/test_admin_walk.py": (5, PLAYS),
    "tests/services/test_round_integrity.py": (1, PLAYS),
    "tests/backoffice/test_reports.py": (9, PLAYS),
    "tests/backoffice/test_backoffice_admin.py": (2, PLAYS),
    "bench/commands.py": (2, BENCH),
    "bench/engine.py": (4, BENCH),
    "bench/enumeration.py": (1, BENCH),
    "bench/load.py": (12, BENCH),
    "bench/rounds.py": (1, BENCH),
    "bench/settle_corpus.py": (1, BENCH),
    "frenzy_site/settings.py": (1, EXAMPLE),
    "manage.py": (1, EXAMPLE),
    "static/table/console_generic.js": (3, WORDS),
    "static/table/dealer.js": (3, V1),
    "static/table/felt_generic.css": (11, WORDS),
    "static/table/felt_generic.js": (12, WORDS),
    "static/table/game_words.js": (24, WORDS),
    "static/table/protocol.js": (1, V1),
    "static/table/table.js": (2, V1),
    "table/admin/duties.py": (1, EXAMPLE),
    "table/consumers.py": (1, V1),
    "table/data/crazy_4_poker_report.json": (5, DATA),
    "table/data/five_card_hi_lo_report.json": (4, DATA),
    "table/data/paytable_report.json": (23, DATA),
    "table/games/base.py": (5, EXAMPLE),
    "table/games/common.py": (3, EXAMPLE),
    "table/games/progressive.py": (1, EXAMPLE),
    "table/management/commands/bench_commands.py": (10, BENCH),
    "table/management/commands/bench_engine.py": (3, BENCH),
    "table/management/commands/bench_flood.py": (3, BENCH),
    "table/management/commands/bench_load.py": (15, BENCH),
    "table/management/commands/demo.py": (1, EXAMPLE),
    "table/meters.py": (4, EXAMPLE),
    "table/models.py": (4, MODEL),
    "table/protocol.py": (5, V1),
    "table/recall.py": (1, V1),
    "table/services/dealing.py": (5, V1),
    "table/services/players.py": (1, V1),
    "table/services/records.py": (2, V1),
    "table/templatetags/frenzy_tags.py": (1, EXAMPLE),
    "templates/admin/table/four_card_frenzy/mathematics.html": (3, OWN),
    "templates/table/_recall_round.html": (3, V1),
    "templates/table/dealer.html": (1, V1),
    "templates/table/round_detail.html": (2, V1),
    "templates/table/table.html": (2, V1),
    "tests/browser/generic_feed.py": (1, PLAYS),
    "tests/browser/test_generic_felt.py": (21, PLAYS),
    "tests/browser/test_generic_live.py": (24, PLAYS),
    "tests/browser/test_hilo_live.py": (8, PLAYS),
    "tests/browser/test_lobby_and_spectator.py": (6, PLAYS),
    "tests/consumers/test_act_frames.py": (8, PLAYS),
    "tests/consumers/test_game_tables.py": (9, PLAYS),
    "tests/e2e/test_linked_meters_two_daphnes.py": (4, PLAYS),
    "tests/engine/helpers.py": (1, OWNTESTS),
    "tests/engine/reference.py": (1, OWNTESTS),
    "tests/engine/test_analysis.py": (4, OWNTESTS),
    "tests/engine/test_bad_input.py": (5, OWNTESTS),
    "tests/engine/test_enumeration.py": (1, OWNTESTS),
    "tests/engine/test_hands.py": (1, OWNTESTS),
    "tests/engine/test_jurisdiction.py": (3, OWNTESTS),
    "tests/engine/test_paytables.py": (2, OWNTESTS),
    "tests/engine/test_properties.py": (3, OWNTESTS),
    "tests/engine/test_reference.py": (2, OWNTESTS),
    "tests/engine/test_round.py": (2, OWNTESTS),
    "tests/engine/test_rules.py": (1, OWNTESTS),
    "tests/engine/test_settle_round_command.py": (1, OWNTESTS),
    "tests/engine/test_settlement.py": (2, OWNTESTS),
    "tests/examples.py": (5, PLAYS),
    "tests/games/test_common.py": (1, PLAYS),
    "tests/games/test_contract_dispatch.py": (10, PLAYS),
    "tests/games/test_interface.py": (22, PLAYS),
    "tests/games/test_platform_imports.py": (7, PLAYS),
    "tests/integrity/test_crash_games.py": (12, PLAYS),
    "tests/integrity/test_crash_hilo.py": (6, PLAYS),
    "tests/integrity/test_games_records.py": (5, PLAYS),
    "tests/integrity/test_irregularities.py": (1, PLAYS),
    "tests/integrity/test_pages.py": (1, PLAYS),
    "tests/integrity/test_stateful.py": (3, PLAYS),
    "tests/services/conftest.py": (2, PLAYS),
    "tests/services/test_admin_paytables.py": (2, PLAYS),
    "tests/services/test_admin_secrecy.py": (4, PLAYS),
    "tests/services/test_admin_staff_pages.py": (3, PLAYS),
    "tests/services/test_every_view.py": (1, PLAYS),
    "tests/services/test_fcf_choices_migration.py": (11, PLAYS),
    "tests/services/test_game_voids.py": (22, PLAYS),
    "tests/services/test_games_at_table.py": (15, PLAYS),
    "tests/services/test_games_migration.py": (7, PLAYS),
    "tests/services/test_games_read_side.py": (38, PLAYS),
    "tests/services/test_meters.py": (6, PLAYS),
    "tests/services/test_rounds.py": (1, PLAYS),
    "tests/test_paytable_report.py": (24, OWNTESTS),
}


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
    out = {}
    for path in platform_files():
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
