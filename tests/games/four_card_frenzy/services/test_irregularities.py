"""§684a.13 and §684a.5(b), §684a.10(d)-(f): each irregularity has exactly its consequence,
through the services, and the round still verifies against its commitment afterwards."""

from __future__ import annotations

from typing import Any

import pytest

from table import audit, ledger, recall, services
from table.games.cards import codes
from table.games.four_card_frenzy.round import Phase
from table.models import Account, Round, RoundEvent, SettlementLine, Table

from .conftest import START, Game, balance, current_row, engine_round, table_state

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def bankroll(table: Table) -> int:
    return Account.objects.get(table=table).balance


def events_of(row: Round, kind: str) -> list[RoundEvent]:
    return list(RoundEvent.objects.filter(round=row, kind=kind).order_by("version", "seq"))


def verifies(row: Round) -> audit.RoundReport:
    report = audit.verify_round(row.pk)
    assert report.problems == [], report.problems
    return report


def two_boxes(game: Game, alice: Any, bob: Any) -> None:
    game.sit(alice, 1)
    game.sit(bob, 3)
    game.open()
    game.bet(alice, 1, ante=10_00, prime=2_00, four_card_bonus=3_00, all_six=1_00)
    game.bet(bob, 3, ante=25_00)


def test_one_face_up_card_is_discarded_and_dealing_goes_on(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    two_boxes(game, alice, bob)
    services.arm_fault(table.pk, "face_up_card", game.dealer)
    game.deal()
    row = current_row(table)
    rnd = engine_round(table)
    assert rnd.phase is Phase.DECISIONS  # the round goes on
    [face_up] = events_of(row, "face_up_card")
    # The second card out of the shoe was found face up: it is not used (§684a.13(a)).
    assert face_up.data["card"] == codes(rnd.order)[1]
    assert codes(rnd.discards)[0] == face_up.data["card"]
    assert rnd.order[1] not in {c for b in rnd.boxes.values() for c in b.cards}
    assert all(len(b.cards) == 5 for b in rnd.boxes.values()) and len(rnd.dealer_cards) == 5
    assert rnd.boxes[1].cards == [rnd.order[0], *rnd.order[2:6]]  # the next card replaces it
    assert len(rnd.discards) == 1 + 4  # the face-up card and the All-Six stack's other four
    game.decide_all()
    game.finish()
    report = verifies(current_row(table))
    assert any("committed shoe" in c for c in report.checks)


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("two_face_up_cards", "face_up_cards"),  # §684a.13(a): more than one face up
        ("misdeal", "wrong_card_count"),  # §684a.13(c)
        ("jam", "shoe_jam"),  # §684a.13(f)
    ],
)
def test_shoe_faults_void_the_round_and_return_every_stake(
    fault: str, reason: str, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    two_boxes(game, alice, bob)
    house = bankroll(table)
    assert balance(alice) == START - 26_00
    services.arm_fault(table.pk, fault, game.dealer)
    game.deal()
    row = current_row(table)
    assert row.phase == Phase.VOID.value and row.void_reason == reason
    assert balance(alice) == START and balance(bob) == START
    assert bankroll(table) == house - 26_00 - 50_00
    [void] = events_of(row, "round_void")
    assert void.data["returned"] in ({"1": 26_00, "3": 50_00}, {1: 26_00, 3: 50_00})
    assert void.data["evidence"]["faults"] == [fault]  # what the shoe did, as recorded
    assert void.actor == "dealer:dealer"  # who dealt it
    assert not SettlementLine.objects.filter(round=row).exists()
    # The dealer is told what to do with the cards, in §684a.13's words; the players are not.
    [procedure] = events_of(row, "irregularity_procedure")
    assert procedure.audience == "dealer" and procedure.data["reason"] == reason
    assert (
        procedure.data["section"]
        == {
            "face_up_cards": "§684a.13(a)",
            "wrong_card_count": "§684a.13(c)",
            "shoe_jam": "§684a.13(f)",
        }[reason]
    )
    assert procedure.data["reshuffle"] is True and "reshuffled" in procedure.data["words"]
    # The round's full record (the dealer's and staff's) says it in words; a player's does not.
    said = {
        e["kind"]: e
        for e in recall.decorate(recall.round_record(row, full=True), row, full=True)["events"]
    }["irregularity procedure"]
    assert said["summary"] == f"{procedure.data['words']} ({procedure.data['section']})"
    assert said["private"] == "dealer"
    players = recall.decorate(recall.round_record(row, "alice", full=False), row, full=False)
    assert "irregularity procedure" not in {e["kind"] for e in players["events"]}
    verifies(row)
    # The shoe is whole again for the next round: a new shuffle of 52.
    game.open()
    assert len(engine_round(table).order) == 52
    assert not engine_round(table).discards


@pytest.mark.parametrize(
    "reason", ["face_up_cards", "wrong_card_count", "shoe_jam", "stub_miscount"]
)
@pytest.mark.parametrize("when", ["betting", "closed", "decisions", "decided", "revealed"])
def test_the_dealer_cannot_void_a_round_by_saying_so(
    reason: str, when: str, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    """§684a.13(a), (c), (f) are events of the deal: in the virtual shoe only the shoe produces
    them (and then the deal voids the round itself, with what it found). A stub that counts
    52 is no miscount (§684a.10(f)). And once the dealer's hand is face up the round is
    settled (§684a.11(c)): a void then would pick the outcome. A declaration without evidence
    is refused and changes nothing."""
    two_boxes(game, alice, bob)
    if when != "betting":
        services.no_more_bets(table.pk, game.dealer)
    if when in ("decisions", "decided", "revealed"):
        services.deal(table.pk, game.dealer)
        services.decide(table.pk, alice, 1, 1)
    if when in ("decided", "revealed"):
        services.decide(table.pk, bob, 3, 0)
    if when == "revealed":
        services.reveal(table.pk, game.dealer)
    before = table_state(table.pk)
    with pytest.raises(services.ServiceError) as refused:
        services.void_round(table.pk, reason, game.dealer)
    assert refused.value.message
    assert table_state(table.pk) == before
    assert current_row(table).phase != "void"


def test_a_stub_count_after_the_reveal_voids_nothing(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    """After the reveal the dealer settles (§684a.11(c)); the stub is counted after that."""
    two_boxes(game, alice, bob)
    game.deal()
    game.decide_all()
    services.reveal(table.pk, game.dealer)
    row = current_row(table)
    row.state["stub"] = row.state["stub"][1:]  # as if a card went missing
    row.save()
    before = table_state(table.pk)
    with pytest.raises(services.ServiceError) as refused:
        services.count_stub(table.pk, game.dealer)
    assert refused.value.code == "wrong_phase"
    assert table_state(table.pk) == before
    assert current_row(table).phase == "revealed"


def test_a_round_cleared_after_the_reveal_is_settled_not_voided(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    two_boxes(game, alice, bob)
    game.deal()
    game.decide_all()
    services.reveal(table.pk, game.dealer)
    services.fail_unfinished_round(table.pk)
    row = current_row(table)
    assert row.phase == "settled"
    verifies(row)


def test_the_dealer_cannot_declare_a_dealer_card_exposed(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    """In the virtual shoe nobody sees a dealer card before the reveal unless the shoe shows
    it: a declaration mid-decisions (after seeing who raised) would choose whose Raise
    stands. Refused; nothing changes."""
    two_boxes(game, alice, bob)
    game.deal()
    services.decide(table.pk, alice, 1, 1)
    before = table_state(table.pk)
    with pytest.raises(services.ServiceError):
        services.dealer_card_exposed(table.pk, game.dealer)
    assert table_state(table.pk) == before


def test_dealer_card_exposed_returns_the_main_game_and_settles_the_optional_wagers(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    """§684a.13(d) as the virtual shoe produces it: the drill armed before the deal exposes
    a dealer card while dealing, before any Raise, and the card is the evidence."""
    two_boxes(game, alice, bob)
    services.arm_fault(table.pk, "dealer_card_exposed", game.dealer)
    game.deal()
    row = current_row(table)
    rnd = engine_round(table)
    assert row.phase == "settled" and rnd.main_game_void
    [exposed] = events_of(row, "dealer_card_exposed")
    assert exposed.data["card"] in codes(rnd.dealer_cards)
    assert exposed.data["evidence"] == {"faults": ["dealer_card_exposed"]}
    [procedure] = events_of(row, "irregularity_procedure")
    assert procedure.audience == "dealer" and procedure.data["section"] == "§684a.13(d)"
    assert procedure.data["reshuffle"] is True
    lines = {(s.box, s.wager): s for s in SettlementLine.objects.filter(round=row)}
    for key in ((1, "ante"), (1, "odds"), (3, "ante"), (3, "odds")):
        assert (lines[key].outcome, lines[key].net) == ("void", 0)
    optional = [s for (box, w), s in lines.items() if w in ("prime", "four_card_bonus", "all_six")]
    assert {s.wager for s in optional} == {"prime", "four_card_bonus", "all_six"}
    assert balance(bob) == START
    assert balance(alice) == START + sum(s.net for s in optional)
    report = verifies(row)
    assert any("re-settling" in c for c in report.checks)


def test_a_miscounted_deck_is_removed_and_the_other_deck_plays(
    game: Game, alice: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 5_00})])  # the red deck played round 1
    first_back = current_row(table).deck_back
    services.arm_fault(table.pk, "miscount", game.dealer)
    opened = services.open_betting(table.pk, game.dealer)
    # §684a.5(b): the shuffler counted 51; that deck leaves the table and no round opens.
    assert opened.response["opened"] is False
    table.refresh_from_db()
    removed = RoundEvent.objects.filter(table=table, kind="deck_removed").get()
    assert "removed" in removed.data["reason"]
    backs = [d["back"] for d in table.shoe["decks"]]
    assert len(backs) == 1 and first_back in backs  # the other (blue) deck was removed
    assert Round.objects.filter(table=table).count() == 1
    # The submission plays two decks: no round on the one left until new decks come in
    # (bugs14: it used to deal the one deck every round).
    with pytest.raises(services.ServiceError) as short:
        services.open_betting(table.pk, game.dealer)
    assert short.value.code == "deck_short"
    services.change_decks(table.pk, game.dealer)
    table.refresh_from_db()
    assert len(table.shoe["decks"]) == 2
    for _ in range(2):
        game.play([(alice, 1, {"ante": 5_00})])
        verifies(current_row(table))


def test_a_single_deck_table_needs_new_decks_after_a_miscount(
    game: Game, alice: Any, table: Table
) -> None:
    table.rules.choices = {**table.rules.choices, "two_decks": False}
    table.rules.save()
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 5_00})])
    services.arm_fault(table.pk, "miscount", game.dealer)
    assert services.open_betting(table.pk, game.dealer).response["opened"] is False
    with pytest.raises(services.ServiceError) as refused:
        services.open_betting(table.pk, game.dealer)
    assert refused.value.code == "no_deck"
    services.change_decks(table.pk, game.dealer)
    game.play([(alice, 1, {"ante": 5_00})])
    verifies(current_row(table))


