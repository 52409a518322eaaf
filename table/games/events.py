"""What a game's round step produces, whatever the game: its events, each for an audience (everyone,
the dealer console, or one player), and the money it moves between a player and the table.

Shared by every game and the platform (the event chain, the ledger); pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

PUBLIC: Final = "public"


#: Each dataclass's field names, read once (``dataclasses.fields`` is slow to ask each time).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def plain_dict(obj: Any) -> dict[str, Any]:
    """A dataclass whose fields hold plain values (text, numbers, booleans, None) as a dict:
    what ``dataclasses.asdict`` gives for it, without its recursive deep copy (a round's rules
    are serialised with its state on every command: 19 -> 1.3 us)."""
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in fields(obj))
    return {name: getattr(obj, name) for name in names}


def to_player(player: str) -> str:
    return f"player:{player}"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for one audience: everyone, or one player only."""

    kind: str
    data: dict[str, Any]
    audience: str = PUBLIC

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "audience": self.audience}


@dataclass(frozen=True, slots=True)
class Transfer:
    """Money between a player and the table: ``amount`` > 0 is the player paying the table
    (a stake), < 0 the table paying the player (a return or a win)."""

    player: str
    amount: int
    memo: str
    box: int | None = None
    wager: str | None = None


@dataclass(frozen=True, slots=True)
class Step:
    events: tuple[Event, ...] = ()
    transfers: tuple[Transfer, ...] = ()
