"""The Rules Submission's choices for Crazy 4 Poker (§601a.2, §657a.7(d)-(e), §657a.12) and the
Play decision (§657a.11(b)).

:class:`Rules` is what one table offers: the Queens Up paytable (always offered), at most one
progressive - Four-Card **or** Five-Card, one betting area (§657a.2(b)(3)) - with its paytable
and fixed wager ($1 or $5), the Five Card Hand Bonus with its fixed wager, the Six Card Bonus
paytable, the Magic Card / Lucky Bonus trigger probabilities and the number of adjacent boxes
a player may play (§657a.7(e)). Construction validates every choice. :class:`TableRules` adds
the table limits (§657a.7(d), §657a.12(d)-(f)) and checks what a box wagers against both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any, Final

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

# Wager names, in the contract's order.
ANTE, PLAY, SUPER_BONUS_WAGER, QUEENS_UP = "ante", "play", "super_bonus", "queens_up"
PROGRESSIVE, HAND_BONUS_PLAYER, HAND_BONUS_DEALER = (
    "progressive",
    "hand_bonus_player",
    "hand_bonus_dealer",
)
SIX_CARD_BONUS = "six_card_bonus"
WAGER_ORDER: Final = (
    ANTE,
    PLAY,
    SUPER_BONUS_WAGER,
    QUEENS_UP,
    PROGRESSIVE,
    HAND_BONUS_PLAYER,
    HAND_BONUS_DEALER,
    SIX_CARD_BONUS,
)
#: What a player puts on a box before "no more bets" (the Super Bonus follows the Ante).
BET_WAGERS: Final = (
    ANTE,
    SUPER_BONUS_WAGER,
    QUEENS_UP,
    PROGRESSIVE,
    HAND_BONUS_PLAYER,
    HAND_BONUS_DEALER,
    SIX_CARD_BONUS,
)
OPTIONAL: Final = (QUEENS_UP, PROGRESSIVE, HAND_BONUS_PLAYER, HAND_BONUS_DEALER, SIX_CARD_BONUS)
LABELS: Final = {
    ANTE: "Ante",
    SUPER_BONUS_WAGER: "Super Bonus",
    PLAY: "Play",
    QUEENS_UP: "Queens Up",
    PROGRESSIVE: "Progressive",
    HAND_BONUS_PLAYER: "Five Card Hand Bonus on your hand",
    HAND_BONUS_DEALER: "Five Card Hand Bonus on the dealer's hand",
    SIX_CARD_BONUS: "Six Card Bonus",
}


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
    full deck and/or a position uniformly from boxes 1-6 and the dealer. Each answer of ``rng``
    is checked to be in range (a faulty source refuses the draw)."""
    rng = _Checked(rng)
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


def amount(value: object, name: str) -> int:
    if type(value) is not int or value < 0:
        raise InvalidInput("bad_amount", f"{name} must be a whole number of cents ≥ 0")
    return value


def dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"


# --- the table's rules: the Rules Submission and the table limits ---------------------------