def test_the_stub_count(game: Game, alice: Any, bob: Any, table: Table) -> None:
    two_boxes(game, alice, bob)
    game.deal()
    table.refresh_from_db()
    assert table.rounds_since_stub_count == 1
    counted = services.count_stub(table.pk, game.dealer).response
    assert counted["count"] == 52 and counted["correct"] is True  # §684a.10(d)
    table.refresh_from_db()
    assert table.rounds_since_stub_count == 0
    assert engine_round(table).phase is Phase.DECISIONS  # nothing else changes


def test_a_stub_that_counts_wrong_voids_the_round(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    two_boxes(game, alice, bob)
    game.deal()
    services.decide(table.pk, alice, 1, 1)
    # A card went missing from the stub (the only way: someone altered the stored round).
    row = current_row(table)
    row.state["stub"] = row.state["stub"][1:]
    row.save()
    counted = services.count_stub(table.pk, game.dealer).response
    assert counted["count"] == 51 and counted["correct"] is False
    row = current_row(table)
    assert (row.phase, row.void_reason) == ("void", "stub_miscount")  # §684a.10(f)
    [void] = events_of(row, "round_void")
    assert void.data["evidence"] == {"count": 51}
    [procedure] = events_of(row, "irregularity_procedure")
    assert procedure.audience == "dealer" and procedure.data["remove_deck"] is True
    assert balance(alice) == START and balance(bob) == START
    # ... and the round record no longer matches its committed shoe: verify_round says so.
    report = audit.verify_round(row.pk)
    assert any("the stub" in p for p in report.problems)
    assert ledger.verify() == []


def test_a_dealer_card_exposed_after_every_raise_does_not_void_the_main_game(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    two_boxes(game, alice, bob)
    game.deal()
    services.decide(table.pk, alice, 1, 1)
    services.decide(table.pk, bob, 3, 0)  # every Raise Wager is placed
    assert engine_round(table).to_act is None
    with pytest.raises(services.ServiceError):
        services.dealer_card_exposed(table.pk, game.dealer)
