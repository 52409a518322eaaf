"""Four Card Frenzy's Rules Submission add form in the browser: a warning its report raises (a
table above the usual house-edge ceiling) is shown once once saved, and never on another
game's add form (issue 28, bug 1)."""

from __future__ import annotations

from typing import Any

import pytest

from table.games import ENTRIES
from tests.browser.fixtures import Site, login, screenshot

pytestmark = [pytest.mark.browser]

WARNING = "above the usual 15.00% ceiling"


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_no_other_games_add_form_shows_our_warning(browser: Any, site: Site, size: Any) -> None:
    width, height = size
    staff = login(browser, site, "admin", viewport={"width": width, "height": height})
    page = staff.page
    page.goto(site.url("/admin/table/rulessubmission/add/?game=four_card_frenzy"))
    for name in ENTRIES:
        if name == "four_card_frenzy":
            continue
        page.select_option("#id_game", name)
        page.wait_for_url(f"**game={name}**")
        assert WARNING not in page.content(), name
        # A form error (no name) keeps the game's parts, and still none of ours.
        page.click("input[name=_save]")
        page.locator(".errornote").first.wait_for()
        assert WARNING not in page.content(), name
    assert staff.errors == [], staff.errors


def test_a_saved_warning_is_shown_once(browser: Any, site: Site) -> None:
    staff = login(browser, site, "admin", viewport={"width": 1440, "height": 900})
    page = staff.page
    page.goto(site.url("/admin/table/rulessubmission/add/?game=four_card_frenzy"))
    page.fill("#id_name", "Four Card Bonus A, browser test")
    page.check("#id_offers_four_card_bonus")
    page.select_option("#id_four_card_bonus_paytable", "A")
    page.click("input[name=_continue]")
    page.wait_for_url("**/change/**")
    page.locator("#math-preview").wait_for(state="visible")
    shown = page.get_by_text(WARNING).filter(visible=True)
    assert shown.count() == 1, shown.all_text_contents()
    # A table under the ceiling on the form: the preview no longer warns, the saved values do.
    page.select_option("#id_four_card_bonus_paytable", "FC-9")
    assert page.get_by_text(WARNING).filter(visible=True).count() == 1
    page.locator(".saved-warning").scroll_into_view_if_needed()
    screenshot(page, "admin-fcf-warning-once-1440")
    assert staff.errors == [], staff.errors
