"""Crazy 4 Poker tables through the platform's services: whole rounds with shared meters fed
at "no more bets" and paying out (§657a.12), a void taking the increments back, hostile
commands refused with nothing changed, an unattended round, and a table without the meters
its rules need."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from table import audit, meters, services
from table.games import game as game_named
from table.games.base import Actor
from table.models import (
    MeterEvent,
    ProgressiveMeter,
    Round,
    RoundEvent,
    RulesSubmission,
    Table,
)
from table.services.context import LAG_ALLOWANCE
from tests.services.conftest import START, StackedSource, balance, make_player
from tests.services.tables import User, books_balance, make_table, refused, standing, state

pytestmark = [pytest.mark.django_db]


C4P = game_named("crazy_4_poker")


#: Box 1 a royal flush in hearts, box 2 a pair of nines, the dealer king high.
C4P_SHOE = (
    ["AH", "KH", "QH", "JH", "TH"] + ["9S", "9D", "4C", "6S", "2D"] + ["KC", "8D", "5S", "3C", "7D"]
)


def linked_table(
    monkeypatch: pytest.MonkeyPatch, name: str, shoe: list[str]
) -> tuple[Table, Any, dict[str, ProgressiveMeter]]:
    """A Crazy 4 Poker table with its five-card progressive and hand-bonus meters linked, and
    ``shoe`` stacked for its deals."""
    table, dealer = make_table(name, C4P)
    linked = {
        "five_card": meters.create_meter("five card A", "five_card", "A", 100, [table]),
        "hand_bonus": meters.create_meter("hand bonus", "hand_bonus", "", 100, [table]),
    }
    monkeypatch.setattr(services.dealing, "RANDOM", StackedSource(shoe, shoe))
    return table, dealer, linked


@pytest.fixture
def c4p(monkeypatch: pytest.MonkeyPatch) -> tuple[Table, Any, dict[str, ProgressiveMeter]]:
    return linked_table(monkeypatch, "C4P", C4P_SHOE)


def test_a_crazy_4_poker_round_feeds_and_pays_its_meters(c4p: Any) -> None:
    table, dealer, linked = c4p
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 2)
    seeds = {k: standing(m) for k, m in linked.items()}
    assert services.open_betting(table.pk, dealer).response["opened"]
    table.refresh_from_db()
    assert Round.objects.get(pk=table.current_round_id).game == C4P.name
    bet = services.act(
        table.pk, alice, "bet", 1, {"ante": 5_00, "progressive": 1_00, "hand_bonus_player": 1_00}
    )
    # §657a.7(d)(1): the Super Bonus goes with the Ante.
    assert bet.response["wagers"] == {
        "ante": 5_00,
        "super_bonus": 5_00,
        "progressive": 1_00,
        "hand_bonus_player": 1_00,
    }
    services.act(table.pk, bob, "bet", 2, {"ante": 10_00})
    assert balance(alice) == START - 12_00

    # §657a.10(a)(2): at "no more bets" the wagers feed the meters, as the round says.
    services.no_more_bets(table.pk, dealer)
    closed = RoundEvent.objects.filter(table=table, kind="betting_closed").get()
    increments = closed.data["meter_increments"]
    assert set(increments) == {"five_card", "hand_bonus"}
    for kind, meter in linked.items():
        amount, reserve = seeds[kind]
        grew = increments[kind]
        assert grew["amount"] > 0
        assert standing(meter) == (amount + grew["amount"], reserve + grew["reserve"])
    assert MeterEvent.objects.filter(kind=MeterEvent.INCREMENT).count() == 2

    services.deal(table.pk, dealer)
    rnd = state(table)
    assert C4P.status(rnd).phase == "decisions"
    for user, box in ((alice, 1), (bob, 2)):
        [move] = [m for m in C4P.moves(state(table), Actor.player(user.username)) if m.box == box]
        services.act(table.pk, user, move.name, box, move.choices[1].args)  # Play 1x
    services.reveal(table.pk, dealer)
    before_meters = {k: standing(m) for k, m in linked.items()}
    settled = services.settle(table.pk, dealer).response

    # The royal flush takes 100% of both meters, which reset (§657a.12(e)(4), (f)(4)).
    hits = MeterEvent.objects.filter(kind=MeterEvent.HIT).order_by("pk")
    assert {(h.meter.kind, h.box, h.percent, h.reseeded) for h in hits} == {
        ("five_card", 1, 100, True),
        ("hand_bonus", 1, 100, True),
    }
    for h in hits:
        assert h.paid == before_meters[h.meter.kind][0]
    for kind, meter in linked.items():
        reseed = meter.spec().reseed_amount(meter.wager)
        assert standing(meter) == (reseed + before_meters[kind][1], 0)
    nets = {name: v["net"] for name, v in settled["players"].items()}
    assert balance(alice) - START == nets["alice"]
    assert balance(bob) - START == nets["bob"]
    # Whatever else the royal won, both meters were paid on top of the stakes (17 dollars).
    assert nets["alice"] >= sum(amount for amount, _ in before_meters.values()) - 17_00
    books_balance(table)
    report = audit.verify_round(Round.objects.get(pk=table.current_round_id).pk)
    assert report.problems == []


def test_a_void_takes_the_meter_increments_back(c4p: Any) -> None:
    table, dealer, linked = c4p
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    seeds = {k: standing(m) for k, m in linked.items()}
    services.open_betting(table.pk, dealer)
    services.act(
        table.pk, alice, "bet", 1, {"ante": 5_00, "progressive": 1_00, "hand_bonus_dealer": 1_00}
    )
    services.no_more_bets(table.pk, dealer)
    assert {k: standing(m) for k, m in linked.items()} != seeds
    services.fail_unfinished_round(table.pk)  # the house clears the table: void (§657a.13)
    assert state(table).phase.value == "void"
    assert {k: standing(m) for k, m in linked.items()} == seeds
    assert balance(alice) == START
    assert MeterEvent.objects.filter(kind=MeterEvent.REVERSAL).count() == 2
    books_balance(table)


def test_hostile_crazy_4_poker_commands_change_nothing(c4p: Any) -> None:
    table, dealer, _ = c4p
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 2)
    services.open_betting(table.pk, dealer)
    everyone = (alice, bob)
    # Another player's box.
    refused("not_your_box", table, everyone, lambda: services.act(table.pk, bob, "bet", 1, {}))
    refused(
        "unequal_super_bonus",
        table,
        everyone,
        lambda: services.act(table.pk, alice, "bet", 1, {"ante": 5_00, "super_bonus": 6_00}),
    )
    refused(
        "unknown_command", table, everyone, lambda: services.act(table.pk, alice, "deal", 1, {})
    )
    services.act(table.pk, alice, "bet", 1, {"ante": 5_00})
    services.act(table.pk, bob, "bet", 2, {"ante": 5_00})
    services.no_more_bets(table.pk, dealer)
    services.deal(table.pk, dealer)
    # Box 1 decides first: bob may not decide for it, nor for his own box out of turn.
    refused(
        "not_your_box",
        table,
        everyone,
        lambda: services.act(table.pk, bob, "decide", 1, {"play": 5_00}),
    )
    refused(
        "not_your_turn",
        table,
        everyone,
        lambda: services.act(table.pk, bob, "decide", 2, {"play": 5_00}),
    )
    # A second table's Rules Submission of another game is refused (a table runs one game).
    other = RulesSubmission.objects.create(name="Frenzy", game="four_card_frenzy")
    staff = User.objects.create_superuser("boss", "boss@example.com", "pw")
    with pytest.raises(services.ServiceError) as info:
        services.change_rules(table.pk, other, staff)
    assert info.value.code == "wrong_game"
    assert "Four Card Frenzy" in info.value.message and "Crazy 4 Poker" in info.value.message


def test_an_unattended_crazy_4_poker_round(c4p: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The automatic dealer runs a Crazy 4 Poker table from the game's moves and clock alone:
    the step due, a decision that times out (a fold, §657a.11(b)), the reveal and the
    settlement, with the meters fed at "no more bets" and paid or kept as the round says."""
    from table import autodealer, presence

    monkeypatch.setattr(autodealer, "REVEAL_PAUSE", 0)
    monkeypatch.setattr(autodealer, "RESULT_PAUSE", 0)
    table, _, linked = c4p
    alice, bob = make_player("alice"), make_player("bob")
    for user, box in ((alice, 1), (bob, 2)):
        services.sit(table.pk, user, box)
        presence.claim(table.pk, user, f"socket-{user.username}")
    seeds = {k: standing(m) for k, m in linked.items()}
    clock = autodealer.AutoDealer(table.pk)
    assert clock.tick() == "open_betting"
    services.act(table.pk, alice, "bet", 1, {"ante": 5_00, "progressive": 1_00})
    services.act(table.pk, bob, "bet", 2, {"ante": 10_00, "hand_bonus_player": 1_00})
    assert clock.tick() is None  # the betting clock still runs
    Table.objects.filter(pk=table.pk).update(betting_deadline=timezone.now() - LAG_ALLOWANCE)
    assert clock.tick() == "no_more_bets"
    assert {k: standing(m) for k, m in linked.items()} != seeds  # §657a.10(a)(2)
    assert clock.tick() == "deal"
    assert clock.tick() is None  # box 1 has decision time left
    services.act(table.pk, alice, "decide", 1, {"play": 15_00})  # 3x: a royal flush
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - LAG_ALLOWANCE)
    assert clock.tick() == "time_out"  # bob's box folds
    assert [b.decision for b in C4P.boxes(state(table))] == ["play $15.00", "fold"]
    assert clock.tick() == "reveal"
    assert clock.tick() == "settle"
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    assert row.phase == "settled"
    settled = RoundEvent.objects.get(table=table, kind="round_settled").data["players"]
    for user in (alice, bob):
        assert balance(user) - START == settled[user.username]["net"]
    assert settled["bob"]["net"] == -(10_00 + 10_00 + 1_00)  # Ante, Super Bonus, hand bonus
    books_balance(table)
    assert audit.verify_round(row.pk).problems == []


def test_a_table_without_the_meters_its_rules_need_does_not_open_betting() -> None:
    """§657a.12(d)-(f): a progressive or hand-bonus wager pays from its meter; a table whose
    rules offer one but which is not linked to that meter takes no wager (refused with the
    meters' names), and opens once they are linked."""
    table, dealer = make_table("C4P unlinked", C4P)
    meters.create_meter("only five card", "five_card", "A", 100, [table])
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(services.ServiceError) as refused:
        services.open_betting(table.pk, dealer)
    assert refused.value.code == "meters_not_linked"
    assert "hand bonus" in refused.value.message.lower()
    assert Table.objects.get(pk=table.pk).version == version
    assert not Round.objects.filter(table=table).exists()
    meters.create_meter("hand bonus unlinked", "hand_bonus", "", 100, [table])
    assert services.open_betting(table.pk, dealer).response["opened"]
