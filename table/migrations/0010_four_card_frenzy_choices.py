"""Four Card Frenzy's Rules Submission keeps its choices in ``choices`` like every other game
(issue #15): each Four Card Frenzy submission's columns become its ``choices``, exactly the
game's ``rules_to_dict`` of the same rules, and the columns go. Reversible: the choices go
back into the columns (a choice missing takes the column's default).

The fields and their defaults are written out here, so that this migration means the same
whatever the game's rules become later.
"""

from django.db import migrations

FOUR_CARD_FRENZY = "four_card_frenzy"
#: ``TableRules``' fields in its order (its ``to_dict``), each with the column's default.
COLUMNS = {
    "bad_beat_paytable": "A",
    "prime_paytable": "A",
    "four_card_bonus_paytable": "A",
    "all_six_paytable": "A",
    "payout_limit": None,
    "offers_prime": True,
    "offers_four_card_bonus": True,
    "offers_all_six": True,
    "adjacent_boxes": 2,
    "ante_min": 5_00,
    "ante_max": 500_00,
    "prime_min": 1_00,
    "prime_max": 100_00,
    "four_card_bonus_min": 1_00,
    "four_card_bonus_max": 100_00,
    "all_six_min": 1_00,
    "all_six_max": 100_00,
    "two_decks": True,
    "decision_seconds": 20,
    "betting_seconds": 15,
    "jurisdiction": "pennsylvania",
}


def columns_to_choices(apps, schema_editor):
    RulesSubmission = apps.get_model("table", "RulesSubmission")
    for rules in RulesSubmission.objects.filter(game=FOUR_CARD_FRENZY):
        choices = {name: getattr(rules, name) for name in COLUMNS}
        # Through update(): the submission's "updated" stays when it was last edited.
        RulesSubmission.objects.filter(pk=rules.pk).update(choices=choices)


def choices_to_columns(apps, schema_editor):
    RulesSubmission = apps.get_model("table", "RulesSubmission")
    for rules in RulesSubmission.objects.filter(game=FOUR_CARD_FRENZY):
        stored = rules.choices or {}
        columns = {name: stored.get(name, default) for name, default in COLUMNS.items()}
        RulesSubmission.objects.filter(pk=rules.pk).update(choices={}, **columns)


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0009_games"),
    ]

    operations = [
        migrations.RunPython(columns_to_choices, choices_to_columns),
        *(
            migrations.RemoveField(model_name="rulessubmission", name=name)
            for name in COLUMNS
        ),
    ]
