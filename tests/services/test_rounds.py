"""Whole rounds through the services: money, records, irregularities, rules, events."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db.models import Sum

from table import broadcast, ledger, services
from table.games.base import SETTLED_PHASE, VOID_PHASE
from table.games.shoe import commitment
from table.models import (
    Account,
    AppendOnlyError,
    BoxRecord,
    Entry,
    LedgerTransaction,
    Round,
    RoundEvent,
    RulesSubmission,
    SettlementLine,
)
from tests.conftest import SeededSource

from .conftest import START, Game, balance, current_row, engine_round, game_rules, make_player

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def bankroll(table: Any) -> int:
    return Account.objects.get(table=table).balance


def test_full_round_moves_money_as_settled(game: Game, alice: Any, bob: Any, table: Any) -> None:
    game.sit(alice, 1, 2)
    game.sit(bob, 4)
    house = bankroll(table)
    result = game.play(
        [
            (alice, 1, {"ante": 10_00, "prime": 5_00, "all_six": 5_00}),
            (alice, 2, {"ante": 5_00}),
            (bob, 4, {"ante": 25_00, "four_card_bonus": 5_00}),
        ],
        {1: 3, 2: 0, 4: 2},
    )
    row = current_row(table)
    assert row.phase == SETTLED_PHASE
    assert row.dealt_at and row.revealed_at and row.finished_at
    players = result["players"]
    assert balance(alice) - START == players["alice"]["net"]
    assert balance(bob) - START == players["bob"]["net"]
    assert house - bankroll(table) == players["alice"]["net"] + players["bob"]["net"]
    # The round store: a record per box, a settlement line per wager, as the engine settled.
    records = {r.box: r for r in BoxRecord.objects.filter(round=row)}
    assert sorted(records) == [1, 2, 4]
    assert records[2].decision == 0
    assert len(records[1].cards.split()) == 5
    for box, record in records.items():
        lines = SettlementLine.objects.filter(round=row, box=box)
        assert sum(line.net for line in lines) == record.net
        staked = record.wagers
        assert {line.wager for line in lines} == {w for w, v in staked.items() if v}
    rnd = engine_round(table)
    assert commitment(rnd.order, rnd.salt) == row.commitment
    assert row.rules == table.rules.game_rules().to_dict()


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_seeded_rounds_conserve_money(
    seed: int,
    game: Game,
    alice: Any,
    bob: Any,
    carol: Any,
    table: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(services.dealing, "RANDOM", SeededSource(seed))
    game.sit(alice, 1, 2)
    game.sit(bob, 3)
    game.sit(carol, 6)
    everyone = (alice, bob, carol)
    for _ in range(3):
        before = {u.username: balance(u) for u in everyone}
        house = bankroll(table)
        result = game.play(
            [
                (alice, 1, {"ante": 5_00, "prime": 1_00, "four_card_bonus": 1_00}),
                (alice, 2, {"ante": 7_00, "all_six": 2_00}),
                (bob, 3, {"ante": 20_00, "prime": 3_00, "all_six": 1_00}),
                (carol, 6, {"ante": 100_00, "four_card_bonus": 10_00}),
            ],
            {1: 3, 2: 2, 3: 1, 6: 0},
        )
        for u in everyone:
            assert balance(u) - before[u.username] == result["players"][u.username]["net"]
        assert house - bankroll(table) == sum(p["net"] for p in result["players"].values())
        assert ledger.verify() == []
    rows = list(Round.objects.filter(table=table).order_by("number"))
    assert [r.number for r in rows] == [1, 2, 3]
    # Two decks of different backs alternate round by round (§684a.3(b)).
    assert rows[0].deck_back != rows[1].deck_back
    assert rows[0].deck_back == rows[2].deck_back
    table.refresh_from_db()
    assert table.rounds_since_stub_count == 3


def test_void_round_returns_every_stake(game: Game, alice: Any, bob: Any, table: Any) -> None:
    game.sit(alice, 1)
    game.sit(bob, 2)
    house = bankroll(table)
    game.open()
    game.bet(alice, 1, ante=10_00, prime=5_00, four_card_bonus=5_00, all_six=5_00)
    game.bet(bob, 2, ante=50_00)
    game.deal()
    services.decide(table.pk, alice, 1, 1)  # a Raise is staked too
    assert balance(alice) < START
    # A round that cannot go on (the house clears it) before the reveal: void, all returned.
    services.fail_unfinished_round(table.pk)
    assert balance(alice) == START
    assert balance(bob) == START
    assert bankroll(table) == house
    row = current_row(table)
    assert row.phase == VOID_PHASE
    assert row.void_reason == "server_restart"
    assert not SettlementLine.objects.filter(round=row).exists()
    assert set(BoxRecord.objects.filter(round=row).values_list("net", flat=True)) == {0}


def test_shoe_jam_voids_on_the_deal(game: Game, alice: Any, table: Any) -> None:
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00, all_six=5_00)
    services.arm_fault(table.pk, "jam", game.dealer)
    game.deal()
    assert current_row(table).void_reason == "shoe_jam"
    assert balance(alice) == START


def test_closing_the_table_during_betting_returns_wagers(
    game: Game, alice: Any, table: Any
) -> None:
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00, prime=5_00)
    assert balance(alice) == START - 25_00
    services.close_table(table.pk, game.dealer)
    assert balance(alice) == START
    assert current_row(table).void_reason == "table_closed"


def test_dealer_card_exposed_returns_main_wagers_and_settles_optional(
    game: Game, alice: Any, bob: Any, table: Any
) -> None:
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.open()
    game.bet(alice, 1, ante=10_00, prime=5_00, four_card_bonus=5_00, all_six=5_00)
    game.bet(bob, 2, ante=20_00, prime=5_00)
    # The shoe exposes a dealer card while dealing (the drill), before any Raise.
    services.arm_fault(table.pk, "dealer_card_exposed", game.dealer)
    game.deal()
    row = current_row(table)
    assert row.phase == SETTLED_PHASE
    assert engine_round(table).main_game_void
    for user, box, main in ((alice, 1, {"ante", "odds"}), (bob, 2, {"ante", "odds"})):
        lines = {line.wager: line for line in SettlementLine.objects.filter(round=row, box=box)}
        for wager in main:
            assert lines[wager].outcome == "void"
            assert lines[wager].net == 0
        optional = [line for w, line in lines.items() if w not in main]
        assert optional, "the optional wagers are settled"
        assert all(line.outcome in ("win", "lose") for line in optional)
        assert balance(user) - START == sum(line.net for line in optional)
    assert "raise" not in {line.wager for line in SettlementLine.objects.filter(round=row, box=2)}


def test_payout_limit_withholds_above_the_limit(
    game: Game, alice: Any, table: Any, rules: RulesSubmission, stack_shoe: Any
) -> None:
    rules.choices = {**rules.choices, "payout_limit": 50_000_00}
    rules.full_clean()
    rules.save()
    # Box 1: four aces; dealer king high (qualifies).
    stack_shoe(["AS", "AH", "AD", "AC", "2C", "KD", "QS", "9H", "7C", "3D"])
    game.sit(alice, 1)
    house = bankroll(table)
    result = game.play([(alice, 1, {"ante": 500_00, "four_card_bonus": 100_00})], {1: 3})
    limited = 500_00 + 1500_00 + 200 * 500_00  # Ante 1:1, Raise 1:1, Odds four aces 200:1
    bonus = 200 * 100_00  # Four Card Bonus table C, four aces: never limited
    total = result["players"]["alice"]
    assert total["payout_limit_applied"] is True
    assert total["withheld"] == limited - 50_000_00
    assert total["net"] == 50_000_00 + bonus
    assert balance(alice) == START + 50_000_00 + bonus
    assert house - bankroll(table) == 50_000_00 + bonus
    withheld = LedgerTransaction.objects.get(memo="payout limit")
    amounts = dict(withheld.entries.values_list("account__name", "amount"))
    assert amounts == {
        "player:alice": -(limited - 50_000_00),
        bankroll_name(table): limited - 50_000_00,
    }


def bankroll_name(table: Any) -> str:
    return Account.objects.get(table=table).name


def test_bad_beat_pays_the_odds_from_the_submissions_table(
    game: Game, alice: Any, table: Any, stack_shoe: Any
) -> None:
    # Alice's straight flush loses to the dealer's four nines: bad beat table B pays 30 to 1.
    stack_shoe(["5H", "6H", "7H", "8H", "KC", "9S", "9D", "9C", "9H", "2D"])
    game.sit(alice, 1)
    result = game.play([(alice, 1, {"ante": 10_00})], {1: 1})
    lines = {line.wager: line for line in SettlementLine.objects.filter(round=current_row(table))}
    assert (lines["ante"].outcome, lines["ante"].net) == ("lose", -10_00)
    assert (lines["raise"].outcome, lines["raise"].net) == ("lose", -10_00)
    assert (lines["odds"].outcome, lines["odds"].net, lines["odds"].row) == (
        "win",
        300_00,
        "Straight flush",
    )
    assert result["players"]["alice"]["net"] == 280_00
    assert balance(alice) == START + 280_00


def test_rules_change_during_a_round_waits_for_it(
    game: Game, alice: Any, table: Any, rules: RulesSubmission, staff: Any
) -> None:
    other = game_rules("Other rules", bad_beat_paytable="D", offers_all_six=False, ante_min=10_00)
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00)
    first = current_row(table)
    assert services.change_rules(table.pk, other, staff).response["pending"] is True
    table.refresh_from_db()
    assert table.rules_id == rules.pk and table.pending_rules_id == other.pk
    game.deal()
    game.decide_all()
    game.finish()
    table.refresh_from_db()
    assert table.rules_id == other.pk and table.pending_rules_id is None
    assert RoundEvent.objects.filter(round=first, kind="rules_changed").exists()
    first.refresh_from_db()
    assert first.rules_submission_id == rules.pk
    assert first.rules["bad_beat_paytable"] == "B"
    assert first.rules["offers_all_six"] is True
    game.open()
    second = current_row(table)
    assert second.rules_submission_id == other.pk
    assert second.rules == other.game_rules().to_dict() == other.choices
    # The rules of the new round refuse what the old rules allowed.
    with pytest.raises(services.ServiceError) as refused:
        game.bet(alice, 1, ante=10_00, all_six=5_00)
    assert refused.value.code == "not_offered"
    # Editing the submission later does not rewrite history.
    RulesSubmission.objects.filter(pk=other.pk).update(
        choices={**other.choices, "ante_max": 900_00}
    )
    second.refresh_from_db()
    assert second.rules["ante_max"] == 500_00
    services.fail_unfinished_round(table.pk)


def test_rules_change_between_rounds_is_immediate(
    table: Any, rules: RulesSubmission, staff: Any
) -> None:
    other = game_rules("Other rules", bad_beat_paytable="C")
    assert services.change_rules(table.pk, other, staff).response["pending"] is False
    table.refresh_from_db()
    assert table.rules_id == other.pk and table.pending_rules_id is None


def test_rules_that_break_the_regulation_cannot_be_put_in_force(table: Any, staff: Any) -> None:
    bad = game_rules("Too low", payout_limit=1_000_00)
    with pytest.raises(services.ServiceError) as refused:
        services.change_rules(table.pk, bad, staff)
    assert refused.value.code == "bad_rules"
    assert "$50,000.00" in refused.value.message


def test_every_round_records_its_rules(game: Game, alice: Any, table: Any) -> None:
    game.sit(alice, 1)
    for ante in (5_00, 10_00):
        game.play([(alice, 1, {"ante": ante})])
    for row in Round.objects.filter(table=table):
        assert row.rules == row.rules_submission.game_rules().to_dict()
        assert row.state["rules"] == row.rules


def _play_a_settled_and_a_void_round(game: Game, alice: Any, bob: Any, table: Any) -> None:
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.play(
        [(alice, 1, {"ante": 10_00, "all_six": 5_00}), (bob, 2, {"ante": 5_00, "prime": 1_00})]
    )
    game.open()
    game.bet(alice, 1, ante=5_00)
    services.arm_fault(table.pk, "two_face_up_cards", game.dealer)
    game.deal()  # §684a.13(a): the shoe finds two cards face up and the round is void


def test_every_event_round_trips_json(
    game: Game,
    alice: Any,
    bob: Any,
    table: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    published: list[tuple[int, int, int | None, list[Any]]] = []
    monkeypatch.setattr(
        broadcast,
        "publish",
        lambda pub: published.append((pub.table_id, pub.version, pub.round_id, pub.events)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        _play_a_settled_and_a_void_round(game, alice, bob, table)
    kinds = {e.kind for *_, events in published for e in events}
    assert {
        "round_opened",
        "hole_cards",
        "decision",
        "box_settled",
        "round_settled",
        "round_void",
        "balance",
    } <= kinds
    unstable = []
    for table_id, version, round_id, events in published:
        for event in events:
            as_dict = event.to_dict()
            if json.loads(json.dumps(as_dict)) != as_dict:
                unstable.append(event.kind)
        public, private = broadcast.frames(table_id, version, round_id, events)
        for frame in (public, *private.values()):
            json.dumps(frame)
    # What the log stored is what a client receives over the websocket.
    for row in RoundEvent.objects.filter(table=table):
        assert json.loads(json.dumps(row.data)) == row.data
    assert unstable == []


def test_the_event_log_is_hash_chained_and_append_only(
    game: Game, alice: Any, bob: Any, table: Any
) -> None:
    _play_a_settled_and_a_void_round(game, alice, bob, table)
    prev = ""
    versions = []
    for row in RoundEvent.objects.filter(table=table).order_by("version", "seq"):
        assert row.prev_hash == prev
        assert row.compute_hash() == row.hash
        prev = row.hash
        versions.append(row.version)
    table.refresh_from_db()
    assert table.last_hash == prev
    assert versions == sorted(versions) and versions[-1] == table.version
    # Append-only: no row is changed or removed.
    event = RoundEvent.objects.filter(table=table).first()
    assert event is not None
    event.kind = "forged"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        RoundEvent.objects.filter(pk=event.pk).delete()
    with pytest.raises(AppendOnlyError):
        RoundEvent.objects.filter(pk=event.pk).update(kind="forged")
    assert RoundEvent.objects.get(pk=event.pk).kind != "forged"


def test_round_ledger_entries_are_tied_to_the_round(game: Game, alice: Any, table: Any) -> None:
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 10_00, "prime": 2_00})])
    row = current_row(table)
    txs = LedgerTransaction.objects.filter(round=row)
    assert txs.exists()
    player = Account.objects.get(user=alice)
    moved = Entry.objects.filter(transaction__round=row, account=player).aggregate(t=Sum("amount"))
    assert moved["t"] == balance(alice) - START


def test_a_poor_player_cannot_be_carried_below_zero(game: Game, table: Any) -> None:
    poor = make_player("poor", 20_00)
    game.sit(poor, 1)
    game.open()
    game.bet(poor, 1, ante=10_00)
    game.deal()
    assert balance(poor) == 0
    with pytest.raises(services.ServiceError) as refused:
        services.decide(table.pk, poor, 1, 1)
    assert refused.value.code == "insufficient_funds"
    services.decide(table.pk, poor, 1, 0)  # folding is always possible
    game.finish()
    assert balance(poor) >= 0
