"""The audit of a round (``verify_round``) for the games after Four Card Frenzy, through their
interface: a clean round passes every check; a changed settlement line, box record, salt or
ledger entry is found (§657a.10, §663a.10: every hand can be reconstructed)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection

from table import audit, services
from table.games import game as game_named
from table.games.base import Actor
from table.models import BoxRecord, Round, SettlementLine, Table
from tests.services.conftest import StackedSource, make_player
from tests.services.test_games_at_table import HILO_SHOE, make_table

pytestmark = [pytest.mark.django_db]


@pytest.fixture(params=["crazy_4_poker", "five_card_hi_lo"])
def played(request: Any, monkeypatch: pytest.MonkeyPatch) -> Round:
    """One settled round of the game, two players, everyone playing."""
    return play_rounds(request.param, monkeypatch, 1)[-1]


def play_rounds(name: str, monkeypatch: pytest.MonkeyPatch, count: int) -> list[Round]:
    """``count`` settled rounds of the game at one table, two players, everyone playing."""
    game = game_named(name)
    choices: dict[str, Any] = {}
    if game.name == "crazy_4_poker":
        choices = {"progressive": None, "hand_bonus": None}  # no meters to link
    table, dealer = make_table(game.name, game, **choices)
    monkeypatch.setattr(services.dealing, "RANDOM", StackedSource(*[HILO_SHOE] * count))
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 3)
    rounds = []
    for _ in range(count):
        services.open_betting(table.pk, dealer)
        services.act(table.pk, alice, "bet", 1, {"ante": 10_00})
        services.act(table.pk, bob, "bet", 3, {"ante": 5_00})
        services.no_more_bets(table.pk, dealer)
        services.deal(table.pk, dealer)
        while True:
            table.refresh_from_db()
            row = Round.objects.get(pk=table.current_round_id)
            state = game.from_dict(row.state)
            moves = [
                (user, m)
                for user in (alice, bob)
                for m in game.moves(state, Actor.player(user.username))
            ]
            if not moves:
                break
            user, move = moves[0]
            services.act(table.pk, user, move.name, move.box or 0, dict(move.choices[-1].args))
        services.reveal(table.pk, dealer)
        services.settle(table.pk, dealer)
        rounds.append(Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id))
    return rounds


def test_a_clean_round_passes(played: Round) -> None:
    report = audit.verify_round(played.pk)
    assert report.problems == []
    assert any("commitment" in c for c in report.checks)
    assert any("committed shoe" in c for c in report.checks)
    assert any("ledger" in c for c in report.checks)


@pytest.mark.parametrize("name", ["crazy_4_poker", "five_card_hi_lo"])
def test_every_round_of_a_table_passes(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round after the table's first looks back for the shoe faults armed since the
    previous deal (§657a.13, §663a.13): that look-back reads the earlier round as its own
    game's round (it crashed on a Four Card Frenzy parse before)."""
    first, second = play_rounds(name, monkeypatch, 2)
    assert second.number == first.number + 1
    for row in (first, second):
        report = audit.verify_round(row.pk)
        assert report.problems == [], report.problems
        assert any("committed shoe" in c for c in report.checks)


def test_a_changed_settlement_line_is_found(played: Round) -> None:
    line = SettlementLine.objects.filter(round=played).first()
    SettlementLine.objects.filter(pk=line.pk).update(net=line.net + 1)
    assert any("settlement lines" in p for p in audit.verify_round(played.pk).problems)


def test_changed_cards_are_found(played: Round) -> None:
    BoxRecord.objects.filter(round=played, box=1).update(cards="2C 3C 4C 5C 6C")
    assert any("record" in p for p in audit.verify_round(played.pk).problems)


def test_a_changed_salt_is_found(played: Round) -> None:
    state = dict(played.state)
    state["salt"] = "0" * 32
    # Written past the ORM, as a tamperer would: the audit reads what is stored.
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE table_round SET state = %s WHERE id = %s",
            [json.dumps(state), played.pk],
        )
    problems = audit.verify_round(played.pk).problems
    assert any("commitment" in p for p in problems)
