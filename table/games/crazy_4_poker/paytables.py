"""Every paytable, Envy Bonus schedule and meter of §657a.12, as data.

Three kinds of payout are posted:

* :class:`ToOne` - "X to 1" (or "3 to 2"): the stake comes back and X times it is won, a
  fractional cent rounded down (Ante, Play, Super Bonus, Queens Up, Six Card Bonus).
* :class:`ForOne` - "X for 1": the stake was collected at "no more bets" (§657a.10(a)(2)) and
  X times it is paid, so the wager nets (X - 1) times the stake (progressive, hand bonus,
  Magic Card, Lucky Bonus).
* :class:`OfMeter` - a percentage of a progressive meter as it stands at that box's turn
  (§657a.12(d)(4), (e)(4)), rounded down to the cent.

A paytable's rows name the hand classes they pay; a hand pays the first row naming it, and
only that row ("the highest ranking hand", §657a.12(d)(2), (e)(2), (f)(2)).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final

from table.games.errors import InvalidInput
from table.games.progressive import MeterRates

from .hands import FiveCardCategory, FourCardHand, SixCardHand


@dataclass(frozen=True, slots=True)
class ToOne:
    """ "to_win to per": net winnings ``stake * to_win // per``."""

    to_win: int
    per: int = 1

    @property
    def posted(self) -> str:
        return f"{self.to_win:,} to {self.per}"

    def net(self, stake: int) -> int:
        return stake * self.to_win // self.per

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.to_win, self.per)


@dataclass(frozen=True, slots=True)
class ForOne:
    """ "times for 1": ``stake * times`` paid, the stake having been collected."""

    times: int

    @property
    def posted(self) -> str:
        return f"{self.times:,} for 1"

    def paid(self, stake: int) -> int:
        return stake * self.times


@dataclass(frozen=True, slots=True)
class OfMeter:
    """``percent`` % of the named meter as it stands, rounded down to the cent."""

    meter: str
    percent: int

    @property
    def posted(self) -> str:
        return f"{self.percent}% of {self.meter.replace('_', ' ')} meter"

    def paid(self, amount: int) -> int:
        return amount * self.percent // 100


Payout = ToOne | ForOne | OfMeter
HandClass = FourCardHand | FiveCardCategory | SixCardHand


@dataclass(frozen=True, slots=True)
class Row:
    label: str  # the row's words as posted
    hands: frozenset[HandClass]
    payout: Payout


@dataclass(frozen=True, slots=True)
class Paytable:
    wager: str  # "super_bonus", "queens_up", ...
    name: str  # "A" .. "E", or "" for the one posted table
    source: str
    rows: tuple[Row, ...]
    _by_hand: dict[HandClass, Row] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_hand = {hand: row for row in reversed(self.rows) for hand in row.hands}
        object.__setattr__(self, "_by_hand", by_hand)

    def row_for(self, hand: HandClass) -> Row | None:
        """The one row that pays ``hand``, or None when it loses."""
        return self._by_hand.get(hand)

    def as_posted(self) -> list[tuple[str, str]]:
        """The sign (§657a.2(b)(6)): (hand, payout) rows."""
        return [(row.label, row.payout.posted) for row in self.rows]

    @property
    def meters(self) -> tuple[str, ...]:
        """The meters a row of this table pays a percentage of, in row order."""
        out: list[str] = []
        for row in self.rows:
            if isinstance(row.payout, OfMeter) and row.payout.meter not in out:
                out.append(row.payout.meter)
        return tuple(out)


def _f(*hands: HandClass) -> frozenset[HandClass]:
    return frozenset(hands)


# --- Ante and Play (§657a.12(a)), Super Bonus (§657a.12(b)) ---------------------------------

EVEN_MONEY: Final = ToOne(1)  # Ante and Play (§657a.12(a))

