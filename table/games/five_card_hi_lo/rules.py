"""What a casino's Rules Submission decides for a Five Card Hi-Lo table (§601a.2, ch. 663a).

:class:`HiLoRules` is a frozen value, like Four Card Frenzy's ``TableRules``: each round keeps
the copy it was played under. :meth:`HiLoRules.problems` lists every reason a submission
cannot be used, as (field, plain words), for the admin form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from table.games.base import MIN_CLOCK_SECONDS
from table.games.common import check_amount, limits_problems
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import plain_dict

from .paytables import ANTE_BONUS_PAYTABLES, POKER_BONUS_PAYTABLES
from .settlement import ANTE, POKER_BONUS, TIE, Paytables

OPTIONAL: Final = (TIE, POKER_BONUS)
_WAGERS: Final = frozenset({ANTE, *OPTIONAL})


@dataclass(frozen=True, slots=True)
class HiLoRules:
    ante_bonus_paytable: str = "A"  # §663a.12(b): A, B, C or D
    poker_bonus_paytable: str = "A"  # §663a.12(d): A (7s or better) or B (6s or better)
    offers_tie: bool = True  # §663a.7(e)(1)
    offers_poker_bonus: bool = True  # §663a.7(e)(2)
    adjacent_boxes: bool = True  # §663a.7(f): one player on two adjacent boxes
    ante_min: int = 5_00
    ante_max: int = 500_00
    tie_min: int = 1_00
    tie_max: int = 100_00
    poker_bonus_min: int = 1_00
    poker_bonus_max: int = 100_00
    two_decks: bool = True  # §663a.3(b): an automated shuffler with two alternating decks
    decision_seconds: int = 20  # fold or Play; a time-out is a fold (house rule)
    setting_seconds: int = 30  # setting the hands; a time-out sets aces high (house rule)
    betting_seconds: int = 15

    def paytables(self) -> Paytables:
        return Paytables(self.ante_bonus_paytable, self.poker_bonus_paytable)

    def _type_problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for f in fields(self):
            value = getattr(self, f.name)
            ok = {
                "str": isinstance(value, str),
                "bool": isinstance(value, bool),
                "int": type(value) is int,
            }[str(f.type)]
            if not ok:
                out.append((f.name, f"{f.name} must be of type {f.type}, not {value!r}"))
        return out

    def offers(self, wager: str) -> bool:
        if not isinstance(wager, str) or wager not in _WAGERS:
            raise InvalidInput("unknown_wager", f"no such wager {wager!r}")
        return {ANTE: True, TIE: self.offers_tie, POKER_BONUS: self.offers_poker_bonus}[wager]

    def limits(self, wager: str) -> tuple[int, int]:
        if not isinstance(wager, str) or wager not in _WAGERS:
            raise InvalidInput("unknown_wager", f"no such wager {wager!r}")
        return {
            ANTE: (self.ante_min, self.ante_max),
            TIE: (self.tie_min, self.tie_max),
            POKER_BONUS: (self.poker_bonus_min, self.poker_bonus_max),
        }[wager]

    def check_wagers(self, wagers: Mapping[str, object]) -> dict[str, int]:
        """A box's complete set of wagers (Ante, and Tie and Poker Bonus if offered) against
        these rules and limits (the round checks the box and the player)."""
        ante = check_amount(wagers.get(ANTE, 0), "Ante")
        placed: dict[str, int] = {}
        if ante:
            low, high = self.limits(ANTE)
            if not low <= ante <= high:
                raise RuleViolation(
                    "out_of_limits", f"Ante must be between {low / 100:.2f} and {high / 100:.2f}"
                )
            placed[ANTE] = ante
        for wager in OPTIONAL:
            amount = check_amount(wagers.get(wager, 0), wager)
            if not amount:
                continue
            label = wager.replace("_", " ")
            if not self.offers(wager):
                # §663a.7(e): only if the Rules Submission offers it.
                raise RuleViolation("not_offered", f"this table does not offer the {label} wager")
            if not ante:
                # §663a.7(e): offered "to each player who placed an Ante Wager".
                raise RuleViolation("ante_required", f"the {label} wager needs an Ante on the box")
            low, high = self.limits(wager)
            if not low <= amount <= high:
                raise RuleViolation(
                    "out_of_limits",
                    f"the {label} wager must be between {low / 100:.2f} and {high / 100:.2f}",
                )
            placed[wager] = amount
        return placed

    def boxes_per_player(self) -> int:
        return 2 if self.adjacent_boxes else 1

    def problems(self) -> list[tuple[str, str]]:
        """Every reason this Rules Submission cannot be used, as (field, plain words)."""
        out = self._type_problems()
        if out:
            return out
        if self.ante_bonus_paytable not in ANTE_BONUS_PAYTABLES:
            out.append(
                (
                    "ante_bonus_paytable",
                    f"unknown Ante Bonus paytable {self.ante_bonus_paytable!r} (A, B, C or D)",
                )
            )
        if self.poker_bonus_paytable not in POKER_BONUS_PAYTABLES:
            out.append(
                (
                    "poker_bonus_paytable",
                    f"unknown Poker Bonus paytable {self.poker_bonus_paytable!r} (A or B)",
                )
            )
        out += limits_problems(self, (ANTE, *OPTIONAL))
        if self.decision_seconds < MIN_CLOCK_SECONDS:
            out.append(
                ("decision_seconds", f"players need at least {MIN_CLOCK_SECONDS} seconds to decide")
            )
        if self.setting_seconds < MIN_CLOCK_SECONDS:
            out.append(
                (
                    "setting_seconds",
                    f"players need at least {MIN_CLOCK_SECONDS} seconds to set their hands",
                )
            )
        if self.betting_seconds < MIN_CLOCK_SECONDS:
            out.append(
                ("betting_seconds", f"betting must stay open at least {MIN_CLOCK_SECONDS} seconds")
            )
        return out

    def validated(self) -> HiLoRules:
        """This submission, or :class:`InvalidInput` naming its first problem."""
        problems = self.problems()
        if problems:
            raise InvalidInput("bad_rules", f"{problems[0][0]}: {problems[0][1]}")
        return self

    def to_dict(self) -> dict[str, Any]:
        return plain_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HiLoRules:
        if not isinstance(data, dict):
            raise InvalidInput("bad_rules", "table rules must be a mapping of fields")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput("bad_rules", f"unknown Rules Submission field {unknown[0]!r}")
        return cls(**data)
