"""The words a game's round view carries for the felt (docs/games.md, "Words"): shared helpers
for a game's ``words`` module, which puts the view's facts into sentences for a player who does
not know the rules. The browser draws these sentences as they are; the shared felt names no
game and holds no game's rule (issue 27).

What a view may carry, each optional (the felt falls back to the facts alone):

* a settled box's ``results[i]["why"]``: why that wager won, pushed or lost;
* a settled box's ``reason``: what decided its main game, short, for the pinned result bar;
* the dealer's ``words``: the dealer's hand once face up, with whatever the game says of it;
* ``play_options["words"]``: why the decision offered is what it is;
* each of a box's ``settings[i]["title"]``: what a way of setting the hand does.

These helpers spell amounts, cards and hands as the browser does (state.js ``dollars``,
cards.js ``cardsText``, game_words.js ``handWords``). Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

_RANK = {"T": "10"}
_SUIT = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_CODE = re.compile(r"^[2-9TJQKA][CDHS]$")
_AS_IS = re.compile(r"^(high card|.*s$|two pair)")


def humanize(key: object) -> str:
    """``"three_of_a_kind"`` -> ``"three of a kind"``."""
    return str(key or "").replace("_", " ")


def hand_words(category: object) -> str:
    """A hand category as people say it: "a pair", "a straight flush", "high card"."""
    if not category:
        return ""
    words = humanize(category)
    if _AS_IS.match(words):
        return words
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


def card_text(code: object) -> str:
    """``"TD"`` -> ``"10♦"``; anything else ``"?"``."""
    if not isinstance(code, str) or not _CODE.match(code):
        return "?"
    return _RANK.get(code[0], code[0]) + _SUIT[code[1]]


def cards_text(codes: Iterable[object] | None) -> str:
    return " ".join(card_text(c) for c in codes or ())


def dollars(cents: int, *, signed: bool = False) -> str:
    """``1050`` -> ``"$10.50"``; negative with a minus sign, ``signed``: a plus on a gain."""
    sign = "−" if cents < 0 else "+" if signed and cents > 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def with_lines_why(box: Mapping[str, Any], why: Any) -> list[dict[str, Any]]:
    """A copy of ``box``'s result lines (the view's lines are the round's own: never changed
    in place), each with ``why(line)``."""
    return [{**line, "why": why(line)} for line in box.get("results") or ()]


def folded(box: Mapping[str, Any]) -> bool:
    decision = box.get("decision")
    return bool(box.get("folded")) or decision == "fold" or decision == 0


def annotate(
    view: dict[str, Any],
    *,
    dealer: Callable[[dict[str, Any]], str],
    why: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], str],
    reason: Callable[[dict[str, Any], dict[str, Any]], str],
    box_words: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """``view`` with a game's words: the dealer's ``words``, each settled box's lines' ``why``
    (``why(line, box, view)``) and its ``reason`` (``reason(box, view)``), and whatever
    ``box_words`` adds to a box's own copy (a decision's words, a setting's title). A void
    round's boxes get no why: every stake came back. Nothing of the round's own view is
    changed in place: each box is copied before its words go in."""
    if view.get("dealer"):
        view["dealer"] = {**view["dealer"], "words": dealer(view["dealer"])}
    view["boxes"] = [
        annotate_box(box, view, why=why, reason=reason, box_words=box_words)
        for box in view["boxes"]
    ]
    return view


def annotate_box(
    box: dict[str, Any],
    view: dict[str, Any],
    *,
    why: Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], str],
    reason: Callable[[dict[str, Any], dict[str, Any]], str],
    box_words: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """One box of :func:`annotate`, a copy with its words: they read the box and what every
    viewer of the round sees alike (the dealer's hand, the phase), never who looks, so a
    box's words are the same in every view that shows it the same."""
    box = dict(box)
    if box_words is not None:
        box_words(box)
    if box.get("results") is not None and view["phase"] != "void":
        box["results"] = with_lines_why(box, lambda line, b=box: why(line, b, view))
        box["reason"] = reason(box, view)
    return box


def owner_view(
    spectators: dict[str, Any], viewer: dict[str, Any], own: Mapping[int, dict[str, Any]]
) -> dict[str, Any]:
    """A player's view of a round built from the spectators' view of the same round (with its
    words): a box shows a player what it shows a spectator unless the player owns it, and
    nothing else of a view depends on who looks (the dealer console's extras aside), so only
    ``viewer`` and the player's own boxes (``own``: box -> that box as its owner sees it,
    with its words) are new; the rest is the spectators' own objects, shared, not copied (a
    command builds its viewers' views together and only serialises them: read only)."""
    view = dict(spectators)
    view["viewer"] = viewer
    if own:
        view["boxes"] = [own.get(box["box"], box) for box in spectators["boxes"]]
    return view


def console_view(
    spectators: dict[str, Any], viewer: dict[str, Any], extras: Mapping[str, Any], after: str
) -> dict[str, Any]:
    """The dealer console's view of a round built from the spectators' view of the same round:
    the console is nobody's box, so it sees every box as a spectator does; only ``viewer`` and
    the console's ``extras`` (the stub count and the like) are new, placed after the
    ``after`` key as a view built whole places them. The rest is the spectators' own objects,
    shared (read only, as :func:`owner_view`'s)."""
    view: dict[str, Any] = {}
    for key, value in spectators.items():
        view[key] = value
        if key == after:
            view.update(extras)
    view["viewer"] = viewer
    return view


def from_spectators(
    spectators: dict[str, Any] | None,
    name: str | None,
    dealer: bool,
    *,
    viewer: Callable[[bool, str | None], dict[str, Any]],
    own_boxes: Callable[[str], Mapping[int, dict[str, Any]]],
    console_extras: Callable[[], Mapping[str, Any]],
    after: str,
) -> dict[str, Any] | None:
    """A player's (``name``) or the dealer console's view built from the spectators' view of
    the same round, as every game builds them when a command builds its viewers' views
    together: :func:`owner_view` with the game's ``own_boxes(name)``, :func:`console_view`
    with its ``console_extras()`` after the ``after`` key; ``viewer(dealer, name)`` is the
    game's ``viewer`` entry. None where the view is to be built whole: no spectators' view
    was given, or it is a spectator's own."""
    if spectators is None:
        return None
    if name is not None:
        return owner_view(spectators, viewer(False, name), own_boxes(name))
    if dealer:
        return console_view(spectators, viewer(True, None), console_extras(), after)
    return None


#: What the dealer does now, by the procedure's flags, in the console's words (the chapter's own
#: words and section ride beside them).
REMOVE_DECK_STEP = "Remove the entire deck from the table: change decks before the next round."
RESHUFFLE_WITH_DEALT_STEP = (
    "Take the cards out of the shoe and reshuffle them with the cards already dealt before the "
    "next round."
)
RESHUFFLE_STEP = "Reshuffle the cards before the next round."


def procedure_view(procedure: Mapping[str, Any], voided: str) -> dict[str, Any]:
    """A void's procedure (a game's ``irregularity_procedure``) as the dealer's round view
    carries it (the console's staff may read citations; never a player's view): the reason, what
    was void (``"round"`` or ``"main_game"``), the chapter's ``section`` (None: a void that is
    none of its irregularities, e.g. the table closed) and ``words`` ("" when the game gives
    none), the flags, a ``title`` and the ``steps`` the dealer takes now, in words."""
    reason = str(procedure.get("reason") or "")
    section = procedure.get("section")
    remove_deck = bool(procedure.get("remove_deck"))
    reshuffle = bool(procedure.get("reshuffle"))
    with_dealt = bool(procedure.get("reshuffle_with_dealt"))
    if remove_deck:  # another deck comes: this one is not reshuffled
        steps = [REMOVE_DECK_STEP]
    elif with_dealt:
        steps = [RESHUFFLE_WITH_DEALT_STEP]
    elif reshuffle:
        steps = [RESHUFFLE_STEP]
    else:
        steps = []
    title = "Main game void" if voided == "main_game" else "Void"
    return {
        "reason": reason,
        "voided": voided,
        "title": f"{title}: {humanize(reason)}",
        "section": str(section) if section else None,
        "words": str(procedure.get("words") or ""),
        "reshuffle": reshuffle,
        "remove_deck": remove_deck,
        "reshuffle_with_dealt": with_dealt,
        "steps": steps,
    }
