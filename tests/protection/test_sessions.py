"""Sessions (§812a.9(a)(4)-(5)): a unique key kept with every command, event and ledger
transaction of the session; the previous login; the reality check the server waits for
(§814a.1(e)(2)-(3)); the idle lock (§812a.3(a)(6)); the figures since login."""

from __future__ import annotations

from typing import Any

import pytest

from table import services
from table.models import CommandRecord, LedgerTransaction, RoundEvent, Table
from table.protection import limits, sessions

from .conftest import Clock, Game
from .test_limits import refused

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def test_each_login_is_a_session_with_its_own_key_and_the_previous_login(
    clock: Clock, alice: Any
) -> None:
    first, previous = sessions.start(alice)
    assert previous is None
    clock.move(hours=3)
    second, previous = sessions.start(alice)
    assert previous == first.started and second.key != first.key


def test_the_session_is_kept_with_commands_events_and_ledger_entries(
    clock: Clock, game: Game, alice: Any, table: Table
) -> None:
    session, _ = sessions.start(alice)
    services.sit(table.pk, alice, 1, session=session.pk, key="k-sit")
    game.open()
    services.place_bets(table.pk, alice, 1, {"ante": 10_00}, session=session.pk, key="k-bet")
    assert set(CommandRecord.objects.values_list("session", flat=True)) == {session.pk}
    mine = RoundEvent.objects.filter(actor="alice")
    assert mine.exists() and set(mine.values_list("session", flat=True)) == {session.pk}
    assert set(RoundEvent.objects.exclude(actor="alice").values_list("session", flat=True)) == {
        None
    }
    stake = LedgerTransaction.objects.get(memo="wager", box=1)
    assert stake.session_id == session.pk
    # The hash covers the session: the chain still verifies.
    for event in RoundEvent.objects.filter(table=table):
        assert event.compute_hash() == event.hash


def test_the_reality_check_holds_betting_until_answered_and_a_dealt_round_goes_on(
    clock: Clock, game: Game, alice: Any, table: Table
) -> None:
    session, _ = sessions.start(alice)
    limits.set_reality_minutes(alice, 15)
    game.sit(alice, 1)
    game.open()
    bet = lambda: services.place_bets(  # noqa: E731
        table.pk, alice, 1, {"ante": 10_00}, session=session.pk
    )
    bet()
    clock.move(minutes=14, seconds=50)
    sessions.touch(session)
    game.deal()
    clock.move(seconds=15)  # the check comes due while the round is in play
    assert sessions.status(session).reality_due
    services.decide(table.pk, alice, 1, 1, session=session.pk)  # the round in play goes on
    game.finish()
    game.open()
    refused("reality_check", "answer the reality check", bet)
    sessions.answer_reality_check(session)
    bet()
    assert not sessions.status(session).reality_due


def test_after_15_minutes_idle_the_password_again_and_the_seat_is_kept(
    clock: Clock, game: Game, alice: Any, table: Table
) -> None:
    session, _ = sessions.start(alice)
    services.sit(table.pk, alice, 1, session=session.pk)
    game.open()
    clock.move(minutes=15, seconds=1)
    assert sessions.status(session).locked
    assert not sessions.touch(session)  # a page view does not open it
    refused(
        "session_idle",
        "enter your password again",
        lambda: services.place_bets(table.pk, alice, 1, {"ante": 10_00}, session=session.pk),
    )
    assert not sessions.unlock(session, "wrong")
    assert sessions.unlock(session, "pw-alice")
    services.place_bets(table.pk, alice, 1, {"ante": 10_00}, session=session.pk)
    assert table.seats.filter(player=alice, box=1).exists()


def test_a_session_that_ended_or_is_someone_elses_is_refused(
    clock: Clock, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    session, _ = sessions.start(alice)
    refused(
        "session_ended", "log in again", lambda: services.sit(table.pk, bob, 2, session=session.pk)
    )
    sessions.end(session.pk)
    refused(
        "session_ended",
        "log in again",
        lambda: services.sit(table.pk, alice, 1, session=session.pk),
    )


def test_net_and_amount_wagered_since_login(clock: Clock, game: Game, alice: Any) -> None:
    from table import ledger

    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=50_00)  # before this login: not counted
    game.deal()
    game.decide_all({1: 0})
    game.finish()
    clock.move(minutes=1)
    session, _ = sessions.start(alice)
    start = ledger.player_account(alice).balance
    game.open()
    game.bet(alice, 1, ante=30_00)
    game.bet(alice, 1, ante=10_00)  # $40 of the $60 given back
    game.deal()
    game.decide_all({1: 1})
    game.finish()
    session.refresh_from_db()
    status = sessions.status(session)
    assert status.net == ledger.player_account(alice).balance - start
    assert status.wagered == 20_00 + 10_00  # Ante, Odds and a 1x Raise
    # The session's running figures are the ledger's, recounted.
    assert (status.net, status.wagered) == sessions.since_login(alice, session.started)
