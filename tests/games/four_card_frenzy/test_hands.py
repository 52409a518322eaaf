"""Four-card rankings (§684a.6), the best four of five, and the bonus hand classes."""

from __future__ import annotations

import pytest

from table.games.errors import InvalidInput
from table.games.four_card_frenzy.hands import (
    AllSixHand,
    BonusHand,
    Category,
    PrimeHand,
    all_six_hand,
    best_four,
    best_four_value,
    category_of,
    describe,
    evaluate_four,
    four_card_bonus_hand,
    four_value,
    max_raise_multiple,
    prime_hand,
    qualifies,
)

from .helpers import cards


def v4(text: str) -> int:
    return four_value(cards(text))


def v5(text: str) -> int:
    return best_four_value(cards(text))


def cat4(text: str) -> Category:
    return category_of(v4(text))


# --- §684a.6(a): ace high, or low only in A-2-3-4; no wrap-around ---------------------------


def test_a234_is_a_straight_and_the_lowest_one() -> None:
    assert cat4("AS 2D 3H 4C") is Category.STRAIGHT
    assert v4("AS 2D 3H 4C") < v4("2S 3D 4H 5C") < v4("3S 4D 5H 6C")
    # ... yet still a straight: above any two pair, even aces and kings.
    assert v4("AS 2D 3H 4C") > v4("AS AD KH KC")
    # The order of the cards does not matter.
    assert v4("4C AS 3H 2D") == v4("AS 2D 3H 4C")


def test_a234_suited_is_the_lowest_straight_flush() -> None:
    assert cat4("AH 2H 3H 4H") is Category.STRAIGHT_FLUSH
    assert v4("AH 2H 3H 4H") < v4("2C 3C 4C 5C")
    assert v4("AH 2H 3H 4H") > v4("AS AD AC KH")  # above every three of a kind
    assert v4("AH 2H 3H 4H") < v4("2S 2D 2H 2C")  # below every four of a kind


@pytest.mark.parametrize("hand", ["QS KD AH 2C", "KS AD 2H 3C", "JH QH KH 2H", "QD KD AD 2D"])
def test_no_wrap_around(hand: str) -> None:
    assert cat4(hand) not in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)


def test_q_k_a_2_is_ace_high_and_a_suited_one_a_flush() -> None:
    assert cat4("QS KD AH 2C") is Category.HIGH_CARD
    assert cat4("QD KD AD 2D") is Category.FLUSH


def test_highest_straight_and_straight_flush_are_ace_king_queen_jack() -> None:
    assert v4("AS KD QH JC") == max(v4(f"{a} {b} {c} {d}") for a, b, c, d in _straights())
    assert cat4("AS KS QS JS") is Category.STRAIGHT_FLUSH
    assert v4("AS KS QS JS") > v4("KD QD JD TD")


def _straights() -> list[tuple[str, str, str, str]]:
    ranks = "A23456789TJQKA"
    return [
        (ranks[i] + "S", ranks[i + 1] + "D", ranks[i + 2] + "H", ranks[i + 3] + "C")
        for i in range(11)
    ]


def test_suits_are_equal() -> None:
    assert v4("AS KS 9D 4C") == v4("AH KD 9C 4S")
    assert v4("9S 8S 7S 2S") == v4("9H 8H 7H 2H")


# --- §684a.6(b): the order of the hands ------------------------------------------------------

CATEGORY_EXAMPLES = [
    ("2S 2D 2H 2C", Category.FOUR_OF_A_KIND),
    ("AH 2H 3H 4H", Category.STRAIGHT_FLUSH),
    ("AS AD AH KC", Category.THREE_OF_A_KIND),
    ("AS KS QS 9S", Category.FLUSH),
    ("AS KD QH JC", Category.STRAIGHT),
    ("AS AD KH KC", Category.TWO_PAIR),
    ("AS AD KH QC", Category.PAIR),
    ("AS KD QH 9C", Category.HIGH_CARD),
]


