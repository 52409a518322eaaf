"""What the felt shows of a round: a hand folded with no optional wager goes to the discard
rack unseen and the table never sees it again (§684a.11(b)(2)); every payout is posted
(§684a.2(b)(4)), the even-money Ante and Raise included."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from table import services
from table.models import Table
from table.snapshot import posted_paytables, snapshot

from .conftest import Game, engine_round

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def box_view(table: Table, user: Any, box: int) -> dict[str, Any]:
    view = snapshot(table.pk, user)["round"]
    return next(b for b in view["boxes"] if b["box"] == box)


def test_a_fold_without_optional_wagers_leaves_the_layout_at_once(
    game: Game, table: Table, alice: Any, bob: Any, dealer: Any, stack_shoe: Any
) -> None:
    stack_shoe(
        [
            *("2C", "7D", "9H", "JS", "4D"),  # box 1, alice: folds, Ante only
            *("3C", "8D", "TH", "QS", "5D"),  # box 2, bob: folds with a Prime wager
            *("KS", "QH", "8C", "6D", "5S"),  # dealer
        ]
    )
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.open()
    game.bet(alice, 1, ante=10_00)
    game.bet(bob, 2, ante=10_00, prime=5_00)
    game.deal()
    services.decide(table.pk, alice, 1, 0)
    services.decide(table.pk, bob, 2, 0)
    assert engine_round(table).to_act is None  # decisions made, before the reveal
    for viewer in (bob, dealer, AnonymousUser()):
        folded = box_view(table, viewer, 1)
        assert folded["mucked"] is True, viewer
        assert folded["cards"] is None
    # With an optional wager the cards stay on the layout until it is settled.
    assert not box_view(table, alice, 2).get("mucked")
    # The owner still knows what they folded.
    assert box_view(table, alice, 1)["cards"] == ["2C", "7D", "9H", "JS", "4D"]


def test_the_posted_signs_include_ante_raise_and_the_odds_push(table: Table) -> None:
    signs = posted_paytables(table.rules.game_rules())
    names = [s["wager"] for s in signs]
    ante = signs[names.index("Ante and Raise")]
    assert ("Ante: dealer below king high", "push") in [tuple(r) for r in ante["rows"]]
    assert any("Raise" in hand and pays == "1 to 1" for hand, pays in ante["rows"])
    odds = next(s for s in signs if s["wager"].startswith("Odds ("))
    assert ("Two pair or lower", "push") in [tuple(r) for r in odds["rows"]]
    assert not any("copy" in s["wager"] for s in signs)  # house jargon, unexplained
