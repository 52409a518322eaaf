"""What a casino's Rules Submission decides for a table (§601a.2, §684a.7, §684a.12).

:class:`TableRules` is a frozen value: every round keeps the exact copy it was played under,
so history never changes meaning when the casino edits its Rules Submission.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final

from table.games.base import MIN_CLOCK_SECONDS
from table.games.common import check_amount, limits_problems
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import plain_dict

from .hands import Category
from .paytables import (
    FOUR_ACES,
    MANUFACTURER,
    ODDS_PAYTABLE,
    PAYTABLES,
    Paytable,
    PaytableKind,
    paytable,
)
from .settlement import ALL_SIX, ANTE, FOUR_CARD_BONUS, ODDS, PRIME, Rules

#: §684a.12(g): a payout limit may not be under $50,000 ...
PAYOUT_LIMIT_FLOOR: Final = 50_000_00
OPTIONAL = (PRIME, FOUR_CARD_BONUS, ALL_SIX)
_WAGERS: Final = frozenset({ANTE, *OPTIONAL})


class Jurisdiction(StrEnum):
    """Whose rules a Rules Submission is filed under: each allows exactly its own paytables."""

    PENNSYLVANIA = "pennsylvania"  # 58 Pa. Code ch. 684a, §684a.12(c)-(f)
    MANUFACTURER = "manufacturer"  # the Four Card Frenzy Rules of Play, Appendices B-D


JURISDICTION_NAMES: Final = {
    Jurisdiction.PENNSYLVANIA: "Pennsylvania (58 Pa. Code ch. 684a)",
    Jurisdiction.MANUFACTURER: f"Manufacturer's rules ({MANUFACTURER})",
}

#: The Rules Submission's paytable fields: the wager each belongs to and its kind.
PAYTABLE_FIELDS: Final = (
    ("bad_beat_paytable", ANTE, PaytableKind.BAD_BEAT),
    ("prime_paytable", PRIME, PaytableKind.PRIME),
    ("four_card_bonus_paytable", FOUR_CARD_BONUS, PaytableKind.FOUR_CARD_BONUS),
    ("all_six_paytable", ALL_SIX, PaytableKind.ALL_SIX),
)
_KIND_WORDS: Final = {
    PaytableKind.BAD_BEAT: ("bad beat", "§684a.12(c)", "Appendix B"),
    PaytableKind.PRIME: ("Prime", "§684a.12(d)", "Appendix D"),
    PaytableKind.FOUR_CARD_BONUS: ("Four Card Bonus", "§684a.12(e)", "Appendix C"),
    PaytableKind.ALL_SIX: ("All-Six Bonus", "§684a.12(f)", "none"),
}


def _belongs(jurisdiction: Jurisdiction, table: Paytable) -> bool:
    if jurisdiction is Jurisdiction.PENNSYLVANIA:
        return table.source.startswith("§684a.12")
    return table.source.startswith(MANUFACTURER)


def jurisdiction_paytables(jurisdiction: Jurisdiction, kind: PaytableKind) -> tuple[str, ...]:
    """The paytables of ``kind`` that ``jurisdiction`` lists, in their order (may be none:
    the manufacturer's rules have no All-Six Bonus)."""
    return tuple(n for n, t in PAYTABLES[kind].items() if _belongs(jurisdiction, t))


def parse_jurisdiction(value: object) -> Jurisdiction:
    for jurisdiction in Jurisdiction:
        if value == jurisdiction.value and isinstance(value, str):
            return jurisdiction
    choices = ", ".join(j.value for j in Jurisdiction)
    raise InvalidInput(
        "unknown_jurisdiction", f"unknown jurisdiction {value!r} (choose from {choices})"
    )


def jurisdiction_problems(
    jurisdiction: object, tables: Mapping[str, object]
) -> list[tuple[str, str]]:
    """Every paytable in use that ``jurisdiction`` does not allow, as (field, plain words).

    ``tables`` maps paytable fields (``bad_beat_paytable`` ...) to the names in use: the
    tables of the wagers offered. Unknown names are left to :func:`paytable` to refuse.
    """
    try:
        where = parse_jurisdiction(jurisdiction)
    except InvalidInput as exc:
        return [("jurisdiction", exc.message)]
    out: list[tuple[str, str]] = []
    for field_name, _wager, kind in PAYTABLE_FIELDS:
        if field_name not in tables:
            continue
        name = tables[field_name]
        tables_of_kind = PAYTABLES[kind]
        if not isinstance(name, str) or name not in tables_of_kind:
            continue
        table = tables_of_kind[name]
        if _belongs(where, table):
            continue
        words, section, appendix = _KIND_WORDS[kind]
        allowed = jurisdiction_paytables(where, kind)
        if where is Jurisdiction.PENNSYLVANIA:
            # §684a.12(c)-(f): the certificate holder selects one of the tables listed there.
            message = (
                f"{words} paytable {name} is the manufacturer's ({table.source}), not one "
                f"of those {section} lists: a Pennsylvania Rules Submission chooses from "
                f"{', '.join(allowed)}"
            )
        elif not allowed:
            message = (
                f"the manufacturer's rules of play have no {words} Wager: it cannot be "
                "offered under them"
            )
        else:
            message = (
                f"{words} paytable {name} is Pennsylvania's ({table.source}), not one of "
                f"the manufacturer's rules of play ({appendix}): choose from "
                f"{', '.join(allowed)}"
            )
        out.append((field_name, message))
    return out


def infer_jurisdiction(tables: Mapping[str, object]) -> Jurisdiction:
    """Pennsylvania when every table in use is Pennsylvania's, else the manufacturer's rules
    (for copies of rules made before a Rules Submission named its jurisdiction)."""
    for field_name, _wager, kind in PAYTABLE_FIELDS:
        table = PAYTABLES[kind].get(str(tables.get(field_name)))
        if table is not None and _belongs(Jurisdiction.MANUFACTURER, table):
            return Jurisdiction.MANUFACTURER
    return Jurisdiction.PENNSYLVANIA


@dataclass(frozen=True, slots=True)
class TableRules:
    bad_beat_paytable: str = "A"
    prime_paytable: str = "A"
    four_card_bonus_paytable: str = "A"
    all_six_paytable: str = "A"
    payout_limit: int | None = None  # cents, or no limit
    offers_prime: bool = True
    offers_four_card_bonus: bool = True
    offers_all_six: bool = True
    adjacent_boxes: int = 2  # §684a.7(e)
    ante_min: int = 5_00
    ante_max: int = 500_00
    prime_min: int = 1_00
    prime_max: int = 100_00
    four_card_bonus_min: int = 1_00
    four_card_bonus_max: int = 100_00
    all_six_min: int = 1_00
    all_six_max: int = 100_00
    two_decks: bool = True  # automated shuffler with two alternating decks, §684a.3(b)
    decision_seconds: int = 20
    betting_seconds: int = 15  # the automatic dealer's betting countdown
    jurisdiction: str = Jurisdiction.PENNSYLVANIA.value  # whose paytables it may select

    def settlement_rules(self) -> Rules:
        return Rules.from_names(
            self.bad_beat_paytable,
            self.prime_paytable,
            self.four_card_bonus_paytable,
            self.all_six_paytable,
            self.payout_limit,
        )

    def _type_problems(self) -> list[tuple[str, str]]:
        """Fields of the wrong type (a Rules Submission read from outside)."""
        out: list[tuple[str, str]] = []
        for f in fields(self):
            value = getattr(self, f.name)
            ok = {
                "str": isinstance(value, str),
                "bool": isinstance(value, bool),
                "int": type(value) is int,
                "int | None": value is None or type(value) is int,
            }[str(f.type)]
            if not ok:
                out.append((f.name, f"{f.name} must be of type {f.type}, not {value!r}"))
        return out

    def _require_types(self) -> None:
        problems = self._type_problems()
        if problems:
            raise InvalidInput("bad_rules", problems[0][1])

    def tables_in_use(self) -> dict[str, str]:
        """The paytable fields of the wagers offered (the bad beat always), with their names."""
        return {
            field_name: getattr(self, field_name)
            for field_name, wager, _kind in PAYTABLE_FIELDS
            if self.offers(wager)
        }

    def offers(self, wager: str) -> bool:
        if not isinstance(wager, str) or wager not in _WAGERS:
            raise InvalidInput("unknown_wager", f"no such wager {wager!r}")
        return {
            ANTE: True,
            PRIME: self.offers_prime,
            FOUR_CARD_BONUS: self.offers_four_card_bonus,
            ALL_SIX: self.offers_all_six,
        }[wager]

    def limits(self, wager: str) -> tuple[int, int]:
        if not isinstance(wager, str) or wager not in _WAGERS:
            raise InvalidInput("unknown_wager", f"no such wager {wager!r}")
        return {
            ANTE: (self.ante_min, self.ante_max),
            PRIME: (self.prime_min, self.prime_max),
            FOUR_CARD_BONUS: (self.four_card_bonus_min, self.four_card_bonus_max),
            ALL_SIX: (self.all_six_min, self.all_six_max),
        }[wager]

    def check_wagers(self, wagers: Mapping[str, object]) -> dict[str, int]:
        """A box's complete set of wagers against these rules and limits; returns it with the
        Odds equal to the Ante (the round checks the box and the player)."""
        ante = check_amount(wagers.get(ANTE, 0), "Ante")
        placed: dict[str, int] = {}
        if ante:
            low, high = self.limits(ANTE)
            if not low <= ante <= high:
                raise RuleViolation(
                    "out_of_limits",
                    f"Ante must be between {low / 100:.2f} and {high / 100:.2f}",
                )
            # §684a.7(d)(1): Ante and Odds in equal amounts.
            placed[ANTE] = placed[ODDS] = ante
        for wager in OPTIONAL:
            amount = check_amount(wagers.get(wager, 0), wager)
            if not amount:
                continue
            label = wager.replace("_", " ")
            if not self.offers(wager):
                # §684a.7(d)(2)-(4): only if the Rules Submission offers it.
                raise RuleViolation("not_offered", f"this table does not offer the {label} wager")
            if not ante:
                raise RuleViolation(
                    "ante_required", f"the {label} wager needs an Ante and Odds on the box"
                )
            low, high = self.limits(wager)
            if not low <= amount <= high:
                raise RuleViolation(
                    "out_of_limits",
                    f"the {label} wager must be between {low / 100:.2f} and {high / 100:.2f}",
                )
            placed[wager] = amount
        return placed

    def max_win_at_minimum(self) -> int:
        """The most one player can win on Ante, Raise and Odds in one round at the minimum.

        With one box: four aces win 1 (Ante) + 3 (Raise) + 200 (Odds) times the Ante, or
        a losing four-of-a-kind is paid the bad-beat quads figure. With N adjacent boxes one
        box can hold four aces and the others four-of-a-kind that win (34x) or lose to the
        dealer's higher quads (bad beat), or every box can lose to the dealer's four aces.
        """
        self._require_types()
        bad_beat = paytable(PaytableKind.BAD_BEAT, self.bad_beat_paytable)

        def ratio(table: Paytable, hand: object) -> Fraction:
            row = table.row_for(hand)
            return row.payout.ratio if row else Fraction(0)

        four_aces = 1 + 3 + ratio(ODDS_PAYTABLE, FOUR_ACES)
        other_quads = 1 + 3 + ratio(ODDS_PAYTABLE, Category.FOUR_OF_A_KIND)
        bb_quads = ratio(bad_beat, Category.FOUR_OF_A_KIND)
        n = self.adjacent_boxes
        best = max(four_aces + (n - 1) * max(other_quads, bb_quads), n * bb_quads)
        return int(best * self.ante_min)

    def payout_limit_floor(self) -> int:
        """§684a.12(g): the greater of $50,000 and the most one player can win at the minimum."""
        return max(PAYOUT_LIMIT_FLOOR, self.max_win_at_minimum())

    def problems(self) -> list[tuple[str, str]]:
        """Every reason this Rules Submission cannot be used, as (field, plain words)."""
        out = self._type_problems()
        if out:
            return out
        for field_name, kind in (
            ("bad_beat_paytable", PaytableKind.BAD_BEAT),
            ("prime_paytable", PaytableKind.PRIME),
            ("four_card_bonus_paytable", PaytableKind.FOUR_CARD_BONUS),
            ("all_six_paytable", PaytableKind.ALL_SIX),
        ):
            try:
                paytable(kind, getattr(self, field_name))
            except InvalidInput as exc:
                out.append((field_name, exc.message))
        out += jurisdiction_problems(self.jurisdiction, self.tables_in_use())
        if not 1 <= self.adjacent_boxes <= 6:
            out.append(("adjacent_boxes", "a player may play 1 to 6 adjacent boxes"))
        out += limits_problems(self, (ANTE, *OPTIONAL))
        if self.decision_seconds < MIN_CLOCK_SECONDS:
            out.append(
                ("decision_seconds", f"players need at least {MIN_CLOCK_SECONDS} seconds to decide")
            )
        if self.betting_seconds < MIN_CLOCK_SECONDS:
            out.append(
                ("betting_seconds", f"betting must stay open at least {MIN_CLOCK_SECONDS} seconds")
            )
        if self.payout_limit is not None and not out:
            floor = self.payout_limit_floor()
            if self.payout_limit < floor:
                out.append(
                    (
                        "payout_limit",
                        f"the payout limit ${self.payout_limit / 100:,.2f} is under "
                        f"${floor / 100:,.2f}, the greater of $50,000 and the most one "
                        "player can win in a round at the table minimum (§684a.12(g))",
                    )
                )
        return out

    def to_dict(self) -> dict[str, Any]:
        return plain_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableRules:
        if not isinstance(data, dict):
            raise InvalidInput("bad_rules", "table rules must be a mapping of fields")
        known = {f.name for f in fields(cls)}
        rules = cls(**{k: v for k, v in data.items() if k in known})
        if "jurisdiction" not in data:
            # A copy frozen before Rules Submissions named their jurisdiction.
            inferred = infer_jurisdiction(
                rules.tables_in_use() if not rules._type_problems() else {}
            )
            rules = replace(rules, jurisdiction=inferred.value)
        return rules


def _usd(cents: int | None) -> str:
    if cents is None:
        return "no limit"
    return f"${cents // 100:,}.{cents % 100:02d}"


_OPTIONAL_WORDS: Final = (
    ("Prime", "offers_prime", "prime_paytable", "prime_min", "prime_max"),
    (
        "Four Card Bonus",
        "offers_four_card_bonus",
        "four_card_bonus_paytable",
        "four_card_bonus_min",
        "four_card_bonus_max",
    ),
    ("All-Six Bonus", "offers_all_six", "all_six_paytable", "all_six_min", "all_six_max"),
)


def rule_changes(old: TableRules, new: TableRules) -> list[str]:
    """What a player notices between two sets of rules, one sentence part each, in the
    words of the posted signs (§684a.2(b)(4),(5)); empty when nothing a player sees changed."""
    out: list[str] = []
    if old.bad_beat_paytable != new.bad_beat_paytable:
        out.append(
            f"the Odds bad beat pays by paytable {new.bad_beat_paytable} "
            f"(was {old.bad_beat_paytable})"
        )
    if (old.ante_min, old.ante_max) != (new.ante_min, new.ante_max):
        out.append(
            f"Ante and Odds {_usd(new.ante_min)}–{_usd(new.ante_max)} each "
            f"(was {_usd(old.ante_min)}–{_usd(old.ante_max)})"
        )
    for label, offered, table, low, high in _OPTIONAL_WORDS:
        was, now = getattr(old, offered), getattr(new, offered)
        if was and not now:
            out.append(f"the {label} wager is no longer offered")
            continue
        if now and not was:
            out.append(
                f"the {label} wager is offered, paytable {getattr(new, table)}, "
                f"{_usd(getattr(new, low))}–{_usd(getattr(new, high))}"
            )
            continue
        if not now:
            continue
        if getattr(old, table) != getattr(new, table):
            out.append(
                f"{label} pays by paytable {getattr(new, table)} (was {getattr(old, table)})"
            )
        if (getattr(old, low), getattr(old, high)) != (getattr(new, low), getattr(new, high)):
            out.append(
                f"{label} {_usd(getattr(new, low))}–{_usd(getattr(new, high))} "
                f"(was {_usd(getattr(old, low))}–{_usd(getattr(old, high))})"
            )
    if old.payout_limit != new.payout_limit:
        out.append(
            f"payout limit {_usd(new.payout_limit)} (was {_usd(old.payout_limit)}) (§684a.12(g))"
        )
    if old.adjacent_boxes != new.adjacent_boxes:
        out.append(f"up to {new.adjacent_boxes} adjacent boxes (was {old.adjacent_boxes})")
    if old.two_decks != new.two_decks:
        out.append("two decks, alternating" if new.two_decks else "one deck")
    if old.decision_seconds != new.decision_seconds:
        out.append(f"{new.decision_seconds} s to decide (was {old.decision_seconds} s)")
    if old.betting_seconds != new.betting_seconds:
        out.append(f"{new.betting_seconds} s to bet (was {old.betting_seconds} s)")
    return out