def test_categories_are_ranked_as_in_684a_6_b() -> None:
    names = [c.key for _, c in CATEGORY_EXAMPLES]
    assert names == [
        "four_of_a_kind",
        "straight_flush",
        "three_of_a_kind",
        "flush",
        "straight",
        "two_pair",
        "pair",
        "high_card",
    ]
    values = [v4(hand) for hand, _ in CATEGORY_EXAMPLES]
    for (hand, category), value in zip(CATEGORY_EXAMPLES, values, strict=True):
        assert category_of(value) is category, hand
    assert values == sorted(values, reverse=True)
    # Even the weakest hand of each category beats the strongest of the next.
    assert v4("2S 2D 2H 3C") > v4("AS KS QS 9S")  # the lowest trips over the best flush
    assert v4("6S 4S 3S 2S") > v4("AS KD QH JC")  # the lowest flush over the best straight
    assert v4("AS 2D 3H 4C") > v4("AS AD KH KC")  # the lowest straight over the best two pair
    assert v4("3S 3D 2H 2C") > v4("AS AD KH QC")  # the lowest two pair over the best pair
    assert v4("2S 2D 3H 4C") > v4("AS KD QH 9C")  # the lowest pair over the best high card
    assert v4("2S 2D 2H 2C") > v4("AS KS QS JS")  # the lowest quads over the best straight flush
    assert v4("AH 2H 3H 4H") > v4("AS AD AH KC")  # the lowest straight flush over the best trips


@pytest.mark.parametrize(
    "higher, lower",
    [
        # (b)(1) four aces highest, four 2s lowest
        ("AS AD AH AC", "KS KD KH KC"),
        ("3S 3D 3H 3C", "2S 2D 2H 2C"),
        # (b)(3) three aces highest, three 2s lowest; then the fourth card
        ("AS AD AH 2C", "KS KD KH AC"),
        ("5S 5D 5H KC", "5S 5D 5C QC"),
        # (b)(6) aces and kings highest, threes and twos lowest
        ("AS AD KH KC", "AH AC QH QC"),
        ("KS KD 3H 3C", "QS QD JH JC"),
        ("4S 4D 2H 2C", "3S 3D 2S 2D"),
        # (b)(7) a pair of aces highest, twos lowest; then the other cards high to low
        ("AS AD 2H 3C", "KS KD QH JC"),
        ("9S 9D AH 2C", "9H 9C KH QC"),
        ("9S 9D KH 3C", "9H 9C KD 2C"),
        # (c) flush and high card: the highest card not in the other hand
        ("AS 5S 4S 2S", "KD QD JD 9D"),
        ("AS KS 4S 2S", "AD QD JD 9D"),
        ("AS KS QS 3S", "AD KD QD 2D"),
        ("AS KD QH 9C", "AD KC QS 8H"),
        ("KS 9D 7H 4C", "KD 9C 7S 3H"),
        # straights by their top card
        ("3S 4D 5H 6C", "2S 3D 4H 5C"),
        ("KS QD JH TC", "QS JD TH 9C"),
    ],
)
def test_within_a_category(higher: str, lower: str) -> None:
    assert cat4(higher) is cat4(lower)
    assert v4(higher) > v4(lower)


@pytest.mark.parametrize(
    "a, b",
    [
        ("AS KD QH 9C", "AH KS QD 9H"),
        ("7S 7D 4H 2C", "7H 7C 4D 2S"),
        ("TS 9D 8H 7C", "TH 9C 8S 7D"),
        ("AS 2D 3H 4C", "AH 2C 3S 4D"),
        ("9S 7S 5S 3S", "9D 7D 5D 3D"),
    ],
)
def test_equal_hands_are_a_tie(a: str, b: str) -> None:
    assert v4(a) == v4(b)


# --- the best four of five ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "five, best, category",
    [
        ("AS AD AH AC KS", "AS AD AH AC", Category.FOUR_OF_A_KIND),
        ("9H TH JH QH 2C", "9H TH JH QH", Category.STRAIGHT_FLUSH),
        ("AH 2H 3H 4H 4D", "AH 2H 3H 4H", Category.STRAIGHT_FLUSH),  # not the pair of fours
        ("7S 7D 7H KC KS", "7S 7D 7H KC", Category.THREE_OF_A_KIND),  # latest K left out
        ("2D 9D 5D KD KS", "2D 9D 5D KD", Category.FLUSH),  # a flush beats the pair of kings
        ("QS KD AH 2C 3D", "QS KD AH 3D", Category.HIGH_CARD),  # no wrap; A-K-Q-3 high
        ("AS KD 2H 3C 4S", "AS 2H 3C 4S", Category.STRAIGHT),
        ("5S 5D 9H 9C 9D", "5S 9H 9C 9D", Category.THREE_OF_A_KIND),
        ("KS KD 4H 4C 2S", "KS KD 4H 4C", Category.TWO_PAIR),
    ],
)
def test_best_four_of_five(five: str, best: str, category: Category) -> None:
    hand = best_four(cards(five))
    assert list(hand.cards) == cards(best)  # kept in dealt order
    assert hand.category is category
    assert hand.value == v5(five) == v4(best)
    assert set(cards(five)) - set(hand.cards) == {hand.unused}


