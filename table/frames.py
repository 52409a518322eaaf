"""Every frame the server sends on a table's websocket, as a contract (docs/protocol.md).

The JSON Schemas in ``docs/schemas/`` (``server_frame.schema.json`` and one file per frame
type) are generated from these models by ``manage.py export_schemas``, as the commands' are
from :mod:`table.protocol`; tests/platform/test_server_frames.py checks every frame of a
round of every game against them. A frame is an object whose ``type`` says which:

- ``snapshot``: the whole table as this socket may see it (on connecting, on a ``snapshot``
  command, after a missed version);
- ``events``: what happened, in order, each event ``{kind, data}`` (``private``: this
  player's alone, e.g. their hole cards and balance); a game's events are its own
  (docs/protocol.md lists them per game);
- ``view``: the round as this socket may see it now, with the moves it may make
  (:data:`table.games.base.VIEW_KEYS`); most often it rides in its version's public
  ``events`` frame, as that frame's ``view``;
- ``meter``: a shared progressive meter moved (``meters``: several, in one frame);
  ``presence``: a seated player came or went;
- ``ok`` / ``error``: the answer to a command (``ref`` echoes the command's);
- ``pong``: the answer to a ``ping``, with the table's version;
- ``closing`` / ``superseded``: the server is about to close this socket, and why.

The top level of each frame is closed (no other keys); what a game puts in a round view, an
event's data or a command's result is the game's and stays open. Pure: pydantic only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

Code = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=60)]
Version = Annotated[int, Field(ge=0, description="the table's version after the change")]
Ref = Annotated[str | None, Field(description="the command's ref, echoed (null: none given)")]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class ChoiceFrame(_Closed):
    label: str
    args: dict[str, Any] = Field(description="sent back as the command's args as they are")


class AmountFrame(_Closed):
    arg: str
    label: str
    low: int = Field(description="cents")
    high: int = Field(description="cents; equal to low for a fixed wager")
    required: bool


class MoveFrame(_Closed):
    """Something this viewer may do now: send ``{"cmd": "act", "move", "box", "args"}``
    (a player) with one choice's args and/or the amounts filled in; the dealer console sends
    its own commands for its steps (docs/protocol.md)."""

    move: str
    label: str
    box: int | None
    choices: list[ChoiceFrame]
    amounts: list[AmountFrame]


class BoxView(_Open):
    box: int = Field(ge=1, le=6)
    player: str
    wagers: dict[str, int]
    dealt: bool
    cards: list[str] | None = Field(description="null unless this viewer may see them")


class Procedure(_Closed):
    """What the regulation tells the dealer to do now with the cards and the deck, after a
    void (the game's ``irregularity_procedure``, :func:`table.games.words.procedure_view`):
    in the dealer's view alone, from the void until the next round opens."""

    reason: str = Field(description="the void's reason (a void reason of the game)")
    voided: Literal["round", "main_game"] = Field(
        description="what is void: the round, or its main game alone (its other wagers settled)"
    )
    title: str = Field(description='the void in words, e.g. "Void: shoe jam"')
    section: str | None = Field(
        description="the regulation's section (null: a void that is none of its irregularities)"
    )
    words: str = Field(description='what the regulation says to do, in its words ("": none given)')
    reshuffle: bool
    remove_deck: bool = Field(description="the deck leaves the table")
    reshuffle_with_dealt: bool = Field(description="reshuffled with the cards already dealt")
    steps: list[str] = Field(description="what the dealer does now, in words, in order")


class RoundView(_Open):
    """A round as one viewer may see it (``Game.view``): these keys in every game, and the
    game's own besides."""

    game: str
    round: int
    phase: str
    deck_back: str
    commitment: str = Field(description="SHA-256 of the shoe order and salt")
    viewer: dict[str, Any]
    boxes: list[BoxView]
    to_act: int | None
    dealt: bool
    dealer: dict[str, Any] | None = Field(description="null until the dealer's cards show")
    void_reason: str | None
    players: dict[str, Any] | None
    moves: list[MoveFrame]
    procedure: Procedure | None = Field(
        None, description="the dealer's view only: a void's procedure, until the next round"
    )


class EventFrame(_Closed):
    kind: str
    data: dict[str, Any]


class View(_Closed):
    type: Literal["view"]
    version: Version
    round: RoundView | None


class Events(_Closed):
    type: Literal["events"]
    table: int
    version: Version
    round: int | None = Field(description="the round's number (null: between rounds)")
    private: bool = Field(False, description="this socket's player alone gets these")
    events: list[EventFrame]
    view: View | None = Field(
        None,
        description="a public frame's round view for this socket, of the same version: taken"
        " after the frame's events, as a view frame that came alone (absent: none came with it)",
    )


class TableInfo(_Open):
    """The table (open: the platform adds facts about a table more often than frames)."""

    id: int
    name: str
    game: str
    game_title: str
    is_open: bool
    rules_name: str
    pending_rules: str | None
    rules: dict[str, Any]
    paytables: list[dict[str, Any]]
    payout_limit: int | None
    rules_notice: Any
    felt: dict[str, Any]
    meters: list[dict[str, Any]]
    betting_unit: int | None = Field(None, description="cents: every wager a multiple of it")


class SeatInfo(_Open):
    box: int
    player: str


class Me(_Open):
    username: str | None
    balance: int | None
    boxes: list[int]
    is_dealer: bool


class Snapshot(_Closed):
    type: Literal["snapshot"]
    version: Version
    now: int = Field(description="the server's clock, ms since the epoch")
    table: TableInfo
    seats: list[SeatInfo]
    round: RoundView | None
    betting_deadline: int | None = Field(description="ms since the epoch; null: none")
    turn_deadline: int | None
    lag_allowance_ms: int = Field(
        description="ms a time-out waits past its deadline for commands still on their way"
    )
    shoe: dict[str, Any] | None = Field(description="the dealer console's only")
    dealing: dict[str, Any] | None = Field(description="the dealer console's only")
    me: Me | None


class Meter(_Closed):
    type: Literal["meter"]
    meter: int
    kind: str
    name: str
    amount: int = Field(description="cents: what a 100% payout pays")
    version: int = Field(description="the meter's own version")
    cause: str
    table: int | None


class Meters(_Closed):
    """Several linked meters moved within one display interval (table/meter_relay.py): each
    as its own ``meter`` frame, in meter id order; a client takes each as it would alone."""

    type: Literal["meters"]
    meters: list[Meter] = Field(min_length=2)


class Presence(_Open):
    type: Literal["presence"]


class Ok(_Closed):
    type: Literal["ok"]
    cmd: str
    ref: Ref
    version: int | None
    replayed: bool = Field(description="the same ref was answered before: this is that answer")
    result: dict[str, Any] | None = Field(description="per command: docs/protocol.md")


class Error(_Closed):
    type: Literal["error"]
    code: Code = Field(
        description="the catalogue is docs/protocol.md's (wrong_protocol: a retired protocol "
        "v1 command, bet, withdraw or decide; send act)"
    )
    message: str = Field(min_length=1, description="what to do, in words")
    ref: Ref


class Pong(_Closed):
    type: Literal["pong"]
    t: int | float = Field(description="the ping's t, echoed")
    ref: Ref
    server: int = Field(description="the server's clock, ms since the epoch")
    version: int | None


class Closing(_Closed):
    """The server closes this socket next, and says why first. A refused handshake is
    accepted only to send this frame, then closed with the close code (the reason is the
    ``code`` as well), so a browser can tell the causes apart: ``bad_origin`` (4403: the page
    is not the site's own origin), ``no_such_table`` (4404), ``forbidden`` (4403: the dealer
    endpoint, someone who does not deal this table). An open socket: ``idle`` (4408),
    ``rate_limited``, ``too_many_connections``, ``server_busy`` (4429)."""

    type: Literal["closing"]
    code: Code = Field(
        description="bad_origin, no_such_table, forbidden, idle, rate_limited, "
        "too_many_connections or server_busy"
    )
    message: str = Field(min_length=1, description="why, in words")


class Superseded(_Closed):
    type: Literal["superseded"]
    code: Code
    message: str = Field(min_length=1)


FRAMES: tuple[type[BaseModel], ...] = (
    Snapshot,
    Events,
    View,
    Meter,
    Meters,
    Presence,
    Ok,
    Error,
    Pong,
    Closing,
    Superseded,
)
ServerFrame = Annotated[
    Snapshot | Events | View | Meter | Meters | Presence | Ok | Error | Pong | Closing | Superseded,
    Field(discriminator="type"),
]
SERVER_FRAME: TypeAdapter[Any] = TypeAdapter(ServerFrame)


def frame_type(model: type[BaseModel]) -> str:
    literal: Any = model.model_fields["type"].annotation
    return str(literal.__args__[0])


def json_schemas() -> dict[str, dict[str, Any]]:
    """``server_frame`` (any frame) and ``frame_<type>`` for each."""
    out: dict[str, dict[str, Any]] = {"server_frame": SERVER_FRAME.json_schema()}
    for model in FRAMES:
        out[f"frame_{frame_type(model)}"] = model.model_json_schema()
    return out


def check(frame: object) -> list[str]:
    """What keeps ``frame`` from its schema, in words (empty: nothing)."""
    from pydantic import ValidationError

    try:
        SERVER_FRAME.validate_python(frame)
    except ValidationError as exc:
        return [f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    return []
