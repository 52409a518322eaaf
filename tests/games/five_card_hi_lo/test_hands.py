"""Point values (§663a.6(a)), the player's setting (§663a.11(d)) and the house way (§663a.11(e))."""

from __future__ import annotations

import pytest

from table.games.cards import parse_card
from table.games.errors import InvalidInput, RuleViolation
from table.games.five_card_hi_lo.hands import (
    Setting,
    choose_setting,
    default_setting,
    high_points,
    house_way,
    low_points,
    possible_settings,
    set_hands,
    setting_problem,
)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def totals(setting: Setting) -> tuple[int, int]:
    return setting.high_total, setting.low_total


# --- §663a.6(a) point values ------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, high, low",
    [
        ("2C", 2, 2),
        ("5D", 5, 5),
        ("9S", 9, 9),
        ("TH", 10, 10),
        ("JC", 10, 10),
        ("QD", 10, 10),
        ("KS", 10, 10),
        ("AH", 11, 1),  # an ace: 11 in the high hand, 1 in the low hand
    ],
)
def test_point_values(code: str, high: int, low: int) -> None:
    assert high_points(parse_card(code)) == high
    assert low_points(parse_card(code)) == low


def test_hands_compare_by_totals_only() -> None:
    # §663a.6(a) / digest: 10-J-Q high equals K-K-10.
    a = Setting.of(cards("TC JD QH"), cards("2C 3D"))
    b = Setting.of(cards("KC KD TH"), cards("2D 3C"))
    assert a.totals == b.totals == (30, 5)


# --- §663a.11(d) the player's setting ---------------------------------------------------------


def test_regulation_example_ace_jack_ten_nine_two() -> None:
    # §663a.11(d): A-J-10-9-2 may be set J-10-9 (29) and A-2 (3).
    hand = cards("AS JD TH 9C 2S")
    offered = possible_settings(hand)
    assert [totals(s) for s in offered] == [(31, 11), (29, 3)]
    assert set(offered[1].high) == set(cards("JD TH 9C"))
    assert set_hands(hand, cards("JD TH 9C"), cards("AS 2S")).totals == (29, 3)
    # Aces high is the other choice: A-J-10 / 9-2.
    assert set_hands(hand, cards("AS JD TH"), cards("9C 2S")).totals == (31, 11)


def test_no_ace_means_one_setting() -> None:
    hand = cards("KS 9D 7H 4C 3S")
    assert [totals(s) for s in possible_settings(hand)] == [(26, 7)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AS AD KH 5C 3S", [(32, 8), (26, 4)]),  # two aces: A-A-K / 5-3 or A-K-5 / A-3
        ("AS AD AH KC 2S", [(33, 12), (32, 3)]),  # three aces: A-A-A / K-2 or A-A-K / A-2
        ("AS TD TH TC 2S", [(31, 12), (30, 3)]),
        ("AS 2D 3H 4C 5S", [(20, 5), (12, 3)]),
    ],
)
def test_one_to_three_aces_offer_two_settings(text: str, expected: list[tuple[int, int]]) -> None:
    offered = possible_settings(cards(text))
    assert [totals(s) for s in offered] == expected
    assert [s.ace_low for s in offered] == [False, True]


@pytest.mark.parametrize(
    "text, expected",
    [("AS AD AH AC 2S", (33, 3)), ("AS AD AH AC 9S", (33, 10)), ("AS AD AH AC KD", (33, 11))],
)
def test_four_aces_have_no_choice(text: str, expected: tuple[int, int]) -> None:
    # Digest: four aces always A-A-A high and the fourth ace low (counting 1) with the fifth.
    offered = possible_settings(cards(text))
    assert [totals(s) for s in offered] == [expected]
    assert offered[0].ace_low