H4 = FourCardHand
SUPER_BONUS: Final = Paytable(
    "super_bonus",
    "",
    "§657a.12(b)",
    (
        Row("Four aces", _f(H4.FOUR_ACES), ToOne(200)),
        Row("Four-of-a-kind", _f(H4.FOUR_OF_A_KIND), ToOne(30)),
        Row("Straight flush", _f(H4.STRAIGHT_FLUSH), ToOne(15)),
        Row("Three-of-a-kind", _f(H4.THREE_OF_A_KIND), ToOne(2)),
        Row("Flush", _f(H4.FLUSH), ToOne(3, 2)),
        Row("Straight", _f(H4.STRAIGHT), ToOne(1)),
    ),
)

# --- Queens Up (§657a.12(c)) ------------------------------------------------------------------

#: four of a kind, straight flush, three of a kind, flush, straight, two pair, pair of Q+.
#: C and D below the flush row are illegible in the seed; 3, 2, 1 as in A and B and as in the
#: manufacturer's FC-3 / FC-4 (house interpretation 1 of CRAZY_4_POKER.md).
_QUEENS_UP: Final = {
    "A": (50, 30, 9, 4, 3, 2, 1),
    "B": (50, 40, 8, 4, 3, 2, 1),
    "C": (50, 30, 8, 4, 3, 2, 1),
    "D": (50, 40, 7, 4, 3, 2, 1),
}
_QUEENS_UP_ROWS: Final = (
    ("Four-of-a-kind", _f(H4.FOUR_ACES, H4.FOUR_OF_A_KIND)),
    ("Straight flush", _f(H4.STRAIGHT_FLUSH)),
    ("Three-of-a-kind", _f(H4.THREE_OF_A_KIND)),
    ("Flush", _f(H4.FLUSH)),
    ("Straight", _f(H4.STRAIGHT)),
    ("Two pair", _f(H4.TWO_PAIR)),
    ("Pair of queens or better", _f(H4.PAIR_OF_QUEENS_OR_BETTER)),
)
QUEENS_UP_PAYTABLES: Final = {
    name: Paytable(
        "queens_up",
        name,
        "§657a.12(c)",
        tuple(
            Row(label, hands, ToOne(x))
            for (label, hands), x in zip(_QUEENS_UP_ROWS, pays, strict=True)
        ),
    )
    for name, pays in _QUEENS_UP.items()
}

# --- meters (§657a.12(d)(3), (e)(3), (f)(4)) --------------------------------------------------

FOUR_CARD = "four_card"
FIVE_CARD = "five_card"
MEGA, MAJOR, MINOR = "mega", "major", "minor"
HAND_BONUS = "hand_bonus"


# --- Four-Card Progressive (§657a.12(d)) --------------------------------------------------------


class ProgressiveType(StrEnum):
    FOUR_CARD = "four_card"
    FIVE_CARD = "five_card"


@dataclass(frozen=True, slots=True)
class ProgressiveTable:
    """A progressive paytable with its meters and its Envy Bonus schedules (§657a.12(d), (e))."""

    type: ProgressiveType
    paytable: Paytable
    meters: tuple[MeterRates, ...]
    #: Envy Bonus in cents by the receiving box's wager (100 or 500), by qualifying hand.
    envy: Mapping[int, tuple[tuple[HandClass, int], ...]]

    @property
    def name(self) -> str:
        return self.paytable.name

    def envy_for(self, wager: int, hand: HandClass) -> int:
        """The Envy Bonus a box with a ``wager`` progressive gets for another's ``hand``."""
        for cls, amount in self.envy.get(wager, ()):
            if cls is hand:
                return amount
        return 0

    @property
    def envy_hands(self) -> frozenset[HandClass]:
        return frozenset(cls for rows in self.envy.values() for cls, _ in rows)


