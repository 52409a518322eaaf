"""No Crazy 4 Poker round can be stuck (issue 23): a round the live table settles, it settles to
the cent of ``manage.py settle_round`` for the stored round, with the dealer's jackpot shared
between boxes and the table game system's Magic Card and Lucky Bonus drawn at a stacked
table. A round's meters and its players' names fixed while it is in play, at every game:
tests/services/test_round_integrity.py."""

from __future__ import annotations

from typing import Any

import pytest

from table import audit, integrity, ledger, meters, services
from table.games import settle_one
from table.games.cards import parse_card
from table.models import MeterEvent, ProgressiveMeter, Round
from tests.games.crazy_4_poker.services.test_at_table import C4P
from tests.services.conftest import START, StackedSource, balance, make_player
from tests.services.tables import books_balance, make_table, state

pytestmark = [pytest.mark.django_db]

#: Box 1 a straight flush in hearts, box 2 eight high, the dealer a royal flush in clubs.
JACKPOT_SHOE = (
    ["9H", "TH", "JH", "QH", "KH"] + ["2S", "3S", "6D", "7D", "8D"] + ["AC", "KC", "QC", "JC", "TC"]
)


def standing(meter: ProgressiveMeter) -> dict[str, int]:
    meter.refresh_from_db()
    return {"amount": meter.amount, "reserve": meter.reserve}


def play1x(table: Any, user: Any, box: int) -> None:
    from table.games.base import Actor

    [move] = [m for m in C4P.moves(state(table), Actor.player(user.username)) if m.box == box]
    services.act(table.pk, user, move.name, box, move.choices[1].args)


def test_the_dealer_s_jackpot_with_a_box_s_own_hit_between_its_shares_settles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The audit's reproduction: the dealer's royal flush shares the hand-bonus meter between
    boxes 2 and 1 (§657a.12(f)(2)) and box 1, settled between those shares (§657a.11(c): box 6
    first), also wins a percentage of it on its own straight flush. The live table settles it,
    to the cent of ``settle_round`` for the stored round; so does the house's clean-up."""
    for clear in (False, True):
        table, dealer = make_table(f"C4P jackpot {clear}", C4P)
        linked = {
            "five_card": meters.create_meter(
                f"five card A {clear}", "five_card", "A", 100, [table]
            ),
            "hand_bonus": meters.create_meter(
                f"hand bonus {clear}", "hand_bonus", "", 100, [table]
            ),
        }
        monkeypatch.setattr(services.dealing, "RANDOM", StackedSource(JACKPOT_SHOE))
        alice, bob = make_player(f"alice{clear}"), make_player(f"bob{clear}")
        services.sit(table.pk, alice, 1)
        services.sit(table.pk, bob, 2)
        services.open_betting(table.pk, dealer)
        wagers = {"ante": 5_00, "hand_bonus_player": 1_00, "hand_bonus_dealer": 1_00}
        services.act(table.pk, alice, "bet", 1, wagers)
        services.act(table.pk, bob, "bet", 2, {"ante": 5_00, "hand_bonus_dealer": 1_00})
        before = {kind: standing(m) for kind, m in linked.items()}
        services.no_more_bets(table.pk, dealer)
        services.deal(table.pk, dealer)
        play1x(table, alice, 1)
        play1x(table, bob, 2)
        services.reveal(table.pk, dealer)
        if clear:
            services.fail_unfinished_round(table.pk)
        else:
            services.settle(table.pk, dealer)
        row = Round.objects.get(pk=state_row(table))
        assert row.phase == "settled"
        wanted = settle_one(
            {
                "game": "crazy_4_poker",
                "rules": {
                    "queens_up_paytable": "A",
                    "progressive": {"type": "five_card", "paytable": "A", "wager": 100},
                    "hand_bonus": {"wager": 100},
                    "six_card_bonus_paytable": "A",
                },
                "meters": before,
                "dealer": JACKPOT_SHOE[10:],
                "boxes": [
                    {
                        "box": 1,
                        "player": alice.username,
                        "cards": JACKPOT_SHOE[:5],
                        "wagers": {
                            "ante": 500,
                            "super_bonus": 500,
                            "play": 500,
                            "hand_bonus": 100,
                            "hand_bonus_on": "both",
                        },
                    },
                    {
                        "box": 2,
                        "player": bob.username,
                        "cards": JACKPOT_SHOE[5:10],
                        "wagers": {
                            "ante": 500,
                            "super_bonus": 500,
                            "play": 500,
                            "hand_bonus": 100,
                            "hand_bonus_on": "dealer",
                        },
                    },
                ],
            }
        )
        # Box 1's own straight flush won a percentage of a meter the jackpot had just reset:
        # less than its $1 stake, so a loss (the outcome follows the net), whose row still
        # says what the hand hit.
        [box1] = [b for b in wanted["boxes"] if b["box"] == 1]
        own = box1["wagers"]["hand_bonus_player"]
        assert own["net"] < 0 and own["outcome"] == "lose"
        assert integrity.outcome_problems(wanted) == []
        lines = {
            (b["box"], r["wager"]): r for b in row.state["results"]["boxes"] for r in b["results"]
        }
        assert lines[1, "hand_bonus_player"]["outcome"] == "lose"
        assert balance(alice) - START == wanted["players"][alice.username]["net"]
        assert balance(bob) - START == wanted["players"][bob.username]["net"]
        for kind, meter in linked.items():
            got = standing(meter)
            assert got == {k: wanted["meters"][kind][k] for k in ("amount", "reserve")}
        paid = MeterEvent.objects.filter(round=row, kind=MeterEvent.HIT)
        assert (
            sum(e.paid for e in paid if e.meter.kind == "hand_bonus")
            == (wanted["meters"]["hand_bonus"]["paid"])
        )
        books_balance(table)
        assert audit.verify_round(row.pk).problems == []
        assert ledger.verify() == []


