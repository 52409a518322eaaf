"""Migration 0010: Four Card Frenzy's Rules Submission keeps its choices in ``choices`` like
every other game: each one's columns become exactly the game's ``rules_to_dict`` of the same
rules, the columns go, and going back puts the choices into the columns again."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from table.games import game
from table.games.four_card_frenzy.rules import TableRules
from tests.services.migrating import around, migrate_to

MIGRATION = ("table", "0010_four_card_frenzy_choices")
#: A submission of every kind of choice away from its default.
CHOICES: dict[str, Any] = {
    "jurisdiction": "manufacturer",
    "bad_beat_paytable": "BB-6",
    "prime_paytable": "Prime-1",
    "four_card_bonus_paytable": "FC-5",
    "all_six_paytable": "C",
    "offers_all_six": False,
    "payout_limit": 75_000_00,
    "adjacent_boxes": 3,
    "ante_min": 10_00,
    "ante_max": 1_000_00,
    "prime_max": 50_00,
    "two_decks": False,
    "decision_seconds": 30,
    "betting_seconds": 25,
}


@pytest.mark.django_db(transaction=True)
def test_the_columns_become_the_games_choices_and_come_back() -> None:
    before, leaves = around(MIGRATION)
    frenzy = game("four_card_frenzy")
    hilo = game("five_card_hi_lo")
    hilo_choices = hilo.rules_to_dict(hilo.default_rules())
    try:
        old = migrate_to([before]).get_model("table", "RulesSubmission")
        old.objects.create(name="house", **CHOICES)
        old.objects.create(name="defaults")
        old.objects.create(name="hi-lo", game="five_card_hi_lo", choices=hilo_choices)
        new = migrate_to([MIGRATION]).get_model("table", "RulesSubmission")
        assert not {f.name for f in TableRules.__dataclass_fields__.values()} & {
            f.name for f in new._meta.get_fields()
        }, "the columns are gone"
        stored = dict(new.objects.values_list("name", "choices"))
        # Exactly what the game writes for the same rules, every field.
        assert stored["house"] == frenzy.rules_to_dict(TableRules(**CHOICES))
        assert stored["defaults"] == frenzy.rules_to_dict(TableRules())
        assert set(stored["house"]) == {f.name for f in fields(TableRules)}
        assert stored["hi-lo"] == hilo_choices  # another game's choices are left alone
        # Back: the choices are the columns again, and the choices empty as before.
        back = migrate_to([before]).get_model("table", "RulesSubmission")
        house = back.objects.get(name="house")
        assert {name: getattr(house, name) for name in CHOICES} == CHOICES
        assert house.choices == {} and house.offers_prime is True
        assert back.objects.get(name="hi-lo").choices == hilo_choices
    finally:
        migrate_to(leaves)
    from table.models import RulesSubmission

    house = RulesSubmission.objects.get(name="house")
    assert house.game == "four_card_frenzy"
    assert house.game_rules() == TableRules(**CHOICES)
    assert house.game_problems() == []


def test_the_rules_read_once_follow_every_change_of_the_choices() -> None:
    """``game_rules`` is read once per set of choices (the command path reads a submission
    with every command): a change of the choices, in place or not, reads them again, and a
    change to one instance's choices never reaches another read of the same stored text."""
    import json

    from table.models import RulesSubmission

    stored = json.dumps(game("four_card_frenzy").rules_to_dict(TableRules(ante_min=10_00)))
    first = RulesSubmission(name="a", game="four_card_frenzy")
    first.read_choices(stored)
    rules = first.game_rules()
    assert rules == TableRules(ante_min=10_00)
    second = RulesSubmission(name="b", game="four_card_frenzy")
    second.read_choices(stored)
    assert second.game_rules() is rules  # the same text: the rules read before
    first.choices["ante_min"] = 20_00  # in place
    assert first.game_rules().ante_min == 20_00
    first.choices = {**first.choices, "two_decks": False}
    assert first.game_rules() == TableRules(ante_min=20_00, two_decks=False)
    third = RulesSubmission(name="c", game="four_card_frenzy")
    third.read_choices(stored)
    assert third.game_rules() == rules and third.choices["ante_min"] == 10_00
