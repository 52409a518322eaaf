"""Progressive meters (§657a.12(d)(3)-(4), (e)(3)-(4), (f)(2), (f)(4)).

A meter has an amount (what a 100% payout pays) and a reserve (house interpretation 6: it
accumulates at its rate and is added to the reseed when the meter pays 100%). Every
progressive wager adds the table's rates to each of its meters, and every hand-bonus wager
(each hand) to the hand-bonus meter, at "no more bets" (§657a.10(a)(2)), folded boxes
included; a void round takes the increments back out (§657a.13). A winner is paid from the
meter as it stands at that box's turn (§657a.12(d)(4), (e)(4)).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from table.games.errors import InvalidInput

from .paytables import MeterSpec


@dataclass(frozen=True, slots=True)
class Meter:
    """A meter's standing in cents."""

    amount: int
    reserve: int = 0

    def __post_init__(self) -> None:
        for what, v in (("amount", self.amount), ("reserve", self.reserve)):
            if type(v) is not int or v < 0:
                raise InvalidInput(
                    "bad_meter", f"a meter {what} is a whole number of cents ≥ 0, not {v!r}"
                )


@dataclass(frozen=True, slots=True)
class Increment:
    """What the wagers at "no more bets" added to one meter."""

    primary: int
    reserve: int


def seeded(spec: MeterSpec, wager: int) -> Meter:
    """A new meter at its seed (§657a.12(d)(3), (e)(3), (f)(4))."""
    return Meter(spec.seed_amount(wager))


def increment_for(spec: MeterSpec, stakes: Iterable[int]) -> Increment:
    """The rates of ``spec`` applied to each stake, each share rounded down to the cent."""
    primary = reserve = 0
    for stake in stakes:
        primary += stake * spec.primary // 100
        reserve += stake * spec.reserve // 100
    return Increment(primary, reserve)


def apply_increment(meter: Meter, inc: Increment) -> Meter:
    return Meter(meter.amount + inc.primary, meter.reserve + inc.reserve)


def reverse_increment(meter: Meter, inc: Increment) -> Meter:
    """A void round's increments taken back out (§657a.13, house rule)."""
    if meter.amount < inc.primary or meter.reserve < inc.reserve:
        raise InvalidInput("bad_meter", "the meter holds less than the increment to reverse")
    return Meter(meter.amount - inc.primary, meter.reserve - inc.reserve)


def pay_out(meter: Meter, spec: MeterSpec, wager: int, percent: int, paid: int) -> Meter:
    """The meter after ``paid`` cents of a ``percent``% payout have left it.

    100% resets it to the reseed plus the reserve (the reserve to 0); anything not paid out
    (the cents a split leaves) stays on it. A smaller percentage leaves the rest.
    """
    if not 0 <= paid <= meter.amount:
        raise InvalidInput("bad_meter", f"cannot pay {paid} from a meter of {meter.amount}")
    if percent == 100:
        return Meter(spec.reseed_amount(wager) + meter.reserve + meter.amount - paid)
    return Meter(meter.amount - paid, meter.reserve)


def total(meters: Mapping[str, Meter]) -> int:
    return sum(m.amount + m.reserve for m in meters.values())
