"""Settlement of Crazy 4 Poker rounds, rule by rule (§657a.11, §657a.12)."""

from __future__ import annotations

import pytest

from table.games.crazy_4_poker.settlement import (
    BoxSettlement,
    Outcome,
    RoundSettlement,
    no_more_bets,
)
from table.games.errors import InvalidInput
from table.games.progressive import Meter

from .helpers import box, play_round, rules

NOT_QUALIFYING = "QS JH 9D 7C 5D"  # queen high
KING_HIGH = "KS 8H 5D 3C 2D"
TRIP_NINES = "9S 9H 9D 3C 2D"


def lines(s: BoxSettlement) -> dict[str, tuple[str, int]]:
    return {r.wager: (r.outcome.value, r.net) for r in s.results}


def only(result: RoundSettlement) -> BoxSettlement:
    (b,) = result.boxes
    return b


# --- Ante, Play, Super Bonus: §657a.11(c)(3) -----------------------------------------------------


def test_dealer_not_qualifying_pushes_ante_and_pays_play_even_to_a_lower_hand() -> None:
    # (c)(3)(i); interpretation 2: the Play wins whatever the hands.
    s = only(play_round(rules(), NOT_QUALIFYING, [box(1, "JS TH 8D 6C 4S")]))
    assert lines(s) == {
        "ante": ("push", 0),
        "play": ("win", 1000),
        "super_bonus": ("push", 0),
    }


def test_dealer_not_qualifying_pays_super_bonus_on_a_straight() -> None:
    s = only(play_round(rules(), NOT_QUALIFYING, [box(1, "TC 9C 8H 7H 2S")]))
    assert lines(s)["super_bonus"] == ("win", 1000)


def test_qualifying_dealer_player_higher() -> None:
    # (c)(3)(ii)(B): a winning hand below a straight gets its Super Bonus back.
    s = only(play_round(rules(), KING_HIGH, [box(1, "7S 7H AD 6C 4S")]))
    assert lines(s) == {"ante": ("win", 1000), "play": ("win", 1000), "super_bonus": ("push", 0)}


def test_qualifying_dealer_tie_pushes() -> None:
    # (c)(3)(ii)(C)
    s = only(play_round(rules(), KING_HIGH, [box(1, "KH 8S 5C 3D 2H")]))
    assert lines(s) == {"ante": ("push", 0), "play": ("push", 0), "super_bonus": ("push", 0)}


def test_qualifying_dealer_player_lower_loses_all_three_below_a_straight() -> None:
    # (c)(3)(ii)(A)
    s = only(play_round(rules(), KING_HIGH, [box(1, "QH 8S 5C 3D 7H")]))
    assert lines(s) == {
        "ante": ("lose", -1000),
        "play": ("lose", -1000),
        "super_bonus": ("lose", -1000),
    }


def test_super_bonus_pays_a_losing_straight() -> None:
    # (c)(3)(ii)(A): "shall pay out the Super Bonus Wager" even when the hand loses.
    s = only(play_round(rules(), TRIP_NINES, [box(1, "5H 6S 7C 8D KH")]))
    assert lines(s) == {
        "ante": ("lose", -1000),
        "play": ("lose", -1000),
        "super_bonus": ("win", 1000),
    }


@pytest.mark.parametrize(
    "hand, net",
    [
        ("AS AH AD AC 2S", 200_000),
        ("KS KH KD KC 2S", 30_000),
        ("5H 6H 7H 8H KH", 15_000),
        ("7S 7H 7D AC 4H", 2_000),
        ("AC JC 6C 4C KH", 1_500),  # 3 to 2
    ],
)
def test_super_bonus_paytable_12b(hand: str, net: int) -> None:
    # Whether the dealer qualifies or not, a straight or better pays (§657a.11(c)(3)).
    s = only(play_round(rules(), NOT_QUALIFYING, [box(1, hand, play=3000)]))
    assert lines(s)["super_bonus"] == ("win", net)


def test_play_of_three_times_the_ante_pays_even_money() -> None:
    s = only(play_round(rules(), KING_HIGH, [box(1, "AS AH 9D 6C 4S", play=3000)]))
    assert lines(s)["play"] == ("win", 3000)


# --- Queens Up: §657a.11(d), §657a.12(c) ---------------------------------------------------------


