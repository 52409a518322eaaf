"""Self-exclusion (ch. 815a) and cool-off (§814a.2(6)): no seat, no wager, no credit; a
player excluded while seated gets undealt wagers back and a dealt round settles; lifting
only after the term, by staff, in the audit log."""

from __future__ import annotations

from typing import Any

import pytest

from table import ledger, services
from table.models import AuditEntry, Seat, SelfExclusion, Table
from table.protection import exclusion, limits

from .conftest import Clock, Game
from .test_limits import refused

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def test_an_excluded_player_cannot_sit_wager_or_be_credited(
    clock: Clock, game: Game, alice: Any, table: Table
) -> None:
    exclusion.exclude(alice, SelfExclusion.ONE_YEAR, by=alice)
    refused("excluded", "cannot take a seat", lambda: game.sit(alice, 1))
    with pytest.raises(ledger.CreditRefused):
        ledger.credit(alice, 10_00)
    entry = AuditEntry.objects.get(action="exclusion")
    assert entry.actor_name == "alice" and entry.details["term"] == "1y"


def test_excluded_while_seated_undealt_wagers_come_back(
    clock: Clock, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    start = ledger.player_account(alice).balance
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.open()
    game.bet(alice, 1, ante=20_00)
    game.bet(bob, 2, ante=20_00)
    exclusion.exclude(alice, SelfExclusion.FIVE_YEARS, by=alice)
    assert ledger.player_account(alice).balance == start
    assert not Seat.objects.filter(player=alice).exists()
    # A wager at a box of theirs still seated elsewhere, or later, is refused.
    refused("excluded", "cannot take a seat", lambda: game.sit(alice, 3))


def test_excluded_in_a_dealt_round_the_round_settles_and_no_new_wager_is_taken(
    clock: Clock, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    game.sit(alice, 1)  # box 1 decides first
    game.sit(bob, 2)
    game.open()
    game.bet(alice, 1, ante=20_00)
    game.bet(bob, 2, ante=20_00)
    game.deal()
    # The exclusion recorded (the guard first, as the command path reads it): a raise is a
    # new wager, refused...
    guard = limits.guard_of(alice)
    guard.excluded = True
    guard.save()
    refused("excluded", "no wager can be taken", lambda: services.decide(table.pk, alice, 1, 1))
    # ...and the player let go: the box folds at its turn (§684a.7(b)), the round settles.
    exclusion.exclude(alice, SelfExclusion.LIFE, by=alice)
    with pytest.raises(services.ServiceError):
        services.decide(table.pk, alice, 1, 1)
    game.decide_all()
    result = game.finish()
    assert result  # the round settled
    # The box is let go as a dropped player's (table/presence.py); until then no wager.
    assert not Seat.objects.get(player=alice).connected
    game.open()
    refused("excluded", "no wager can be taken", lambda: game.bet(alice, 1, ante=10_00))


def test_staff_record_an_exclusion_from_the_state_list(
    clock: Clock, alice: Any, bob: Any, staff: Any
) -> None:
    with pytest.raises(limits.LimitError):
        exclusion.exclude(alice, SelfExclusion.ONE_YEAR, by=bob, source=SelfExclusion.STATE_LIST)
    row = exclusion.exclude(
        alice, SelfExclusion.ONE_YEAR, by=staff, source=SelfExclusion.STATE_LIST, note="list 11/18"
    )
    assert row.recorded_by_name == "boss" and exclusion.active(alice) == row


def test_lifting_only_after_the_term_by_staff_and_audited(
    clock: Clock, game: Game, alice: Any, staff: Any, bob: Any
) -> None:
    row = exclusion.exclude(alice, SelfExclusion.ONE_YEAR, by=alice)
    with pytest.raises(limits.LimitError) as info:
        exclusion.lift(row, staff)
    assert info.value.code == "term_running"
    clock.move(days=366)
    with pytest.raises(limits.LimitError) as info:
        exclusion.lift(row, bob)  # a player is not staff
    assert info.value.code == "not_allowed"
    exclusion.lift(row, staff)
    assert AuditEntry.objects.filter(action="exclusion_lifted", actor_name="boss").exists()
    assert exclusion.active(alice) is None
    game.sit(alice, 1)


def test_a_lifetime_exclusion_is_never_lifted_here(clock: Clock, alice: Any, staff: Any) -> None:
    row = exclusion.exclude(alice, SelfExclusion.LIFE, by=alice)
    clock.move(days=365 * 11)
    with pytest.raises(limits.LimitError) as info:
        exclusion.lift(row, staff)
    assert info.value.code == "lifetime"
    assert exclusion.active(alice) == row


def test_a_cool_off_suspends_play_and_credits_until_it_ends(
    clock: Clock, game: Game, alice: Any
) -> None:
    import datetime as dt

    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00)
    start = ledger.player_account(alice).balance
    limits.cool_off(alice, dt.timedelta(hours=24))
    assert ledger.player_account(alice).balance == start + 20_00  # the undealt wager back
    refused("cooloff", "break from play", lambda: game.sit(alice, 1))
    with pytest.raises(ledger.CreditRefused):
        ledger.credit(alice, 10_00)
    with pytest.raises(limits.LimitError):
        limits.set_limit(alice, "loss_day", 10_00) and limits.set_limit(alice, "loss_day", 20_00)
    for bad in (dt.timedelta(hours=23), dt.timedelta(days=31)):
        with pytest.raises(limits.LimitError):
            limits.cool_off(alice, bad)
    clock.move(hours=24, seconds=1)
    game.sit(alice, 1)


def test_an_exclusion_ends_the_players_sessions(clock: Clock, game: Game, alice: Any) -> None:
    from table.protection import sessions

    session, _ = sessions.start(alice)
    services.sit(game.table.pk, alice, 1, session=session.pk)
    exclusion.exclude(alice, SelfExclusion.ONE_YEAR, by=alice)
    session.refresh_from_db()
    assert session.ended == clock.now
    refused(
        "session_ended",
        "log in again",
        lambda: services.leave(game.table.pk, alice, session=session.pk),
    )
