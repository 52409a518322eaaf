"""The websocket protocol: every inbound command, defined once with pydantic.

The JSON Schemas published in ``docs/schemas/`` are generated from these models
(``python manage.py export_schemas``) and a test keeps them in step. ``docs/protocol.md``
documents every command and event.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

#: Largest frame a client may send, in bytes.
MAX_FRAME_BYTES = 4096

Box = Annotated[int, Field(ge=1, le=6, description="Box number, 1 = farthest to the dealer's left")]
Cents = Annotated[int, Field(ge=0, le=100_000_000, description="An amount in integer cents")]


class Command(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    ref: Annotated[str, Field(max_length=64)] | None = Field(
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


class Wagers(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    ante: Cents = Field(description="Ante; the Odds Wager is placed equal to it (§684a.7(d)(1))")
    prime: Cents = 0
    four_card_bonus: Cents = 0
    all_six: Cents = 0


class Bet(Command):
    cmd: Literal["bet"]
    box: Box
    wagers: Wagers


class Withdraw(Command):
    cmd: Literal["withdraw"]
    box: Box


class Decide(Command):
    cmd: Literal["decide"]
    box: Box
    raise_: Annotated[int, Field(ge=0, le=3, alias="raise")] = Field(
        description="1, 2 or 3 times the Ante; 0 folds", alias="raise"
    )


class Leave(Command):
    cmd: Literal["leave"]


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


class Void(Command):
    cmd: Literal["void"]
    reason: Literal["face_up_cards", "wrong_card_count", "shoe_jam", "stub_miscount"]


class ArmFault(Command):
    cmd: Literal["arm_fault"]
    fault: Literal[
        "jam", "face_up_card", "two_face_up_cards", "misdeal", "miscount", "dealer_card_exposed"
    ]


PlayerCommand = Annotated[
    Ping | Snapshot | Sit | Stand | Bet | Withdraw | Decide | Leave, Field(discriminator="cmd")
]
DealerCommand = Annotated[
    Ping | Snapshot | DealerAction | Void | ArmFault, Field(discriminator="cmd")
]

PLAYER_ADAPTER: TypeAdapter[Any] = TypeAdapter(PlayerCommand)
DEALER_ADAPTER: TypeAdapter[Any] = TypeAdapter(DealerCommand)


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse(adapter: TypeAdapter[Any], text: str | None, raw_bytes: bytes | None = None) -> Any:
    """Validate one inbound frame; :class:`ProtocolError` says what is wrong in plain words."""
    if raw_bytes is not None:
        raise ProtocolError("binary_frame", "send JSON text frames, not binary")
    if text is None:
        raise ProtocolError("empty_frame", "empty frame")
    if len(text.encode()) > MAX_FRAME_BYTES:
        raise ProtocolError("frame_too_large", f"frames are limited to {MAX_FRAME_BYTES} bytes")
    try:
        return adapter.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        kind = first.get("type", "")
        if kind == "json_invalid":
            raise ProtocolError("bad_json", "the frame is not valid JSON") from None
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            raise ProtocolError("unknown_command", "unknown or missing command ('cmd')") from None
        raise ProtocolError(
            "bad_frame", f"{where or 'frame'}: {first.get('msg', 'invalid')}"
        ) from None


def json_schemas() -> dict[str, dict[str, Any]]:
    return {
        "player_command": PLAYER_ADAPTER.json_schema(by_alias=True),
        "dealer_command": DEALER_ADAPTER.json_schema(by_alias=True),
    }
