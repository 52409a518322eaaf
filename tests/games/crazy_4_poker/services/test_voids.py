"""Crazy 4 Poker's voids through the platform's services (ch. 657a): the table closing while
betting; a stub count that shows the deck is not 52 cards (§657a.10(f)) - each returns every
stake and takes the round's meter increments back out; a dealer card exposed (§657a.13(d))
only from the shoe, at the deal."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from table import services
from table.games.cards import card_code
from table.models import MeterEvent, Table
from tests.services.conftest import START, balance, make_player
from tests.services.tables import (
    books_balance,
    lose_a_stub_card,
    offered,
    refused,
    standing,
    state,
    tamper,
    void_event,
    voids_tried,
)

from .test_at_table import c4p

pytestmark = [pytest.mark.django_db]

__all__ = ["c4p"]  # the fixture, used by name


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


def test_the_voids_the_console_offers() -> None:
    """From betting to the decisions, with the stub right and wrong: the voids its dealer's
    moves offer (each accepted). No declared dealer card exposed: only the shoe exposes one."""
    assert voids_tried("crazy_4_poker") == {
        "betting": 1,
        "closed": 0,
        "decisions": 0,
        "miscount": 1,
    }
