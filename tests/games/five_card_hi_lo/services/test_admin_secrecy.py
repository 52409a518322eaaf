"""Five Card Hi-Lo's round in the admin: its hole cards stay hidden while the boxes set their
hands (the admin's secrecy at any game: tests/services/test_admin_secrecy.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from table import ledger, services
from table.demo import make_user
from table.games import game
from table.models import RoundEvent, RulesSubmission, Table
from tests.services.conftest import current_row, make_player
from tests.services.test_admin_secrecy import event_page, shows

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


@pytest.fixture
def boss() -> Any:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    return client


def test_a_five_card_hi_lo_round_setting_its_hands_is_still_in_play(boss: Client) -> None:
    """Five Card Hi-Lo has a phase the other games lack (setting, §663a.11(d)): while the
    boxes set their hands their hole cards are still theirs alone, in the admin too."""
    hilo = game("five_card_hi_lo")
    rules = RulesSubmission.objects.create(
        name="Hi-Lo rules", game=hilo.name, choices=hilo.rules_to_dict(hilo.default_rules())
    )
    table = Table.objects.create(name="Hi-Lo", rules=rules)
    ledger.table_bankroll(table)
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 3)
    services.open_betting(table.pk)
    services.act(table.pk, alice, "bet", 1, {"ante": 10_00})
    services.act(table.pk, bob, "bet", 3, {"ante": 10_00})
    services.no_more_bets(table.pk)
    services.deal(table.pk)
    services.act(table.pk, alice, "decide", 1, {"play": True})
    services.act(table.pk, bob, "decide", 3, {"play": True})
    assert current_row(table).phase == "setting"
    hole = RoundEvent.objects.get(table=table, kind="hole_cards", data__box=1)
    page = event_page(boss, hole)
    assert "Hidden until the round is over: at the table only alice sees it." in page
    assert not any(shows(page, card) for card in hole.data["cards"])
    assert hole.hash not in page
