"""The websocket protocol: every inbound command, defined once with pydantic.

The JSON Schemas published in ``docs/schemas/`` are generated from these models
(``python manage.py export_schemas``) and a test keeps them in step. ``docs/protocol.md``
documents every command and event.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

#: Largest frame a client may send, in bytes.
MAX_FRAME_BYTES = 4096
#: Longest ``ref`` a client may send (and that an error frame echoes).
MAX_REF_CHARS = 64

Box = Annotated[int, Field(ge=1, le=6, description="Box number, 1 = farthest to the dealer's left")]


class Command(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    ref: Annotated[str, Field(max_length=MAX_REF_CHARS)] | None = Field(
        None, description="Echoed back in the reply so the client can match it"
    )
    key: (
        Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")] | None
    ) = Field(
        None,
        description="Idempotency key: a replay returns the first answer and changes nothing",
    )
    version: Annotated[int, Field(ge=0)] | None = Field(
        None, description="The table version the client last saw; a stale one is refused"
    )


# --- anyone on the table socket -------------------------------------------------------------


class Ping(Command):
    cmd: Literal["ping"]
    t: Annotated[int, Field(ge=0)] | None = Field(None, description="Client clock, echoed in pong")


class Snapshot(Command):
    cmd: Literal["snapshot"]


# --- players ------------------------------------------------------------------------------


class Sit(Command):
    cmd: Literal["sit"]
    box: Box


class Stand(Command):
    cmd: Literal["stand"]
    box: Box


class MoreTime(Command):
    """More time on the box's running decision or setting clock, once a round (WCAG 2.2.1)."""

    cmd: Literal["more_time"]
    box: Box


class Leave(Command):
    cmd: Literal["leave"]


# --- players: a move of any game (protocol v2) ---------------------------------------------

#: The most arguments an ``act`` frame may carry, and the most items in one of its lists or
#: flat objects: a move's args are a few wagers, a Play amount or one setting of five cards.
MAX_ACT_ARGS = 8
#: Longest text argument (a choice's word); money is integer cents, never text or a float.
MAX_ARG_TEXT = 64

#: What an ``act`` argument may be, in the words of the error that refuses another.
ARG_WORDS = (
    "an argument is a whole number (cents), true or false, null, text of up to "
    f"{MAX_ARG_TEXT} characters, a list of card codes (e.g. TD) or a flat object of those scalars"
)
ArgName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_]*$")]
CardCode = Annotated[str, Field(pattern=r"^[2-9TJQKA][CDHS]$", description="e.g. TD, AS")]
ArgScalar = (
    bool
    | Annotated[int, Field(ge=-100_000_000, le=100_000_000)]
    | Annotated[str, Field(max_length=MAX_ARG_TEXT)]
    | None
)
ArgValue = (
    ArgScalar
    | Annotated[list[CardCode], Field(max_length=MAX_ACT_ARGS)]
    | Annotated[dict[ArgName, ArgScalar], Field(max_length=MAX_ACT_ARGS)]
)


class Act(Command):
    """A player's move at a table of any game: one of the moves the
    round view offers (``round.moves``), sent back with the box and the args of the choice
    picked or the amounts filled in. The game checks the rules; the frame only its shape."""

    cmd: Literal["act"]
    move: Literal["bet", "withdraw", "decide", "set_hands"]
    box: Box
    args: Annotated[dict[ArgName, ArgValue], Field(max_length=MAX_ACT_ARGS)] = Field(
        default_factory=dict,
        description="The move's arguments: wagers in cents for bet, the choice's args "
        "for decide and set_hands (card codes), nothing for withdraw",
    )


# --- the dealer console ----------------------------------------------------------------------


class DealerAction(Command):
    cmd: Literal[
        "open_betting",
        "no_more_bets",
        "deal",
        "reveal",
        "settle",
        "dealer_card_exposed",
        "change_decks",
        "count_stub",
        "open_table",
        "close_table",
        "time_out",
        "take_over",
        "hand_back",
    ]


#: The irregularities a dealer names, as each game's void move offers them (its choice's
#: ``args``: the reasons the game's dealer moves offer, e.g. ``stub_miscount``, and
#: ``table_closed`` at every game). The frame checks only the shape: the game decides whether
#: the reason exists and applies now.
VoidReason = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$")]


class Void(Command):
    cmd: Literal["void"]
    reason: VoidReason
    evidence: Annotated[dict[ArgName, ArgScalar], Field(max_length=MAX_ACT_ARGS)] = Field(
        default_factory=dict,
        description="What the dealer saw, as the void choice asks for it (e.g. the dealer "
        'card exposed: {"card": "KS"})',
    )


class ArmFault(Command):
    cmd: Literal["arm_fault"]
    fault: Literal[
        "jam", "face_up_card", "two_face_up_cards", "misdeal", "miscount", "dealer_card_exposed"
    ]


