"""A table whose game draws its felt from the round view: until that felt is loaded, the page
shows no other game's felt (a table of the second game once flashed the first game's "Ante &
Odds" and its six boxes while its socket connected)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from table.games import default_game

from .fixtures import Site, login, screenshot

pytestmark = pytest.mark.browser


def test_no_other_games_felt_before_the_first_snapshot(browser: Any, site: Site) -> None:
    carol = login(browser, site, "carol")
    page = carol.page
    page.goto(site.url("/"))
    # Any game's table but the first game's (the page the server sends was once that game's).
    card = page.locator(f'.table-card[data-game]:not([data-game="{default_game()}"])').first
    table_id = card.get_attribute("data-table-id")
    held: list[Any] = []
    # The socket connects to nothing: no snapshot ever comes, as on a slow first connection.
    page.route_web_socket("**/ws/tables/**", lambda ws: held.append(ws))
    page.goto(site.url(f"/tables/{table_id}/"))
    expect(page.locator("#conn")).to_be_visible()
    expect(page.locator("#app .felt")).not_to_be_visible()
    expect(page.locator(".table-head .limits")).not_to_be_visible()
    assert held, "the page opened its socket"
    screenshot(page, "felt-before-snapshot")
    # With the socket through, the game's own felt draws.
    fresh = page.context.new_page()  # the route above holds only the first page's socket
    fresh.goto(site.url(f"/tables/{table_id}/"))
    expect(fresh.locator("#app.generic-felt .felt")).to_be_visible()
