"""Every paytable of §684a.12 and the manufacturer's rules of play, as data.

Each row is written exactly as posted ("3 to 2", "1.5 to 1") and names the hand classes it
pays. A payout is ``stake * to_win // per`` in integer cents: a fractional cent is rounded
down (RULES.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final

from table.games.errors import InvalidInput

from .hands import AllSixHand, BonusHand, Category, PrimeHand


class PaytableKind(StrEnum):
    ODDS = "odds"
    BAD_BEAT = "bad_beat"
    PRIME = "prime"
    FOUR_CARD_BONUS = "four_card_bonus"
    ALL_SIX = "all_six"


@dataclass(frozen=True, slots=True)
class Payout:
    """Odds of "to_win to per", e.g. 3 to 2."""

    to_win: int
    per: int
    posted: str  # exactly as written on the sign

    def pay(self, stake: int) -> int:
        """Winnings on ``stake`` cents, a fractional cent rounded down."""
        if type(stake) is not int or stake < 0:
            raise InvalidInput(
                "bad_amount", f"a stake is a whole number of cents ≥ 0, not {stake!r}"
            )
        return stake * self.to_win // self.per

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.to_win, self.per)


def odds(posted: str) -> Payout:
    """Parse a posted figure: "30 to 1", "3 to 2", "1.5 to 1", "200,000 to 1"."""
    try:
        left, to, right = posted.partition(" to ")
        ratio = Fraction(left.replace(",", "")) / Fraction(right.replace(",", ""))
        if not to or ratio <= 0:
            raise ValueError(posted)
    except (AttributeError, ValueError, ZeroDivisionError):
        raise InvalidInput("bad_payout", f"not a payout like '3 to 2': {posted!r}") from None
    return Payout(ratio.numerator, ratio.denominator, posted)


#: Hand classes shared by the Odds and bad-beat tables: the player's best four-card hand.
FOUR_ACES: Final = "four_aces"


@dataclass(frozen=True, slots=True)
class Row:
    label: str  # the row's words on the posted sign
    hands: frozenset[object]  # the hand classes this row pays
    payout: Payout


@dataclass(frozen=True, slots=True)
class Paytable:
    kind: PaytableKind
    name: str  # "A", "BB-4", "FC-7", "Prime-1"
    source: str  # where it is written
    rows: tuple[Row, ...]
    #: The row that pays each hand class: the first that names it, as on the sign.
    _row_by_hand: dict[object, Row] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_hand = {hand: row for row in reversed(self.rows) for hand in row.hands}
        object.__setattr__(self, "_row_by_hand", by_hand)

    def row_for(self, hand: object) -> Row | None:
        try:
            return self._row_by_hand.get(hand)
        except TypeError:  # unhashable: the rows' own test answers (a set matches a frozenset)
            pass
        try:
            for row in self.rows:
                if hand in row.hands:
                    return row
        except TypeError:  # unhashable: not a hand class
            raise InvalidInput("bad_hand", f"not a hand class: {hand!r}") from None
        return None

    def pay(self, hand: object, stake: int) -> int:
        """Winnings for ``hand`` (0 when no row pays it)."""
        row = self.row_for(hand)
        return 0 if row is None else row.payout.pay(stake)

    @property
    def max_ratio(self) -> Fraction:
        return max(row.payout.ratio for row in self.rows)

    def as_posted(self) -> list[tuple[str, str]]:
        """The sign: (hand, payout) rows as §684a.2(b)(4) requires them posted."""
        return [(row.label, row.payout.posted) for row in self.rows]


def _table(
    kind: PaytableKind, name: str, source: str, rows: list[tuple[str, frozenset[object], str]]
) -> Paytable:
    return Paytable(kind, name, source, tuple(Row(l, h, odds(p)) for l, h, p in rows))


def _f(*items: object) -> frozenset[object]:
    return frozenset(items)


# --- Odds (§684a.12(b)) and bad beat (§684a.12(c); manufacturer's Appendix B) ---------------
# The Odds and bad-beat classes are the four-card categories, with four aces apart.
QUADS = _f(Category.FOUR_OF_A_KIND)
ODDS_PAYTABLE: Final = _table(
    PaytableKind.ODDS,
    "Odds",
    "§684a.12(b)",
    [
        ("Four aces", _f(FOUR_ACES), "200 to 1"),
        ("Any other four-of-a-kind", QUADS, "30 to 1"),
        ("Straight flush", _f(Category.STRAIGHT_FLUSH), "15 to 1"),
        ("Three-of-a-kind", _f(Category.THREE_OF_A_KIND), "2 to 1"),
        ("Flush", _f(Category.FLUSH), "3 to 2"),
        ("Straight", _f(Category.STRAIGHT), "1 to 1"),
    ],
)

_BAD_BEAT_PA: Final = {
    # Four-of-a-kind, straight flush, three-of-a-kind, flush, straight
    "A": ("30 to 1", "15 to 1", "2 to 1", "3 to 2", "1 to 1"),
    "B": ("100 to 1", "30 to 1", "4 to 1", "3 to 1", "2 to 1"),
    "C": ("100 to 1", "50 to 1", "4 to 1", "3 to 1", "2 to 1"),
    "D": ("500 to 1", "50 to 1", "5 to 1", "4 to 1", "2 to 1"),
}
_BAD_BEAT_MANUFACTURER: Final = {
    "BB-1": ("30 to 1", "15 to 1", "2 to 1", "1.5 to 1", "1 to 1"),
    "BB-2": ("100 to 1", "30 to 1", "4 to 1", "3 to 1", "2 to 1"),
    "BB-3": ("100 to 1", "50 to 1", "4 to 1", "3 to 1", "2 to 1"),
    "BB-4": ("500 to 1", "50 to 1", "10 to 1", "3 to 1", "2 to 1"),
    "BB-5": ("500 to 1", "50 to 1", "5 to 1", "4 to 1", "2 to 1"),
    "BB-6": ("500 to 1", "50 to 1", "5 to 1", "4 to 1", "3 to 1"),
}


def _bad_beat(name: str, source: str, labels: tuple[str, ...], pays: tuple[str, ...]) -> Paytable:
    # Four aces cannot lose (nothing beats them), so the quads row covers every quad.
    hands = (
        _f(Category.FOUR_OF_A_KIND, FOUR_ACES),
        _f(Category.STRAIGHT_FLUSH),
        _f(Category.THREE_OF_A_KIND),
        _f(Category.FLUSH),
        _f(Category.STRAIGHT),
    )
    return _table(PaytableKind.BAD_BEAT, name, source, list(zip(labels, hands, pays, strict=True)))


_PA_BB_LABELS: Final = ("Four-of-a-kind", "Straight flush", "Three-of-a-kind", "Flush", "Straight")
_MF_BB_LABELS: Final = ("Quads", "Straight Flush", "Trips", "Flush", "Straight")
MANUFACTURER: Final = "Four Card Frenzy Rules of Play"

BAD_BEAT_PAYTABLES: Final = {
    **{n: _bad_beat(n, "§684a.12(c)", _PA_BB_LABELS, p) for n, p in _BAD_BEAT_PA.items()},
    **{
        n: _bad_beat(n, f"{MANUFACTURER}, Appendix B", _MF_BB_LABELS, p)
        for n, p in _BAD_BEAT_MANUFACTURER.items()
    },
}

# --- Prime (§684a.12(d); manufacturer's Appendix D) ---------------------------------------


def _prime(name: str, source: str, labels: tuple[str, str], five: str) -> Paytable:
    return _table(
        PaytableKind.PRIME,
        name,
        source,
        [
            (labels[0], _f(PrimeHand.FIVE_SAME_COLOUR), five),
            (labels[1], _f(PrimeHand.FOUR_SAME_COLOUR), "1 to 1"),
        ],
    )


_PA_PRIME: Final = ("All five of the same color", "Four of the same color")
_MF_PRIME: Final = ("Five Cards Same Color", "Four Cards Same Color")
PRIME_PAYTABLES: Final = {
    "A": _prime("A", "§684a.12(d)", _PA_PRIME, "6 to 1"),
    "B": _prime("B", "§684a.12(d)", _PA_PRIME, "5 to 1"),
    "Prime-1": _prime("Prime-1", f"{MANUFACTURER}, Appendix D", _MF_PRIME, "6 to 1"),
    "Prime-2": _prime("Prime-2", f"{MANUFACTURER}, Appendix D", _MF_PRIME, "5 to 1"),
}

# --- Four Card Bonus (§684a.12(e); manufacturer's Appendix C) -----------------------------

_PA_FCB_LABELS: Final = (
    "Four aces",
    "Any other four-of-a-kind",
    "Royal flush",
    "Straight flush",
    "Three aces",
    "Any other three-of-a-kind",
    "Flush",
    "Straight",
    "Two pair—other than two aces and two queens",
    "Two aces and two queens",
)
_PA_FCB_HANDS: Final = (
    _f(BonusHand.FOUR_ACES),
    _f(BonusHand.FOUR_OF_A_KIND),
    _f(BonusHand.ROYAL_FLUSH),
    _f(BonusHand.STRAIGHT_FLUSH),
    _f(BonusHand.THREE_ACES),
    _f(BonusHand.THREE_OF_A_KIND),
    _f(BonusHand.FLUSH),
    _f(BonusHand.STRAIGHT),
    _f(BonusHand.TWO_PAIR),
    _f(BonusHand.TWO_ACES_TWO_QUEENS),
)
_PA_FCB: Final = {
    # rows in the order of _PA_FCB_LABELS; the two-pair rows are the same on every table
    "A": ("50", "50", "40", "40", "8", "8", "4", "3"),
    "B": ("50", "50", "40", "40", "7", "7", "4", "3"),
    "C": ("200", "100", "50", "30", "20", "8", "4", "3"),
    "D": ("200", "100", "50", "40", "20", "7", "4", "3"),
    "E": ("200", "100", "50", "30", "20", "6", "4", "3"),
    "F": ("200", "100", "50", "40", "20", "5", "4", "3"),
    "G": ("200", "100", "50", "40", "20", "6", "4", "3"),
    "H": ("200", "100", "50", "40", "20", "5", "4", "3"),
}
_MF_FCB_LABELS: Final = (
    "Quad Aces",
    "Quads",
    "Royal",
    "Straight Flush",
    "Trip Aces",
    "Trips",
    "Flush",
    "Straight",
    "Two Pair",
    "QQ-AA",
)
_MF_FCB_HANDS: Final = (
    *_PA_FCB_HANDS[:8],
    # The manufacturer's tables pay every two pair alike and a pair of queens or better.
    _f(BonusHand.TWO_PAIR, BonusHand.TWO_ACES_TWO_QUEENS),
    _f(BonusHand.PAIR_OF_QUEENS_OR_BETTER),
)
_MF_FCB: Final = {
    "FC-1": ("50", "50", "30", "30", "9", "9", "4", "3"),
    "FC-2": ("50", "50", "40", "40", "8", "8", "4", "3"),
    "FC-3": ("50", "50", "30", "30", "8", "8", "4", "3"),
    "FC-4": ("50", "50", "40", "40", "7", "7", "4", "3"),
    "FC-5": ("200", "100", "50", "30", "20", "8", "4", "3"),
    "FC-6": ("200", "100", "50", "40", "20", "7", "4", "3"),
    "FC-7": ("200", "100", "50", "30", "20", "6", "4", "3"),
    "FC-8": ("200", "100", "50", "40", "20", "5", "4", "3"),
    "FC-9": ("200", "100", "50", "40", "20", "8", "4", "3"),
    "FC-10": ("200", "100", "50", "40", "20", "7", "4", "3"),
    "FC-11": ("200", "100", "50", "40", "20", "6", "4", "3"),
    "FC-12": ("200", "100", "50", "40", "20", "5", "4", "3"),
}


def _fcb(
    name: str,
    source: str,
    labels: tuple[str, ...],
    hands: tuple[frozenset[object], ...],
    top: tuple[str, ...],
) -> Paytable:
    pays = [f"{p} to 1" for p in top] + ["2 to 1", "1 to 1"]
    return _table(
        PaytableKind.FOUR_CARD_BONUS, name, source, list(zip(labels, hands, pays, strict=True))
    )


FOUR_CARD_BONUS_PAYTABLES: Final = {
    **{n: _fcb(n, "§684a.12(e)", _PA_FCB_LABELS, _PA_FCB_HANDS, p) for n, p in _PA_FCB.items()},
    **{
        n: _fcb(n, f"{MANUFACTURER}, Appendix C", _MF_FCB_LABELS, _MF_FCB_HANDS, p)
        for n, p in _MF_FCB.items()
    },
}

# --- All-Six Bonus (§684a.12(f)) ------------------------------------------------------------

_ANY_ROYAL: Final = _f(
    AllSixHand.ROYAL_FLUSH,
    # In tables A-D the six-card royal flush is still a royal flush (RULES.md).
    AllSixHand.SIX_CARD_ROYAL_FLUSH,
    AllSixHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS,
)
_ALL_SIX_TAIL: Final = (
    ("Straight flush", _f(AllSixHand.STRAIGHT_FLUSH)),
    ("Four-of-a-kind", _f(AllSixHand.FOUR_OF_A_KIND)),
    ("Full house", _f(AllSixHand.FULL_HOUSE)),
    ("Flush", _f(AllSixHand.FLUSH)),
    ("Straight", _f(AllSixHand.STRAIGHT)),
    ("Three-of-a-kind", _f(AllSixHand.THREE_OF_A_KIND)),
)
_ALL_SIX: Final = {
    # royal, straight flush, four-of-a-kind, full house, flush, straight, three-of-a-kind
    "A": ("1,000", "200", "50", "25", "20", "10", "5"),
    "B": ("1,000", "200", "50", "25", "15", "10", "5"),
    "C": ("1,000", "200", "100", "20", "15", "9", "8"),
    "D": ("1,000", "200", "100", "20", "15", "10", "7"),
    "E": ("1,000", "200", "50", "20", "15", "10", "5"),
}


def _all_six(name: str, pays: tuple[str, ...]) -> Paytable:
    rows: list[tuple[str, frozenset[object], str]] = []
    if name == "E":
        rows += [
            (
                "Six-card royal flush—diamonds",
                _f(AllSixHand.SIX_CARD_ROYAL_FLUSH_DIAMONDS),
                "200,000 to 1",
            ),
            (
                "Six-card royal flush—hearts, spades or clubs",
                _f(AllSixHand.SIX_CARD_ROYAL_FLUSH),
                "20,000 to 1",
            ),
            ("Royal flush", _f(AllSixHand.ROYAL_FLUSH), f"{pays[0]} to 1"),
        ]
    else:
        rows.append(("Royal flush", _ANY_ROYAL, f"{pays[0]} to 1"))
    rows += [
        (label, hands, f"{p} to 1")
        for (label, hands), p in zip(_ALL_SIX_TAIL, pays[1:], strict=False)
    ]
    return _table(PaytableKind.ALL_SIX, name, "§684a.12(f)", rows)


ALL_SIX_PAYTABLES: Final = {n: _all_six(n, p) for n, p in _ALL_SIX.items()}

PAYTABLES: Final[dict[PaytableKind, dict[str, Paytable]]] = {
    PaytableKind.ODDS: {"Odds": ODDS_PAYTABLE},
    PaytableKind.BAD_BEAT: BAD_BEAT_PAYTABLES,
    PaytableKind.PRIME: PRIME_PAYTABLES,
    PaytableKind.FOUR_CARD_BONUS: FOUR_CARD_BONUS_PAYTABLES,
    PaytableKind.ALL_SIX: ALL_SIX_PAYTABLES,
}


def paytable(kind: PaytableKind, name: object) -> Paytable:
    """Look a paytable up by its name; an unknown name is :class:`InvalidInput`."""
    tables = PAYTABLES[kind]
    if not isinstance(name, str) or name not in tables:
        raise InvalidInput(
            "unknown_paytable",
            f"unknown {kind.value} paytable {name!r} (choose from {', '.join(tables)})",
        )
    return tables[name]
