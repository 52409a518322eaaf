"""The paytable mathematics beside the Rules Submission in the admin (issue #7)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table.demo import make_user
from table.paytable_report import load_report
from tests.games.four_card_frenzy.examples import fcf_rules

pytestmark = pytest.mark.django_db


def REPORT_URL() -> str:  # noqa: N802
    """Four Card Frenzy's page comparing every paytable (``Game.staff_page``)."""
    return reverse(
        "admin:table_rulessubmission_game_page", args=["four_card_frenzy", "paytable-report"]
    )


@pytest.fixture
def staff_client() -> Client:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    return client


def test_the_change_form_shows_house_edges_and_flags_the_selected_tables(
    staff_client: Client,
) -> None:
    rules = fcf_rules(
        "flagged", four_card_bonus_paytable="A", all_six_paytable="E", bad_beat_paytable="D"
    )
    html = staff_client.get(
        reverse("admin:table_rulessubmission_change", args=[rules.pk])
    ).content.decode()
    report = load_report()["wagers"]
    fcb = report["four_card_bonus"]["paytables"]["A"]["house_edge"]
    main = report["bad_beat"]["paytables"]["D"]["house_edge"]
    assert f"{fcb * 100:.4f}%" in html and f"{main * 100:.4f}%" in html
    assert "Optimal strategy" in html and "Raise 3x with a pair of aces" in html
    # Four Card Bonus A keeps over 15%: the admin says so, with the reason.
    assert "above the usual 15.00% ceiling" in html
    quiet = fcf_rules("quiet", four_card_bonus_paytable="FC-9", all_six_paytable="C")
    html = staff_client.get(
        reverse("admin:table_rulessubmission_change", args=[quiet.pk])
    ).content.decode()
    assert "above the usual 15.00% ceiling" not in html


def test_the_report_page_compares_every_paytable(staff_client: Client) -> None:
    page = staff_client.get(REPORT_URL())
    assert page.status_code == 200
    html = page.content.decode()
    for name in ("FC-12", "BB-6", "Prime-2", "E", "H"):
        assert f"<strong>{name}</strong>" in html
    assert html.count("⚠") >= 10


def test_only_staff_reach_the_report(client: Client) -> Any:
    page = client.get(REPORT_URL())
    assert page.status_code == 302
