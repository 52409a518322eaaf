"""Every paytable row against the figures as written (§684a.12, manufacturer's appendices).

The expected figures live in :mod:`tests.games.four_card_frenzy.posted`, copied by hand from
the seeds.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from table.games.errors import InvalidInput
from table.games.four_card_frenzy.hands import (
    all_six_hand,
    best_four_value,
    four_card_bonus_hand,
    prime_hand,
)
from table.games.four_card_frenzy.paytables import (
    ALL_SIX_PAYTABLES,
    BAD_BEAT_PAYTABLES,
    FOUR_CARD_BONUS_PAYTABLES,
    ODDS_PAYTABLE,
    PRIME_PAYTABLES,
    Paytable,
    PaytableKind,
    odds,
    paytable,
)

from . import posted
from .helpers import cards

FAMILIES = [
    (PaytableKind.BAD_BEAT, BAD_BEAT_PAYTABLES, posted.BAD_BEAT),
    (PaytableKind.PRIME, PRIME_PAYTABLES, posted.PRIME),
    (PaytableKind.FOUR_CARD_BONUS, FOUR_CARD_BONUS_PAYTABLES, posted.FOUR_CARD_BONUS),
    (PaytableKind.ALL_SIX, ALL_SIX_PAYTABLES, posted.ALL_SIX),
]
EVERY_TABLE = [
    (kind, name, expected) for kind, _, tables in FAMILIES for name, expected in tables.items()
]


def figure(text: str) -> Fraction:
    win, per = text.replace(",", "").split(" to ")
    return Fraction(win) / Fraction(per)


@pytest.mark.parametrize("kind, engine, expected", FAMILIES, ids=lambda x: getattr(x, "value", ""))
def test_every_posted_table_exists_and_no_other(
    kind: PaytableKind, engine: dict[str, Paytable], expected: dict[str, posted.Posted]
) -> None:
    assert list(engine) == list(expected)


def test_odds_table_as_written() -> None:
    assert ODDS_PAYTABLE.as_posted() == posted.ODDS
    assert ODDS_PAYTABLE.source == "§684a.12(b)"


@pytest.mark.parametrize(
    "kind, name, expected", EVERY_TABLE, ids=[f"{k.value}-{n}" for k, n, _ in EVERY_TABLE]
)
def test_table_as_written(kind: PaytableKind, name: str, expected: posted.Posted) -> None:
    table = paytable(kind, name)
    assert table.kind is kind and table.name == name
    # Row by row, in the order posted: the words and the figure exactly as written.
    assert table.as_posted() == expected
    for row, (_, written) in zip(table.rows, expected, strict=True):
        assert row.payout.ratio == figure(written)
        assert row.payout.pay(1000) == int(1000 * figure(written))


def test_manufacturer_bad_beat_tables_that_repeat_pennsylvania_ones() -> None:
    ratios = {n: [r.payout.ratio for r in t.rows] for n, t in BAD_BEAT_PAYTABLES.items()}
    assert ratios["BB-1"] == ratios["A"]
    assert ratios["BB-2"] == ratios["B"]
    assert ratios["BB-3"] == ratios["C"]
    assert ratios["BB-5"] == ratios["D"]
    assert ratios["BB-4"] == [500, 50, 10, 3, 2]
    assert ratios["BB-6"] == [500, 50, 5, 4, 3]


# --- posted figures to cents -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, stake, paid",
    [
        ("3 to 2", 101, 151),  # 151.5 rounded down to the cent
        ("3 to 2", 1, 1),
        ("3 to 2", 3, 4),
        ("3 to 2", 1000, 1500),
        ("1.5 to 1", 101, 151),
        ("1.5 to 1", 7, 10),
        ("200 to 1", 5, 1000),
        ("200,000 to 1", 100, 20_000_000),
        ("20,000 to 1", 3, 60_000),
        ("1,000 to 1", 1, 1000),
        ("1 to 1", 0, 0),
    ],
)
def test_payout_in_cents_rounds_down(text: str, stake: int, paid: int) -> None:
    payout = odds(text)
    assert payout.pay(stake) == paid
    assert payout.posted == text


# --- which hand each row pays: one example hand per row, from the hand descriptions ------------

FCB_EXAMPLES_PA = [
    "AS AD AH AC 2S",  # Four aces
    "KS KD KH KC 2S",  # Any other four-of-a-kind
    "AH KH QH JH 2S",  # Royal flush (A-K-Q-J of one suit)
    "AH 2H 3H 4H 9S",  # Straight flush
    "AS AD AH 2C 7S",  # Three aces
    "2S 2D 2H 9C 7S",  # Any other three-of-a-kind
    "2H 7H 9H KH 3S",  # Flush
    "AS 2D 3H 4C 9S",  # Straight
    "AS AD KH KC 2S",  # Two pair other than two aces and two queens
    "AS AD QH QC 2S",  # Two aces and two queens
]
FCB_EXAMPLES_MF = [
    *FCB_EXAMPLES_PA[:8],
    "KS KD QH QC 2S",  # Two Pair
    "QS QD 9H 7C 2S",  # QQ-AA
]


@pytest.mark.parametrize("name", list(posted.FOUR_CARD_BONUS))
def test_four_card_bonus_rows_pay_their_hands(name: str) -> None:
    table = FOUR_CARD_BONUS_PAYTABLES[name]
    manufacturer = name.startswith("FC-")
    examples = FCB_EXAMPLES_MF if manufacturer else FCB_EXAMPLES_PA
    for hand, (_, written) in zip(examples, posted.FOUR_CARD_BONUS[name], strict=True):
        cls = four_card_bonus_hand(best_four_value(cards(hand)))
        assert table.pay(cls, 1000) == int(1000 * figure(written)), (name, hand)
    # Two aces and two queens: 1 to 1 on the Pennsylvania tables, plain two pair (2 to 1) on
    # the manufacturer's; a pair of queens or better pays only on the manufacturer's.
    aces_queens = four_card_bonus_hand(best_four_value(cards("AS AD QH QC 2S")))
    queens = four_card_bonus_hand(best_four_value(cards("QS QD 9H 7C 2S")))
    aces = four_card_bonus_hand(best_four_value(cards("AS AD 9H 7C 2S")))
    jacks = four_card_bonus_hand(best_four_value(cards("JS JD 9H 7C 2S")))
    assert table.pay(aces_queens, 1000) == (2000 if manufacturer else 1000)
    assert table.pay(queens, 1000) == table.pay(aces, 1000) == (1000 if manufacturer else 0)
    assert table.row_for(jacks) is None


ALL_SIX_EXAMPLES = [
    "AH KH QH JH TH 2S",  # Royal flush
    "AH 2H 3H 4H 5H KS",  # Straight flush (the wheel, suited)
    "7S 7D 7H 7C KS 2D",  # Four-of-a-kind
    "7S 7D 7H KC KS 2D",  # Full house
    "2H 7H 9H KH 3H 3S",  # Flush
    "AS 2D 3H 4C 5S KD",  # Straight (A-2-3-4-5)
    "7S 7D 7H KC QS 2D",  # Three-of-a-kind
]


@pytest.mark.parametrize("name", list(posted.ALL_SIX))
def test_all_six_rows_pay_their_hands(name: str) -> None:
    table = ALL_SIX_PAYTABLES[name]
    rows = posted.ALL_SIX[name]
    if name == "E":
        six_rows, rows = rows[:2], rows[2:]
        assert table.pay(all_six_hand(cards("AD KD QD JD TD 9D")), 10) == 10 * 200_000
        for suit in "HSC":
            six = cards(" ".join(r + suit for r in "AKQJT9"))
            assert table.pay(all_six_hand(six), 10) == 10 * 20_000
        assert [figure(w) for _, w in six_rows] == [200_000, 20_000]
    else:
        # No six-card row: a six-card royal flush is a royal flush (1,000 to 1) in every suit.
        for suit in "DHSC":
            six = cards(" ".join(r + suit for r in "AKQJT9"))
            assert table.pay(all_six_hand(six), 10) == 10 * 1000
    for hand, (_, written) in zip(ALL_SIX_EXAMPLES, rows, strict=True):
        assert table.pay(all_six_hand(cards(hand)), 10) == int(10 * figure(written)), hand
    assert table.row_for(all_six_hand(cards("7S 7D KH KC QS 2D"))) is None


@pytest.mark.parametrize("name", list(posted.PRIME))
def test_prime_rows_pay_their_hands(name: str) -> None:
    table = PRIME_PAYTABLES[name]
    five, four = posted.PRIME[name]
    assert table.pay(prime_hand(cards("2H 5D 9H KD AH")), 10) == int(10 * figure(five[1]))
    assert table.pay(prime_hand(cards("2S 5C 9S KC AH")), 10) == int(10 * figure(four[1]))
    assert table.row_for(prime_hand(cards("2S 5C 9H KD AH"))) is None


# --- unknown names -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, name",
    [
        (PaytableKind.BAD_BEAT, "E"),
        (PaytableKind.BAD_BEAT, "BB-7"),
        (PaytableKind.BAD_BEAT, "bb-4"),
        (PaytableKind.BAD_BEAT, "FC-1"),
        (PaytableKind.FOUR_CARD_BONUS, "I"),
        (PaytableKind.FOUR_CARD_BONUS, "FC-13"),
        (PaytableKind.FOUR_CARD_BONUS, "FC-0"),
        (PaytableKind.PRIME, "C"),
        (PaytableKind.PRIME, "Prime-3"),
        (PaytableKind.ALL_SIX, "F"),
        (PaytableKind.ALL_SIX, ""),
        (PaytableKind.ALL_SIX, None),
        (PaytableKind.ALL_SIX, 1),
        (PaytableKind.ALL_SIX, ["A"]),
        (PaytableKind.ODDS, "A"),
    ],
)
def test_unknown_paytable_is_invalid_input(kind: PaytableKind, name: object) -> None:
    with pytest.raises(InvalidInput) as exc:
        paytable(kind, name)
    assert exc.value.code == "unknown_paytable"
    assert repr(name) in exc.value.message
