"""Crazy 4 Poker's meters (§657a.12) through the platform's store (table/meters.py): the
increments at "no more bets" and the hits a settled round pays agree with its engine
(CRAZY_4_POKER.md "Meters"). The store's own rules at any table: tests/services/test_meters.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from table import ledger, meters
from table.games.cards import parse_card
from table.games.crazy_4_poker.contract import parse_box
from table.games.crazy_4_poker.rules import Rules
from table.games.crazy_4_poker.settlement import no_more_bets, settle_round
from table.games.progressive import Meter
from table.models import MeterEvent, ProgressiveMeter, Table
from tests.services.test_meters import (
    Hit,
    five_card_c,
    meters_agree,  # noqa: F401  (autouse: the meters verify)
    new_round,
    stakes,
    standing,
)

pytestmark = pytest.mark.django_db


def test_increments_at_close_feed_every_meter_and_count_folded_boxes(
    table: Table, hand_bonus: ProgressiveMeter, alice: Any, bob: Any
) -> None:
    m = five_card_c("c", 100, table)
    rnd = new_round(table)
    # Three progressive wagers (box 1 will fold: it still fed the meters) and four hand-bonus
    # hands, as the engine's no_more_bets counts them.
    rules = Rules.from_names("A", ("five_card", "C", 100), 100)
    boxes = [
        parse_box({"box": 1, "player": "alice", "cards": ["2H", "3H", "4S", "9D", "KD"],
                   "wagers": {"ante": 500, "super_bonus": 500, "play": 0, "progressive": 100,
                              "hand_bonus": 100, "hand_bonus_on": "both"}}, 0),
        parse_box({"box": 3, "player": "bob", "cards": ["2D", "3D", "4D", "5D", "6D"],
                   "wagers": {"ante": 500, "super_bonus": 500, "play": 500, "progressive": 100,
                              "hand_bonus": 100, "hand_bonus_on": "player"}}, 1),
        parse_box({"box": 5, "player": "bob", "cards": ["AS", "KS", "QS", "JS", "TS"],
                   "wagers": {"ante": 500, "super_bonus": 500, "play": 500, "progressive": 100,
                              "hand_bonus": 100, "hand_bonus_on": "dealer"}}, 2),
    ]  # fmt: skip
    before = {k: Meter(*standing(v)) for k, v in {**m, "hand_bonus": hand_bonus}.items()}
    expected, _ = no_more_bets(rules, boxes, before)
    progressive = [b.wagers.progressive for b in boxes]
    hands = [
        s for b in boxes for s in (b.wagers.hand_bonus_player, b.wagers.hand_bonus_dealer) if s
    ]
    bankroll = ledger.table_bankroll(table).balance
    with transaction.atomic():
        incs = meters.apply_increments(table, rnd, stakes(progressive, hands))
    for kind, meter in {**m, "hand_bonus": hand_bonus}.items():
        assert standing(meter) == (expected[kind].amount, expected[kind].reserve)
    # 3 wagers x 9% / 7% / 3% of $1; 4 hands x 13% + 8% reserve.
    assert (incs["mega"].primary, incs["major"].primary, incs["minor"].primary) == (27, 21, 9)
    assert (incs["hand_bonus"].primary, incs["hand_bonus"].reserve) == (52, 32)
    # The drop in the table's bankroll pays for them.
    assert ledger.table_bankroll(table).balance == bankroll - (27 + 21 + 9 + 52 + 32)
    event = MeterEvent.objects.get(meter=hand_bonus, kind="increment")
    assert (event.table_id, event.round_id, event.round_number, event.stakes) == (
        table.pk, rnd.pk, rnd.number, 4,
    )  # fmt: skip


def test_hits_agree_with_the_engine_s_settlement(
    table: Table, hand_bonus: ProgressiveMeter, alice: Any, bob: Any, carol: Any
) -> None:
    """A whole round settled by the engine and paid by the store: the same meters, the same
    payouts, in §657a.11(c)'s order (box 6 first), a second royal getting what the first left,
    the dealer's straight flush split between the live dealer-hand wagers."""
    m = five_card_c("c", 100, table)
    rules = Rules.from_names("A", ("five_card", "C", 100), 100)
    hb = {"ante": 500, "super_bonus": 500, "play": 500, "progressive": 100, "hand_bonus": 100}
    boxes = [
        parse_box({"box": 6, "player": "alice", "cards": ["AH", "KH", "QH", "JH", "TH"],
                   "wagers": {**hb, "hand_bonus_on": "both"}}, 0),
        parse_box({"box": 4, "player": "bob", "cards": ["AS", "KS", "QS", "JS", "TS"],
                   "wagers": {**hb, "hand_bonus_on": "dealer"}}, 1),
        parse_box({"box": 3, "player": "carol", "cards": ["2D", "3D", "4D", "5D", "6D"],
                   "wagers": {**hb, "hand_bonus_on": "dealer"}}, 2),
        parse_box({"box": 1, "player": "alice", "cards": ["2H", "3H", "4S", "9D", "KD"],
                   "wagers": {**hb, "play": 0, "hand_bonus_on": "dealer"}}, 3),
    ]  # fmt: skip
    dealer = [parse_card(c) for c in ("5C", "6C", "7C", "8C", "9C")]
    everything = {**m, "hand_bonus": hand_bonus}
    before = {k: Meter(*standing(v)) for k, v in everything.items()}
    engine = settle_round(rules, dealer, boxes, before)
    rnd = new_round(table)
    hits = [
        Hit("mega", 100, ((6, "alice"),)),
        Hit("hand_bonus", 100, ((6, "alice"),), "hand_bonus_player"),
        Hit("hand_bonus", 10, ((6, "alice"), (4, "bob"), (3, "carol")), "hand_bonus_dealer"),
        Hit("mega", 100, ((4, "bob"),)),
        Hit("major", 100, ((3, "carol"),)),
    ]
    with transaction.atomic():
        meters.apply_increments(
            table,
            rnd,
            {
                "progressive": [b.wagers.progressive for b in boxes],
                "hand_bonus_player": [
                    b.wagers.hand_bonus_player for b in boxes if b.wagers.hand_bonus_player
                ],
                "hand_bonus_dealer": [
                    b.wagers.hand_bonus_dealer for b in boxes if b.wagers.hand_bonus_dealer
                ],
            },
        )
        payments = meters.pay_hits(table, rnd, hits)
    for result in engine.meters:
        assert standing(everything[result.name]) == (result.after.amount, result.after.reserve)
    engine_paid = sorted(
        (b.box, r.wager, r.meter_paid) for b in engine.boxes for r in b.results if r.meter
    )
    assert sorted((p.box, p.wager, p.paid) for p in payments) == engine_paid