def _four_card(
    name: str, trips: int, meter: MeterRates, straight_flush_envy: bool
) -> ProgressiveTable:
    table = Paytable(
        "progressive",
        name,
        "§657a.12(d)(1)",
        (
            Row("Four aces", _f(H4.FOUR_ACES), OfMeter(FOUR_CARD, 100)),
            Row("Four-of-a-kind", _f(H4.FOUR_OF_A_KIND), ForOne(300)),
            Row("Straight flush", _f(H4.STRAIGHT_FLUSH), ForOne(100)),
            Row("Three-of-a-kind", _f(H4.THREE_OF_A_KIND), ForOne(trips)),
        ),
    )
    # §657a.12(d)(5): A pays a straight flush Envy Bonus, B does not; B's quads pay more.
    quads = 1000 if straight_flush_envy else 2500
    one: list[tuple[HandClass, int]] = [(H4.FOUR_ACES, 10000), (H4.FOUR_OF_A_KIND, quads)]
    if straight_flush_envy:
        one.append((H4.STRAIGHT_FLUSH, 500))
    envy = {100: tuple(one), 500: tuple((cls, amount * 5) for cls, amount in one)}
    return ProgressiveTable(ProgressiveType.FOUR_CARD, table, (meter,), envy)


FOUR_CARD_PROGRESSIVES: Final = {
    "A": _four_card("A", 9, MeterRates(FOUR_CARD, 5000, 5000, 29), True),
    "B": _four_card("B", 15, MeterRates(FOUR_CARD, 1000, 1000, 25, 5), False),
}

# --- Five-Card Progressive (§657a.12(e)) --------------------------------------------------------

H5 = FiveCardCategory
_FIVE_CARD_ENVY: Final[dict[int, tuple[tuple[HandClass, int], ...]]] = {
    100: ((H5.ROYAL_FLUSH, 100000), (H5.STRAIGHT_FLUSH, 30000)),
    500: ((H5.ROYAL_FLUSH, 500000), (H5.STRAIGHT_FLUSH, 150000)),
}


def _five_card(name: str, top: tuple[Payout, Payout, Payout], trips: int,
               meters: tuple[MeterRates, ...]) -> ProgressiveTable:  # fmt: skip
    table = Paytable(
        "progressive",
        name,
        "§657a.12(e)(1)",
        (
            Row("Royal flush", _f(H5.ROYAL_FLUSH), top[0]),
            Row("Straight flush", _f(H5.STRAIGHT_FLUSH), top[1]),
            Row("Four-of-a-kind", _f(H5.FOUR_OF_A_KIND), top[2]),
            Row("Full house", _f(H5.FULL_HOUSE), ForOne(50)),
            Row("Flush", _f(H5.FLUSH), ForOne(40)),
            Row("Straight", _f(H5.STRAIGHT), ForOne(30)),
            Row("Three-of-a-kind", _f(H5.THREE_OF_A_KIND), ForOne(trips)),
        ),
    )
    return ProgressiveTable(ProgressiveType.FIVE_CARD, table, meters, _FIVE_CARD_ENVY)


FIVE_CARD_PROGRESSIVES: Final = {
    "A": _five_card(
        "A",
        (OfMeter(FIVE_CARD, 100), OfMeter(FIVE_CARD, 10), ForOne(300)),
        9,
        (MeterRates(FIVE_CARD, 10000, 10000, 21),),
    ),
    "B": _five_card(
        "B",
        (OfMeter(MEGA, 100), OfMeter(MAJOR, 100), ForOne(300)),
        9,
        (MeterRates(MEGA, 10000, 10000, 11), MeterRates(MAJOR, 1000, 1000, 10)),
    ),
    "C": _five_card(
        "C",
        (OfMeter(MEGA, 100), OfMeter(MAJOR, 100), OfMeter(MINOR, 100)),
        10,
        (
            MeterRates(MEGA, 10000, 10000, 9),
            MeterRates(MAJOR, 1000, 1000, 7),
            MeterRates(MINOR, 250, 250, 3),
        ),
    ),
    "D": _five_card(
        "D",
        (OfMeter(MEGA, 100), OfMeter(MAJOR, 100), OfMeter(MINOR, 100)),
        9,
        (
            MeterRates(MEGA, 10000, 10000, 10),
            MeterRates(MAJOR, 1000, 1000, 8),
            MeterRates(MINOR, 250, 250, 3),
        ),
    ),
}

PROGRESSIVES: Final = {
    ProgressiveType.FOUR_CARD: FOUR_CARD_PROGRESSIVES,
    ProgressiveType.FIVE_CARD: FIVE_CARD_PROGRESSIVES,
}

