"""The dealer's voids at every game, through the platform's services: each reason a game's
dealer moves offer is the game's own and is passed to it as the console sends it, and every
void the console offers is accepted.

Crazy 4 Poker (ch. 657a): the table closing while betting; a stub count that shows the deck is
not 52 cards (§657a.10(f)) - each returns every stake and takes the round's meter increments
back out; a dealer card exposed (§657a.13(d)) only from the shoe, at the deal. Five Card Hi-Lo
(ch. 663a): the table closing before the deal; a stub miscount, misdealt or not (§663a.10(f)).
Four Card Frenzy's own refusals stay as they were
(its services tests: tests/games/<game>/services/test_irregularities.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import transaction

from table import meters, services
from table.games import game as game_named
from table.games.base import VOID, Actor
from table.games.cards import card_code
from table.models import MeterEvent, Round, RoundEvent, Table

from .conftest import START, balance, make_player
from .test_games_at_table import (
    C4P,
    HILO,
    books_balance,
    c4p,
    hilo,
    make_table,
    refused,
    standing,
    state,
)

pytestmark = [pytest.mark.django_db]

__all__ = ["c4p", "hilo"]  # the fixtures, used by name


def void_event(table: Table) -> RoundEvent:
    return RoundEvent.objects.filter(table=table, kind="round_void").get()


def offered(table: Table) -> list[str]:
    """The voids the dealer's console offers now (the dealer's moves in the round view)."""
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    g = game_named(row.game)
    return [
        c.args["reason"]
        for m in g.moves(g.from_dict(row.state), Actor.dealer())
        if m.name == VOID
        for c in m.choices
    ]


def tamper(table: Table, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the stored round as a miscounted deck would have it (the virtual shoe deals 52)."""
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    change(row.state)
    row.save()


def lose_a_stub_card(stored: dict[str, Any]) -> None:
    stored["stub"] = stored["stub"][1:]


# --- Crazy 4 Poker ------------------------------------------------------------------------------


def c4p_dealt(
    c4p: Any, drill: str | None = None
) -> tuple[Table, Any, Any, Any, dict[str, tuple[int, int]]]:
    """Alice (box 1: progressive and hand bonus) and bob (box 2) dealt (with the shoe's
    ``drill`` armed before the deal, if any); the meters' seeds."""
    table, dealer, linked = c4p
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 2)
    seeds = {k: standing(m) for k, m in linked.items()}
    services.open_betting(table.pk, dealer)
    services.act(
        table.pk, alice, "bet", 1, {"ante": 5_00, "progressive": 1_00, "hand_bonus_player": 1_00}
    )
    services.act(table.pk, bob, "bet", 2, {"ante": 10_00, "hand_bonus_dealer": 1_00})
    services.no_more_bets(table.pk, dealer)
    assert {k: standing(m) for k, m in linked.items()} != seeds
    if drill is not None:
        services.arm_fault(table.pk, drill, dealer)
    services.deal(table.pk, dealer)
    return table, dealer, alice, bob, seeds


def all_back(c4p: Any, seeds: dict[str, tuple[int, int]], *players: Any) -> None:
    """§657a.13: every stake back, side bets included, and the increments taken back out."""
    _, _, linked = c4p
    assert all(balance(p) == START for p in players)
    assert {k: standing(m) for k, m in linked.items()} == seeds
    assert MeterEvent.objects.filter(kind=MeterEvent.REVERSAL).count() == len(seeds)


def test_crazy_4_poker_a_dealer_card_is_exposed_only_by_the_shoe(c4p: Any) -> None:
    """§657a.13(d) in the virtual shoe: nobody sees a dealer card before the reveal, so the
    console offers no declared exposure and refuses one (even naming a card the dealer
    holds: checked against the hand, it would let a dealer guess until a round was void)."""
    table, dealer, alice, bob, _ = c4p_dealt(c4p)
    services.act(table.pk, alice, "decide", 1, {"play": 15_00})  # box 2 still to decide
    assert "dealer_card_exposed" not in offered(table)
    seen = card_code(state(table).dealer_cards[2])
    everyone = (alice, bob)
    for evidence in (None, {"card": seen}, {"card": "2C"}):
        refused(
            "shoe_only",
            table,
            everyone,
            partial(services.void_round, table.pk, "dealer_card_exposed", dealer, evidence),
        )
    refused(
        "shoe_only",
        table,
        everyone,
        lambda: services.dealer_card_exposed(table.pk, dealer, card=seen),
    )
    assert state(table).phase.value == "decisions"


