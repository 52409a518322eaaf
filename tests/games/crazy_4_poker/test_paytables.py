"""The paytables, Envy Bonus schedules and meters of §657a.12, as posted."""

from __future__ import annotations

import pytest

from table.games.crazy_4_poker.hands import FiveCardCategory, FourCardHand, SixCardHand
from table.games.crazy_4_poker.paytables import (
    FIVE_CARD_PROGRESSIVES,
    FOUR_CARD_PROGRESSIVES,
    HAND_BONUS_METER,
    HAND_BONUS_PAYTABLE,
    LUCKY_BONUS,
    MAGIC_CARD,
    QUEENS_UP_PAYTABLES,
    SIX_CARD_BONUS_PAYTABLES,
    SUPER_BONUS,
    ForOne,
    OfMeter,
    Paytable,
    ToOne,
    lookup,
)
from table.games.errors import InvalidInput


def posted(table: Paytable) -> list[str]:
    return [p for _, p in table.as_posted()]


def test_super_bonus_12b() -> None:
    assert SUPER_BONUS.as_posted() == [
        ("Four aces", "200 to 1"),
        ("Four-of-a-kind", "30 to 1"),
        ("Straight flush", "15 to 1"),
        ("Three-of-a-kind", "2 to 1"),
        ("Flush", "3 to 2"),
        ("Straight", "1 to 1"),
    ]
    # 3 to 2 on an odd stake rounds the fractional cent down.
    row = SUPER_BONUS.row_for(FourCardHand.FLUSH)
    assert row is not None and isinstance(row.payout, ToOne) and row.payout.net(333) == 499


@pytest.mark.parametrize(
    "name, pays",
    [
        ("A", (50, 30, 9, 4, 3, 2, 1)),
        ("B", (50, 40, 8, 4, 3, 2, 1)),
        ("C", (50, 30, 8, 4, 3, 2, 1)),  # below the flush: interpretation 1 (FC-3)
        ("D", (50, 40, 7, 4, 3, 2, 1)),  # FC-4
    ],
)
def test_queens_up_12c(name: str, pays: tuple[int, ...]) -> None:
    table = QUEENS_UP_PAYTABLES[name]
    assert posted(table) == [f"{p} to 1" for p in pays]
    assert table.row_for(FourCardHand.FOUR_ACES) is table.row_for(FourCardHand.FOUR_OF_A_KIND)
    assert table.row_for(FourCardHand.NOTHING) is None


def test_four_card_progressive_12d() -> None:
    a, b = FOUR_CARD_PROGRESSIVES["A"], FOUR_CARD_PROGRESSIVES["B"]
    assert posted(a.paytable) == ["100% of four card meter", "300 for 1", "100 for 1", "9 for 1"]
    assert posted(b.paytable) == ["100% of four card meter", "300 for 1", "100 for 1", "15 for 1"]
    (ma,), (mb,) = a.meters, b.meters
    assert (ma.seed, ma.reseed, ma.primary, ma.reserve) == (5000, 5000, 29, 0)
    assert (mb.seed, mb.reseed, mb.primary, mb.reserve) == (1000, 1000, 25, 5)
    # §657a.12(d)(5): Envy Bonuses in cents by the receiving wager.
    assert a.envy_for(100, FourCardHand.FOUR_ACES) == 10_000
    assert a.envy_for(100, FourCardHand.FOUR_OF_A_KIND) == 1_000
    assert a.envy_for(100, FourCardHand.STRAIGHT_FLUSH) == 500
    assert a.envy_for(500, FourCardHand.FOUR_ACES) == 50_000
    assert a.envy_for(500, FourCardHand.FOUR_OF_A_KIND) == 5_000
    assert a.envy_for(500, FourCardHand.STRAIGHT_FLUSH) == 2_500
    assert b.envy_for(100, FourCardHand.FOUR_OF_A_KIND) == 2_500
    assert b.envy_for(500, FourCardHand.FOUR_OF_A_KIND) == 12_500
    assert b.envy_for(500, FourCardHand.FOUR_ACES) == 50_000
    assert b.envy_for(100, FourCardHand.STRAIGHT_FLUSH) == 0  # B has no straight flush row


