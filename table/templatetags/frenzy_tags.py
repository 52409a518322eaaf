"""Template filters for cards and money, readable without colour."""

from __future__ import annotations

import functools
import re

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


#: A regulation citation: "§684a.13(d)", "§684a.13(a), (c), (f)" (static/table/words.js has
#: the same pattern for the felt).
_CITATION = (
    r"§\s*\d+[a-z]*(?:\.\d+[a-z]*)*(?:\([0-9a-z]+\))*"
    r"(?:,\s*(?:and\s+)?\([0-9a-z]+\)(?:\([0-9a-z]+\))*)*"
)
_CITED = re.compile(rf"\s*\(\s*(?:{_CITATION})(?:[,;]\s*(?:{_CITATION}))*\s*\)", re.I)
_CITATION_RE = re.compile(_CITATION, re.I)


@register.filter
def plain(text: object) -> str:
    """Words for a player without their regulation citations: the engines cite the section a
    line implements (for the console, the admin and the audit); a player reads what happened.
    "(§684a.13(d))" goes with its brackets; words without a citation are left as they are."""
    words = "" if text is None else str(text)
    if "§" not in words:
        return words
    words = _CITATION_RE.sub("", _CITED.sub("", words))
    return re.sub(r"\s{2,}", " ", re.sub(r"\s+([.,;:])", r"\1", words)).strip()


@register.filter
def sign_name(name: object) -> str:
    """A posted sign's name for a player: a paytable's letter says which one ("paytable A");
    the regulation's section says nothing to a player and is left out."""
    words = plain(name)
    return f"paytable {words}" if re.fullmatch(r"[A-Z]", words) else words


@register.filter
def wager_name(key: str) -> str:
    """A wager's name in its game's words (the platform's own words first: its keys came first)."""
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
