"""The Rules Submission form shows the house edge of the choices being edited, before they
are saved, and flags a table the chosen jurisdiction does not list."""

from __future__ import annotations

from typing import Any

import pytest

from table.paytable_report import load_report
from tests.browser.fixtures import Site, login, screenshot

pytestmark = [pytest.mark.browser]


def _edge(page: Any, kind: str) -> str:
    return str(page.locator(f'#math-preview-rows tr[data-wager="{kind}"] td.edge').inner_text())


def _note(page: Any, kind: str) -> str:
    return str(page.locator(f'#math-preview-rows tr[data-wager="{kind}"] td').nth(4).inner_text())


def test_the_house_edge_of_unsaved_choices_updates_live(browser: Any, site: Site) -> None:
    report = load_report()["wagers"]
    staff = login(browser, site, "admin", viewport={"width": 1440, "height": 900})
    page = staff.page
    page.goto(site.url("/admin/table/rulessubmission/1/change/"))
    page.locator("#math-preview").wait_for(state="visible")
    saved = report["four_card_bonus"]["paytables"]["C"]["house_edge"]
    assert _edge(page, "four_card_bonus") == f"{saved * 100:.4f}%"
    # Choose another Four Card Bonus table without saving: the figure follows.
    page.select_option("#id_four_card_bonus_paytable", "H")
    edited = report["four_card_bonus"]["paytables"]["H"]["house_edge"]
    assert _edge(page, "four_card_bonus") == f"{edited * 100:.4f}%"
    page.select_option("#id_bad_beat_paytable", "D")
    bad_beat = report["bad_beat"]["paytables"]["D"]["house_edge"]
    assert _edge(page, "bad_beat").startswith(f"{bad_beat * 100:.4f}%")
    # A manufacturer table on a Pennsylvania submission is flagged before saving.
    page.select_option("#id_four_card_bonus_paytable", "FC-5")
    assert "not one of the tables of Pennsylvania" in _note(page, "four_card_bonus")
    page.uncheck("#id_offers_prime")
    assert _edge(page, "prime") == "not offered"
    page.locator("#math-preview").scroll_into_view_if_needed()
    screenshot(page, "admin-math-preview")
    assert staff.errors == []
