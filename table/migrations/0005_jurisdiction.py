"""A Rules Submission names its jurisdiction: Pennsylvania (58 Pa. Code ch. 684a) or the
manufacturer's rules of play, each allowing exactly its own paytables.

Existing Submissions: one whose tables in use (the bad beat's and those of the optional wagers
it offers) are all Pennsylvania's becomes Pennsylvania; one using any manufacturer table
becomes the manufacturer's rules. Nothing else is changed, so a Submission that mixed the two
families now shows the admin why it cannot be used, instead of being quietly rewritten.
"""

from django.db import migrations, models

#: The manufacturer's table names (Four Card Frenzy Rules of Play, Appendices B-D), written
#: out here so this migration means the same whatever the engine's data becomes later.
MANUFACTURER_TABLES = {
    "bad_beat_paytable": {f"BB-{n}" for n in range(1, 7)},
    "prime_paytable": {"Prime-1", "Prime-2"},
    "four_card_bonus_paytable": {f"FC-{n}" for n in range(1, 13)},
    "all_six_paytable": set(),
}
OFFERED_BY = {
    "bad_beat_paytable": None,  # always in use
    "prime_paytable": "offers_prime",
    "four_card_bonus_paytable": "offers_four_card_bonus",
    "all_six_paytable": "offers_all_six",
}


def uses_manufacturer_tables(rules) -> bool:
    for field, names in MANUFACTURER_TABLES.items():
        offered = OFFERED_BY[field]
        if offered is not None and not getattr(rules, offered):
            continue
        if getattr(rules, field) in names:
            return True
    return False


def name_jurisdictions(apps, schema_editor):
    RulesSubmission = apps.get_model("table", "RulesSubmission")
    for rules in RulesSubmission.objects.all():
        jurisdiction = "manufacturer" if uses_manufacturer_tables(rules) else "pennsylvania"
        if rules.jurisdiction != jurisdiction:
            RulesSubmission.objects.filter(pk=rules.pk).update(jurisdiction=jurisdiction)


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulessubmission",
            name="jurisdiction",
            field=models.CharField(
                choices=[
                    ("pennsylvania", "Pennsylvania (58 Pa. Code ch. 684a)"),
                    ("manufacturer", "Manufacturer's rules (Four Card Frenzy Rules of Play)"),
                ],
                default="pennsylvania",
                help_text=(
                    "Whose paytables the Submission selects from. Pennsylvania: only the tables "
                    "§684a.12(c)-(f) list (bad beat A-D, Prime A-B, Four Card Bonus A-H, All-Six "
                    "A-E). Manufacturer's rules: only BB-1 to BB-6, Prime-1 and Prime-2, FC-1 to "
                    "FC-12, and no All-Six Bonus."
                ),
                max_length=16,
                verbose_name="jurisdiction",
            ),
        ),
        migrations.RunPython(name_jurisdictions, migrations.RunPython.noop),
        # The admin said "Entrys".
        migrations.AlterModelOptions(
            name="entry",
            options={"ordering": ["id"], "verbose_name_plural": "entries"},
        ),
    ]