def test_crazy_4_poker_the_shoe_exposing_a_dealer_card_voids_everything(c4p: Any) -> None:
    """§657a.13(d) from the shoe (the drill armed before the deal): the deal voids the round,
    every wager back, side bets included, and the meter increments taken back out."""
    table, _, alice, bob, seeds = c4p_dealt(c4p, drill="dealer_card_exposed")
    rnd = state(table)
    assert rnd.phase.value == "void" and rnd.void_reason == "dealer_card_exposed"
    all_back(c4p, seeds, alice, bob)
    books_balance(table)


@pytest.mark.parametrize("named", ["stub_count_wrong", "stub_miscount"])
def test_crazy_4_poker_a_stub_that_counts_wrong_voids_and_reverses_the_meters(
    c4p: Any, named: str
) -> None:
    """§657a.10(f): counted, not trusted; the platform's word ``stub_miscount`` is the game's
    ``stub_count_wrong``."""
    table, dealer, alice, bob, seeds = c4p_dealt(c4p)
    assert "stub_count_wrong" not in offered(table)
    refused(
        "stub_correct",
        table,
        (alice, bob),
        lambda: services.void_round(table.pk, named, dealer),
    )
    tamper(table, lose_a_stub_card)
    assert "stub_count_wrong" in offered(table)
    services.void_round(table.pk, named, dealer)
    assert state(table).void_reason == "stub_count_wrong"
    assert void_event(table).data["evidence"] == {"count": 51}
    all_back(c4p, seeds, alice, bob)


def test_crazy_4_poker_the_table_closes_while_betting(c4p: Any) -> None:
    table, dealer, _ = c4p
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    services.act(table.pk, alice, "bet", 1, {"ante": 5_00, "progressive": 1_00})
    assert offered(table) == ["table_closed"]
    services.void_round(table.pk, "table_closed", dealer)
    assert state(table).void_reason == "table_closed"
    assert not Table.objects.get(pk=table.pk).is_open
    assert balance(alice) == START
    assert void_event(table).data["evidence"] == {"closed_by": f"dealer:{dealer.username}"}
    books_balance(table)


# --- Five Card Hi-Lo ----------------------------------------------------------------------------


def hilo_at(hilo: Any, phase: str) -> tuple[Table, Any, Any]:
    table, dealer = hilo
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    services.act(table.pk, alice, "bet", 1, {"ante": 10_00, "tie": 1_00, "poker_bonus": 1_00})
    if phase != "betting":
        services.no_more_bets(table.pk, dealer)
    if phase == "decisions":
        services.deal(table.pk, dealer)
    assert state(table).phase.value == phase
    return table, dealer, alice


@pytest.mark.parametrize("phase", ["betting", "closed"])
def test_five_card_hi_lo_the_table_closes_before_the_deal(hilo: Any, phase: str) -> None:
    table, dealer, alice = hilo_at(hilo, phase)
    assert "table_closed" in offered(table)
    services.void_round(table.pk, "table_closed", dealer)
    assert state(table).void_reason == "table_closed"
    assert not Table.objects.get(pk=table.pk).is_open
    assert balance(alice) == START
    books_balance(table)


def test_five_card_hi_lo_a_stub_miscount_voids_and_the_deck_leaves(hilo: Any) -> None:
    """§663a.10(f): the count shows the deck is not 52 cards, not misdealt: void, the deck
    removed."""
    table, dealer, alice = hilo_at(hilo, "decisions")
    tamper(table, lose_a_stub_card)
    assert "stub_miscount" in offered(table)
    services.void_round(table.pk, "stub_miscount", dealer)
    assert state(table).void_reason == "stub_miscount"
    procedure = RoundEvent.objects.get(table=table, kind="irregularity_procedure")
    assert procedure.data["remove_deck"] is True
    assert balance(alice) == START
    books_balance(table)


def test_five_card_hi_lo_a_misdeal_found_by_the_stub_count_voids(hilo: Any) -> None:
    """§663a.10(f): the stub counts wrong because a box holds six cards, 52 in all: misdealt,
    void, every wager back."""
    table, dealer, alice = hilo_at(hilo, "decisions")

    def six_cards(stored: dict[str, Any]) -> None:
        stored["boxes"][0]["cards"].append(stored["stub"].pop(0))

    tamper(table, six_cards)
    assert "stub_miscount_misdealt" in offered(table)
    services.void_round(table.pk, "stub_miscount_misdealt", dealer)
    assert state(table).void_reason == "stub_miscount_misdealt"
    procedure = RoundEvent.objects.get(table=table, kind="irregularity_procedure")
    assert procedure.data["remove_deck"] is False
    assert balance(alice) == START
    books_balance(table)


