"""Settlement rules (§684a.11(c),(d), §684a.12, §684a.13(d)) on hand-picked layouts.

Most tests go through the ``settle_round`` contract (:func:`settle_document`); expected nets
are worked out by hand from the regulation, with the posted figures of :mod:`posted`.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from table.games.cards import parse_card
from table.games.four_card_frenzy.settlement import (
    BoxInPlay,
    Outcome,
    Rules,
    apply_payout_limit,
    settle,
)
from tests.examples import rules_md_round

from . import posted
from .helpers import box, cards, nets, outcomes, settle_one

# Dealer hands used below.
DEALER_QUEEN_HIGH = "QS JD 9H 8C 2S"  # does not qualify
DEALER_KING_HIGH = "KS 9D 7H 4C 2S"  # qualifies, just
DEALER_PAIR_OF_SEVENS = "7S 7D KH 4C 2S"


def figure(text: str) -> Fraction:
    win, per = text.replace(",", "").split(" to ")
    return Fraction(win) / Fraction(per)


# --- the dealer's qualifier and ties (§684a.11(c)(2)-(4)) ------------------------------------


def test_king_high_dealer_qualifies() -> None:
    result = settle_one(DEALER_KING_HIGH, box(1, "AS 9C 7D 4H 2D"))  # ace high beats it
    assert result["dealer"] == {
        "hand": ["KS", "9D", "7H", "4C"],
        "category": "high_card",
        "qualifies": True,
    }
    assert nets(result) == {"ante": 1000, "odds": 0, "raise": 1000}
    lost = settle_one(DEALER_KING_HIGH, box(1, "QC 9C 7D 4H 2D"))
    assert nets(lost) == {"ante": -1000, "odds": -1000, "raise": -1000}


def test_queen_high_dealer_does_not_qualify_ante_pushes() -> None:
    win = settle_one(DEALER_QUEEN_HIGH, box(1, "AS 9C 7D 4H 3D"))
    assert win["dealer"]["qualifies"] is False
    assert outcomes(win) == {"ante": "push", "odds": "push", "raise": "win"}
    assert nets(win) == {"ante": 0, "odds": 0, "raise": 1000}
    # The Raise and Odds are settled against the hand whether or not the dealer qualifies.
    lose = settle_one(DEALER_QUEEN_HIGH, box(1, "JC 9C 7D 4H 3D"))
    assert nets(lose) == {"ante": 0, "odds": -1000, "raise": -1000}


def test_a_tie_goes_to_the_player() -> None:
    # "greater than or equal to the dealer's hand": the same pair and kickers in other suits.
    result = settle_one(DEALER_PAIR_OF_SEVENS, box(1, "7H 7C KD 4D 2C"))
    assert result["boxes"][0]["category"] == "pair"
    # Ante and Raise win, the Odds with two pair or lower pushes.
    assert outcomes(result) == {"ante": "win", "odds": "push", "raise": "win"}
    assert nets(result) == {"ante": 1000, "odds": 0, "raise": 1000}


def test_a_tie_on_a_non_qualifying_hand() -> None:
    result = settle_one(DEALER_QUEEN_HIGH, box(1, "QD JC 9S 8D 2C"))
    assert nets(result) == {"ante": 0, "odds": 0, "raise": 1000}


@pytest.mark.parametrize(
    "dealer, player, category, ratio",
    [
        ("AS 2D 3H 4C 9S", "AD 2C 3S 4H 9D", "straight", Fraction(1)),
        ("2H 7H 9H KH 3S", "2D 7D 9D KD 3C", "flush", Fraction(3, 2)),
        ("AH 2H 3H 4H 9S", "AS 2S 3S 4S 9D", "straight_flush", Fraction(15)),
    ],
)
def test_a_tie_with_a_straight_or_better_pays_the_odds(
    dealer: str, player: str, category: str, ratio: Fraction
) -> None:
    result = settle_one(dealer, box(1, player, ante=1001))
    assert result["boxes"][0]["category"] == category
    assert result["dealer"]["category"] == category
    assert outcomes(result) == {"ante": "win", "odds": "win", "raise": "win"}
    assert nets(result) == {"ante": 1001, "odds": int(1001 * ratio), "raise": 1001}


# --- the Odds Wager when the player wins or copies (§684a.12(b)) ------------------------------


@pytest.mark.parametrize(
    "player, row",
    [
        ("AS AD AH AC 2S", 0),  # Four aces 200 to 1
        ("KS KD KH KC 2S", 1),  # Any other four-of-a-kind 30 to 1
        ("2S 2D 2H 2C 3S", 1),
        ("AH 2H 3H 4H 9S", 2),  # Straight flush 15 to 1 (the lowest)
        ("AH KH QH JH 9S", 2),
        ("5S 5D 5H 9C 2S", 3),  # Three-of-a-kind 2 to 1
        ("2H 7H 9H KH 3S", 4),  # Flush 3 to 2
        ("AS 2D 3H 4C 9S", 5),  # Straight 1 to 1 (A-2-3-4)
    ],
)
@pytest.mark.parametrize("stake", [1000, 1001, 7])
def test_odds_paid_on_a_win(player: str, row: int, stake: int) -> None:
    result = settle_one("6C 6D 8D TD JC", box(1, player, ante=stake))  # a pair of sixes
    expected = int(stake * figure(posted.ODDS[row][1]))  # a fractional cent rounded down
    assert outcomes(result)["odds"] == "win"
    assert nets(result) == {"ante": stake, "odds": expected, "raise": stake}


def test_flush_three_to_two_rounds_down_to_the_cent() -> None:
    result = settle_one(DEALER_KING_HIGH, box(1, "2H 6H 8H QH 3D", ante=333))
    assert nets(result)["odds"] == 499  # 499.5
    result = settle_one(DEALER_KING_HIGH, box(1, "2H 6H 8H QH 3D", ante=1))
    assert nets(result)["odds"] == 1  # 1.5


def test_two_pair_or_lower_odds_pushes_on_a_win_and_loses_on_a_loss() -> None:
    win = settle_one(DEALER_PAIR_OF_SEVENS, box(1, "AS AD KC KD 2C"))
    assert nets(win) == {"ante": 1000, "odds": 0, "raise": 1000}
    lose = settle_one("AS AH KS KH 2D", box(1, "QS QD JC JD 2C"))
    assert nets(lose) == {"ante": -1000, "odds": -1000, "raise": -1000}


# --- four aces (200 to 1; they cannot lose) -------------------------------------------------


def test_four_aces_win_against_the_best_other_dealer_hand() -> None:
    # The best hand the dealer can hold alongside four aces: four kings.
    result = settle_one("KS KD KH KC QS", box(1, "AS AD AH AC 2S", ante=500, raise_=1500))
    assert nets(result) == {"ante": 500, "odds": 500 * 200, "raise": 1500}
    assert result["players"]["p1"] == {"net": 500 + 100_000 + 1500, "payout_limit_applied": False}


# --- bad beats: every row of every table (§684a.12(c), Appendix B) ----------------------------

# (player's hand, a better dealer hand) for the rows four-of-a-kind, straight flush,
# three-of-a-kind, flush, straight.
BAD_BEATS = [
    ("2S 2D 2H 2C 3S", "AS AD AH AC KS"),  # quads under higher quads
    ("AH 2H 3H 4H 9S", "2S 3S 4S 5S 9D"),  # the lowest straight flush under a higher one
    ("KS KD KH 2C 3S", "AS AD AH 4C 5D"),  # trips under higher trips
    ("2H 7H 9H KH 3S", "3D 7D 9D AD 4C"),  # flush under a higher flush
    ("AS 2D 3H 4C 9S", "5C 6D 7H 8S TD"),  # A-2-3-4 under 5-6-7-8
]
BAD_BEAT_CASES = [
    (name, row, player, dealer)
    for name in posted.BAD_BEAT
    for row, (player, dealer) in enumerate(BAD_BEATS)
]


@pytest.mark.parametrize(
    "name, row, player, dealer",
    BAD_BEAT_CASES,
    ids=[f"{n}-{posted.BAD_BEAT[n][r][0]}" for n, r, _, _ in BAD_BEAT_CASES],
)
def test_every_bad_beat_row(name: str, row: int, player: str, dealer: str) -> None:
    stake = 1001
    result = settle_one(dealer, box(1, player, ante=stake), bad_beat_paytable=name)
    written = posted.BAD_BEAT[name][row][1]
    # The Ante and Raise lose, the Odds is paid the bad beat and its stake is not taken.
    assert outcomes(result) == {"ante": "lose", "odds": "win", "raise": "lose"}
    assert nets(result) == {"ante": -stake, "odds": int(stake * figure(written)), "raise": -stake}


def test_bad_beat_stays_with_a_folded_hand() -> None:
    # A fold forfeits the Odds: no bad beat for a hand that did not raise.
    result = settle_one("AS AD AH AC KS", box(1, "2S 2D 2H 2C 3S", raise_=0))
    assert nets(result) == {"ante": -1000, "odds": -1000}


# --- fold with the optional wagers in action (§684a.11(b)(2)) ---------------------------------


def test_fold_loses_ante_and_odds_and_settles_the_optional_wagers() -> None:
    result = settle_one(
        DEALER_KING_HIGH,
        box(1, "AH AD QH QD 9H", raise_=0, prime=100, four_card_bonus=100, all_six=100),
        all_six_card="AC",
    )
    assert outcomes(result) == {
        "ante": "lose",
        "odds": "lose",
        "prime": "win",
        "four_card_bonus": "win",
        "all_six": "win",
    }
    assert "raise" not in result["boxes"][0]["wagers"]
    # Prime: five red cards 6 to 1; two aces and two queens 1 to 1; full house 25 to 1 (A).
    assert nets(result) == {
        "ante": -1000,
        "odds": -1000,
        "prime": 600,
        "four_card_bonus": 100,
        "all_six": 2500,
    }
    assert result["players"]["p1"]["net"] == -2000 + 600 + 100 + 2500


@pytest.mark.parametrize("fold", [{"raise": 0}, {"raise": None}, {}])
def test_every_way_of_writing_a_fold(fold: dict[str, object]) -> None:
    b = box(1, "AS KD 9C 7D 2H")
    del b["wagers"]["raise"]
    b["wagers"].update(fold)
    result = settle_one(DEALER_KING_HIGH, b)
    assert nets(result) == {"ante": -1000, "odds": -1000}


@pytest.mark.parametrize("absent", [{}, {"prime": 0}, {"prime": None}])
def test_optional_wager_absent_zero_or_null_is_not_placed(absent: dict[str, object]) -> None:
    b = box(1, "AS KD 9C 7D 2H")
    b["wagers"].update(absent)
    result = settle_one(DEALER_KING_HIGH, b)
    assert "prime" not in result["boxes"][0]["wagers"]


# --- the payout limit (§684a.12(g)) -----------------------------------------------------------


def test_payout_limit_applies_to_the_sum_over_a_players_boxes() -> None:
    # p1 plays boxes 1 and 2, p2 box 3. Dealer: two pair, qualifies.
    limit = 50_000
    result = settle_one(
        "9S 9D 4H 4C 2S",
        # Box 1: four aces, 1x: Ante 1,000 + Raise 1,000 + Odds 200,000 = 202,000.
        box(1, "AS AD AH AC 3S", ante=1000, player="p1", four_card_bonus=1000),
        # Box 2: a pair of fives loses Ante, Raise and Odds (3,000), its bonus is paid.
        box(2, "5S 5D KH QC 3D", ante=1000, player="p1", prime=100),
        # Box 3: a straight: Ante 500 + Raise 500 + Odds 500 = 1,500, under the limit.
        box(3, "6S 7D 8H 9C 3C", ante=500, player="p2"),
        payout_limit=limit,
    )
    box1, box2, box3 = (nets(result, i) for i in range(3))
    assert box1 == {"ante": 1000, "odds": 200_000, "raise": 1000, "four_card_bonus": 50_000}
    assert box2 == {"ante": -1000, "odds": -1000, "raise": -1000, "prime": -100}
    # The lines show what the hands won; the player's total is capped: Ante/Raise/Odds
    # winnings (202,000) capped at the limit, losses still collected, the Four Card Bonus
    # (four aces 50 to 1 on table A) never capped.
    assert box3 == {"ante": 500, "odds": 500, "raise": 500}
    assert result["players"]["p1"] == {
        "net": limit - 3000 - 100 + 50_000,
        "payout_limit_applied": True,
    }
    assert result["players"]["p2"] == {"net": 1500, "payout_limit_applied": False}


def test_payout_limit_reached_only_by_two_boxes_together() -> None:
    # Each box wins 32,000 on Ante, Raise and Odds (quads 30 to 1): under the limit alone,
    # over it together.
    stake = 1000
    per_box = stake + stake + 30 * stake
    result = settle_one(
        "AS AD 4H 5C 7S",
        box(1, "KS KD KH KC 2S", ante=stake),
        box(2, "QS QD QH QC 2D", ante=stake),
        payout_limit=50_000,
    )
    assert nets(result, 0)["odds"] == nets(result, 1)["odds"] == 30 * stake
    assert 2 * per_box > 50_000 > per_box
    assert result["players"]["p1"] == {"net": 50_000, "payout_limit_applied": True}
    alone = settle_one("AS AD 4H 5C 7S", box(1, "KS KD KH KC 2S", ante=stake), payout_limit=50_000)
    assert alone["players"]["p1"] == {"net": per_box, "payout_limit_applied": False}


def test_payout_limit_counts_bad_beats_and_not_optional_wagers() -> None:
    result = settle_one(
        "AS AD AH AC KS",
        box(1, "2S 2D 2H 2C 3S", ante=1000, four_card_bonus=1000),
        bad_beat_paytable="D",
        payout_limit=100_000,
    )
    # Bad beat 500 to 1 = 500,000 capped at 100,000; Ante and Raise lost; quads bonus 50 to 1.
    assert nets(result)["odds"] == 500_000
    assert result["players"]["p1"] == {
        "net": 100_000 - 2000 + 50_000,
        "payout_limit_applied": True,
    }


def test_payout_limit_exactly_reached_is_not_applied() -> None:
    result = settle_one(DEALER_KING_HIGH, box(1, "AS 9C 7D 4H 3D"), payout_limit=2000)
    assert result["players"]["p1"] == {"net": 2000, "payout_limit_applied": False}


def test_apply_payout_limit_reports_what_is_withheld() -> None:
    rules = Rules.from_names(payout_limit=50_000)
    settled = settle(
        cards("9S 9D 4H 4C 2S"),
        [
            BoxInPlay(
                1, "p1", tuple(cards("AS AD AH AC 3S")), {"ante": 1000, "odds": 1000, "raise": 3000}
            )
        ],
        rules,
    )
    (total,) = apply_payout_limit(settled.boxes, 50_000)
    assert total.withheld == 1000 + 3000 + 200_000 - 50_000
    assert total.net == 50_000 and total.payout_limit_applied
    (free,) = apply_payout_limit(settled.boxes, None)
    assert free.withheld == 0 and free.net == 204_000


# --- Prime (§684a.12(d)) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, hand, net",
    [
        ("A", "2H 5D 9H KD AH", 600),  # five red
        ("B", "2H 5D 9H KD AH", 500),
        ("Prime-1", "2S 5C 9S KC AS", 600),  # five black
        ("Prime-2", "2S 5C 9S KC AS", 500),
        ("A", "2H 5D 9H KD AS", 100),  # four red
        ("B", "2S 5C 9S KC AH", 100),  # four black
        ("A", "2S 5C 9H KD AH", -100),  # three and two
    ],
)
def test_prime(table: str, hand: str, net: int) -> None:
    result = settle_one("3C 6D 8C TS JD", box(1, hand, prime=100), prime_paytable=table)
    assert nets(result)["prime"] == net


# --- Four Card Bonus (§684a.12(e), Appendix C) ------------------------------------------------


@pytest.mark.parametrize(
    "table, hand, net",
    [
        ("A", "AS AD QH QC 2S", 100),  # two aces and two queens 1 to 1
        ("A", "AS AD KH KC 2S", 200),  # other two pair 2 to 1
        ("H", "KS KD QH QC 2S", 200),
        ("A", "QS QD 9H 7C 2S", -100),  # a pair does not pay in Pennsylvania
        ("FC-1", "AS AD QH QC 2S", 200),  # the manufacturer's Two Pair row
        ("FC-7", "QS QD 9H 7C 3S", 100),  # QQ-AA 1 to 1
        ("FC-12", "KS KD 9H 7C 3S", 100),
        ("FC-3", "AS AD 9H 7C 3S", 100),
        ("FC-3", "JS JD 9H 7C 3S", -100),
        ("C", "AS AD AH 9C 3S", 2000),  # three aces 20 to 1
        ("C", "AH KH QH JH 3S", 5000),  # royal 50 to 1
        ("FC-1", "AH KH QH JH 3S", 3000),
    ],
)
def test_four_card_bonus(table: str, hand: str, net: int) -> None:
    result = settle_one(
        "5C 6D 8C TS 3H",
        box(1, hand, raise_=0, four_card_bonus=100),
        four_card_bonus_paytable=table,
    )
    assert nets(result)["four_card_bonus"] == net


# --- All-Six (§684a.12(f)) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, hand, six, net",
    [
        ("E", "AD KD QD JD TD", "9D", 200_000 * 100),  # six-card royal, diamonds
        ("E", "AH KH QH JH 9H", "TH", 20_000 * 100),  # six-card royal, hearts
        ("E", "AS KS QS JS TS", "9S", 20_000 * 100),
        ("E", "AC KC QC TC 9C", "JC", 20_000 * 100),
        ("E", "AD KD QD JD TD", "2C", 1000 * 100),  # a five-card royal flush
        ("A", "AD KD QD JD TD", "9D", 1000 * 100),  # no six-card row: paid as a royal flush
        ("B", "AH KH QH JH TH", "9H", 1000 * 100),
        ("C", "AS KS QS JS TS", "9S", 1000 * 100),
        ("D", "AD KD QD JD 9D", "TD", 1000 * 100),
        ("A", "AS 2D 3H 4C KD", "5S", 10 * 100),  # the wheel A-2-3-4-5 is a straight
        ("C", "AS 2D 3H 4C KD", "5S", 9 * 100),
        ("A", "AH 2H 3H 4H KD", "5H", 200 * 100),  # ... and suited, a straight flush
        ("A", "JS QD KH AC 2S", "3D", -100),  # no wrap-around
        ("D", "7S 7D 7H KC QS", "2D", 7 * 100),
        ("C", "7S 7D KH KC QS", "7H", 20 * 100),  # full house
    ],
)
def test_all_six(table: str, hand: str, six: str, net: int) -> None:
    result = settle_one(
        "6C 6S 8C 8S 4D",
        box(1, hand, raise_=0, all_six=100),
        all_six_card=six,
        all_six_paytable=table,
    )
    assert nets(result)["all_six"] == net


def test_all_six_card_is_shared_by_every_box() -> None:
    result = settle_one(
        "5C 6D 8C TS 3H",
        box(1, "7S 7D KH QC 2S", all_six=100, player="a"),
        box(2, "9S 9D 4H 4C 2D", all_six=100, player="b"),
        all_six_card="7H",
    )
    assert nets(result, 0)["all_six"] == 500  # trips
    assert nets(result, 1)["all_six"] == -100


# --- §684a.13(d): a dealer card exposed before the decisions --------------------------------


def test_dealer_card_exposed_returns_main_wagers_and_settles_optional_ones() -> None:
    boxes = [
        BoxInPlay(
            1,
            "p1",
            tuple(cards("AH AD QH QD 9H")),
            {"ante": 1000, "odds": 1000, "raise": 3000, "prime": 100, "four_card_bonus": 100},
        ),
        BoxInPlay(2, "p2", tuple(cards("2S 7C 9D JH 4S")), {"ante": 500, "odds": 500}),
    ]
    result = settle(cards("KS KD KH KC QS"), boxes, Rules.from_names(), main_game_void=True)
    box2, box1 = result.boxes  # settled from the dealer's right
    assert {r.wager: (r.outcome, r.net) for r in box1.results} == {
        "ante": (Outcome.VOID, 0),
        "odds": (Outcome.VOID, 0),
        "raise": (Outcome.VOID, 0),
        "prime": (Outcome.WIN, 600),
        "four_card_bonus": (Outcome.WIN, 100),
    }
    assert all(r.returned == r.stake for r in box1.results[:3])
    assert {r.wager: r.outcome for r in box2.results} == {
        "ante": Outcome.VOID,
        "odds": Outcome.VOID,
    }
    assert result.player("p1").net == 700 and result.player("p2").net == 0


# --- settlement order and the shape of the result ---------------------------------------------


def test_boxes_are_settled_from_the_dealers_right() -> None:
    boxes = [
        BoxInPlay(n, f"p{n}", tuple(cards(h)), {"ante": 100, "odds": 100, "raise": 100})
        for n, h in [(2, "2S 3S 4S 5S 7D"), (5, "2D 3D 4D 5D 7C"), (1, "9H 9C 4H 4C 2H")]
    ]
    result = settle(cards("AS AD KH QC JH"), boxes, Rules.from_names())
    assert [b.box for b in result.boxes] == [5, 2, 1]
    assert [r.wager for r in result.boxes[0].results] == ["ante", "raise", "odds"]


def test_contract_output_keeps_the_input_order_and_the_documented_keys() -> None:
    result = settle_one(
        DEALER_KING_HIGH,
        box(3, "AS 9C 7D 4H 3D", player="x", prime=5, four_card_bonus=5, all_six=5),
        box(1, "QC 8C 6C 4D 2D", player="y"),
        all_six_card="8H",
    )
    assert list(result) == ["dealer", "boxes", "players"]
    assert [b["box"] for b in result["boxes"]] == [3, 1]
    assert list(result["boxes"][0]) == ["box", "player", "hand", "category", "wagers"]
    assert list(result["boxes"][0]["wagers"]) == [
        "ante",
        "odds",
        "raise",
        "prime",
        "four_card_bonus",
        "all_six",
    ]
    assert set(result["players"]) == {"x", "y"}


def test_the_example_of_rules_md() -> None:
    doc = rules_md_round()
    from table.games.four_card_frenzy.contract import settle_document

    assert settle_document(doc) == EXAMPLE_OUTPUT


EXAMPLE_OUTPUT = {
    "dealer": {"hand": ["AS", "KD", "7H", "7C"], "category": "pair", "qualifies": True},
    "boxes": [
        {
            "box": 1,
            "player": "p1",
            "hand": ["QS", "QH", "QD", "9H"],
            "category": "three_of_a_kind",
            "wagers": {
                "ante": {"outcome": "win", "net": 1000},
                "odds": {"outcome": "win", "net": 2000},
                "raise": {"outcome": "win", "net": 3000},
                "prime": {"outcome": "lose", "net": -500},
                "four_card_bonus": {"outcome": "win", "net": 4000},
                "all_six": {"outcome": "win", "net": 2500},
            },
        }
    ],
    "players": {"p1": {"net": 12000, "payout_limit_applied": False}},
}


def test_a_round_with_no_boxes_settles_the_dealer_only() -> None:
    result = settle(cards("AS KD 7H 7C 2S"), [], Rules.from_names())
    assert result.boxes == () and result.players == ()
    assert result.dealer.cards == tuple(parse_card(c) for c in ("AS", "KD", "7H", "7C"))
