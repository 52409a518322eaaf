"""Migration 0009: a Rules Submission names its game, a round records its game; everything
that existed before is Four Card Frenzy, with the same choices."""

from __future__ import annotations

import pytest

from table.games import GAMES
from table.games.four_card_frenzy.rules import TableRules
from tests.services.migrating import around, migrate_to

MIGRATION = ("table", "0009_games")


@pytest.mark.django_db(transaction=True)
def test_existing_submissions_and_rounds_become_four_card_frenzy_with_the_same_choices() -> None:
    before, leaves = around(MIGRATION)
    try:
        old_apps = migrate_to([before])
        old = old_apps.get_model("table", "RulesSubmission")
        demo = old.objects.create(
            name="Demo rules", bad_beat_paytable="B", all_six_paytable="C", payout_limit=50_000_00
        )
        table = old_apps.get_model("table", "Table").objects.create(name="T", rules=demo)
        old_apps.get_model("table", "Round").objects.create(
            table=table, number=1, rules_submission=demo, rules={}, phase="void", state={}
        )
        before_choices = {
            f.name: getattr(demo, f.name)
            for f in old._meta.concrete_fields
            if f.name not in ("id", "created", "updated")
        }
        apps = migrate_to([MIGRATION])
        new = apps.get_model("table", "RulesSubmission").objects.get(name="Demo rules")
        assert new.game == "four_card_frenzy"
        assert new.choices == {}
        assert {name: getattr(new, name) for name in before_choices} == before_choices
        [game] = apps.get_model("table", "Round").objects.values_list("game", flat=True)
        assert game == "four_card_frenzy"
    finally:
        migrate_to(leaves)
    from table.models import RulesSubmission

    # Migration 0010 then moved the columns into the choices: the same rules.
    migrated = RulesSubmission.objects.get(name="Demo rules")
    assert migrated.game_rules() == TableRules(
        bad_beat_paytable="B", all_six_paytable="C", payout_limit=50_000_00
    )
    assert isinstance(migrated.game_rules(), TableRules)
    assert migrated.game_problems() == []


@pytest.mark.django_db
@pytest.mark.parametrize("name", [n for n in GAMES if n != "four_card_frenzy"])
def test_a_submission_of_another_game_keeps_its_choices_as_the_game_writes_them(name: str) -> None:
    from table.games import game
    from table.models import RulesSubmission

    played = game(name)
    choices = played.rules_to_dict(played.default_rules())
    rules = RulesSubmission.objects.create(name=name, game=name, choices=choices)
    assert played.rules_to_dict(rules.game_rules()) == choices
    assert rules.game_problems() == []
    broken = RulesSubmission.objects.create(name=f"{name} broken", game=name, choices={"x": 1})
    problems = broken.game_problems()
    assert problems and all(words for _field, words in problems)