def test_queens_up_pays_a_losing_hand() -> None:
    s = only(play_round(rules("A"), "KC KH 9D 3C 2D", [box(1, "QS QH 8D 6C 4S", queens_up=500)]))
    assert lines(s)["ante"] == ("lose", -1000)
    assert lines(s)["queens_up"] == ("win", 500)


def test_queens_up_loses_a_pair_of_jacks_that_wins() -> None:
    s = only(play_round(rules("A"), KING_HIGH, [box(1, "JS JH 8D 6C 4S", queens_up=500)]))
    assert lines(s)["ante"] == ("win", 1000)
    assert lines(s)["queens_up"] == ("lose", -500)


@pytest.mark.parametrize("table, net", [("A", 4500), ("B", 4000), ("C", 4000), ("D", 3500)])
def test_queens_up_three_of_a_kind_by_table(table: str, net: int) -> None:
    s = only(play_round(rules(table), KING_HIGH, [box(1, "7S 7H 7D AC 4H", queens_up=500)]))
    assert lines(s)["queens_up"] == ("win", net)


# --- fold: §657a.11(b) ---------------------------------------------------------------------------


def test_fold_forfeits_all_but_the_six_card_bonus() -> None:
    # (b)(1) Queens Up, (b)(2) progressive, interpretation 3 hand bonus, (b)(3) Six Card Bonus.
    r = rules("A", ("four_card", "A", 100), hand_bonus=100, six_card_bonus="A")
    folded = box(
        3,
        "7S 7H 3D 9C 4H",
        play=0,
        queens_up=500,
        progressive=100,
        hand_bonus_player=100,
        hand_bonus_dealer=100,
        six_card_bonus=500,
    )
    result = play_round(r, KING_HIGH, [folded], six_card="7D", magic="7S", lucky=3)
    s = only(result)
    assert s.folded
    assert lines(s) == {
        "ante": ("lose", -1000),
        "super_bonus": ("lose", -1000),
        "queens_up": ("lose", -500),
        "progressive": ("lose", -100),
        "hand_bonus_player": ("lose", -100),
        "hand_bonus_dealer": ("lose", -100),
        "six_card_bonus": ("win", 2500),  # three sevens, 5 to 1: still in action
    }
    assert s.bonuses == ()  # no Magic Card or Lucky Bonus for a folded box
    assert s.net == -2800 + 2500


# --- progressives: §657a.11(e), §657a.12(d)-(e) --------------------------------------------------


def test_four_aces_win_the_four_card_meter_which_reseeds() -> None:
    r = rules(progressive=("four_card", "A", 100))
    meters = {"four_card": Meter(612_345)}
    result = play_round(r, KING_HIGH, [box(2, "AS AH AD AC 4H", progressive=100)], meters)
    s = only(result)
    # The meter at this box's turn includes this round's increment of 29% of $1.
    assert lines(s)["progressive"] == ("win", 612_345 + 29 - 100)
    (m,) = result.meters
    assert m.paid == 612_374 and m.after == Meter(500_000) and m.reseeds == 1


def test_four_card_b_reserve_is_added_to_the_reseed() -> None:
    r = rules(progressive=("four_card", "B", 500))
    meters = {"four_card": Meter(700_000, 3_000)}
    result = play_round(r, KING_HIGH, [box(2, "AS AH AD AC 4H", progressive=500)], meters)
    (m,) = result.meters
    assert (m.increment.primary, m.increment.reserve) == (125, 25)
    assert m.paid == 700_125
    assert m.after == Meter(5 * 100_000 + 3_025, 0)  # $1,000 for 1 at $5, plus the reserve


@pytest.mark.parametrize(
    "table, hand, net",
    [
        ("A", "KS KH KD KC 4H", 29_900),  # 300 for 1
        ("A", "5H 6H 7H 8H 2H", 9_900),  # 100 for 1
        ("A", "7S 7H 7D AC 4H", 800),  # 9 for 1
        ("B", "7S 7H 7D AC 4H", 1_400),  # 15 for 1
        ("A", "AS AH 9S 9C 4H", -100),
    ],
)
def test_four_card_progressive_fixed_rows(table: str, hand: str, net: int) -> None:
    r = rules(progressive=("four_card", table, 100))
    s = only(play_round(r, NOT_QUALIFYING, [box(2, hand, play=1000, progressive=100)]))
    assert lines(s)["progressive"][1] == net


