"""The audit of a round (``verify_round``) for every game the registry holds, through the
interface: a clean round passes every check; a changed settlement line, box record, salt or
ledger entry is found (§657a.10, §663a.10: every hand can be reconstructed)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from table import audit, services
from table.demo import link_meters
from table.games import GAMES
from table.games import game as game_named
from table.games.base import Actor
from table.models import BoxRecord, Round, SettlementLine, Table
from tests.services.conftest import StackedSource, make_player
from tests.services.tables import make_table

pytestmark = [pytest.mark.django_db]

User = get_user_model()
#: The first cards of each shuffle: box 1 two aces, box 3 a straight, then the dealer's.
SHOE = (
    ["AS", "AD", "7C", "4H", "2S"] + ["5C", "6D", "7H", "8S", "9C"] + ["KC", "QD", "JS", "3C", "8D"]
)


@pytest.fixture(params=list(GAMES))
def table_of(request: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Table, Any, Any]:
    """A table of the game under its default rules with the meters they need linked (its
    dealer, a shoe source), two players seated at boxes 1 and 3."""
    game = game_named(request.param)
    table, dealer = make_table(game.name, game)
    link_meters(table, table.rules)
    monkeypatch.setattr(services.dealing, "RANDOM", StackedSource(SHOE))
    services.sit(table.pk, make_player("alice"), 1)
    services.sit(table.pk, make_player("bob"), 3)
    return table, dealer, game


def play_round(table: Table, dealer: Any, game: Any) -> Round:
    """One settled round, both players betting and playing."""
    alice, bob = (User.objects.get(username=n) for n in ("alice", "bob"))
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
    return Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)


@pytest.fixture
def played(table_of: tuple[Table, Any, Any]) -> Round:
    """One settled round of the game, two players, everyone playing."""
    return play_round(*table_of)


def test_a_later_round_passes(table_of: tuple[Table, Any, Any]) -> None:
    """The audit of a table's second round looks back for the previous deal (the shoe faults
    armed since): it reads that round by its own game, not as the unkeyed game's round."""
    play_round(*table_of)
    second = play_round(*table_of)
    assert second.number == 2
    assert audit.verify_round(second.pk).problems == []


def test_a_clean_round_passes(played: Round) -> None:
    report = audit.verify_round(played.pk)
    assert report.problems == []
    assert any("commitment" in c for c in report.checks)
    assert any("committed shoe" in c for c in report.checks)
    assert any("ledger" in c for c in report.checks)


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
