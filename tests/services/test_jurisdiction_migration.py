"""Migration 0005: existing Rules Submissions get the jurisdiction of the tables they use."""

from __future__ import annotations

import pytest

from table.models import RulesSubmission

from .migrating import around, migrate_to

MIGRATION = ("table", "0005_jurisdiction")


@pytest.mark.django_db(transaction=True)
def test_existing_submissions_get_the_jurisdiction_of_their_tables() -> None:
    before, leaves = around(MIGRATION)
    try:
        old = migrate_to([before]).get_model("table", "RulesSubmission")
        old.objects.create(name="all Pennsylvania", bad_beat_paytable="D", all_six_paytable="E")
        old.objects.create(name="manufacturer bonus", four_card_bonus_paytable="FC-5")
        old.objects.create(name="manufacturer bad beat", bad_beat_paytable="BB-6")
        old.objects.create(
            name="FC table not offered",
            four_card_bonus_paytable="FC-7",
            offers_four_card_bonus=False,
        )
        new = migrate_to([MIGRATION]).get_model("table", "RulesSubmission")
        found = dict(new.objects.values_list("name", "jurisdiction"))
        assert found == {
            "all Pennsylvania": "pennsylvania",
            "manufacturer bonus": "manufacturer",
            "manufacturer bad beat": "manufacturer",
            "FC table not offered": "pennsylvania",
        }
    finally:
        migrate_to(leaves)
    # The submission that mixed the two families is not rewritten: it says why it cannot be
    # used (Pennsylvania's bad beat A and Prime A, and an All-Six Bonus the manufacturer's
    # rules do not have).
    problems = dict(RulesSubmission.objects.get(name="manufacturer bonus").game_rules().problems())
    assert sorted(problems) == ["all_six_paytable", "bad_beat_paytable", "prime_paytable"]