@pytest.mark.parametrize("reason", ["stub_miscount", "stub_miscount_misdealt"])
def test_five_card_hi_lo_a_stub_that_counts_52_voids_nothing(hilo: Any, reason: str) -> None:
    """§663a.10(e): a stub count that shows 52 cards and no misdeal voids nothing (the refusal
    Crazy 4 Poker gives)."""
    table, dealer, alice = hilo_at(hilo, "decisions")
    assert offered(table) == []
    refused("stub_correct", table, (alice,), lambda: services.void_round(table.pk, reason, dealer))


@pytest.mark.parametrize("phase", ["setting", "revealed"])
def test_five_card_hi_lo_no_stub_void_once_play_has_gone_on(hilo: Any, phase: str) -> None:
    """§663a.10(c)-(f), §663a.11(a): the stub is counted right after the deal, before the
    players examine their cards. Once the hands are being set, or the dealer's is face up, a
    stub void (even with a card gone) would let the dealer choose the outcome: refused."""
    table, dealer, alice = hilo_at(hilo, "decisions")
    services.act(table.pk, alice, "decide", 1, {"play": True})
    if phase == "revealed":
        [move] = HILO.moves(state(table), Actor.player("alice"))
        services.act(table.pk, alice, "set_hands", 1, dict(move.choices[0].args))
        services.reveal(table.pk, dealer)
    assert state(table).phase.value == phase
    tamper(table, lose_a_stub_card)
    assert offered(table) == []
    for reason in ("stub_miscount", "stub_miscount_misdealt"):
        refused(
            "irregularity_not_now",
            table,
            (alice,),
            partial(services.void_round, table.pk, reason, dealer),
        )


# --- every game: what the console offers works ------------------------------------------------


def every_offered_void_is_accepted(table: Table, dealer: Any) -> int:
    """Each void the dealer's moves offer now, sent as the console sends it, is accepted:
    tried in a savepoint, rolled back."""
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    g = game_named(row.game)
    rnd = g.from_dict(row.state)
    tried = 0
    for move in g.moves(rnd, Actor.dealer()):
        if move.name != VOID:
            continue
        for choice in move.choices:
            savepoint = transaction.savepoint()
            try:
                services.void_round(table.pk, choice.args["reason"], dealer)
                assert Round.objects.get(pk=row.pk).phase == "void"
            finally:
                transaction.savepoint_rollback(savepoint)
            tried += 1
    return tried


@pytest.mark.parametrize("name", ["four_card_frenzy", "crazy_4_poker", "five_card_hi_lo"])
def test_every_void_the_console_offers_is_accepted(name: str) -> None:
    """At every game, from betting to the decisions, with the stub right and wrong: each void
    the dealer's moves offer is accepted (the table closing, a stub miscount); those it does
    not offer are refused (above, and in the games' own tests)."""
    g = game_named(name)
    table, dealer = make_table(name, g)
    if name == C4P.name:
        meters.create_meter("five card A", "five_card", "A", 100, [table])
        meters.create_meter("hand bonus", "hand_bonus", "", 100, [table])
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    if name == "four_card_frenzy":
        services.place_bets(table.pk, alice, 1, {"ante": 10_00})
    else:
        services.act(table.pk, alice, "bet", 1, {"ante": 10_00})
    tried = {"betting": every_offered_void_is_accepted(table, dealer)}
    services.no_more_bets(table.pk, dealer)
    tried["closed"] = every_offered_void_is_accepted(table, dealer)
    services.deal(table.pk, dealer)
    tried["decisions"] = every_offered_void_is_accepted(table, dealer)
    tamper(table, lose_a_stub_card)  # a stub count that shows a miscount
    tried["miscount"] = every_offered_void_is_accepted(table, dealer)
    # The table closing while betting, and the miscount, at every game; Hi-Lo's table
    # closing before the deal. No game offers a declared dealer card exposed: only the shoe
    # exposes one (§684a.13(d), §657a.13(d)).
    assert (
        tried
        == {
            "four_card_frenzy": {"betting": 1, "closed": 0, "decisions": 0, "miscount": 1},
            "crazy_4_poker": {"betting": 1, "closed": 0, "decisions": 0, "miscount": 1},
            "five_card_hi_lo": {"betting": 1, "closed": 1, "decisions": 0, "miscount": 1},
        }[name]
    )