def test_five_card_a_straight_flush_pays_ten_percent_rounded_down() -> None:
    r = rules(progressive=("five_card", "A", 100))
    result = play_round(
        r, KING_HIGH, [box(2, "5C 6C 7C 8C 9C", progressive=100)], {"five_card": Meter(1_234_558)}
    )
    # 1,234,558 + 21 = 1,234,579; 10% is 123,457.9 -> 123,457.
    assert lines(only(result))["progressive"] == ("win", 123_457 - 100)
    (m,) = result.meters
    assert m.after == Meter(1_234_579 - 123_457) and m.reseeds == 0


def test_two_winners_of_one_meter_box_six_first() -> None:
    # §657a.12(e)(4): each is paid from the meter as it stands at its turn (box 6 to 1).
    r = rules(progressive=("five_card", "A", 100))
    a = box(2, "AH KH QH JH TH", progressive=100)
    b = box(6, "AS KS QS JS TS", progressive=100)
    meters = {"five_card": Meter(2_000_000)}
    for order in ([a, b], [b, a]):
        result = play_round(r, "9D 8D 5C 3C 2D", order, meters)
        assert lines(result.box(6))["progressive"] == ("win", 2_000_042 - 100)
        assert lines(result.box(2))["progressive"] == ("win", 1_000_000 - 100)  # the reseed
        assert result.meters[0].after == Meter(1_000_000)
        assert result.meters[0].paid == 3_000_042
    # Swap the hands: box 6 still gets the big meter.
    a2 = box(2, "AS KS QS JS TS", progressive=100)
    b2 = box(6, "AH KH QH JH TH", progressive=100)
    result = play_round(r, "9D 8D 5C 3C 2D", [a2, b2], meters)
    assert lines(result.box(6))["progressive"][1] == 2_000_042 - 100
    assert [b.box for b in result.boxes] == [6, 2]


def test_five_card_c_four_of_a_kind_wins_the_minor() -> None:
    r = rules(progressive=("five_card", "C", 100))
    meters = {"mega": Meter(1_000_000), "major": Meter(100_000), "minor": Meter(30_000)}
    result = play_round(r, "KD 8H 5D 3S 2D", [box(1, "7S 7H 7D 7C 4H", progressive=100)], meters)
    got = {m.name: (m.paid, m.after.amount) for m in result.meters}
    assert got == {"mega": (0, 1_000_009), "major": (0, 100_007), "minor": (30_003, 25_000)}


# --- Envy Bonuses: §657a.11(e)(5), §657a.12(d)(5), (e)(5) ----------------------------------------


def test_four_card_envy() -> None:
    r = rules(progressive=("four_card", "A", 500))
    boxes = [
        box(1, "AS AH AD AC 4H", player="ann", progressive=500),  # four aces
        box(2, "2S 3H 8D 9C JH", player="ann", progressive=500),  # ann's other box
        box(3, "5S 6H TD TC JS", player="bob", play=0, progressive=500),  # folded, still envied
        box(4, "KS KH KC KD 2C", player="cat", play=0),  # folded quads: give nothing
        box(5, "5C 6C 7C 8C 2H", player="dan"),  # straight flush, no progressive
    ]
    result = play_round(r, "QD 9H 7D 3S 2D", boxes)
    envy = {b.box: [(e.from_box, e.hand, e.amount) for e in b.envy] for b in result.boxes}
    assert envy == {
        1: [(5, "straight_flush", 2_500)],  # not for its own four aces
        2: [(5, "straight_flush", 2_500)],  # not for the same player's four aces
        3: [(1, "four_aces", 50_000), (5, "straight_flush", 2_500)],
        4: [],
        5: [],  # no progressive wager, no Envy Bonus
    }


def test_four_card_b_has_no_straight_flush_envy() -> None:
    r = rules(progressive=("four_card", "B", 100))
    boxes = [
        box(1, "KS KH KC KD 4H"),
        box(2, "5C 6C 7C 8C 2H"),
        box(3, "2S 3H 8D 9C JH", progressive=100),
    ]
    result = play_round(r, "QD 9H 7D 3S 2D", boxes)
    assert [(e.from_box, e.hand, e.amount) for e in result.box(3).envy] == [
        (1, "four_of_a_kind", 2_500)
    ]


