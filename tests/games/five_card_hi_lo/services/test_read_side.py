"""Five Card Hi-Lo's read side through the platform: the console's drills (ch. 663a has no
dealer card exposed), a rules change in its words, its console page, and its admin form (the
read side of every game: tests/services/test_games_read_side.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table.games import game
from table.models import RulesSubmission
from table.snapshot import snapshot
from tests.services.conftest import make_player
from tests.services.read_side import (
    admin_url,
    assign_dealer,
    boss_client,
    dealt_round,
    form_data,
    game_table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people() -> dict[str, Any]:
    return {name: make_player(name) for name in ("ann", "bob", "cy")}


@pytest.fixture
def boss() -> Client:
    return boss_client()


FIVE_CARD_HI_LO = "five_card_hi_lo"


def test_the_console_offers_only_the_drills_its_deal_knows(people: dict[str, Any]) -> None:
    """Ch. 663a has no dealer card exposed: a Hi-Lo console has no such drill to arm (and the
    shoe refuses it)."""
    table, _ = dealt_round(FIVE_CARD_HI_LO, ("ann",))
    drills = snapshot(table.pk, assign_dealer(table))["shoe"]["drills"]
    assert {"jam", "face_up_card", "two_face_up_cards", "misdeal", "miscount"} <= set(drills)
    assert ("dealer_card_exposed" in drills) is False


def test_a_rules_change_is_noticed_in_the_games_words(people: dict[str, Any]) -> None:
    table, _driver = dealt_round(FIVE_CARD_HI_LO, ("ann",))
    g = game(FIVE_CARD_HI_LO)
    rules = g.rules_to_dict(g.default_rules())
    table.pending_rules = RulesSubmission.objects.create(
        name="no tie", game=FIVE_CARD_HI_LO, choices={**rules, "offers_tie": False}
    )
    table.save()
    notice = snapshot(table.pk, None)["table"]["rules_notice"]
    assert notice["rules"] == "no tie" and notice["from_round"] == 2
    assert any("Tie" in change for change in notice["changes"])


def test_the_console_page_names_its_game(people: dict[str, Any]) -> None:
    hilo = game_table(FIVE_CARD_HI_LO)
    client = Client()
    client.force_login(assign_dealer(hilo))
    page = client.get(reverse("dealer_console", args=[hilo.pk])).content.decode()
    assert f'data-game="{FIVE_CARD_HI_LO}"' in page and 'data-felt-module=""' in page


def test_adjacent_boxes_are_a_number(boss: Client) -> None:
    """Issue 28: the boxes a player may play are one number control at every game."""
    form = boss.get(admin_url("add") + f"?game={FIVE_CARD_HI_LO}").context["adminform"].form
    assert form.fields["adjacent_boxes"].widget.input_type == "number"


def test_a_bad_hi_lo_choice_is_refused_in_words(boss: Client) -> None:
    answer = boss.post(
        admin_url("add"),
        form_data(FIVE_CARD_HI_LO, "bad", ante_min="600.00"),
    )
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert errors, "a minimum above the maximum must be refused"
    assert not RulesSubmission.objects.filter(name="bad").exists()
    text = " ".join(str(e) for e in errors.values())
    assert "ante" in text.lower()


def test_one_box_or_two_is_a_number_stored_as_its_flag(boss: Client) -> None:
    """Issue 28: a number (Hi-Lo's one box or two was a checkbox), still stored as its flag;
    a number it does not allow is refused, changing nothing."""
    answer = boss.post(admin_url("add"), form_data(FIVE_CARD_HI_LO, "one box", adjacent_boxes="1"))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    saved = RulesSubmission.objects.get(name="one box")
    assert saved.choices["adjacent_boxes"] is False and saved.game_rules().boxes_per_player() == 1
    form = boss.get(admin_url("change", saved.pk)).context["adminform"].form
    assert form["adjacent_boxes"].value() == 1
    g = game(FIVE_CARD_HI_LO)  # what players are told, in the same number
    changes = g.rule_changes(g.default_rules(), saved.game_rules())
    assert "Adjacent boxes per player (§663a.7(f)): 1 (was 2)" in changes
    answer = boss.post(admin_url("add"), form_data(FIVE_CARD_HI_LO, "three", adjacent_boxes="3"))
    assert answer.status_code == 200
    assert "2" in " ".join(answer.context["adminform"].form.errors["adjacent_boxes"])
    assert not RulesSubmission.objects.filter(name="three").exists()


def test_a_hi_lo_submission_is_changed(boss: Client) -> None:
    table = game_table(FIVE_CARD_HI_LO)
    saved = table.rules
    answer = boss.post(
        admin_url("change", saved.pk),
        {
            k: v
            for k, v in form_data(FIVE_CARD_HI_LO, saved.name, poker_bonus_paytable="B").items()
            if k != "game"
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    saved.refresh_from_db()
    assert saved.choices["poker_bonus_paytable"] == "B" and saved.game == FIVE_CARD_HI_LO
