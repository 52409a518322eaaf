"""The Rules Submission add form of each game in the browser: the game's own choices, signs
and house edge beside it, and no other game's (issue 28, bug 1). Each game's parts cite its own
chapter's paytable section, and no other game's: the games from the registry. (A saved warning
shown once is a game's own: tests/games/<game>/browser/test_admin_add_forms.py.)"""

from __future__ import annotations

import re
from typing import Any

import pytest

from table.games import ENTRIES, default_game

from .fixtures import Site, login, screenshot

pytestmark = [pytest.mark.browser]

#: A paytable section as the games' signs and figures cite it: §<chapter>.12 (the chapter's
#: paytables, in each of the Pennsylvania chapters the games follow).
PAYTABLES = re.compile(r"§(\d+[a-z]?)\.12\b")


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_each_games_add_form_shows_its_own_parts(browser: Any, site: Site, size: Any) -> None:
    width, height = size
    staff = login(browser, site, "admin", viewport={"width": width, "height": height})
    page = staff.page
    first = default_game()
    page.goto(site.url(f"/admin/table/rulessubmission/add/?game={first}"))

    def chapters() -> set[str]:
        """The chapters whose paytable section the game's parts beside the form cite."""
        parts = page.locator(".field-game_signs, .field-game_mathematics").all_text_contents()
        return set(PAYTABLES.findall("\n".join(parts)))

    cited: dict[str, str] = {}
    for name in ENTRIES:
        if name != first:
            # Choosing the game reloads the page with its choices (admin_rules.js).
            page.select_option("#id_game", name)
            page.wait_for_url(f"**game={name}**")
        own = chapters()
        assert len(own) == 1, (name, own)  # its own chapter's, no other game's
        cited[name] = own.pop()
        # A form error (no name) keeps the game's parts.
        page.click("input[name=_save]")
        page.locator(".errornote").first.wait_for()
        assert chapters() == {cited[name]}, name
        screenshot(page, f"admin-add-{name}-{width}", full_page=True)
    # Each game its own chapter: a game's form showing another's parts would cite two.
    assert len(set(cited.values())) == len(ENTRIES), cited
    assert staff.errors == [], staff.errors
