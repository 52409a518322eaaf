"""The Rules Submission's choices for Crazy 4 Poker (§601a.2, §657a.7(d)-(e), §657a.12) and the
Play decision (§657a.11(b)).

:class:`Rules` is what one table offers: the Queens Up paytable (always offered), at most one
progressive - Four-Card **or** Five-Card, one betting area (§657a.2(b)(3)) - with its paytable
and fixed wager ($1 or $5), the Five Card Hand Bonus with its fixed wager, the Six Card Bonus
paytable, the Magic Card / Lucky Bonus trigger probabilities and the number of adjacent boxes
a player may play (§657a.7(e)). Construction validates every choice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from table.games.cards import Card
from table.games.errors import InvalidInput, RuleViolation
from table.games.four_card_frenzy.hands import category_of
from table.games.progressive import MeterRates
from table.games.shoe import RandomSource

from .hands import PAIR_OF_ACES
from .paytables import (
    FIXED_WAGERS,
    HAND_BONUS_METER,
    PROGRESSIVES,
    QUEENS_UP_PAYTABLES,
    SIX_CARD_BONUS_PAYTABLES,
    Paytable,
    ProgressiveTable,
    ProgressiveType,
    lookup,
)

HAND_BONUS_WORDS: Final = "Five Card Hand Bonus"


def _fixed_wager(wager: object, what: str) -> int:
    if type(wager) is not int or wager not in FIXED_WAGERS:
        # In dollars first: staff fill it in in dollars (issue 28); the cents for the stored form.
        given = f"${wager / 100:,.2f} ({wager} cents)" if type(wager) is int else repr(wager)
        section = "§657a.12(f)" if what == HAND_BONUS_WORDS else "§657a.12(e)"
        raise InvalidInput(
            "bad_wager_size",
            f"the {what} wager must be $1 or $5 (100 or 500 cents), not {given} ({section})",
        )
    return wager


@dataclass(frozen=True, slots=True)
class Progressive:
    """The table's progressive: its table (type and paytable) and its fixed wager in cents."""

    table: ProgressiveTable
    wager: int

    @classmethod
    def from_names(cls, type_: object, paytable: object, wager: object) -> Progressive:
        if not isinstance(type_, str) or type_ not in {t.value for t in ProgressiveType}:
            raise InvalidInput(
                "unknown_progressive",
                f"unknown progressive type {type_!r} (choose four_card or five_card)",
            )
        tables = PROGRESSIVES[ProgressiveType(type_)]
        if not isinstance(paytable, str) or paytable not in tables:
            raise InvalidInput(
                "unknown_paytable",
                f"unknown {type_} progressive paytable {paytable!r} "
                f"(choose from {', '.join(tables)})",
            )
        return cls(tables[paytable], _fixed_wager(wager, "progressive"))


@dataclass(frozen=True, slots=True)
class Rules:
    queens_up: Paytable
    progressive: Progressive | None = None
    hand_bonus_wager: int | None = None  # None: the Five Card Hand Bonus is not offered
    six_card_bonus: Paytable | None = None
    #: Per-round chance that the system draws a Magic Card / Lucky position (house: off).
    magic_card_probability: Fraction = Fraction(0)
    lucky_bonus_probability: Fraction = Fraction(0)
    max_boxes_per_player: int = 2  # §657a.7(e)
    meters: tuple[MeterRates, ...] = field(init=False)

    def __post_init__(self) -> None:
        if self.hand_bonus_wager is not None:
            _fixed_wager(self.hand_bonus_wager, HAND_BONUS_WORDS)
        for p, what in (
            (self.magic_card_probability, "Magic Card"),
            (self.lucky_bonus_probability, "Lucky Bonus"),
        ):
            if not isinstance(p, Fraction) or not 0 <= p <= 1:
                raise InvalidInput("bad_probability", f"{what} probability must be 0 to 1")
            if p and self.hand_bonus_wager is None:
                raise InvalidInput(
                    "not_offered", f"the {what} pays only Five Card Hand Bonus wagers"
                )
        if type(self.max_boxes_per_player) is not int or not 1 <= self.max_boxes_per_player <= 6:
            raise InvalidInput("bad_max_boxes", "a player may play 1 to 6 adjacent boxes")
        meters = self.progressive.table.meters if self.progressive else ()
        if self.hand_bonus_wager is not None:
            meters = (*meters, HAND_BONUS_METER)
        object.__setattr__(self, "meters", meters)

    @classmethod
    def from_names(
        cls,
        queens_up: object,
        progressive: tuple[object, object, object] | None = None,
        hand_bonus_wager: object = None,
        six_card_bonus: object = None,
    ) -> Rules:
        hand_bonus = None
        if hand_bonus_wager is not None:
            hand_bonus = _fixed_wager(hand_bonus_wager, HAND_BONUS_WORDS)
        six_card = None
        if six_card_bonus is not None:
            six_card = lookup(SIX_CARD_BONUS_PAYTABLES, six_card_bonus, "Six Card Bonus")
        return cls(
            lookup(QUEENS_UP_PAYTABLES, queens_up, "Queens Up"),
            None if progressive is None else Progressive.from_names(*progressive),
            hand_bonus,
            six_card,
        )

    def meter_spec(self, name: str) -> MeterRates:
        for spec in self.meters:
            if spec.name == name:
                return spec
        raise InvalidInput("unknown_meter", f"this table has no {name} meter")

    def meter_wager(self, name: str) -> int:
        """The fixed wager a meter's seed, reseed and rates are per unit of."""
        if name == HAND_BONUS_METER.name and self.hand_bonus_wager is not None:
            return self.hand_bonus_wager
        if self.progressive is not None and any(
            m.name == name for m in self.progressive.table.meters
        ):
            return self.progressive.wager
        raise InvalidInput("unknown_meter", f"this table has no {name} meter")