# --- Five Card Hand Bonus, Magic Card, Lucky Bonus (§657a.12(f)) -------------------------------

HAND_BONUS_PAYTABLE: Final = Paytable(
    "hand_bonus",
    "",
    "§657a.12(f)(1)",
    (
        Row("Royal flush", _f(H5.ROYAL_FLUSH), OfMeter(HAND_BONUS, 100)),
        Row("Straight flush", _f(H5.STRAIGHT_FLUSH), OfMeter(HAND_BONUS, 10)),
        Row("Four-of-a-kind", _f(H5.FOUR_OF_A_KIND), ForOne(500)),
        Row("Full house", _f(H5.FULL_HOUSE), ForOne(100)),
        Row("Flush", _f(H5.FLUSH), ForOne(50)),
    ),
)
#: §657a.12(f)(4): seed $10,000 for 1, reseed $0, 13% primary, 8% reserve.
HAND_BONUS_METER: Final = MeterRates(HAND_BONUS, 10000, 0, 13, 8)
MAGIC_CARD: Final = ForOne(20)  # §657a.12(f)(3), paid on top of the wager's own result
LUCKY_BONUS: Final = ForOne(5)

# --- Six Card Bonus (§657a.12(g)) ------------------------------------------------------------

H6 = SixCardHand
_SIX_CARD: Final = {
    # royal, straight flush, four of a kind, full house, flush, straight, three of a kind
    "A": (1000, 200, 50, 25, 20, 10, 5),
    "B": (1000, 200, 50, 25, 15, 10, 5),
    "C": (1000, 200, 100, 20, 15, 9, 8),
    "D": (1000, 200, 100, 20, 15, 10, 7),
    "E": (1000, 200, 50, 20, 15, 10, 5),
}
_SIX_CARD_ROWS: Final = (
    ("Straight flush", _f(H6.STRAIGHT_FLUSH)),
    ("Four-of-a-kind", _f(H6.FOUR_OF_A_KIND)),
    ("Full house", _f(H6.FULL_HOUSE)),
    ("Flush", _f(H6.FLUSH)),
    ("Straight", _f(H6.STRAIGHT)),
    ("Three-of-a-kind", _f(H6.THREE_OF_A_KIND)),
)


def _six_card(name: str, pays: tuple[int, ...]) -> Paytable:
    rows: list[Row] = []
    if name == "E":
        rows += [
            Row(
                "Six-card royal flush—diamonds", _f(H6.SIX_CARD_ROYAL_FLUSH_DIAMONDS), ToOne(200000)
            ),
            Row(
                "Six-card royal flush—hearts, spades or clubs",
                _f(H6.SIX_CARD_ROYAL_FLUSH),
                ToOne(20000),
            ),
            Row("Royal flush", _f(H6.ROYAL_FLUSH), ToOne(pays[0])),
        ]
    else:
        # A-D have no six-card row: a six-card royal flush holds a royal flush and pays as one.
        royals = _f(H6.ROYAL_FLUSH, H6.SIX_CARD_ROYAL_FLUSH, H6.SIX_CARD_ROYAL_FLUSH_DIAMONDS)
        rows.append(Row("Royal flush", royals, ToOne(pays[0])))
    rows += [
        Row(label, hands, ToOne(x))
        for (label, hands), x in zip(_SIX_CARD_ROWS, pays[1:], strict=True)
    ]
    return Paytable("six_card_bonus", name, "§657a.12(g)", tuple(rows))


SIX_CARD_BONUS_PAYTABLES: Final = {name: _six_card(name, p) for name, p in _SIX_CARD.items()}

#: The fixed wager sizes a table may offer for the progressive and the hand bonus, in cents.
FIXED_WAGERS: Final = (100, 500)


def lookup(tables: dict[str, Paytable], name: object, what: str) -> Paytable:
    if not isinstance(name, str) or name not in tables:
        raise InvalidInput(
            "unknown_paytable",
            f"unknown {what} paytable {name!r} (choose from {', '.join(tables)})",
        )
    return tables[name]
