"""The dealer console's side of the table: the decks the Rules Submission asks for, the stub
count against the counting shuffler, a paytable change announced before it applies, and who
is dealing (bugs14)."""

from __future__ import annotations

from typing import Any

import pytest

from table import services
from table.models import RoundEvent, Table
from table.snapshot import snapshot

from .conftest import Game, current_row

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def backs(table: Table) -> list[str]:
    table.refresh_from_db()
    return [d["back"] for d in table.shoe["decks"]]


def test_a_new_submissions_two_decks_take_effect_at_the_next_round(
    game: Game, alice: Any, table: Table
) -> None:
    """§684a.3(b): changing ``two_decks`` in the submission in force changes the decks at the
    next shuffle, not only when someone next changes decks."""
    table.rules.choices = {**table.rules.choices, "two_decks": False}
    table.rules.save()
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 5_00})])
    assert backs(table) == ["red"]
    two = type(table.rules).objects.get(pk=table.rules.pk)
    two.pk, two.name, two.choices = None, "Two decks", {**two.choices, "two_decks": True}
    two.save()
    services.change_rules(table.pk, two)
    game.play([(alice, 1, {"ante": 5_00})])
    assert backs(table) == ["red", "blue"]
    changed = RoundEvent.objects.filter(table=table, kind="decks_changed").last()
    assert changed is not None and "two decks" in changed.data["reason"]
    game.play([(alice, 1, {"ante": 5_00})])
    assert current_row(table).deck_back == "blue"  # they alternate


def test_after_a_miscount_two_deck_play_waits_for_new_decks(
    game: Game, alice: Any, table: Table
) -> None:
    """§684a.5(b): the deck that counted wrong leaves; the table does not go on dealing one
    deck every round while the submission says two."""
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 5_00})])
    services.arm_fault(table.pk, "miscount", game.dealer)
    assert services.open_betting(table.pk, game.dealer).response["opened"] is False
    with pytest.raises(services.ServiceError) as short:
        services.open_betting(table.pk, game.dealer)
    assert short.value.code == "deck_short"
    services.change_decks(table.pk, game.dealer)
    game.play([(alice, 1, {"ante": 5_00})])
    assert len(backs(table)) == 2


def test_the_stub_is_not_counted_before_a_deal(game: Game, alice: Any, table: Table) -> None:
    """A count during betting has no stub to count: refused, the counter kept."""
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 5_00})])
    game.open()
    table.refresh_from_db()
    before = table.rounds_since_stub_count
    assert before == 1
    with pytest.raises(services.ServiceError) as refused:
        services.count_stub(table.pk, game.dealer)
    assert refused.value.code == "no_stub"
    table.refresh_from_db()
    assert table.rounds_since_stub_count == before


def test_the_console_says_why_the_counting_shuffler_makes_the_stub_count_moot(
    game: Game, alice: Any, table: Table, dealer: Any
) -> None:
    """§684a.10(d) asks for a stub count every 5 rounds only without a shuffler that counts
    52 after every shuffle (§684a.5(b)); the console shows that count instead of a counter
    that grows with no prompt."""
    game.sit(alice, 1)
    for _ in range(6):
        game.play([(alice, 1, {"ante": 5_00})])
    shoe = snapshot(table.pk, dealer)["shoe"]
    assert shoe["shuffler_count"] == {"count": 52, "deck": current_row(table).deck_back}
    assert shoe["stub_count_required"] is False
    assert "§684a.5(b)" in shoe["stub_count_note"] and "§684a.10(d)" in shoe["stub_count_note"]


def admin_form(rules: Any, **changes: str) -> dict[str, str]:
    """The Rules Submission's change form as the admin posts it, with ``changes``."""
    from tests.examples import RULES_SUBMISSION_FORM

    form = dict(RULES_SUBMISSION_FORM, name=rules.name, four_card_bonus_paytable="C")
    form.update(
        bad_beat_paytable=rules.choices["bad_beat_paytable"],
        prime_paytable=rules.choices["prime_paytable"],
        all_six_paytable=rules.choices["all_six_paytable"],
        payout_limit="",
        ante_min="5",
        ante_max="500",
    )
    form.update(changes)
    return form


def test_saving_the_submission_in_force_tells_players_before_the_next_round(
    game: Game, alice: Any, table: Table, staff: Any
) -> None:
    """A paytable change to the Rules Submission in force during a round: an event now
    ("from the next round: ..."), the round in play keeps its paytable and its posted signs,
    the next round plays and posts the new one."""
    from django.test import Client
    from django.urls import reverse

    from table.models import RulesSubmission

    boss = Client()
    boss.force_login(staff)
    change = reverse("admin:table_rulessubmission_change", args=[table.rules_id])
    saved = boss.post(change, admin_form(table.rules))  # the same values: settle the form
    assert saved.status_code == 302, saved.content.decode()[:2000]
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 5_00, "four_card_bonus": 5_00})])
    game.open()
    game.bet(alice, 1, ante=5_00, four_card_bonus=5_00)
    game.deal()
    before = RoundEvent.objects.filter(table=table).count()
    page = boss.post(change, admin_form(table.rules, four_card_bonus_paytable="F"), follow=True)
    assert "from round 3: Four Card Bonus pays by paytable F (was C)" in page.content.decode()
    assert RulesSubmission.objects.get(pk=table.rules_id).choices["four_card_bonus_paytable"] == "F"
    told = RoundEvent.objects.filter(table=table)[before:]
    notice = next(e for e in told if e.kind == "rules_pending")
    assert notice.data["changes"] == ["Four Card Bonus pays by paytable F (was C)"]
    assert notice.data["from_round"] == 3
    # The round in play keeps its rules and its signs; the notice is in every snapshot.
    snap = snapshot(table.pk, None)
    bonus = next(s for s in snap["table"]["paytables"] if s["wager"] == "Four Card Bonus")
    assert bonus["name"] == "C"
    assert snap["table"]["rules_notice"]["changes"] == notice.data["changes"]
    game.decide_all()
    game.finish()
    assert current_row(table).state["rules"]["four_card_bonus_paytable"] == "C"
    # The next round: the new paytable, posted, and said so while bets are taken.
    game.open()
    assert current_row(table).state["rules"]["four_card_bonus_paytable"] == "F"
    snap = snapshot(table.pk, None)
    bonus = next(s for s in snap["table"]["paytables"] if s["wager"] == "Four Card Bonus")
    assert bonus["name"] == "F"
    assert snap["table"]["rules_notice"] == {
        "rules": table.rules.name,
        "changes": ["Four Card Bonus pays by paytable F (was C)"],
        "from_round": 3,
    }