# --- the Play decision (§657a.11(b)) -------------------------------------------------------------

#: §657a.11(b): a pair of aces or better may Play up to three times the Ante.
MAX_PLAY_MULTIPLE: Final = 3


def play_range(hand_value: int, ante: int) -> tuple[int, int]:
    """The Play wagers allowed on a hand: exactly the Ante, or with a pair of aces or better
    any amount from 1x to 3x the Ante (house interpretation 4)."""
    category_of(hand_value)  # refuses what is not a four-card value
    if type(ante) is not int or ante <= 0:
        raise InvalidInput(
            "bad_amount", f"the Ante must be a whole number of cents > 0, not {ante!r}"
        )
    if hand_value >= PAIR_OF_ACES:
        return ante, MAX_PLAY_MULTIPLE * ante
    return ante, ante


def check_play(hand_value: int, ante: int, play: int) -> None:
    """Refuse a Play the hand does not allow (:class:`RuleViolation`); 0 is a fold."""
    if play == 0:
        return
    low, high = play_range(hand_value, ante)
    if not low <= play <= high:
        if high == low:
            raise RuleViolation(
                "play_not_allowed",
                f"a Play of {play} is not allowed: below a pair of aces"
                f" the Play equals the Ante ({ante})",
            )
        raise RuleViolation(
            "play_not_allowed",
            f"a Play of {play} is not allowed: with a pair of aces or better"
            f" it is {low} to {high} (1x-3x the Ante)",
        )


# --- boxes per player (§657a.7(e)) ----------------------------------------------------------------


def check_boxes_per_player(rules: Rules, boxes_by_player: Mapping[str, Iterable[int]]) -> None:
    """Each player's boxes must be adjacent and no more than the Rules Submission allows."""
    for player, numbers in boxes_by_player.items():
        held = sorted(set(numbers))
        if len(held) > rules.max_boxes_per_player:
            raise RuleViolation(
                "too_many_boxes",
                f"{player} plays {len(held)} boxes; this table allows "
                f"{rules.max_boxes_per_player} (§657a.7(e))",
            )
        if held and held[-1] - held[0] != len(held) - 1:
            raise RuleViolation(
                "boxes_not_adjacent", f"{player}'s boxes {held} are not adjacent (§657a.7(e))"
            )


# --- Magic Card and Lucky Bonus draws (§657a.1, §657a.12(f)(3)) -----------------------------------

#: The positions the Lucky Bonus draws from: boxes 1-6 and the dealer.
LUCKY_POSITIONS: Final[tuple[int | str, ...]] = (1, 2, 3, 4, 5, 6, "dealer")


def _triggered(probability: Fraction, rng: RandomSource) -> bool:
    return bool(probability) and rng.randbelow(probability.denominator) < probability.numerator


def draw_bonuses(rules: Rules, rng: RandomSource) -> tuple[Card | None, int | str | None]:
    """After dealing, the table game system's draws (house design, CRAZY_4_POKER.md): on a
    round triggered with the Rules Submission's probability, a card uniformly from a separate
    full deck and/or a position uniformly from boxes 1-6 and the dealer."""
    magic = rng.randbelow(52) if _triggered(rules.magic_card_probability, rng) else None
    lucky = None
    if _triggered(rules.lucky_bonus_probability, rng):
        lucky = LUCKY_POSITIONS[rng.randbelow(len(LUCKY_POSITIONS))]
    return magic, lucky


def bonus_return(rules: Rules) -> Fraction:
    """What the Magic Card and Lucky Bonus add to a live hand-bonus wager, per unit staked:
    the Magic Card matches one of the hand's five cards with chance 5/52 and pays 20 for 1;
    the Lucky position is the hand's with chance 1/7 and pays 5 for 1."""
    return rules.magic_card_probability * Fraction(
        20 * 5, 52
    ) + rules.lucky_bonus_probability * Fraction(5, 7)
