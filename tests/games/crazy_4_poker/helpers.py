"""Small builders for Crazy 4 Poker tests: cards from codes, boxes, rules, rounds."""

from __future__ import annotations

from collections.abc import Sequence

from table.games.cards import Card, parse_card, parse_cards
from table.games.crazy_4_poker.rules import Rules
from table.games.crazy_4_poker.settlement import (
    BoxInPlay,
    Draws,
    RoundSettlement,
    Wagers,
    settle_round,
)
from table.games.progressive import Meter, seeded


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def card(code: str) -> Card:
    return parse_card(code)


def box(
    number: int,
    text: str,
    ante: int = 1000,
    play: int | None = None,
    player: str | None = None,
    **optional: int,
) -> BoxInPlay:
    """A box; ``play`` defaults to the Ante, 0 is a fold."""
    wagers = Wagers(ante=ante, super_bonus=ante, play=ante if play is None else play, **optional)
    return BoxInPlay(number, player or f"p{number}", cards(text), wagers)


def rules(
    queens_up: str = "A",
    progressive: tuple[str, str, int] | None = None,
    hand_bonus: int | None = None,
    six_card_bonus: str | None = None,
) -> Rules:
    return Rules.from_names(queens_up, progressive, hand_bonus, six_card_bonus)


def seeded_meters(r: Rules) -> dict[str, Meter]:
    return {spec.name: seeded(spec, r.meter_wager(spec.name)) for spec in r.meters}


def play_round(
    r: Rules,
    dealer: str,
    boxes: Sequence[BoxInPlay],
    meters: dict[str, Meter] | None = None,
    six_card: str | None = None,
    magic: str | None = None,
    lucky: int | str | None = None,
) -> RoundSettlement:
    return settle_round(
        r,
        cards(dealer),
        list(boxes),
        seeded_meters(r) if meters is None else meters,
        None if six_card is None else card(six_card),
        Draws(None if magic is None else card(magic), lucky),
    )