PlayerCommand = Annotated[
    Ping | Snapshot | Sit | Stand | MoreTime | Leave | Act,
    Field(discriminator="cmd"),
]
DealerCommand = Annotated[
    Ping | Snapshot | DealerAction | Void | ArmFault, Field(discriminator="cmd")
]

PLAYER_ADAPTER: TypeAdapter[Any] = TypeAdapter(PlayerCommand)
DEALER_ADAPTER: TypeAdapter[Any] = TypeAdapter(DealerCommand)


#: Protocol v1's player commands, retired: every game's moves are ``act`` frames. A v1 frame
#: is answered ``wrong_protocol`` with what to send instead.
RETIRED: Final = {
    cmd: f'protocol v1 is retired: send {{"cmd": "act", "move": "{cmd}", "box": N, '
    '"args": {...}} with the args the round view\'s moves offer (docs/protocol.md)'
    for cmd in ("bet", "withdraw", "decide")
}


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: The refused frame's ``ref``, when it had a usable one: echoed in the error frame.
        self.ref = ref


class _NotJson:
    """What :func:`_read` gives for a text that is not JSON."""


_NOT_JSON = _NotJson()


def _read(text: str) -> tuple[Any, list[str]]:
    """The frame as plain JSON, and the keys that appear twice in one of its objects."""
    repeated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in items:
            if key in obj:
                repeated.append(key)
            obj[key] = value
        return obj

    try:
        return json.loads(text, object_pairs_hook=pairs), repeated
    except (ValueError, RecursionError):
        return _NOT_JSON, repeated


def _usable_ref(frame: Any, repeated: list[str]) -> str | None:
    """A frame's ``ref`` if it is one the protocol allows (and said once): echoed in errors."""
    ref = frame.get("ref") if isinstance(frame, dict) and "ref" not in repeated else None
    return ref if isinstance(ref, str) and len(ref) <= MAX_REF_CHARS else None


def _fits(text: str | None) -> bool:
    return text is not None and len(text.encode()) <= MAX_FRAME_BYTES


def ref_of(text: str | None) -> str | None:
    """The ``ref`` of a frame refused before it is validated (rate limiting), if usable."""
    if text is None or not _fits(text):
        return None
    return _usable_ref(*_read(text))


def parse(adapter: TypeAdapter[Any], text: str | None, raw_bytes: bytes | None = None) -> Any:
    """Validate one inbound frame; :class:`ProtocolError` says what is wrong in plain words
    and carries the frame's ``ref`` when it had a usable one (binary and oversized frames are
    not read, so theirs is not known)."""
    if raw_bytes is not None:
        raise ProtocolError("binary_frame", "send JSON text frames, not binary")
    if text is None:
        raise ProtocolError("empty_frame", "empty frame")
    if not _fits(text):
        raise ProtocolError("frame_too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
    frame, repeated = _read(text)
    ref = _usable_ref(frame, repeated)
    if repeated:
        # JSON parsers disagree on which of two equal keys wins ({"ante": 5, "ante": 500}):
        # a frame that says one thing twice is refused, never read one way or the other.
        raise ProtocolError(
            "duplicate_key", f"the key {repeated[0]!r} appears twice in one object", ref
        )
    try:
        return adapter.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        kind = first.get("type", "")
        if kind == "json_invalid":
            raise ProtocolError("bad_json", "the frame is not valid JSON", ref) from None
        if kind == "union_tag_invalid" and isinstance(frame, dict):
            retired = RETIRED.get(str(frame.get("cmd")))
            if retired is not None:
                raise ProtocolError("wrong_protocol", retired, ref) from None
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            raise ProtocolError(
                "unknown_command", "unknown or missing command ('cmd')", ref
            ) from None
        loc = tuple(str(p) for p in first.get("loc", ()))
        if loc[:2] == ("act", "args") and loc[-1] == "[key]":
            raise ProtocolError(
                "bad_frame", f"args: {loc[2]!r} is not a name (lowercase a-z, 0-9, _)", ref
            ) from None
        if loc[:2] == ("act", "args") and len(loc) > 3 and kind != "too_long":
            # A union's first alternative ("...bool: Input should be a valid boolean") is
            # no help: say what an argument may be.
            raise ProtocolError("bad_frame", f"args.{loc[2]}: {ARG_WORDS}", ref) from None
        raise ProtocolError(
            "bad_frame", f"{where or 'frame'}: {first.get('msg', 'invalid')}", ref
        ) from None


def json_schemas() -> dict[str, dict[str, Any]]:
    """The commands' JSON Schemas (``docs/schemas/``, ``manage.py export_schemas``)."""
    player = PLAYER_ADAPTER.json_schema(by_alias=True)
    player["description"] = (
        "A command on the player endpoint (protocol v2: a player's moves at every game are act "
        "frames). Protocol v1's player commands (bet, withdraw, decide) are retired: each is "
        "answered by an error frame with code wrong_protocol naming the act frame to send."
    )
    return {
        "player_command": player,
        "dealer_command": DEALER_ADAPTER.json_schema(by_alias=True),
    }
