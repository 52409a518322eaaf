"""Four Card Frenzy's Rules Submissions in the admin as a compliance officer reads them: they
refuse the tables their jurisdiction does not list and say why, and the mathematics of unsaved
choices (the game's staff page). Rounds and the ledger in names, cards and dollars, at any
game: tests/services/test_admin_staff_pages.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table import services
from table.demo import ensure_demo
from table.models import RulesSubmission, Table
from table.paytable_report import load_report
from tests.examples import RULES_SUBMISSION_FORM
from tests.games.four_card_frenzy.examples import fcf_rules

from .conftest import Game

pytestmark = pytest.mark.django_db

VALID = RULES_SUBMISSION_FORM
MANUFACTURER_FORM = {
    **VALID,
    "name": "Manufacturer's rules",
    "jurisdiction": "manufacturer",
    "bad_beat_paytable": "BB-6",
    "prime_paytable": "Prime-1",
    "four_card_bonus_paytable": "FC-5",
    "offers_all_six": "",
    "all_six_paytable": "A",
}


@pytest.fixture
def boss(staff: Any) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def add_url() -> str:
    return reverse("admin:table_rulessubmission_add")


# --- jurisdiction ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "name", "section"),
    [
        ("four_card_bonus_paytable", "FC-5", "§684a.12(e)"),
        ("bad_beat_paytable", "BB-4", "§684a.12(c)"),
        ("bad_beat_paytable", "BB-6", "§684a.12(c)"),
    ],
)
def test_a_pennsylvania_submission_refuses_manufacturer_tables_and_says_why(
    boss: Client, field: str, name: str, section: str
) -> None:
    page = boss.post(add_url(), {**VALID, field: name})
    assert page.status_code == 200
    text = page.content.decode()
    assert f"paytable {name} is the manufacturer" in text and section in text
    assert "a Pennsylvania Rules Submission chooses from" in text
    assert not RulesSubmission.objects.filter(name=VALID["name"]).exists()


def test_a_manufacturer_submission_takes_only_the_manufacturers_tables(boss: Client) -> None:
    mixed = boss.post(add_url(), {**MANUFACTURER_FORM, "four_card_bonus_paytable": "C"})
    assert mixed.status_code == 200
    assert "Four Card Bonus paytable C is Pennsylvania" in mixed.content.decode()
    all_six = boss.post(add_url(), {**MANUFACTURER_FORM, "offers_all_six": "on"})
    assert "have no All-Six Bonus Wager" in all_six.content.decode()
    assert not RulesSubmission.objects.filter(name=MANUFACTURER_FORM["name"]).exists()
    ok = boss.post(add_url(), MANUFACTURER_FORM)
    assert ok.status_code == 302
    saved = RulesSubmission.objects.get(name=MANUFACTURER_FORM["name"]).choices
    assert saved["jurisdiction"] == "manufacturer" and saved["four_card_bonus_paytable"] == "FC-5"
    listing = boss.get(reverse("admin:table_rulessubmission_changelist")).content.decode()
    assert "Manufacturer&#x27;s rules" in listing or "Manufacturer's rules" in listing


def test_services_refuse_the_same_way(table: Table, staff: Any, game: Game, alice: Any) -> None:
    pennsylvania_with_fc5 = fcf_rules("PA with FC-5", four_card_bonus_paytable="FC-5")
    with pytest.raises(services.ServiceError) as refused:
        services.change_rules(table.pk, pennsylvania_with_fc5, staff)
    assert refused.value.code == "bad_rules"
    assert "FC-5" in refused.value.message and "§684a.12(e)" in refused.value.message
    table.refresh_from_db()
    assert table.rules_id != pennsylvania_with_fc5.pk
    # A Submission already in force that breaks its jurisdiction (say, data from before the
    # check) deals no round.
    RulesSubmission.objects.filter(pk=table.rules_id).update(
        choices={**table.rules.choices, "bad_beat_paytable": "BB-4"}
    )
    with pytest.raises(services.ServiceError) as closed:
        game.open()
    assert closed.value.code == "bad_rules" and "BB-4" in closed.value.message
    assert table.current_round_id is None


def test_the_demo_submission_is_pennsylvania() -> None:
    demo = ensure_demo()
    rules = demo.table.rules
    assert rules.game == "four_card_frenzy" and rules.choices["jurisdiction"] == "pennsylvania"
    assert rules.game_rules().problems() == []


# --- mathematics of the choices being edited --------------------------------------------------


def test_the_change_form_serves_every_options_exact_figures(boss: Client) -> None:
    page = boss.get(add_url()).content.decode()
    figures_url = reverse(
        "admin:table_rulessubmission_game_page", args=["four_card_frenzy", "paytable-figures"]
    )
    assert 'id="math-preview"' in page and f'data-figures="{figures_url}"' in page
    assert "table/admin_rules.js" in page
    assert "<script>" not in page.replace(" ", "")  # no inline script (CSP)
    figures = boss.get(figures_url).json()
    report = load_report()["wagers"]
    by_kind = {w["kind"]: w for w in figures["wagers"]}
    for kind, section in report.items():
        for name, entry in section["paytables"].items():
            assert by_kind[kind]["tables"][name]["house_edge"] == entry["house_edge"]
    assert by_kind["four_card_bonus"]["tables"]["A"]["flag"]  # the 15% ceiling
    pennsylvania = figures["jurisdictions"]["pennsylvania"]["tables"]
    assert pennsylvania["four_card_bonus_paytable"] == list("ABCDEFGH")
    assert figures["jurisdictions"]["manufacturer"]["tables"]["all_six_paytable"] == []


def test_only_staff_get_the_figures(client: Client) -> None:
    answer = client.get(
        reverse(
            "admin:table_rulessubmission_game_page", args=["four_card_frenzy", "paytable-figures"]
        )
    )
    assert answer.status_code == 302
