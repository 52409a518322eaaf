"""The Rules Submission add form of each game in the browser: the game's own choices, signs
and house edge beside it, and a saved warning shown once (issue 28, bug 1)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Site, login, screenshot

pytestmark = [pytest.mark.browser]

SECTIONS = {
    "four_card_frenzy": "§684a.12",
    "crazy_4_poker": "§657a.12",
    "five_card_hi_lo": "§663a.12",
}
WARNING = "above the usual 15.00% ceiling"


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_each_games_add_form_shows_its_own_parts(browser: Any, site: Site, size: Any) -> None:
    width, height = size
    staff = login(browser, site, "admin", viewport={"width": width, "height": height})
    page = staff.page
    page.goto(site.url("/admin/table/rulessubmission/add/?game=four_card_frenzy"))

    def beside() -> str:
        parts = page.locator(".field-game_signs, .field-game_mathematics").all_text_contents()
        return "\n".join(parts)

    for name, section in SECTIONS.items():
        if name != "four_card_frenzy":
            # Choosing the game reloads the page with its choices (admin_rules.js).
            page.select_option("#id_game", name)
            page.wait_for_url(f"**game={name}**")
        text = beside()
        assert section in text
        assert all(s not in text for g, s in SECTIONS.items() if g != name)
        # A form error (no name) keeps the game's parts.
        page.click("input[name=_save]")
        page.locator(".errornote").first.wait_for()
        text = beside()
        assert section in text
        assert all(s not in text for g, s in SECTIONS.items() if g != name)
        if name != "four_card_frenzy":
            assert WARNING not in page.content()
        if width == 1440 or name == "crazy_4_poker":
            screenshot(page, f"admin-add-{name}-{width}", full_page=True)
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
