"""The automatic dealer: one clock owner per table, and a round run unattended."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from table import autodealer, ledger, services
from table.autodealer import AutoDealer, ClockTaken
from table.demo import ensure_demo, make_user
from table.models import Round, Seat, Table
from table.models import RoundEvent as RoundEventModel
from table.services.context import LAG_ALLOWANCE
from tests.conftest import SeededSource

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


@pytest.fixture
def demo(monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setattr(services.dealing, "RANDOM", SeededSource(99))
    monkeypatch.setattr(autodealer, "REVEAL_PAUSE", 0)
    monkeypatch.setattr(autodealer, "RESULT_PAUSE", 0)
    table = ensure_demo().table
    Table.objects.filter(pk=table.pk).update(is_test=True)  # some tests arm drills
    table.is_test = True
    return table


def past(table: Table, field: str) -> None:
    Table.objects.filter(pk=table.pk).update(
        **{field: timezone.now() - dt.timedelta(seconds=1) - LAG_ALLOWANCE}
    )


def test_one_clock_owner_per_table(demo: Table) -> None:
    autodealer.acquire(demo.pk, "first")
    with pytest.raises(ClockTaken, match="already run by first"):
        autodealer.acquire(demo.pk, "second")
    with pytest.raises(CommandError, match="already run by first"):
        call_command("autodealer", "--table", str(demo.pk), "--seconds", "0.1")
    # A crashed owner's claim goes stale and may then be taken over.
    Table.objects.filter(pk=demo.pk).update(
        clock_heartbeat=timezone.now() - autodealer.STALE_AFTER - dt.timedelta(seconds=1)
    )
    autodealer.acquire(demo.pk, "second")
    assert not autodealer.heartbeat(demo.pk, "first")
    autodealer.release(demo.pk, "second")
    autodealer.acquire(demo.pk, "third")


def test_an_unattended_round(demo: Table) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    services.sit(demo.pk, alice, 1)
    services.sit(demo.pk, bob, 3)
    clock = AutoDealer(demo.pk)
    assert clock.tick() == "open_betting"
    assert clock.tick() is None  # the betting countdown is running
    past(demo, "betting_deadline")
    assert clock.tick() == "betting_clock"  # nobody bet: the countdown starts again
    services.place_bets(demo.pk, alice, 1, {"ante": 1000, "four_card_bonus": 500})
    services.place_bets(demo.pk, bob, 3, {"ante": 2000})
    past(demo, "betting_deadline")
    assert clock.tick() == "no_more_bets"
    assert clock.tick() == "deal"
    assert clock.tick() is None  # box 1 has decision time left
    services.decide(demo.pk, alice, 1, 1)
    past(demo, "turn_deadline")
    assert clock.tick() == "time_out"  # bob ran out of time: his box folds (§684a.7(b))
    assert clock.tick() == "reveal"
    assert clock.tick() == "settle"
    row = Round.objects.get(pk=Table.objects.get(pk=demo.pk).current_round_id)
    assert row.phase == "settled"
    folded = row.state["boxes"][1] if row.state["boxes"][1]["box"] == 3 else row.state["boxes"][0]
    assert folded["decision"] == 0
    assert clock.tick() == "open_betting"  # the next round
    assert ledger.verify() == []


def test_a_dropped_player_is_let_go_after_the_grace_period(demo: Table) -> None:
    carol = make_user("carol")
    services.sit(demo.pk, carol, 5)
    services.set_connected(demo.pk, carol, False)
    clock = AutoDealer(demo.pk, full=False)
    assert clock.tick() is None  # still within the grace period
    Seat.objects.filter(player=carol).update(
        disconnected_at=timezone.now() - dt.timedelta(seconds=services.GRACE_SECONDS + 1)
    )
    assert clock.tick() == "leave:carol"
    assert not Seat.objects.filter(player=carol).exists()


def test_a_dropped_player_with_cards_folds_on_their_turn(demo: Table) -> None:
    dave = make_user("dave")
    services.sit(demo.pk, dave, 2)
    services.open_betting(demo.pk)
    services.place_bets(demo.pk, dave, 2, {"ante": 1000, "prime": 100})
    services.no_more_bets(demo.pk)
    services.deal(demo.pk)
    services.set_connected(demo.pk, dave, False)
    Seat.objects.filter(player=dave).update(
        disconnected_at=timezone.now() - dt.timedelta(seconds=services.GRACE_SECONDS + 1)
    )
    clock = AutoDealer(demo.pk)
    assert clock.tick() == "leave:dave"
    state = Round.objects.get(pk=Table.objects.get(pk=demo.pk).current_round_id).state
    assert state["boxes"][0]["decision"] == 0 and state["boxes"][0]["abandoned"]
    assert Seat.objects.filter(player=dave).exists()  # stays until the round is settled
    assert clock.tick() == "reveal"
    assert clock.tick() == "settle"
    assert ledger.verify() == []


@pytest.mark.parametrize("irregularity", ["void", "dealer_card_exposed", "jam", "face_up"])
def test_an_irregular_outcome_stays_on_the_felt_as_long_as_a_settlement(
    demo: Table, monkeypatch: pytest.MonkeyPatch, irregularity: str
) -> None:
    """A void or an exposed dealer card ends the round as a settlement does: the next round
    opens no sooner, whoever (console or clock) ended it."""
    monkeypatch.setattr(autodealer, "RESULT_PAUSE", 6.0)
    alice, bob = make_user("alice"), make_user("bob")
    services.sit(demo.pk, alice, 1)
    services.sit(demo.pk, bob, 2)
    clock = AutoDealer(demo.pk)
    assert clock.tick() == "open_betting"
    services.place_bets(demo.pk, alice, 1, {"ante": 1000})
    services.place_bets(demo.pk, bob, 2, {"ante": 1000})
    # In the virtual shoe every one of these comes from the shoe while dealing (a drill).
    fault = {
        "void": "misdeal",
        "dealer_card_exposed": "dealer_card_exposed",
        "jam": "jam",
        "face_up": "two_face_up_cards",
    }[irregularity]
    services.arm_fault(demo.pk, fault)
    past(demo, "betting_deadline")
    assert clock.tick() == "no_more_bets"
    assert clock.tick() == "deal"  # the shoe fails: the round is void (or its main game)
    row = Round.objects.get(pk=Table.objects.get(pk=demo.pk).current_round_id)
    assert row.phase in ("void", "settled") and row.finished_at is not None
    for _ in range(3):
        assert clock.tick() is None  # the outcome is still shown
    Round.objects.filter(pk=row.pk).update(
        finished_at=timezone.now() - dt.timedelta(seconds=autodealer.RESULT_PAUSE + 0.1)
    )
    assert clock.tick() == "open_betting"


def test_the_autodealer_brings_new_decks_after_a_miscount(demo: Table) -> None:
    """With two decks in the submission, a deck removed after a miscount (§684a.5(b)) is
    replaced before the next round, not dealt around."""
    alice = make_user("alice")
    services.sit(demo.pk, alice, 1)
    services.arm_fault(demo.pk, "miscount")
    clock = AutoDealer(demo.pk)
    assert clock.tick() == "open_betting"  # no round: the deck is removed
    assert Table.objects.get(pk=demo.pk).current_round_id is None
    assert clock.tick() == "change_decks"
    assert clock.tick() == "open_betting"
    demo.refresh_from_db()
    assert len(demo.shoe["decks"]) == 2 and demo.current_round_id is not None


def test_the_console_sees_who_deals_and_a_dealer_can_take_over(demo: Table) -> None:
    """In the demo the console and the automatic dealer both drove the table (a dealer
    pressed "No more bets" 2 s into the players' 15 s countdown): now one deals at a time,
    the console says which, and a dealer takes over (and hands back) explicitly."""
    from django.contrib.auth import get_user_model

    from table.snapshot import snapshot

    dealer = get_user_model().objects.get(username="dealer")
    alice = make_user("alice")
    services.sit(demo.pk, alice, 1)
    clock = AutoDealer(demo.pk)
    autodealer.acquire(demo.pk, clock.owner)
    assert clock.tick() == "open_betting"
    dealing = snapshot(demo.pk, dealer)["dealing"]
    assert dealing["kind"] == "autodealer" and dealing["name"] == clock.owner and dealing["alive"]
    services.place_bets(demo.pk, alice, 1, {"ante": 1000})
    with pytest.raises(services.ServiceError) as refused:
        services.no_more_bets(demo.pk, dealer)
    assert refused.value.code == "autodealer_deals" and "take over" in refused.value.message
    assert Round.objects.get(pk=Table.objects.get(pk=demo.pk).current_round_id).phase == "betting"
    # The dealer takes over: the clock stops dealing, the dealer deals.
    services.take_over(demo.pk, dealer)
    assert snapshot(demo.pk, dealer)["dealing"]["kind"] == "dealer"
    past(demo, "betting_deadline")
    assert clock.tick() is None  # not "no_more_bets": the dealer deals now
    services.no_more_bets(demo.pk, dealer)
    services.deal(demo.pk, dealer)
    past(demo, "turn_deadline")
    assert clock.tick() == "time_out"  # the decision clock still runs
    with pytest.raises(services.ServiceError):
        services.reveal(demo.pk)  # the clock may not deal while a dealer does
    services.reveal(demo.pk, dealer)
    # Handed back, the automatic dealer deals again.
    services.hand_back(demo.pk, dealer)
    assert clock.tick() == "settle"
    assert snapshot(demo.pk, dealer)["dealing"]["name"] == clock.owner
    kinds = list(
        RoundEventModel.objects.filter(table=demo, kind="dealing").values_list("data", flat=True)
    )
    assert [k["by"] for k in kinds] == [clock.owner, "dealer:dealer", "", clock.owner]
    autodealer.release(demo.pk, clock.owner)
    assert snapshot(demo.pk, dealer)["dealing"]["kind"] is None
