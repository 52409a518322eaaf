"""Crazy 4 Poker's read side through the platform: the console's drills (§657a.13(d)), a folded
box hidden in recall (§657a.11(b)), the lobby, and its admin form's progressive and hand bonus
choices in words and dollars (the read side of every game:
tests/services/test_games_read_side.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table.games import game
from table.games.base import Actor
from table.games.driver import TableDriver, play_round
from table.models import RulesSubmission
from table.recall import round_record
from table.snapshot import snapshot
from tests.conftest import SeededSource
from tests.services.conftest import make_player
from tests.services.read_side import (
    admin_url,
    assign_dealer,
    boss_client,
    dealt_round,
    form_data,
    game_table,
    store,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people() -> dict[str, Any]:
    return {name: make_player(name) for name in ("ann", "bob", "cy")}


@pytest.fixture
def boss() -> Client:
    return boss_client()


CRAZY_4_POKER = "crazy_4_poker"


def test_the_console_offers_only_the_drills_its_deal_knows(people: dict[str, Any]) -> None:
    """§657a.13(d) has a dealer card exposed while dealing: the console may arm that drill."""
    table, _ = dealt_round(CRAZY_4_POKER, ("ann",))
    drills = snapshot(table.pk, assign_dealer(table))["shoe"]["drills"]
    assert {"jam", "face_up_card", "two_face_up_cards", "misdeal", "miscount"} <= set(drills)
    assert ("dealer_card_exposed" in drills) is True


def test_a_folded_box_stays_hidden_from_another_player_in_recall(people: dict[str, Any]) -> None:
    """Crazy 4 Poker: a box folded before the reveal is not shown to another player
    (§657a.11(b)); the full record shows it."""
    g = game(CRAZY_4_POKER)
    for seed in range(40):
        table = game_table(CRAZY_4_POKER, f"c4p {seed}")
        rng = SeededSource(seed)
        driver = TableDriver(g, g.default_rules(), rng)
        play_round(driver, ["ann", "bob"], rng, time_outs=False)
        view = g.view(driver.state(), Actor.spectator())
        hidden = [b for b in view["boxes"] if b["cards"] is None]
        if hidden:
            break
    else:
        pytest.skip("no round with a hidden box in 40 seeds")
    row = store(table, driver)
    box = hidden[0]
    other = "bob" if box["player"] == "ann" else "ann"
    shown = {b["box"]: b for b in round_record(row, viewer=other, full=False)["boxes"]}
    assert shown[box["box"]]["cards"] is None
    full = {b["box"]: b for b in round_record(row, viewer=None, full=True)["boxes"]}
    assert full[box["box"]]["cards"]


def test_the_lobby_shows_its_wagers(people: dict[str, Any]) -> None:
    game_table(CRAZY_4_POKER, "one")
    client = Client()
    client.force_login(people["ann"])
    text = client.get(reverse("lobby")).content.decode()
    assert "58 Pa. Code ch. 657a" in text and "Ante &amp; Super Bonus" in text


def test_adjacent_boxes_are_a_number(boss: Client) -> None:
    """Issue 28: the boxes a player may play are one number control at every game."""
    form = boss.get(admin_url("add") + f"?game={CRAZY_4_POKER}").context["adminform"].form
    assert form.fields["max_boxes_per_player"].widget.input_type == "number"


def test_a_bad_crazy_4_poker_choice_is_refused_in_words(boss: Client) -> None:
    answer = boss.post(
        admin_url("add"),
        form_data(CRAZY_4_POKER, "bad", progressive_table="five_card Z", hand_bonus_wager="3.00"),
    )
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert "five_card Z" in " ".join(errors["progressive_table"])
    assert "$1 or $5" in " ".join(errors["hand_bonus_wager"])
    assert not RulesSubmission.objects.filter(name="bad").exists()


def test_crazy_4_poker_progressive_and_hand_bonus_in_words_and_dollars(boss: Client) -> None:
    """Issue 28: chosen with a select and a dollars field each, not typed as JSON in cents,
    and stored exactly as before."""
    page = boss.get(admin_url("add") + f"?game={CRAZY_4_POKER}").content.decode()
    assert '<select name="progressive_table"' in page
    assert "Four-card progressive, paytable B" in page
    assert 'name="progressive_wager"' in page and 'name="hand_bonus_wager"' in page
    assert '"wager"' not in page.replace("&quot;", '"'), "no JSON to type"
    answer = boss.post(
        admin_url("add"),
        form_data(
            CRAZY_4_POKER,
            "four-card B",
            progressive_table="four_card B",
            progressive_wager="5.00",
            hand_bonus_wager="",
        ),
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    saved = RulesSubmission.objects.get(name="four-card B")
    assert saved.choices["progressive"] == {"type": "four_card", "paytable": "B", "wager": 500}
    assert saved.choices["hand_bonus"] is None
    assert saved.choices == game(CRAZY_4_POKER).rules_to_dict(saved.game_rules())
    # Read back into the same words and dollars on its change page.
    form = boss.get(admin_url("change", saved.pk)).context["adminform"].form
    assert form["progressive_table"].value() == "four_card B"
    assert form["progressive_wager"].value() == "5.00" and form["hand_bonus_wager"].value() == ""

    # Not offered: the wager beside it is not read.
    answer = boss.post(
        admin_url("add"),
        form_data(CRAZY_4_POKER, "none", progressive_table="", hand_bonus_wager="5.00"),
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    none = RulesSubmission.objects.get(name="none")
    assert none.choices["progressive"] is None and none.choices["hand_bonus"] == {"wager": 500}


@pytest.mark.parametrize(
    ("changes", "field", "said"),
    [
        ({"progressive_wager": "2.00"}, "progressive_wager", "must be $1 or $5"),
        ({"progressive_wager": ""}, "progressive_wager", "Fill this in too"),
        ({"hand_bonus_wager": "0.50"}, "hand_bonus_wager", "not $0.50 (50 cents) (§657a.12(f))"),
    ],
)
def test_a_bad_crazy_4_poker_wager_is_refused_in_words_changing_nothing(
    boss: Client, changes: dict[str, str], field: str, said: str
) -> None:
    before = list(RulesSubmission.objects.values_list("pk", "choices"))
    answer = boss.post(admin_url("add"), form_data(CRAZY_4_POKER, "bad wager", **changes))
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    words = " ".join(errors[field])
    assert said in words, words
    assert set(errors) == {field}, errors
    assert list(RulesSubmission.objects.values_list("pk", "choices")) == before