def test_best_four_leaves_out_the_latest_dealt_of_equal_choices() -> None:
    # K♠ K♥ 5♣ 5♦ 5♥: either king makes the same hand; the later one (K♥) is left out.
    hand = best_four(cards("KS KH 5C 5D 5H"))
    assert hand.unused == cards("KH")[0]
    hand = best_four(cards("KH KS 5C 5D 5H"))
    assert hand.unused == cards("KS")[0]


# --- the dealer's qualifier and the Raise ----------------------------------------------------


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("KS 9D 7H 4C 2S", True),  # king high qualifies (§684a.11(c)(2)(i))
        ("KS 6D 4H 3C 2S", True),
        ("QS 5D 4H 3C 2S", True),  # queen high, but the best four is 2-3-4-5, a straight
        ("QS JD 9H 8C 2S", False),  # queen high does not
        ("QS JD TH 8C 2S", False),
        ("AS JD 9H 8C 2S", True),
        ("2S 2D 4H 6C 8S", True),  # any pair
        ("QS KD AH 2C 3D", True),  # Q-K-A-2 is ace high, not a straight
        ("JS 9D 7H 4C 2S", False),
    ],
)
def test_dealer_qualifies_with_king_high_or_better(hand: str, expected: bool) -> None:
    assert qualifies(v5(hand)) is expected


def test_raise_limits() -> None:
    # §684a.11(b)(1): a pair of kings or lower raises 1x; a pair of aces or higher up to 3x.
    assert max_raise_multiple(v5("KS KD AH QC 9S")) == 1
    assert max_raise_multiple(v5("AS KD QH JC 9S")) == 3  # a straight is higher than aces
    assert max_raise_multiple(v5("AS AD 2H 3C 7S")) == 3
    assert max_raise_multiple(v5("AS KD QH 9C 7S")) == 1
    assert max_raise_multiple(v5("3S 3D 2H 2C 7S")) == 3  # the lowest two pair
    assert max_raise_multiple(v5("2S 2D 2H 2C 7S")) == 3


def test_describe() -> None:
    assert describe(v4("AS AD AH AC")) == "Four aces"
    assert describe(v4("AH 2H 3H 4H")) == "Straight flush, four high"
    assert describe(v4("KS KD 3H 3C")) == "Two pair, kings and threes"
    assert describe(v4("QS QD 3H 2C")) == "Pair of queens"
    assert describe(v4("KS 9D 7H 4C")) == "King high"
    assert best_four(cards("AS AD AH AC KS")).name == "Four aces"


# --- Four Card Bonus classes (§684a.6(d)) ---------------------------------------------------


@pytest.mark.parametrize(
    "hand, cls",
    [
        ("AS AD AH AC 2S", BonusHand.FOUR_ACES),
        ("KS KD KH KC 2S", BonusHand.FOUR_OF_A_KIND),
        ("AH KH QH JH 2S", BonusHand.ROYAL_FLUSH),  # A-K-Q-J of one suit, (d)(2)
        ("KH QH JH TH 2S", BonusHand.STRAIGHT_FLUSH),
        ("AH 2H 3H 4H 9S", BonusHand.STRAIGHT_FLUSH),
        ("AS AD AH 2C 7S", BonusHand.THREE_ACES),
        ("KS KD KH 2C 7S", BonusHand.THREE_OF_A_KIND),
        ("2H 7H 9H KH 3S", BonusHand.FLUSH),
        ("AS 2D 3H 4C 9S", BonusHand.STRAIGHT),
        ("AS AD QH QC 2S", BonusHand.TWO_ACES_TWO_QUEENS),
        ("AS AD KH KC 2S", BonusHand.TWO_PAIR),
        ("KS KD QH QC 2S", BonusHand.TWO_PAIR),
        ("QS QD 9H 7C 2S", BonusHand.PAIR_OF_QUEENS_OR_BETTER),
        ("AS AD 9H 7C 2S", BonusHand.PAIR_OF_QUEENS_OR_BETTER),
        ("JS JD 9H 7C 2S", BonusHand.NOTHING),
        ("AS KD 9H 7C 2S", BonusHand.NOTHING),
    ],
)
def test_four_card_bonus_classes(hand: str, cls: BonusHand) -> None:
    assert four_card_bonus_hand(v5(hand)) is cls


# --- Prime (§684a.7(d)(2)): at least four of the five cards of one colour --------------------


