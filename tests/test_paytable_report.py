"""The ``paytable_report`` command's dispatch over the games' registry and the docs page it
writes, for whatever games are registered (each game's own report: tests/games/<game>/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from table.games import ALIASES, GAME_TITLES, REPORT_FILES, game
from table.management.commands.paytable_report import parse_games, parse_only, sectioned
from table.paytable_report import markdown


def test_parse_games() -> None:
    part = parse_only(None)[0]  # a part of the first report that has parts
    everything = list(REPORT_FILES)
    assert len(everything) >= 2
    assert parse_games(None, None) == everything
    assert parse_games("all", None) == everything
    # --only alone: the games whose report has parts (at least one has).
    assert sectioned() and parse_games(None, part) == sectioned()
    # Names, aliases and titles (any case, dashes for underscores), spaced, in any order:
    # the docs' order, each once.
    for name in everything:
        assert parse_games(name.upper().replace("_", "-"), None) == [name]
        assert parse_games(GAME_TITLES[name].replace(" ", "-"), None) == [name]
    for alias, name in ALIASES.items():
        assert parse_games(f" {alias} ", None) == [name]
    assert parse_games(", ".join(reversed(everything)) + "," + everything[0], None) == everything
    last_two = everything[-2:]
    aliased = [next((a for a, n in ALIASES.items() if n == g), g) for g in reversed(last_two)]
    assert parse_games(", ".join(aliased), None) == last_two
    with pytest.raises(CommandError, match="unknown game"):
        parse_games("blackjack", None)
    titles = " or ".join(GAME_TITLES[g] for g in sectioned())
    for name in everything:
        if name not in sectioned():
            with pytest.raises(CommandError, match=re.escape(f"--only names {titles} sections")):
                parse_games(name, part)


def test_command_refuses_only_for_games_without_parts(tmp_path: Path) -> None:
    partless = [g for g in REPORT_FILES if g not in sectioned()]
    assert partless  # a report without parts: --only cannot name its sections
    for name in partless:
        with pytest.raises(CommandError, match="--only names .* sections"):
            call_command(
                "paytable_report", game=name, only=parse_only(None)[0], output_dir=str(tmp_path)
            )
    assert list(tmp_path.iterdir()) == []


def test_docs_page_is_generated_from_the_committed_reports() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "paytables.md").read_text(
        encoding="utf-8"
    )
    assert page == markdown()
    for name in REPORT_FILES:  # every game with a report has its section, headed alike
        assert f"\n## {GAME_TITLES[name]} ({game(name).regulation})" in page
    assert "as if the meter always stood at its seed" in page
    assert "#### Optimal strategy (the same for every Ante Bonus table)" in page
