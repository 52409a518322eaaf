"""Progressive meters' arithmetic, the same for every game and for the platform's meters store.

A meter has an amount (what a 100% payout pays) and a reserve (as a game's house
interpretation says: it accumulates at its rate and is added to the reseed when the meter
pays 100%). Every wager that feeds a meter adds the meter's rates of its stake, each share rounded
down to the cent, at "no more bets" (§657a.10(a)(2)); a void round takes the increments back out
(§657a.13). A winner is paid from the meter as it stands at that box's turn (§657a.12(d)(4),
(e)(4)); a jackpot split between boxes pays each an equal share rounded down, and the cents left
over stay on the meter (§657a.12(f)(2)).

Which meters a game has, which wagers feed them and which paytable rows pay them are the
game's own (:meth:`table.games.base.Game.meter_catalogue`); a game's settlement and the meters
store (``table/meters.py``) both count with this module, so that they agree to the cent. Pure,
typed Python: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from table.games.errors import InvalidInput


@dataclass(frozen=True, slots=True)
class MeterRates:
    """A progressive meter's terms: seed and reseed per unit of the table's fixed wager, and
    the percentages of every wager that feeds it added to it (primary) and to its reserve."""

    name: str
    seed: int  # "$5,000 for 1": the meter starts at seed x the table's wager
    reseed: int
    primary: int  # percent of each wager
    reserve: int = 0

    def seed_amount(self, wager: int) -> int:
        return self.seed * wager

    def reseed_amount(self, wager: int) -> int:
        return self.reseed * wager


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


def seeded(rates: MeterRates, wager: int) -> Meter:
    """A new meter at its seed (§657a.12(d)(3), (e)(3), (f)(4))."""
    return Meter(rates.seed_amount(wager))


def increment_for(rates: MeterRates, stakes: Iterable[int]) -> Increment:
    """The rates applied to each stake, each share rounded down to the cent."""
    primary = reserve = 0
    for stake in stakes:
        primary += stake * rates.primary // 100
        reserve += stake * rates.reserve // 100
    return Increment(primary, reserve)


def apply_increment(meter: Meter, inc: Increment) -> Meter:
    return Meter(meter.amount + inc.primary, meter.reserve + inc.reserve)


def reverse_increment(meter: Meter, inc: Increment) -> Meter:
    """A void round's increments taken back out (§657a.13, house rule)."""
    if meter.amount < inc.primary or meter.reserve < inc.reserve:
        raise InvalidInput("bad_meter", "the meter holds less than the increment to reverse")
    return Meter(meter.amount - inc.primary, meter.reserve - inc.reserve)


def share(meter: Meter, percent: int, ways: int = 1) -> int:
    """Each winner's share of a ``percent``% payout of the meter as it stands, split equally
    ``ways`` ways: the payout and then each share rounded down to the cent (§657a.12(d)(4),
    (f)(2)). The meter pays ``share * ways``; the cents a split leaves stay on it."""
    return meter.amount * percent // 100 // ways


def pay_out(meter: Meter, rates: MeterRates, wager: int, percent: int, paid: int) -> Meter:
    """The meter after ``paid`` cents of a ``percent``% payout have left it.

    100% resets it to the reseed plus the reserve (the reserve to 0); anything not paid out
    (the cents a split leaves) stays on it. A smaller percentage leaves the rest.
    """
    if not 0 <= paid <= meter.amount:
        raise InvalidInput("bad_meter", f"cannot pay {paid} from a meter of {meter.amount}")
    if percent == 100:
        return Meter(rates.reseed_amount(wager) + meter.reserve + meter.amount - paid)
    return Meter(meter.amount - paid, meter.reserve)


def total(meters: Mapping[str, Meter]) -> int:
    return sum(m.amount + m.reserve for m in meters.values())
