"""Five Card Hi-Lo tables through the platform's services: its decisions, then every box
setting a high and a low hand (§663a.11(d)), a time-out, an unattended round, with the money
balanced and the event chain intact."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from table import audit, services
from table.games import game as game_named
from table.games.base import Actor
from table.models import (
    Round,
    RoundEvent,
    Seat,
    Table,
)
from table.services.context import LAG_ALLOWANCE
from tests.services.conftest import START, StackedSource, balance, make_player
from tests.services.tables import books_balance, make_table, refused, state

pytestmark = [pytest.mark.django_db]


HILO = game_named("five_card_hi_lo")


#: Alice's box 1 holds two aces (an ace may count low, §663a.11(d)), bob's box 3 a straight.
HILO_SHOE = (
    ["AS", "AD", "7C", "4H", "2S"] + ["5C", "6D", "7H", "8S", "9C"] + ["KC", "QD", "JS", "3C", "8D"]
)


@pytest.fixture
def hilo(monkeypatch: pytest.MonkeyPatch) -> tuple[Table, Any]:
    table, dealer = make_table("Hi-Lo", HILO)
    monkeypatch.setattr(services.dealing, "RANDOM", StackedSource(HILO_SHOE))
    return table, dealer


def test_a_five_card_hi_lo_round_with_a_setting_and_a_time_out(hilo: Any) -> None:
    table, dealer = hilo
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 3)
    everyone = (alice, bob)
    services.open_betting(table.pk, dealer)
    services.act(table.pk, alice, "bet", 1, {"ante": 10_00, "tie": 1_00})
    services.act(table.pk, bob, "bet", 3, {"ante": 5_00})
    services.no_more_bets(table.pk, dealer)
    services.deal(table.pk, dealer)
    assert RoundEvent.objects.filter(table=table, kind="turn").last().data["seconds"] == 20
    services.act(table.pk, alice, "decide", 1, {"play": True})
    refused(
        "not_your_box",
        table,
        everyone,
        lambda: services.act(table.pk, alice, "decide", 3, {"play": True}),
    )
    services.act(table.pk, bob, "decide", 3, {"play": True})

    # Every box sets its hands now (§663a.11(d)), against one clock.
    assert HILO.status(state(table)).phase == "setting"
    table.refresh_from_db()
    assert table.turn_deadline is not None
    started = RoundEvent.objects.filter(table=table, kind="setting_started").get()
    assert started.data["seconds"] == 30
    [move] = HILO.moves(state(table), Actor.player("alice"))
    assert move.name == "set_hands" and move.box == 1
    # An illegal setting (a two-card high hand) and bob setting alice's box: refused.
    refused(
        "bad_setting",
        table,
        everyone,
        lambda: services.act(
            table.pk, alice, "set_hands", 1, {"high": ["AS", "AD"], "low": ["7C", "4H", "2S"]}
        ),
    )
    # The setting with an ace low (its two aces split: one high, one counted as 1).
    with_ace_low = next(c.args for c in move.choices if "AD" in c.args["low"])
    refused(
        "not_your_box",
        table,
        everyone,
        lambda: services.act(table.pk, bob, "set_hands", 1, with_ace_low),
    )
    services.act(table.pk, alice, "set_hands", 1, with_ace_low)
    # Bob lets the clock run out: the house sets his hand (aces high, house rule).
    refused("not_yet", table, everyone, lambda: services.time_out(table.pk))
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - LAG_ALLOWANCE)
    answer = services.time_out(table.pk).response
    assert answer["boxes"] == [3]
    assert all(b.decision for b in HILO.boxes(state(table)))
    services.reveal(table.pk, dealer)
    refused(
        "wrong_phase",
        table,
        everyone,
        lambda: services.act(table.pk, alice, "set_hands", 1, with_ace_low),
    )
    settled = services.settle(table.pk, dealer).response
    for user in everyone:
        assert balance(user) - START == settled["players"][user.username]["net"]
    row = Round.objects.get(pk=table.current_round_id)
    assert row.game == HILO.name and row.phase == "settled"
    records = {r.box: r for r in row.box_records.all()}
    assert records[1].cards == "AS AD 7C 4H 2S"
    assert sum(line.net for line in row.settlement_lines.filter(box=1)) == records[1].net
    books_balance(table)
    assert audit.verify_round(row.pk).problems == []
    assert not Seat.objects.filter(table=table, connected=False).exists()


def test_an_unattended_five_card_hi_lo_round(hilo: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The automatic dealer runs a Hi-Lo table from the game's moves and clock alone: the
    step due, a decision that times out (a fold) and a setting that times out (aces high)."""
    from table import autodealer, presence

    monkeypatch.setattr(autodealer, "REVEAL_PAUSE", 0)
    monkeypatch.setattr(autodealer, "RESULT_PAUSE", 0)
    table, _ = hilo
    alice, bob = make_player("alice"), make_player("bob")
    for user, box in ((alice, 1), (bob, 3)):
        services.sit(table.pk, user, box)
        presence.claim(table.pk, user, f"socket-{user.username}")
    clock = autodealer.AutoDealer(table.pk)
    assert clock.tick() == "open_betting"
    services.act(table.pk, alice, "bet", 1, {"ante": 10_00})
    services.act(table.pk, bob, "bet", 3, {"ante": 5_00})
    Table.objects.filter(pk=table.pk).update(betting_deadline=timezone.now() - LAG_ALLOWANCE)
    assert clock.tick() == "no_more_bets"
    assert clock.tick() == "deal"
    assert clock.tick() is None  # box 1 has decision time left
    services.act(table.pk, alice, "decide", 1, {"play": True})
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - LAG_ALLOWANCE)
    assert clock.tick() == "time_out"  # bob's box folds
    assert HILO.status(state(table)).phase == "setting"
    assert clock.tick() is None  # alice has setting time left
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - LAG_ALLOWANCE)
    assert clock.tick() == "time_out"  # the house sets alice's hand
    assert clock.tick() == "reveal"
    assert clock.tick() == "settle"
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    assert row.phase == "settled"
    books_balance(table)
    assert audit.verify_round(row.pk).problems == []
