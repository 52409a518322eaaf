"""Each game's own templates and static files live in its package and are found through the
registry (table/game_files.py): served, rendered and collected with no setting or platform
directory naming the game, a test's own game included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.template.loader import get_template, render_to_string
from django.test import override_settings

from table.game_files import GameStaticFinder, game_dirs
from table.games import ENTRIES, register, unregister
from tests.platform.ante_pair import ENTRY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def registered() -> Iterator[None]:
    register(ENTRY)
    yield
    unregister(ENTRY.name)


def test_a_test_games_files_are_found_in_its_package(registered: None) -> None:
    here = ENTRY.directory
    assert here / "static" in game_dirs("static") and here / "templates" in game_dirs("templates")
    found = finders.find("ante_pair/felt.css")
    assert found is not None and Path(str(found)) == here / "static" / "ante_pair" / "felt.css"
    html = render_to_string("ante_pair/note.html", {"title": ENTRY.title})
    assert "Ante Pair: a template of the game's own package." in html


def test_an_unregistered_games_files_are_not(registered: None) -> None:
    unregister(ENTRY.name)
    try:
        assert GameStaticFinder().find("ante_pair/felt.css") == []
        assert GameStaticFinder().find("ante_pair/felt.css", find_all=True) == []
    finally:
        register(ENTRY)


def test_collectstatic_collects_every_games_files(registered: None, tmp_path: Path) -> None:
    with override_settings(STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
    assert (tmp_path / "ante_pair" / "felt.css").read_text(encoding="utf-8").startswith("/*")
    assert (tmp_path / "table" / "felt_generic.js").exists()  # the project's own, as before


def test_a_path_out_of_a_games_directory_is_not_found(registered: None) -> None:
    assert GameStaticFinder().find("../__init__.py") == []


def test_the_in_tree_games_templates_are_in_their_packages() -> None:
    """No platform template directory holds a game's own templates: each is in its package
    and found there (the admin's staff parts and pages name them by their template names)."""
    platform = ROOT / "templates"
    for entry in ENTRIES.values():
        assert not (platform / "admin" / "table" / entry.name).exists(), entry.name
    for entry in ENTRIES.values():
        own = entry.directory / "templates"
        for path in own.rglob("*.html") if own.is_dir() else ():
            origin = Path(get_template(str(path.relative_to(own))).origin.name)
            assert origin == path