@dataclass(frozen=True, slots=True)
class TableRules:
    """What a Crazy 4 Poker table plays under: the Rules Submission's choices (:class:`Rules`)
    and the table limits of the Ante (and so the Super Bonus), Queens Up and Six Card Bonus;
    the progressive and the hand bonus are fixed wagers (§657a.12(d)-(f))."""

    rules: Rules
    ante_min: int = 5_00
    ante_max: int = 500_00
    queens_up_min: int = 1_00
    queens_up_max: int = 100_00
    six_card_bonus_min: int = 1_00
    six_card_bonus_max: int = 100_00
    decision_seconds: int = 20
    betting_seconds: int = 15

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise InvalidInput("bad_rules", "a table plays under a Crazy 4 Poker Rules Submission")
        for f in fields(self):
            if f.name == "rules":
                continue
            v = getattr(self, f.name)
            if type(v) is not int or v <= 0:
                raise InvalidInput("bad_rules", f"{f.name} must be a whole number > 0, not {v!r}")
        for low, high in (
            (self.ante_min, self.ante_max),
            (self.queens_up_min, self.queens_up_max),
            (self.six_card_bonus_min, self.six_card_bonus_max),
        ):
            if low > high:
                raise InvalidInput("bad_rules", "a table minimum cannot exceed its maximum")

    def offers(self, wager: str) -> bool:
        return {
            ANTE: True,
            SUPER_BONUS_WAGER: True,
            QUEENS_UP: True,  # §657a.7(d)(2): always offered
            PROGRESSIVE: self.rules.progressive is not None,
            HAND_BONUS_PLAYER: self.rules.hand_bonus_wager is not None,
            HAND_BONUS_DEALER: self.rules.hand_bonus_wager is not None,
            SIX_CARD_BONUS: self.rules.six_card_bonus is not None,
        }[wager]

    def limits(self, wager: str) -> tuple[int, int]:
        """(minimum, maximum) in cents; a fixed wager has both equal to it."""
        if wager == PROGRESSIVE and self.rules.progressive is not None:
            return self.rules.progressive.wager, self.rules.progressive.wager
        if wager in (HAND_BONUS_PLAYER, HAND_BONUS_DEALER) and self.rules.hand_bonus_wager:
            return self.rules.hand_bonus_wager, self.rules.hand_bonus_wager
        if wager in (PROGRESSIVE, HAND_BONUS_PLAYER, HAND_BONUS_DEALER):
            # Not offered by these rules (a table without it listed its wagers with a KeyError).
            return 0, 0
        return {
            ANTE: (self.ante_min, self.ante_max),
            SUPER_BONUS_WAGER: (self.ante_min, self.ante_max),
            QUEENS_UP: (self.queens_up_min, self.queens_up_max),
            SIX_CARD_BONUS: (self.six_card_bonus_min, self.six_card_bonus_max),
        }[wager]

    def check_wagers(self, wagers: Mapping[str, object]) -> dict[str, int]:
        """A box's complete set of wagers against these rules and limits; returns it with the
        Super Bonus equal to the Ante (the round checks the box and the player)."""
        ante = amount(wagers.get(ANTE, 0), "the Ante")
        super_bonus = amount(wagers.get(SUPER_BONUS_WAGER, ante), "the Super Bonus")
        placed: dict[str, int] = {}
        if super_bonus != ante:
            # §657a.7(d)(1): Ante and Super Bonus in equal amounts.
            raise RuleViolation(
                "unequal_super_bonus", "the Super Bonus must equal the Ante (§657a.7(d)(1))"
            )
        if ante:
            low, high = self.limits(ANTE)
            if not low <= ante <= high:
                raise RuleViolation(
                    "out_of_limits",
                    f"the Ante must be between {dollars(low)} and {dollars(high)}",
                )
            placed[ANTE] = placed[SUPER_BONUS_WAGER] = ante
        for wager in OPTIONAL:
            stake = amount(wagers.get(wager, 0), LABELS[wager])
            if not stake:
                continue
            label = LABELS[wager]
            if not self.offers(wager):
                # §657a.7(d)(3)-(6): only if the Rules Submission offers it.
                raise RuleViolation("not_offered", f"this table does not offer the {label} wager")
            if not ante:
                raise RuleViolation(
                    "ante_required", f"the {label} wager needs an Ante and Super Bonus on the box"
                )
            low, high = self.limits(wager)
            if low == high and stake != low:
                # §657a.12(d)-(f), interpretation 5: one fixed wager per table.
                raise RuleViolation(
                    "fixed_wager", f"the {label} wager is {dollars(low)} at this table"
                )
            if not low <= stake <= high:
                raise RuleViolation(
                    "out_of_limits",
                    f"the {label} wager must be between {dollars(low)} and {dollars(high)}",
                )
            placed[wager] = stake
        return placed

    def to_dict(self) -> dict[str, Any]:
        r = self.rules
        out: dict[str, Any] = {
            "queens_up_paytable": r.queens_up.name,
            "progressive": None
            if r.progressive is None
            else {
                "type": r.progressive.table.type.value,
                "paytable": r.progressive.table.name,
                "wager": r.progressive.wager,
            },
            "hand_bonus": None if r.hand_bonus_wager is None else {"wager": r.hand_bonus_wager},
            "six_card_bonus_paytable": None if r.six_card_bonus is None else r.six_card_bonus.name,
            "magic_card_probability": str(r.magic_card_probability),
            "lucky_bonus_probability": str(r.lucky_bonus_probability),
            "max_boxes_per_player": r.max_boxes_per_player,
        }
        for f in fields(self):
            if f.name != "rules":
                out[f.name] = getattr(self, f.name)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TableRules:
        if not isinstance(d, dict):
            raise InvalidInput("bad_rules", "table rules must be a mapping of fields")
        contract_keys = (
            "queens_up_paytable",
            "progressive",
            "hand_bonus",
            "six_card_bonus_paytable",
        )
        from .contract import parse_rules  # the contract imports this module

        try:
            rules = replace(
                parse_rules({k: d[k] for k in contract_keys if k in d}),
                magic_card_probability=Fraction(d.get("magic_card_probability", "0")),
                lucky_bonus_probability=Fraction(d.get("lucky_bonus_probability", "0")),
                max_boxes_per_player=d.get("max_boxes_per_player", 2),
            )
        except (TypeError, ValueError, ZeroDivisionError) as exc:
            raise InvalidInput("bad_rules", f"not a Crazy 4 Poker table's rules: {exc}") from None
        limits = {f.name: d[f.name] for f in fields(cls) if f.name != "rules" and f.name in d}
        return cls(rules, **limits)


class _Checked:
    """A source of randomness whose every answer is checked to be in range."""

    def __init__(self, rng: RandomSource) -> None:
        self.rng = rng

    def randbelow(self, n: int, /) -> int:
        j = self.rng.randbelow(n)
        if type(j) is not int or not 0 <= j < n:
            raise InvalidInput("bad_random", f"randbelow({n}) answered {j!r}")
        return j