@pytest.mark.parametrize(
    "hand, cls",
    [
        ("2H 5D 9H KD AH", PrimeHand.FIVE_SAME_COLOUR),  # hearts and diamonds are both red
        ("2S 5C 9S KC AS", PrimeHand.FIVE_SAME_COLOUR),
        ("2H 5D 9H KD AS", PrimeHand.FOUR_SAME_COLOUR),
        ("2S 5C 9S KC AH", PrimeHand.FOUR_SAME_COLOUR),
        ("2S 5C 9S KD AH", PrimeHand.NOTHING),
        ("2H 5D 9S KC AS", PrimeHand.NOTHING),
    ],
)
def test_prime_classes(hand: str, cls: PrimeHand) -> None:
    assert prime_hand(cards(hand)) is cls


# --- All-Six (§684a.6(e)): the best hand of the five cards and the All-Six card --------------


@pytest.mark.parametrize(
    "six, cls",
    [
        ("AD KD QD JD TD 9D", AllSixHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS),
        ("9D AD KD QD JD TD", AllSixHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS),
        ("AH KH QH JH TH 9H", AllSixHand.SIX_CARD_ROYAL_FLUSH),
        ("AS KS QS JS TS 9S", AllSixHand.SIX_CARD_ROYAL_FLUSH),
        ("AC KC QC JC TC 9C", AllSixHand.SIX_CARD_ROYAL_FLUSH),
        ("AD KD QD JD TD 9S", AllSixHand.ROYAL_FLUSH),
        ("AD KD QD JD TD 2D", AllSixHand.ROYAL_FLUSH),
        ("KD QD JD TD 9D 8D", AllSixHand.STRAIGHT_FLUSH),
        ("AH 2H 3H 4H 5H KS", AllSixHand.STRAIGHT_FLUSH),  # the steel wheel
        ("AS AD AH AC KS KD", AllSixHand.FOUR_OF_A_KIND),
        ("7S 7D 7H KC KS 2D", AllSixHand.FULL_HOUSE),
        ("7S 7D 7H KC KS KD", AllSixHand.FULL_HOUSE),  # two threes of a kind
        ("2H 7H 9H KH 3H 3S", AllSixHand.FLUSH),
        ("AS 2D 3H 4C 5S KD", AllSixHand.STRAIGHT),  # A-2-3-4-5 counts as a straight
        ("TS JD QH KC AS 2D", AllSixHand.STRAIGHT),
        ("9S TD JH QC KS KD", AllSixHand.STRAIGHT),
        ("JS QD KH AC 2S 3D", AllSixHand.NOTHING),  # no wrap-around
        ("7S 7D 7H KC QS 2D", AllSixHand.THREE_OF_A_KIND),
        ("7S 7D KH KC QS QD", AllSixHand.NOTHING),  # three pair is not a paying hand
        ("AH KH QH JH 9H 2S", AllSixHand.FLUSH),  # no ten: A-K-Q-J-9 is a flush
    ],
)
def test_all_six_classes(six: str, cls: AllSixHand) -> None:
    assert all_six_hand(cards(six)) is cls


# --- bad input to every function of the module -----------------------------------------------

BAD_FIVES: list[object] = [
    [0, 1, 2, 3],
    [0, 1, 2, 3, 4, 5],
    [0, 1, 2, 3, 3],
    [0, 1, 2, 3, 52],
    [-1, 1, 2, 3, 4],
    [0, 1, 2, 3, "AS"],
    [0, 1, 2, 3, 4.0],
    [0, 1, 2, 3, None],
    [0, 1, 2, 3, True],
    None,
    "ASKSQSJSTS",
    5,
]


def test_best_four_needs_the_dealt_order() -> None:
    with pytest.raises(InvalidInput):
        best_four({0, 1, 2, 3, 4})  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", BAD_FIVES, ids=repr)
@pytest.mark.parametrize("fn", [best_four, best_four_value, prime_hand])
def test_five_card_functions_refuse_bad_input(fn: object, bad: object) -> None:
    with pytest.raises(InvalidInput) as exc:
        fn(bad)  # type: ignore[operator]
    assert exc.value.code in ("bad_cards", "bad_card", "wrong_card_count", "duplicate_card")
    assert exc.value.message


@pytest.mark.parametrize(
    "bad",
    [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1, 2, 2], [0, 1, 2, 99], [0, 1, 2, -3], None, [0, 1, 2, "x"]],
)
@pytest.mark.parametrize("fn", [four_value, evaluate_four])
def test_four_card_functions_refuse_bad_input(fn: object, bad: object) -> None:
    with pytest.raises(InvalidInput):
        fn(bad)  # type: ignore[operator]


@pytest.mark.parametrize(
    "bad", [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 4], [0, 1, 2, 3, 4, 52], [0, 1, 2, 3, 4, None], None]
)
def test_all_six_refuses_bad_input(bad: object) -> None:
    with pytest.raises(InvalidInput):
        all_six_hand(bad)  # type: ignore[arg-type]