def state_row(table: Any) -> int:
    table.refresh_from_db()
    return int(table.current_round_id)


# --- the table game system's draws at a stacked table ---------------------------------------------

#: Box 1 nine high, box 2 queen high, the dealer king high: no meter pays.
PLAIN_SHOE = (
    ["9H", "4C", "7D", "2S", "JC"] + ["3H", "5C", "8D", "TS", "QC"] + ["KS", "6H", "2C", "4D", "9S"]
)


def _drawing_table(monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[Any, Any, Any, Any, Any]:
    """A Crazy 4 Poker table whose rules draw the Magic Card and the Lucky Bonus half the
    time, its hand-bonus meter linked, and the stacked shoe; betting open, alice on box 1 with
    both hand-bonus wagers, bob on box 2 with the Ante only."""
    table, dealer = make_table(
        name, C4P, magic_card_probability="1/2", lucky_bonus_probability="1/2"
    )
    for kind, paytable in (("five_card", "A"), ("hand_bonus", "")):
        meters.create_meter(f"{name} {kind}", kind, paytable, 100, [table])
    source = StackedSource(PLAIN_SHOE)
    monkeypatch.setattr(services.dealing, "RANDOM", source)
    alice, bob = make_player(f"alice-{name}"), make_player(f"bob-{name}")
    services.sit(table.pk, alice, 1)
    services.sit(table.pk, bob, 2)
    services.open_betting(table.pk, dealer)
    wagers = {"ante": 5_00, "hand_bonus_player": 1_00, "hand_bonus_dealer": 1_00}
    services.act(table.pk, alice, "bet", 1, wagers)
    services.act(table.pk, bob, "bet", 2, {"ante": 5_00})
    services.no_more_bets(table.pk, dealer)
    # The deal's draws: the Magic Card triggered (0 of 2) and drawn as box 1's 9H; the Lucky
    # Bonus triggered and drawn as position 1 (box 1).
    source.script(0, parse_card("9H"), 0, 0)
    services.deal(table.pk, dealer)
    return table, dealer, source, alice, bob


def test_a_stacked_table_draws_the_magic_card_and_lucky_bonus_and_pays_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, dealer, source, alice, bob = _drawing_table(monkeypatch, "C4P draws")
    assert source.draws == []  # every scripted draw was taken by the deal
    rnd = state(table)
    assert (rnd.magic_card, rnd.lucky_position) == (parse_card("9H"), 1)
    play1x(table, alice, 1)
    play1x(table, bob, 2)
    services.reveal(table.pk, dealer)
    services.settle(table.pk, dealer)
    row = Round.objects.select_related("table").get(pk=state_row(table))
    document = C4P.contract_round(C4P.from_dict(row.state))
    assert document is not None
    assert (document["magic_card"], document["lucky_position"]) == ("9H", 1)
    answer = settle_one(document)
    [box1] = [b for b in answer["boxes"] if b["box"] == 1]
    # §657a.12(f)(3): 20 for 1 and 5 for 1 on the $1 player-hand wager, on top of its result.
    assert box1["bonuses"] == {"magic_card": 20_00, "lucky_bonus": 5_00}
    assert balance(alice) - START == answer["players"][alice.username]["net"]
    assert integrity.round_problems(row) == []
    books_balance(table)


def test_a_void_after_the_draws_pays_no_bonus_and_takes_the_increments_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, dealer, _, alice, bob = _drawing_table(monkeypatch, "C4P draws void")
    assert state(table).magic_card == parse_card("9H")
    hand_bonus = ProgressiveMeter.objects.get(tables=table, kind="hand_bonus")
    fed = MeterEvent.objects.get(meter=hand_bonus, kind=MeterEvent.INCREMENT)
    services.fail_unfinished_round(table.pk)  # the house gives the round up before the reveal
    row = Round.objects.select_related("table").get(pk=state_row(table))
    assert row.phase == "void"
    assert balance(alice) == START and balance(bob) == START
    assert standing(hand_bonus) == {"amount": fed.amount_before, "reserve": fed.reserve_before}
    assert integrity.round_problems(row) == []
    books_balance(table)