def test_five_card_progressive_12e() -> None:
    rows = {n: posted(t.paytable) for n, t in FIVE_CARD_PROGRESSIVES.items()}
    tail = ["50 for 1", "40 for 1", "30 for 1"]
    assert rows["A"] == [
        "100% of five card meter",
        "10% of five card meter",
        "300 for 1",
        *tail,
        "9 for 1",
    ]
    assert rows["B"] == ["100% of mega meter", "100% of major meter", "300 for 1", *tail, "9 for 1"]
    assert rows["C"] == [
        "100% of mega meter",
        "100% of major meter",
        "100% of minor meter",
        *tail,
        "10 for 1",
    ]
    assert rows["D"] == [
        "100% of mega meter",
        "100% of major meter",
        "100% of minor meter",
        *tail,
        "9 for 1",
    ]
    meters = {
        n: [(m.name, m.seed, m.reseed, m.primary, m.reserve) for m in t.meters]
        for n, t in FIVE_CARD_PROGRESSIVES.items()
    }
    assert meters == {
        "A": [("five_card", 10000, 10000, 21, 0)],
        "B": [("mega", 10000, 10000, 11, 0), ("major", 1000, 1000, 10, 0)],
        "C": [("mega", 10000, 10000, 9, 0), ("major", 1000, 1000, 7, 0), ("minor", 250, 250, 3, 0)],
        "D": [
            ("mega", 10000, 10000, 10, 0),
            ("major", 1000, 1000, 8, 0),
            ("minor", 250, 250, 3, 0),
        ],
    }
    for table in FIVE_CARD_PROGRESSIVES.values():  # §657a.12(e)(5)
        assert table.envy_for(100, FiveCardCategory.ROYAL_FLUSH) == 100_000
        assert table.envy_for(100, FiveCardCategory.STRAIGHT_FLUSH) == 30_000
        assert table.envy_for(500, FiveCardCategory.ROYAL_FLUSH) == 500_000
        assert table.envy_for(500, FiveCardCategory.STRAIGHT_FLUSH) == 150_000
        assert table.envy_for(100, FiveCardCategory.FOUR_OF_A_KIND) == 0


def test_hand_bonus_12f() -> None:
    assert posted(HAND_BONUS_PAYTABLE) == [
        "100% of hand bonus meter",
        "10% of hand bonus meter",
        "500 for 1",
        "100 for 1",
        "50 for 1",
    ]
    assert HAND_BONUS_PAYTABLE.row_for(FiveCardCategory.STRAIGHT) is None
    m = HAND_BONUS_METER
    assert (m.seed, m.reseed, m.primary, m.reserve) == (10000, 0, 13, 8)
    assert MAGIC_CARD == ForOne(20) and LUCKY_BONUS == ForOne(5)
    assert OfMeter("hand_bonus", 10).paid(1_000_009) == 100_000  # rounded down


@pytest.mark.parametrize(
    "name, pays",
    [
        ("A", (1000, 200, 50, 25, 20, 10, 5)),
        ("B", (1000, 200, 50, 25, 15, 10, 5)),
        ("C", (1000, 200, 100, 20, 15, 9, 8)),
        ("D", (1000, 200, 100, 20, 15, 10, 7)),
        ("E", (200000, 20000, 1000, 200, 50, 20, 15, 10, 5)),
    ],
)
def test_six_card_bonus_12g(name: str, pays: tuple[int, ...]) -> None:
    table = SIX_CARD_BONUS_PAYTABLES[name]
    assert posted(table) == [f"{p:,} to 1" for p in pays]
    six = table.row_for(SixCardHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS)
    royal = table.row_for(SixCardHand.ROYAL_FLUSH)
    if name != "E":  # a six-card royal flush is a royal flush
        assert six is royal
    else:
        assert six is not None and six.payout == ToOne(200000)
    assert table.row_for(SixCardHand.TWO_PAIR) is None


def test_unknown_paytable() -> None:
    with pytest.raises(InvalidInput) as exc:
        lookup(QUEENS_UP_PAYTABLES, "E", "Queens Up")
    assert exc.value.code == "unknown_paytable" and "'E'" in exc.value.message