def test_five_card_envy_and_not_for_the_dealer() -> None:
    r = rules(progressive=("five_card", "B", 100))
    boxes = [box(1, "AH KH QH JH TH"), box(2, "2S 3H 8D 9D JS", progressive=100)]
    result = play_round(r, "5C 6C 7C 8C 9C", boxes)  # the dealer's straight flush gives none
    assert [(e.from_box, e.hand, e.amount) for e in result.box(2).envy] == [
        (1, "royal_flush", 100_000)
    ]


# --- Five Card Hand Bonus: §657a.11(f), §657a.12(f) ----------------------------------------------


def test_hand_bonus_player_royal_takes_the_meter_to_reseed_zero_plus_reserve() -> None:
    r = rules(hand_bonus=100)
    result = play_round(
        r, KING_HIGH, [box(2, "AH KH QH JH TH", hand_bonus_player=100)],
        {"hand_bonus": Meter(1_500_000, 40_000)},
    )  # fmt: skip
    assert lines(only(result))["hand_bonus_player"] == ("win", 1_500_013 - 100)
    (m,) = result.meters
    assert m.after == Meter(40_008, 0)


@pytest.mark.parametrize(
    "hand, net", [("7S 7H 7D 7C 4H", 49_900), ("7S 7H 7D 4C 4H", 9_900), ("AS 9S 6S 4S 2S", 4_900)]
)
def test_hand_bonus_fixed_rows(hand: str, net: int) -> None:
    result = play_round(rules(hand_bonus=100), KING_HIGH, [box(2, hand, hand_bonus_player=100)])
    assert lines(only(result))["hand_bonus_player"] == ("win", net)


def test_dealer_hand_royal_is_split_among_live_dealer_hand_wagers() -> None:
    # §657a.12(f)(2): taken once, split equally; a fold does not share; leftover cents stay.
    r = rules(hand_bonus=100)
    boxes = [
        box(1, "2S 3H 8D 9C JS", hand_bonus_dealer=100),
        box(3, "2C 3D 8H 9S JD", hand_bonus_dealer=100),
        box(4, "2D 3C 8S 9H JC", play=0, hand_bonus_dealer=100),
        box(5, "4S 4H 6D 7C 5S", hand_bonus_dealer=100),
    ]
    result = play_round(r, "AH KH QH JH TH", boxes, {"hand_bonus": Meter(1_000_000, 500)})
    pool = 1_000_000 + 4 * 13  # 1,000,052 / 3 = 333,350 r 2
    share = pool // 3
    for n in (1, 3, 5):
        assert lines(result.box(n))["hand_bonus_dealer"] == ("win", share - 100)
    assert lines(result.box(4))["hand_bonus_dealer"] == ("lose", -100)
    (m,) = result.meters
    assert m.paid == 3 * share
    assert m.after == Meter(0 + 500 + 4 * 8 + pool - 3 * share, 0)


