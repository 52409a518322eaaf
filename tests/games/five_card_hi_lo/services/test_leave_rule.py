"""One rule for every wager of a box its player leaves (issue 23, §663a.7(b)): at Five Card
Hi-Lo a player who leaves after Play and before setting loses the Ante, the Play and the Tie
Wager (the Tie used to be settled, and paid, from a hand the house set for them); the Poker
Bonus stays in action, and the leave dialog says so. Every game saying its rule on the leave
dialog: tests/services/test_leave_rule.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from table import services
from table.games.base import Actor
from table.models import Round, RoundEvent
from table.snapshot import snapshot
from tests.games.five_card_hi_lo.services.test_at_table import HILO, HILO_SHOE
from tests.services.conftest import START, StackedSource, balance, make_player
from tests.services.tables import make_table, state

pytestmark = [pytest.mark.django_db]


def test_a_hi_lo_player_who_leaves_before_setting_loses_every_wager_but_the_poker_bonus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, dealer = make_table("Hi-Lo", HILO)
    monkeypatch.setattr(services.dealing, "RANDOM", StackedSource(HILO_SHOE))
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 3)
    services.open_betting(table.pk, dealer)
    services.act(table.pk, alice, "bet", 1, {"ante": 10_00, "tie": 1_00, "poker_bonus": 1_00})
    services.act(table.pk, bob, "bet", 3, {"ante": 5_00})
    services.no_more_bets(table.pk, dealer)
    services.deal(table.pk, dealer)
    services.act(table.pk, alice, "decide", 1, {"play": True})
    services.act(table.pk, bob, "decide", 3, {"play": True})
    services.leave(table.pk, alice)  # in the setting step, her box not set yet
    forfeit = RoundEvent.objects.get(table=table, kind="hands_set", data__box=1)
    assert forfeit.data["why"] == "abandoned" and forfeit.data["forfeited"] == 21_00
    # No hand is made up for her: no private setting of box 1.
    assert not RoundEvent.objects.filter(table=table, kind="setting", data__box=1).exists()
    moves = HILO.moves(state(table), Actor.player("bob"))
    bob_choice = next(m for m in moves if m.name == "set_hands").choices[0]
    services.act(table.pk, bob, "set_hands", 3, dict(bob_choice.args))
    services.reveal(table.pk, dealer)
    services.settle(table.pk, dealer)
    lines = {line["wager"]: line for line in _results(table, 1)}
    assert [lines[w]["outcome"] for w in ("ante", "play", "tie")] == ["lose"] * 3
    poker_bonus = lines["poker_bonus"]["net"]
    # She paid 22_00 (Ante, Tie, Poker Bonus, Play); only a winning Poker Bonus comes back.
    assert balance(alice) == START - 22_00 + (1_00 + poker_bonus if poker_bonus > 0 else 0)


def test_the_hi_lo_leave_dialog_names_the_wagers_lost() -> None:
    table, _ = make_table("Hi-Lo", HILO)
    rule = snapshot(table.pk, AnonymousUser())["table"]["felt"]["leave_rule"]
    assert "Ante, Play and Tie" in rule and "Ante, Play and Tie" in HILO.felt.leave_rule


def _results(table: Any, box: int) -> list[dict[str, Any]]:
    row = Round.objects.filter(table=table).order_by("-pk").first()
    assert row is not None
    [settled] = [b for b in row.state["results"]["boxes"] if b["box"] == box]
    return list(settled["results"])
