"""The round detail's "Paytable row" column (admin and recall) names the posted row that
paid each line: it was always empty (issue 28, bug 7)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from table import services
from table.demo import make_user
from table.games.base import Actor
from table.models import Round, SettlementLine
from tests.games.crazy_4_poker.services.test_at_table import C4P, c4p  # noqa: F401  (the fixture)
from tests.services.conftest import make_player
from tests.services.tables import state

pytestmark = [pytest.mark.django_db]


def test_a_crazy_4_poker_win_names_its_paytable_row(c4p: Any) -> None:  # noqa: F811
    table, dealer, _ = c4p
    alice, bob = make_player("alice"), make_player("bob")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 2)
    services.open_betting(table.pk, dealer)
    # Box 1 is dealt a royal flush in hearts (the fixture's shoe); box 2 a pair of nines.
    services.act(table.pk, alice, "bet", 1, {"ante": 5_00, "queens_up": 2_00})
    services.act(table.pk, bob, "bet", 2, {"ante": 5_00, "queens_up": 2_00})
    services.no_more_bets(table.pk, dealer)
    services.deal(table.pk, dealer)
    for user, box in ((alice, 1), (bob, 2)):
        [move] = [m for m in C4P.moves(state(table), Actor.player(user.username)) if m.box == box]
        services.act(table.pk, user, move.name, box, move.choices[1].args)
    services.reveal(table.pk, dealer)
    services.settle(table.pk, dealer)
    rows = {
        (line.box, line.wager): line.row
        for line in SettlementLine.objects.filter(round__table=table)
    }
    # Queens Up pays on the best four: a straight flush (a royal's best four) as posted.
    assert rows[(1, "queens_up")].lower().startswith("straight flush")
    assert " to 1" in rows[(1, "queens_up")]
    assert rows[(1, "super_bonus")].endswith("to 1")
    assert rows[(2, "queens_up")] == ""  # a pair of nines loses: no row paid it
    assert rows[(1, "ante")] == ""  # even money is no paytable's row

    rnd = Round.objects.get(pk=table.current_round_id)
    staff = Client()
    staff.force_login(make_user("boss", staff=True))
    page = staff.get(f"/admin/table/round/{rnd.pk}/change/").content.decode()
    assert rows[(1, "queens_up")] in page
    player = Client()
    player.force_login(alice)
    recall = player.get(f"/rounds/{rnd.pk}/").content.decode()
    assert rows[(1, "queens_up")] in recall
