"""Refusals change nothing: replayed keys, stale versions, wrong phases, missing money."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from table import services
from table.models import CommandRecord, RoundEvent, Seat, Table

from .conftest import START, Game, balance, engine_round, make_player

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def state_of(table: Table, *users: Any) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was."""
    table.refresh_from_db()
    rnd = engine_round(table) if table.current_round_id else None
    return (
        table.version,
        table.last_hash,
        RoundEvent.objects.filter(table=table).count(),
        rnd.to_dict() if rnd else None,
        tuple(balance(u) for u in users),
        tuple(Seat.objects.filter(table=table).values_list("box", "player_id")),
    )


def refused(code: str, command: Callable[[], Any]) -> services.ServiceError:
    with pytest.raises(services.ServiceError) as info:
        command()
    assert info.value.code == code, info.value.message
    assert info.value.message
    return info.value


def test_a_replayed_key_returns_the_first_answer_and_changes_nothing(
    game: Game, alice: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.open()
    first = services.place_bets(table.pk, alice, 1, {"ante": 10_00, "prime": 5_00}, key="bet-1")
    assert not first.replayed
    before = state_of(table, alice)
    assert before[4] == (START - 25_00,)
    # The same command with the same key again (a client retrying after a lost answer).
    again = services.place_bets(table.pk, alice, 1, {"ante": 10_00, "prime": 5_00}, key="bet-1")
    assert again.replayed
    assert again.response == first.response
    assert again.version == first.version
    assert state_of(table, alice) == before
    # Unoffered wagers written as zero are the same bet.
    zeros = {"ante": 10_00, "prime": 5_00, "four_card_bonus": 0, "all_six": 0}
    assert services.place_bets(table.pk, alice, 1, zeros, key="bet-1").replayed
    # The same key with other wagers is another command: refused, not answered as a replay.
    refused(
        "key_reused", lambda: services.place_bets(table.pk, alice, 1, {"ante": 50_00}, key="bet-1")
    )
    assert state_of(table, alice) == before
    assert CommandRecord.objects.filter(key="bet-1").count() == 1
    # A new key is a new command.
    services.place_bets(table.pk, alice, 1, {"ante": 20_00}, key="bet-2")
    assert balance(alice) == START - 40_00


def test_a_key_reused_for_another_command_is_refused_and_changes_nothing(
    game: Game, alice: Any, table: Table
) -> None:
    """A withdraw (or a stand, a decision...) sent with the key of an earlier bet must not
    be answered with the bet's "ok" marked replayed while the bet stays on the felt."""
    game.sit(alice, 1, 2)
    game.open()
    services.place_bets(table.pk, alice, 1, {"ante": 10_00}, key="bet-key-1")
    before = state_of(table, alice)
    for command in (
        lambda: services.withdraw_bets(table.pk, alice, 1, key="bet-key-1"),
        lambda: services.place_bets(table.pk, alice, 2, {"ante": 10_00}, key="bet-key-1"),
        lambda: services.stand(table.pk, alice, 2, key="bet-key-1"),
        lambda: services.leave(table.pk, alice, key="bet-key-1"),
    ):
        error = refused("key_reused", command)
        assert "key" in error.message
        assert state_of(table, alice) == before
    assert engine_round(table).boxes[1].wagers["ante"] == 10_00
    # The withdraw goes through with a key of its own.
    services.withdraw_bets(table.pk, alice, 1, key="withdraw-key-1")
    assert balance(alice) == START


def test_keys_belong_to_their_sender(game: Game, alice: Any, bob: Any, table: Table) -> None:
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.open()
    services.place_bets(table.pk, alice, 1, {"ante": 10_00}, key="same")
    answer = services.place_bets(table.pk, bob, 2, {"ante": 10_00}, key="same")
    assert not answer.replayed
    assert balance(bob) == START - 20_00


def test_a_stale_version_is_refused(game: Game, alice: Any, table: Table) -> None:
    game.sit(alice, 1)
    game.open()
    table.refresh_from_db()
    seen = table.version
    services.place_bets(table.pk, alice, 1, {"ante": 10_00}, expected_version=seen)
    before = state_of(table, alice)
    error = refused(
        "stale_version",
        lambda: services.place_bets(table.pk, alice, 1, {"ante": 50_00}, expected_version=seen),
    )
    assert "refresh" in error.message
    assert state_of(table, alice) == before
    # With the version the table is at now, the command goes through.
    services.place_bets(table.pk, alice, 1, {"ante": 50_00}, expected_version=seen + 1)
    assert balance(alice) == START - 100_00


def test_commands_in_the_wrong_phase_are_refused_and_change_nothing(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.sit(bob, 2)
    dealer = game.dealer
    refused("no_round", lambda: services.place_bets(table.pk, alice, 1, {"ante": 10_00}))
    refused("no_round", lambda: services.deal(table.pk, dealer))
    game.open()
    game.bet(alice, 1, ante=10_00)
    before = state_of(table, alice, bob)
    refused("wrong_phase", lambda: services.decide(table.pk, alice, 1, 1))
    refused("wrong_phase", lambda: services.deal(table.pk, dealer))
    refused("wrong_phase", lambda: services.reveal(table.pk, dealer))
    refused("wrong_phase", lambda: services.settle(table.pk, dealer))
    refused("wrong_phase", lambda: services.dealer_card_exposed(table.pk, dealer))
    refused("round_in_play", lambda: services.open_betting(table.pk, dealer))
    assert state_of(table, alice, bob) == before
    services.no_more_bets(table.pk, dealer)
    before = state_of(table, alice, bob)
    refused("wrong_phase", lambda: services.place_bets(table.pk, bob, 2, {"ante": 10_00}))
    refused("wrong_phase", lambda: services.withdraw_bets(table.pk, alice, 1))
    refused("wrong_phase", lambda: services.no_more_bets(table.pk, dealer))
    assert state_of(table, alice, bob) == before
    services.deal(table.pk, dealer)
    before = state_of(table, alice, bob)
    refused("decisions_pending", lambda: services.reveal(table.pk, dealer))
    refused("not_your_box", lambda: services.decide(table.pk, bob, 1, 1))
    # Bob's box took no wager, so it has no cards: not in play, whoever's turn it is (every
    # game on the round skeleton answers so).
    refused("not_in_play", lambda: services.decide(table.pk, bob, 2, 1))
    refused("round_in_play", lambda: services.stand(table.pk, alice, 1))
    refused("round_in_play", lambda: services.close_table(table.pk, dealer))
    refused("round_in_play", lambda: services.change_decks(table.pk, dealer))
    assert state_of(table, alice, bob) == before
    game.decide_all()
    game.finish()
    refused("no_round", lambda: services.decide(table.pk, alice, 1, 1))


def test_not_enough_balance_is_refused(game: Game, table: Table) -> None:
    poor = make_player("poor", 15_00)
    game.sit(poor, 1)
    game.open()
    before = state_of(table, poor)
    # Ante and Odds of $10 need $20.
    error = refused(
        "insufficient_funds", lambda: services.place_bets(table.pk, poor, 1, {"ante": 10_00})
    )
    assert "20.00" in error.message and "15.00" in error.message
    assert state_of(table, poor) == before
    services.place_bets(table.pk, poor, 1, {"ante": 5_00})
    assert balance(poor) == 5_00
    refused(
        "insufficient_funds",
        lambda: services.place_bets(table.pk, poor, 1, {"ante": 5_00, "prime": 10_00}),
    )
    assert balance(poor) == 5_00


def test_wagers_outside_the_rules_are_refused(game: Game, alice: Any, table: Table) -> None:
    game.sit(alice, 1, 2)
    game.open()
    before = state_of(table, alice)
    refused("out_of_limits", lambda: game.bet(alice, 1, ante=1_00))
    refused("out_of_limits", lambda: game.bet(alice, 1, ante=1000_00))
    refused("ante_required", lambda: game.bet(alice, 1, prime=5_00))
    refused("unknown_wager", lambda: game.bet(alice, 1, ante=10_00, side=5_00))
    refused("not_your_box", lambda: game.bet(alice, 3, ante=10_00))
    refused("bad_box", lambda: services.place_bets(table.pk, alice, 7, {"ante": 10_00}))
    refused("no_table", lambda: services.place_bets(table.pk + 99, alice, 1, {"ante": 10_00}))
    refused("too_many_boxes", lambda: services.sit(table.pk, alice, 3))
    assert state_of(table, alice) == before


def test_seats_follow_adjacency(game: Game, alice: Any, bob: Any, table: Table) -> None:
    game.sit(alice, 2)
    refused("not_adjacent", lambda: services.sit(table.pk, alice, 4))
    refused("box_taken", lambda: services.sit(table.pk, bob, 2))
    refused("already_seated", lambda: services.sit(table.pk, alice, 2))
    game.sit(alice, 3)
    refused("bad_box", lambda: services.sit(table.pk, bob, 7))


def test_standing_up_during_betting_returns_the_wagers(
    game: Game, alice: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00, prime=5_00)
    assert balance(alice) == START - 25_00
    services.stand(table.pk, alice, 1)
    assert balance(alice) == START
    assert not Seat.objects.filter(table=table).exists()
    assert 1 not in engine_round(table).boxes
