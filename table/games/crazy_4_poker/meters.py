"""Crazy 4 Poker's progressive meters (§657a.12(d)(3)-(4), (e)(3)-(4), (f)(2), (f)(4)): which
meters its paytables have and which wagers feed them and are paid from them, the catalogue
the meters store keeps them by (:meth:`~table.games.base.Game.meter_catalogue`).

Every progressive wager adds the table's rates to each meter of its progressive paytable (a
Five-Card C wager feeds mega, major and minor), and every hand-bonus wager (each hand) to the
hand-bonus meter, at "no more bets" (§657a.10(a)(2)), folded boxes included. A jackpot on the
dealer's hand is split between every box with a live dealer-hand wager (§657a.12(f)(2)). One
progressive paytable and one wager per table (house interpretation 5). The arithmetic is
every game's: :mod:`table.games.progressive`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from table.games.base import MeterKind
from table.games.errors import InvalidInput
from table.games.progressive import Meter

from .paytables import FIXED_WAGERS, HAND_BONUS_METER, PROGRESSIVES, ProgressiveType
from .settlement import HAND_BONUS_DEALER, HAND_BONUS_PLAYER, PROGRESSIVE

#: Each meter's name for people (the admin, the felt's meters).
METER_LABELS: Final = {
    "four_card": "Four-Card Progressive",
    "five_card": "Five-Card Progressive",
    "mega": "Mega",
    "major": "Major",
    "minor": "Minor",
    "hand_bonus": "Five Card Hand Bonus",
}


def _catalogue() -> tuple[MeterKind, ...]:
    hand_bonus = MeterKind(
        HAND_BONUS_METER.name,
        "",
        METER_LABELS[HAND_BONUS_METER.name],
        HAND_BONUS_METER,
        (HAND_BONUS_PLAYER, HAND_BONUS_DEALER),
        FIXED_WAGERS,
        split=(HAND_BONUS_DEALER,),
    )
    progressive = [
        MeterKind(
            rates.name,
            letter,
            METER_LABELS[rates.name],
            rates,
            (PROGRESSIVE,),
            FIXED_WAGERS,
            family=f"{ProgressiveType(kind).value} {letter}",
        )
        for kind, tables in PROGRESSIVES.items()
        for letter, table in tables.items()
        for rates in table.meters
    ]
    return (hand_bonus, *progressive)


#: Every meter of §657a.12: the hand-bonus meter (no paytable letter), then each progressive
#: paytable's meters ("four_card A" ... "five_card D" are their families).
CATALOGUE: Final = _catalogue()


def check_meters(meters: object, names: tuple[str, ...]) -> dict[str, Meter]:
    """The shared meters a settlement is given: exactly the table's, each a :class:`Meter`."""
    if not isinstance(meters, Mapping) or not all(isinstance(m, Meter) for m in meters.values()):
        raise InvalidInput("bad_meters", "meters must map each meter's name to its Meter")
    if sorted(meters) != sorted(names):
        raise InvalidInput(
            "bad_meters",
            f"the meters must be exactly this table's {sorted(names)}, not {sorted(meters)}",
        )
    return dict(meters)