def test_dealer_hand_straight_flush_split_and_fixed_rows_in_full() -> None:
    r = rules(hand_bonus=500)
    boxes = [
        box(1, "2S 3H 8D 9D JS", hand_bonus_dealer=500),
        box(2, "2C 3D 8H 9S JD", hand_bonus_dealer=500),
    ]
    result = play_round(r, "5C 6C 7C 8C 9C", boxes, {"hand_bonus": Meter(5_000_000)})
    pool = (5_000_000 + 2 * 65) * 10 // 100
    assert lines(result.box(2))["hand_bonus_dealer"] == ("win", pool // 2 - 500)
    assert lines(result.box(1))["hand_bonus_dealer"] == ("win", pool // 2 - 500)
    result = play_round(r, "5C 5D 5H 5S 9C", boxes, {"hand_bonus": Meter(5_000_000)})
    for n in (1, 2):
        assert lines(result.box(n))["hand_bonus_dealer"] == ("win", 500 * 500 - 500)


def test_magic_card_and_lucky_bonus() -> None:
    # §657a.1, §657a.12(f)(3): additional to the wager's own result.
    r = rules(hand_bonus=100)
    boxes = [
        box(1, "2S 3H 8D 9C JS", hand_bonus_player=100, hand_bonus_dealer=100),
        box(2, "2C 3D 8C 9S JD", hand_bonus_dealer=100),
        box(3, "4C 4D 6H 7S QD", hand_bonus_player=100),
    ]
    result = play_round(r, KING_HIGH, boxes, magic="8D", lucky="dealer")
    assert dict(result.box(1).bonuses) == {"magic_card": 2000, "lucky_bonus": 500}
    assert dict(result.box(2).bonuses) == {"lucky_bonus": 500}
    assert result.box(3).bonuses == ()
    result = play_round(r, KING_HIGH, boxes, magic="KS", lucky=3)  # KS: the dealer's card
    assert dict(result.box(1).bonuses) == {"magic_card": 2000}
    assert dict(result.box(2).bonuses) == {"magic_card": 2000}
    assert dict(result.box(3).bonuses) == {"lucky_bonus": 500}
    assert lines(result.box(3))["hand_bonus_player"] == ("lose", -100)


# --- Six Card Bonus: §657a.11(g), §657a.12(g) ----------------------------------------------------


@pytest.mark.parametrize("table, net", [("A", 500_000), ("E", 100_000_000)])
def test_six_card_royal_in_diamonds(table: str, net: int) -> None:
    r = rules(six_card_bonus=table)
    result = play_round(r, KING_HIGH, [box(1, "AD KD QD JD TD", six_card_bonus=500)], six_card="9D")
    assert lines(only(result))["six_card_bonus"] == ("win", net)


def test_six_card_bonus_loses_below_three_of_a_kind() -> None:
    r = rules(six_card_bonus="C")
    result = play_round(r, KING_HIGH, [box(1, "7S 7H 3D 9C 4H", six_card_bonus=500)], six_card="9D")
    assert lines(only(result))["six_card_bonus"] == ("lose", -500)


# --- meters at no more bets: §657a.10(a)(2) ------------------------------------------------------


def test_increments_count_every_locked_wager_folded_or_not() -> None:
    r = rules(progressive=("five_card", "D", 500), hand_bonus=100)
    boxes = [
        box(
            1,
            "2S 3H 8D 9C JS",
            play=0,
            progressive=500,
            hand_bonus_player=100,
            hand_bonus_dealer=100,
        ),
        box(2, "2C 3D 8H 9S JD", progressive=500),
    ]
    meters = {
        "mega": Meter(5_000_000),
        "major": Meter(500_000),
        "minor": Meter(125_000),
        "hand_bonus": Meter(1_000_000),
    }
    after, inc = no_more_bets(r, boxes, meters)
    assert {k: (v.primary, v.reserve) for k, v in inc.items()} == {
        "mega": (100, 0),
        "major": (80, 0),
        "minor": (30, 0),
        "hand_bonus": (26, 16),
    }
    assert after["hand_bonus"] == Meter(1_000_026, 16)
    with pytest.raises(InvalidInput):
        no_more_bets(r, boxes, {"mega": Meter(1)})


def test_settlement_order_is_box_six_to_one() -> None:
    boxes = [
        box(n, h) for n, h in ((2, "2S 3H 8D 9C JS"), (6, "2C 3D 8C 9S JD"), (4, "4C 4D 6H 7S QD"))
    ]
    result = play_round(rules(), KING_HIGH, boxes)
    assert [b.box for b in result.boxes] == [6, 4, 2]
    assert all(r.outcome in Outcome for b in result.boxes for r in b.results)


def test_the_platform_path_equals_the_whole_round() -> None:
    # The live table increments at "no more bets" and settles later: the same result.
    from table.games.crazy_4_poker.settlement import Draws, settle

    from .helpers import card, cards, seeded_meters

    r = rules("B", ("five_card", "C", 100), hand_bonus=100, six_card_bonus="E")
    boxes = [
        box(2, "AH AD 7S 7C 4H", play=3000, queens_up=500, progressive=100,
            hand_bonus_player=100, hand_bonus_dealer=100, six_card_bonus=500),
        box(5, "9H TH JH QH KH", play=3000, queens_up=500, progressive=100),
    ]  # fmt: skip
    before = seeded_meters(r)
    whole = play_round(
        r, "KS QD 8C 5H 2D", boxes, before, six_card="AC", magic="7S", lucky="dealer"
    )
    locked, _ = no_more_bets(r, boxes, before)
    settled, after, paid, _, journal = settle(
        r, cards("KS QD 8C 5H 2D"), boxes, locked, card("AC"), Draws(card("7S"), "dealer")
    )
    assert tuple(settled) == whole.boxes
    assert {m.name: m.after for m in whole.meters} == after
    assert {m.name: m.paid for m in whole.meters} == paid
    # The payments the platform books, one by one, add up to what left each meter.
    assert {name: sum(p.paid for p in journal if p.meter == name) for name in paid} == paid
