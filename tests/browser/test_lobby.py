"""The lobby and every game's pages, for whichever games the registry holds (its entries: each
game's name, title and demo table): a section per game with its demo table, each table's page
named by its own game, on a desktop the games side by side with their tables in number order
and each table's linked meters with their amounts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from table.games import ENTRIES, default_game, game

from .fixtures import DESKTOP_WIDE, PHONE, Site, login, screenshot
from .helpers import shot

pytestmark = [pytest.mark.browser]


def demo_meter_labels(name: str) -> list[str]:
    """The meters the game's demo table is linked to (``table.demo.link_meters``: each meter its
    demo rules need), by their names for people, in the lobby's order."""
    entry = ENTRIES[name]
    assert entry.demo is not None, name
    g = game(name)
    rules = g.parse_rules({**g.rules_to_dict(g.default_rules()), **entry.demo.choices})
    return [spec.label for spec in g.meters(rules)]


@pytest.mark.parametrize("label, viewport", [("desktop", DESKTOP_WIDE), ("phone", PHONE)])
def test_the_lobby_lists_every_game_and_each_page_names_its_own(
    browser: Any, site: Site, label: str, viewport: dict[str, int]
) -> None:
    """The lobby, under the platform's name, has a section per game with its demo table; a
    table's page names its game in the header (not the first game's name everywhere)."""
    alice = login(browser, site, "alice", viewport=viewport, phone=label == "phone")
    page = alice.page
    expect(page.locator(".topbar .brand")).to_have_text("Casino table games")
    sections = page.locator(".lobby-game")
    expect(sections).to_have_count(len(ENTRIES))
    for name, entry in ENTRIES.items():
        section = page.locator(f".lobby-game[data-game='{name}']")
        expect(section.locator("h2")).to_contain_text(entry.title)
        expect(section.locator(".table-card").first).to_be_visible()
    shot(alice, f"lobby-{label}", ".lobby-game")
    for name, entry in ENTRIES.items():
        card = page.locator(f".lobby-game[data-game='{name}'] .table-card").first
        page.goto(site.url(f"/tables/{card.get_attribute('data-table-id')}/"))
        expect(page.locator("#app")).to_have_attribute("data-game", name)
        expect(page.locator(".topbar .brand")).to_have_text(entry.title)
        expect(page).to_have_title(re.compile(f"· {re.escape(entry.title)}$"))
        page.go_back()
    assert not alice.errors, alice.errors


#: Two more tables of the first game, numbered after its demo table ("<name> 1").
MORE_TABLES = """
from table.models import Table
first = Table.objects.get(name=%r)
for name in %r:
    Table.objects.get_or_create(name=name, defaults={"rules": first.rules})
"""


def test_the_lobby_on_a_desktop_uses_the_width_in_number_order_with_meters(
    browser: Any, site: Site
) -> None:
    """Issue 28: on a desktop the lobby was one narrow column with two thirds of the screen
    empty, a table numbered 10 came before the table numbered 2, and no meter amount was shown
    (players choose progressive tables by their jackpots)."""
    first = ENTRIES[default_game()]
    assert first.demo is not None
    stem, _, number = first.demo.table.rpartition(" ")
    assert number == "1", first.demo.table  # the demo tables are numbered from 1
    site.stack.manage("shell", "-c", MORE_TABLES % (first.demo.table, (f"{stem} 10", f"{stem} 2")))
    erin = login(browser, site, "erin", DESKTOP_WIDE)
    page = erin.page
    page.goto(site.url("/"))
    sections = page.locator(".lobby-game")
    expect(sections).to_have_count(len(ENTRIES))
    boxes = [sections.nth(i).bounding_box() for i in range(len(ENTRIES))]
    # The games side by side, on one row, across most of the screen.
    assert len({round(b["y"]) for b in boxes}) == 1, boxes
    assert len({round(b["x"]) for b in boxes}) == len(ENTRIES), boxes
    assert boxes[-1]["x"] + boxes[-1]["width"] - boxes[0]["x"] > 1440 * 0.75, boxes
    # The numbered tables in number order (other tests' tables on the same site may be among
    # them, e.g. test_console_procedure's "Void drill <game>": read as their names, not kept).
    names = page.locator(f"#game-{first.name} .table-card h3")
    expect(names.filter(has_text=f"{stem} 10")).to_have_count(1)
    numbered = [
        t.strip()
        for t in names.all_text_contents()
        if re.fullmatch(rf"{re.escape(stem)} \d+", t.strip())
    ]
    assert numbered == [f"{stem} 1", f"{stem} 2", f"{stem} 10"], names.all_text_contents()
    # Each demo table's linked meters, each with its amount; none at a game without them.
    with_meters = 0
    for name, entry in ENTRIES.items():
        assert entry.demo is not None, name
        card = page.locator(f"#game-{name} .table-card").filter(
            has=page.locator("h3", has_text=re.compile(f"^{re.escape(entry.demo.table)}$"))
        )
        labels = demo_meter_labels(name)
        expect(card.locator(".meter-label")).to_have_text(labels)
        for amount in card.locator(".meter-amount").all_text_contents():
            assert re.fullmatch(r"\$[\d,]+\.\d\d", amount), amount
        if not labels:
            expect(page.locator(f"#game-{name} .meter-label")).to_have_count(0)
        with_meters += bool(labels)
    assert with_meters, "no demo table has a meter: the lobby's meters go untested"
    screenshot(page, "lobby-desktop-1440", full_page=True)
    assert not erin.errors, erin.errors