def test_choose_setting_on_the_felt() -> None:
    hand = cards("AS JD TH 9C 2S")
    assert choose_setting(hand, ace_low=False).totals == (31, 11)
    assert choose_setting(hand, ace_low=True).totals == (29, 3)
    for no_choice in ("KS 9D 7H 4C 3S", "AS AD AH AC 2S"):
        assert (
            choose_setting(cards(no_choice), ace_low=False)
            == possible_settings(cards(no_choice))[0]
        )
        with pytest.raises(RuleViolation) as exc:
            choose_setting(cards(no_choice), ace_low=True)
        assert exc.value.code == "no_ace_low_setting"


def test_default_setting_is_aces_high() -> None:
    # House rule: a setting that times out is aces high; no ace is moved low for the player.
    assert default_setting(cards("AS JD TH 9C 2S")).totals == (31, 11)
    assert not default_setting(cards("AS AD KH 5C 3S")).ace_low


def test_equal_values_are_interchangeable() -> None:
    # K-Q-J-10-9: any three of the ten-valued cards high; the fourth goes low with the 9.
    hand = cards("KS QD JH TC 9S")
    for low_ten in ("KS", "QD", "JH", "TC"):
        high = [c for c in cards("KS QD JH TC") if c != parse_card(low_ten)]
        assert set_hands(hand, high, [parse_card(low_ten), parse_card("9S")]).totals == (30, 19)


@pytest.mark.parametrize(
    "hand, high, low, code, words",
    [
        # §663a.11(d): "up to one ace" in the low hand.
        ("AS AD KH 5C 3S", "KH 5C 3S", "AS AD", "illegal_setting", "two aces in the low hand"),
        # A higher card low: the three higher values must go high.
        ("KS 9D 7H 4C 3S", "KS 9D 4C", "7H 3S", "illegal_setting", "7H"),
        ("AS JD TH 9C 2S", "JD TH 2S", "AS 9C", "illegal_setting", "9C"),
        # An ace high is worth 11: a king low under it is fine, but not a king low while a
        # lower card is high.
        ("AS KD 5H 4C 3S", "AS 5H 4C", "KD 3S", "illegal_setting", "KD"),
        ("KS 9D 7H 4C 3S", "KS 9D", "7H 4C 3S", "bad_setting", "3 cards"),
        ("KS 9D 7H 4C 3S", "KS 9D 7H 4C", "3S", "bad_setting", "3 cards"),
        ("KS 9D 7H 4C 3S", "KS 9D 7H", "4C 2S", "bad_setting", "2S"),
        ("KS 9D 7H 4C 3S", "KS 9D 7H", "4C 4C", "bad_setting", "4C"),
    ],
)
def test_illegal_settings_refused(hand: str, high: str, low: str, code: str, words: str) -> None:
    problem = setting_problem(cards(hand), cards(high), cards(low))
    assert problem is not None
    assert problem[0] == code and words in problem[1]
    with pytest.raises(RuleViolation) as exc:
        set_hands(cards(hand), cards(high), cards(low))
    assert exc.value.code == code


def test_set_hands_needs_five_distinct_cards() -> None:
    with pytest.raises(InvalidInput):
        set_hands(cards("KS 9D 7H 4C"), cards("KS 9D 7H"), cards("4C"))
    with pytest.raises(InvalidInput):
        possible_settings(cards("KS KS 7H 4C 3S"))


# --- §663a.11(e) the house way ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("KS 9D 7H 4C 3S", (26, 7)),
        ("AS JD TH 9C 2S", (31, 11)),  # the dealer's aces stay high
        ("AS AD KH 5C 3S", (32, 8)),
        ("AS AD AH KC 2S", (33, 12)),
        ("AS AD AH AC 9S", (33, 10)),  # §663a.11(e): four aces, the fourth low (counts 1)
        ("AS AD AH AC 2S", (33, 3)),
        ("2S 2D 3H 3C 4S", (10, 4)),
    ],
)
def test_house_way(text: str, expected: tuple[int, int]) -> None:
    dealer = house_way(cards(text))
    assert dealer.totals == expected
    assert sorted(dealer.high + dealer.low) == sorted(cards(text))
    assert setting_problem(cards(text), dealer.high, dealer.low) is None
