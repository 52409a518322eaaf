"""Five Card Hi-Lo's voids through the platform's services (ch. 663a): the table closing
before the deal; a stub miscount, misdealt or not (§663a.10(f))."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from table import services
from table.games.base import Actor
from table.models import RoundEvent, Table
from tests.services.conftest import START, balance, make_player
from tests.services.tables import (
    books_balance,
    lose_a_stub_card,
    offered,
    refused,
    state,
    tamper,
    voids_tried,
)

from .test_at_table import HILO, hilo

pytestmark = [pytest.mark.django_db]

__all__ = ["hilo"]  # the fixture, used by name


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


def test_the_voids_the_console_offers() -> None:
    """From betting to the decisions, with the stub right and wrong: the voids its dealer's
    moves offer (each accepted). No declared dealer card exposed: only the shoe exposes one."""
    assert voids_tried("five_card_hi_lo") == {
        "betting": 1,
        "closed": 1,
        "decisions": 0,
        "miscount": 1,
    }
