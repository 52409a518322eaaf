"""Template filters for cards and money, readable without colour."""

from __future__ import annotations

import functools

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from table.games.cards import RANK_NAMES, SUIT_NAMES, card_label, is_red, parse_card
from table.games.errors import InvalidInput
from table.money import dollars

register = template.Library()


def card_html(code: str) -> SafeString:
    try:
        card = parse_card(code)
    except InvalidInput:
        return format_html('<span class="card-face unknown">{}</span>', code)
    name = f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"
    return format_html(
        '<span class="card-face{}" title="{}" aria-label="{}">{}</span>',
        " red" if is_red(card) else "",
        name,
        name,
        card_label(card),
    )


@register.filter
def card(code: str | None) -> SafeString | str:
    """``"AS"`` -> a face showing ``A♠`` (class ``red`` for diamonds and hearts)."""
    if not code:
        return ""
    return card_html(code)


@register.filter
def cards(codes: list[str] | str | None) -> SafeString | str:
    """A list of card codes (or one space-separated string) as faces."""
    if not codes:
        return ""
    if isinstance(codes, str):
        codes = codes.split()
    return format_html(
        '<span class="cards">{}</span>',
        format_html_join("", "{}", ((card_html(c),) for c in codes)),
    )


@register.filter
def card_text(code: str | None) -> str:
    """``"TD"`` -> ``"10♦"`` in plain text."""
    if not code:
        return ""
    try:
        return card_label(parse_card(code))
    except InvalidInput:
        return code


@register.filter
def money(cents: int | None) -> str:
    return dollars(cents)


@register.filter
def net(cents: int | None) -> str:
    """Winnings with their sign: ``+$10.00``, ``−$5.00``, ``$0.00``."""
    return dollars(cents, signed=True)


@register.filter
def percent(fraction: float | None, places: int = 4) -> str:
    """``0.033512`` -> ``"3.3512%"`` (house edges, hit frequencies)."""
    if fraction is None:
        return "—"
    return f"{float(fraction) * 100:.{places}f}%"


@register.filter
def wager_name(key: str) -> str:
    """A wager's name in its game's words (Four Card Frenzy's first: its keys came first)."""
    return WAGER_NAMES.get(key) or _game_labels().get(key) or key.replace("_", " ")


@functools.cache
def _game_labels() -> dict[str, str]:
    from table.games import GAMES, game

    labels: dict[str, str] = {}
    for name in GAMES:
        for key, label in game(name).felt.labels.items():
            labels.setdefault(key, label)
    return labels


WAGER_NAMES = {
    "ante": "Ante",
    "odds": "Odds",
    "raise": "Raise",
    "prime": "Prime",
    "four_card_bonus": "Four Card Bonus",
    "all_six": "All-Six Bonus",
}
