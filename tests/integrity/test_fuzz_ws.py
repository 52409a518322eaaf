"""Bad input in bulk through the real consumers (frenzy_site.asgi.application): malformed,
oversized, wrongly typed, duplicate-keyed, stale, replayed, out-of-turn and other-player's-box
frames from players, a spectator and the dealer. Every one gets an error frame (a replayed
key gets its first answer back, as the protocol says; the key with another command is refused)
that echoes the frame's ``ref`` when it had a usable one, the table's state and version do not
move, and the ledger verifies.

Hypothesis draws a list of frames per example; each example is one ``asyncio.run()`` session
that connects the sockets, sends them all, and compares the table before and after. Two
table states are attacked: betting open, and decisions under way (box 1 to act).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table import consumers, ledger, services
from table.demo import ensure_demo, make_user
from table.models import Table
from table.protocol import DEALER_ADAPTER, MAX_FRAME_BYTES, PLAYER_ADAPTER, ProtocolError, parse
from tests.consumers.conftest import open_socket

from .conftest import table_state

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

#: Frames per example and examples per table state: ~2 x 16 x 90 = ~2,900 frames on the
#: embedded stack; a third of that on PostgreSQL and Redis (the real-stack pass), where every
#: refusal that reaches the services costs a round trip to the database.
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
EXAMPLES = 6 if ON_POSTGRES else 16
FRAMES = st.integers(min_value=60, max_value=120)

PLAYERS = ("alice", "bob", "spectator")
WHO = ("alice", "bob", "spectator", "dealer")
#: With protocol v1's retired names (answered ``wrong_protocol``) among them.
PLAYER_CMDS = ("sit", "stand", "act", "bet", "withdraw", "decide", "leave")
DEALER_CMDS = (
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
    "void",
    "arm_fault",
)
SEED_KEY = "fuzz-seed-key-0001"  # alice's first bet: replaying it must change nothing
SEED_BET = {"box": 1, "wagers": {"ante": 10_00, "prime": 1_00}}


@dataclass(frozen=True)
class Frame:
    who: str
    text: str | None = None
    data: bytes | None = None
    expect: str = "error"  # or "replayed"
    code: str | None = None  # the error code, when only one is right
    stale: int = 0  # if set: the frame is a JSON object whose version is now + stale


def usable_ref(text: str | None) -> str | None:
    """The ``ref`` an error must echo (docs/protocol.md): a string of up to 64 characters
    given once at the top of a JSON object frame that fits the size limit."""
    if text is None or len(text.encode()) > MAX_FRAME_BYTES:
        return None
    refs: list[Any] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        refs.extend(v for k, v in items if k == "ref")
        return dict(items)

    try:
        frame = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None
    if not isinstance(frame, dict) or len(refs) != (1 if "ref" in frame else 0):
        return None
    ref = frame.get("ref")
    return ref if isinstance(ref, str) and len(ref) <= 64 else None


def as_act(body: dict[str, Any]) -> dict[str, Any]:
    """A player's move as the ``act`` frame that carries it (protocol v1 is retired): the
    generators below draw the moves in their own terms (``wagers``, ``raise``)."""
    cmd = body.get("cmd")
    if cmd not in ("bet", "withdraw", "decide"):
        return body
    rest = {k: v for k, v in body.items() if k not in ("cmd", "wagers", "raise")}
    args = body.get("wagers", {}) if cmd == "bet" else {}
    if cmd == "decide":
        args = {"raise": body.get("raise")}
    return {"cmd": "act", "move": cmd, **rest, "args": args}


def well_formed(who: str, text: str) -> bool:
    adapter = DEALER_ADAPTER if who == "dealer" else PLAYER_ADAPTER
    try:
        parse(adapter, text)
    except ProtocolError:
        return False
    return True


# --- strategies ---------------------------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
boxes = st.one_of(st.integers(min_value=-3, max_value=9), json_values)


@st.composite
def garbage(draw: Any, who: str) -> Frame:
    """Not a command: random text, random JSON, binary, empty objects."""
    kind = draw(st.sampled_from(["text", "json", "binary", "near", "duplicate"]))
    if kind == "binary":
        return Frame(who, data=draw(st.binary(max_size=64)), code="binary_frame")
    if kind == "duplicate":
        # A real command with one of its keys said twice: {"ante": 500, "ante": 50000}.
        body = draw(dealer_commands if who == "dealer" else player_commands(st.integers(1, 6)))
        if draw(st.booleans()):
            body["ref"] = draw(st.text(max_size=10))
        body = as_act(body)
        text = json.dumps(body)
        key = draw(st.sampled_from(sorted({*body, *body.get("args", {})})))
        value = json.dumps(draw(json_scalars))
        text = text.replace(f'"{key}": ', f'"{key}": {value}, "{key}": ', 1)
        return Frame(who, text, code="duplicate_key")
    if kind == "text":
        text = draw(st.text(max_size=80))
    elif kind == "json":
        text = json.dumps(draw(json_values))
    else:  # a command name that is nearly right
        name = draw(st.sampled_from(PLAYER_CMDS + DEALER_CMDS + ("ping", "snapshot")))
        mangled = draw(
            st.sampled_from([name.upper(), name + " ", " " + name, name[:-1], name + "s", ""])
        )
        text = json.dumps({"cmd": mangled})
    if well_formed(who, text):
        text = "{" + text  # hypothesis found a real command: break it
    return Frame(who, text)


@st.composite
def wrongly_typed(draw: Any, who: str) -> Frame:
    """A real command name with fields of the wrong type, out of range, missing or extra."""
    cmds = DEALER_CMDS if who == "dealer" else PLAYER_CMDS
    cmd = draw(st.sampled_from(cmds))
    fields: dict[str, Any] = {"cmd": cmd}
    for name in draw(
        st.lists(
            st.sampled_from(
                ["box", "wagers", "raise", "move", "args", "reason", "fault", "ref", "key"]
                + ["version", "t", "x"]
            ),
            min_size=1,
            max_size=4,
            unique=True,
        )
    ):
        if name == "box":
            fields[name] = draw(boxes)
        elif name == "move":
            fields[name] = draw(st.one_of(st.sampled_from(["bet", "decide", "raise"]), json_values))
        elif name in ("wagers", "args"):
            fields[name] = draw(
                st.one_of(
                    json_values,
                    st.dictionaries(
                        st.sampled_from(["ante", "prime", "four_card_bonus", "all_six", "odds"]),
                        st.one_of(st.integers(min_value=-(10**12), max_value=10**12), json_scalars),
                        max_size=5,
                    ),
                )
            )
        elif name == "ref":
            fields[name] = draw(st.one_of(st.text(min_size=65, max_size=90), json_values))
        elif name == "key":
            fields[name] = draw(
                st.one_of(st.text(max_size=7), st.text(min_size=65, max_size=70), json_values)
            )
        elif name == "version":
            fields[name] = draw(st.one_of(st.integers(max_value=-1), json_values))
        else:
            fields[name] = draw(json_values)
    text = json.dumps(fields)
    if well_formed(who, text):
        text = text.replace('"cmd"', '"cmd": null, "c"', 1)  # duplicate-free, still invalid
        if well_formed(who, text):
            text = "[" + text
    return Frame(who, text)


@st.composite
def oversized(draw: Any, who: str) -> Frame:
    """Over 4,096 bytes: padding, a long field, or many multi-byte characters."""
    size = draw(st.integers(min_value=MAX_FRAME_BYTES + 1, max_value=3 * MAX_FRAME_BYTES))
    style = draw(st.sampled_from(["pad", "field", "wide"]))
    if style == "pad":
        text = '{"cmd": "ping"' + " " * size + "}"
    elif style == "field":
        text = json.dumps({"cmd": "sit", "box": 1, "ref": "r" * size})
    else:
        char = draw(st.sampled_from(["é", "€", "🂡"]))
        text = json.dumps({"cmd": "ping", "ref": char * size}, ensure_ascii=False)
    return Frame(who, text, code="frame_too_large")


def player_commands(box: Any) -> st.SearchStrategy[dict[str, Any]]:
    wagers = st.fixed_dictionaries(
        {"ante": st.integers(min_value=0, max_value=600_00)},
        optional={
            "prime": st.integers(min_value=0, max_value=200_00),
            "four_card_bonus": st.integers(min_value=0, max_value=200_00),
            "all_six": st.integers(min_value=0, max_value=200_00),
        },
    )
    return st.one_of(
        st.fixed_dictionaries({"cmd": st.just("sit"), "box": box}),
        st.fixed_dictionaries({"cmd": st.just("stand"), "box": box}),
        st.fixed_dictionaries({"cmd": st.just("withdraw"), "box": box}),
        st.fixed_dictionaries({"cmd": st.just("bet"), "box": box, "wagers": wagers}),
        st.fixed_dictionaries(
            {"cmd": st.just("decide"), "box": box, "raise": st.integers(min_value=0, max_value=3)}
        ),
        st.fixed_dictionaries({"cmd": st.just("leave")}),
    )


dealer_commands = st.one_of(
    st.fixed_dictionaries(
        {"cmd": st.sampled_from([c for c in DEALER_CMDS if c not in ("void", "arm_fault")])}
    ),
    st.fixed_dictionaries(
        {
            "cmd": st.just("void"),
            "reason": st.sampled_from(
                ["face_up_cards", "wrong_card_count", "shoe_jam", "stub_miscount"]
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "cmd": st.just("arm_fault"),
            "fault": st.sampled_from(["jam", "face_up_card", "two_face_up_cards", "misdeal"]),
        }
    ),
)


@st.composite
def stale(draw: Any, who: str) -> Frame:
    """A perfectly good command, sent with a version the table has moved past (or not yet
    reached): refused with stale_version."""
    body = draw(
        dealer_commands
        if who == "dealer"
        else player_commands(st.integers(min_value=1, max_value=6))
    )
    offset = draw(st.one_of(st.integers(min_value=-50, max_value=-1), st.integers(1, 10**9)))
    text = json.dumps(as_act(body))
    if who == "spectator":
        return Frame(who, text, stale=offset, code="login_required")
    return Frame(who, text, stale=offset, code="stale_version")


def is_seed_bet(body: dict[str, Any]) -> bool:
    """Alice's first bet again: the same box and stakes (a wager of 0 is no wager)."""
    wagers = {k: v for k, v in body.get("wagers", {}).items() if v}
    return body["cmd"] == "bet" and body["box"] == SEED_BET["box"] and wagers == SEED_BET["wagers"]


@st.composite
def replayed(draw: Any) -> Frame:
    """Alice's first bet's idempotency key: with that bet again (a retry) the first answer
    comes back; with any other command it is refused as a reused key."""
    if draw(st.booleans()):
        zeros = draw(st.sets(st.sampled_from(["four_card_bonus", "all_six"])))
        body = {
            "cmd": "bet",
            "box": SEED_BET["box"],
            "wagers": {**SEED_BET["wagers"], **dict.fromkeys(zeros, 0)},
        }
    else:
        body = draw(player_commands(st.integers(min_value=1, max_value=6)))
    body["key"] = SEED_KEY
    if draw(st.booleans()):
        body["version"] = draw(st.integers(min_value=0, max_value=10**6))
    if draw(st.booleans()):
        body["ref"] = draw(st.text(max_size=10))
    if is_seed_bet(body):
        return Frame("alice", json.dumps(as_act(body)), expect="replayed")
    return Frame("alice", json.dumps(as_act(body)), code="key_reused")


# The well-formed commands each table state must refuse, by who sends them.
def refused_in_betting(who: str) -> st.SearchStrategy[dict[str, Any]]:
    """Alice sits at 1-2 (bets on 1), Bob at 4 (bet on 4); betting is open."""
    others = st.sampled_from([3, 5, 6])
    if who == "alice":
        return st.one_of(
            st.fixed_dictionaries({"cmd": st.just("sit"), "box": st.sampled_from([1, 2, 3, 4])}),
            st.fixed_dictionaries({"cmd": st.sampled_from(["stand", "withdraw"]), "box": others}),
            st.fixed_dictionaries({"cmd": st.just("stand"), "box": st.just(4)}),
            st.fixed_dictionaries(
                {
                    "cmd": st.just("decide"),
                    "box": st.integers(1, 6),
                    "raise": st.integers(0, 3),
                }
            ),
            # Out of the table's limits ($5-$500 Ante, $1-$100 optional) or no Ante.
            st.fixed_dictionaries(
                {
                    "cmd": st.just("bet"),
                    "box": st.sampled_from([1, 2]),
                    "wagers": st.one_of(
                        st.fixed_dictionaries(
                            {
                                "ante": st.one_of(
                                    st.integers(1, 4_99), st.integers(500_01, 100_000_000)
                                )
                            }
                        ),
                        st.fixed_dictionaries(
                            {"ante": st.just(0), "prime": st.integers(1_00, 100_00)}
                        ),
                        st.fixed_dictionaries(
                            {"ante": st.just(10_00), "all_six": st.integers(100_01, 10**8)}
                        ),
                    ),
                }
            ),
            st.fixed_dictionaries(
                {"cmd": st.just("bet"), "box": others, "wagers": st.just({"ante": 10_00})}
            ),
        )
    if who == "bob":
        return st.one_of(
            st.fixed_dictionaries({"cmd": st.just("sit"), "box": st.sampled_from([1, 2, 4, 6])}),
            st.fixed_dictionaries(
                {"cmd": st.sampled_from(["stand", "withdraw"]), "box": st.sampled_from([1, 2, 3])}
            ),
            st.fixed_dictionaries(
                {
                    "cmd": st.just("bet"),
                    "box": st.sampled_from([1, 2, 3, 5, 6]),
                    "wagers": st.just({"ante": 10_00}),
                }
            ),
            st.fixed_dictionaries(
                {"cmd": st.just("decide"), "box": st.integers(1, 6), "raise": st.integers(0, 3)}
            ),
        )
    if who == "spectator":
        return player_commands(st.integers(1, 6))
    return st.fixed_dictionaries(
        {
            "cmd": st.sampled_from(
                ["open_betting", "deal", "reveal", "settle", "dealer_card_exposed", "time_out"]
            )
        }
    )


def refused_in_decisions(who: str) -> st.SearchStrategy[dict[str, Any]]:
    """Cards are dealt; box 1 (alice) is to act, then box 4 (bob)."""
    if who == "alice":
        return st.one_of(
            st.fixed_dictionaries(
                {
                    "cmd": st.just("decide"),
                    "box": st.sampled_from([2, 3, 4, 5, 6]),
                    "raise": st.integers(0, 3),
                }
            ),
            st.fixed_dictionaries(
                {"cmd": st.sampled_from(["stand", "withdraw"]), "box": st.just(1)}
            ),
            st.fixed_dictionaries(
                {"cmd": st.just("bet"), "box": st.integers(1, 6), "wagers": st.just({"ante": 500})}
            ),
            st.fixed_dictionaries({"cmd": st.just("sit"), "box": st.sampled_from([1, 3, 4])}),
        )
    if who == "bob":
        return st.one_of(
            st.fixed_dictionaries(
                {"cmd": st.just("decide"), "box": st.integers(1, 6), "raise": st.integers(0, 3)}
            ),
            st.fixed_dictionaries({"cmd": st.just("stand"), "box": st.sampled_from([1, 2, 4])}),
            st.fixed_dictionaries(
                {"cmd": st.just("bet"), "box": st.just(4), "wagers": st.just({"ante": 500})}
            ),
        )
    if who == "spectator":
        return player_commands(st.integers(1, 6))
    return st.fixed_dictionaries(
        {
            "cmd": st.sampled_from(
                [
                    "open_betting",
                    "no_more_bets",
                    "deal",
                    "reveal",
                    "settle",
                    "change_decks",
                    "close_table",
                ]
            )
        }
    )


@st.composite
def refused(draw: Any, who: str, phase: str) -> Frame:
    source = refused_in_betting if phase == "betting" else refused_in_decisions
    body = draw(source(who))
    if draw(st.booleans()):
        body["ref"] = draw(st.text(max_size=64))
    code = "login_required" if who == "spectator" else None
    return Frame(who, json.dumps(as_act(body)), code=code)


@st.composite
def frames(draw: Any, phase: str) -> list[Frame]:
    out = []
    for _ in range(draw(FRAMES)):
        who = draw(st.sampled_from(WHO))
        maker = draw(
            st.sampled_from(["garbage", "typed", "oversized", "stale", "refused", "replayed"])
        )
        if maker == "garbage":
            out.append(draw(garbage(who)))
        elif maker == "typed":
            out.append(draw(wrongly_typed(who)))
        elif maker == "oversized":
            out.append(draw(oversized(who)))
        elif maker == "stale":
            out.append(draw(stale(who)))
        elif maker == "refused":
            out.append(draw(refused(who, phase)))
        else:
            out.append(draw(replayed()))
    if phase == "decisions":
        # Bob deciding his own box before his turn: one drawn frame in ~1,700 is this one, and
        # a run on PostgreSQL draws ~500 (test_fuzz_sent_thousands_of_frames wants its
        # refusal seen): every example sends it once, at a drawn place.
        early = json.dumps(as_act({"cmd": "decide", "box": 4, "raise": 1}))
        out.insert(draw(st.integers(0, len(out))), Frame("bob", early, code="not_your_turn"))
    return out


# --- the table under attack ---------------------------------------------------------------


@pytest.fixture
def attacked(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    from tests.conftest import SeededSource

    monkeypatch.setattr(services.dealing, "RANDOM", SeededSource(11))
    # The fuzz sends far more than 10 frames a second; the rate limit has its own test.
    monkeypatch.setattr(consumers, "RATE_PER_SECOND", 1e9)
    monkeypatch.setattr(consumers, "RATE_BURST", 1e9)
    demo = ensure_demo()
    users = {"alice": make_user("alice"), "bob": make_user("bob")}
    users["dealer"] = make_user("dealer", dealer=True)
    t = demo.table.pk
    Table.objects.filter(pk=t).update(is_test=True)  # the fuzz arms drills too
    services.sit(t, users["alice"], 1)
    services.sit(t, users["alice"], 2)
    services.sit(t, users["bob"], 4)
    services.open_betting(t, users["dealer"])
    services.act(t, users["alice"], "bet", 1, {"ante": 10_00, "prime": 1_00}, key=SEED_KEY)
    services.act(t, users["bob"], "bet", 4, {"ante": 20_00, "all_six": 5_00})
    return {"table": t, "users": users}


def to_decisions(attacked: dict[str, Any]) -> None:
    services.no_more_bets(attacked["table"], attacked["users"]["dealer"])
    services.deal(attacked["table"], attacked["users"]["dealer"])


async def session(attacked: dict[str, Any], batch: list[Frame]) -> tuple[Any, Any, int]:
    """Connect, send every frame, check every reply; return the state before and after."""
    channel_layers.backends.clear()
    layer = get_channel_layer()
    if hasattr(layer, "flush"):
        await layer.flush()
    table, users = attacked["table"], attacked["users"]
    socks = {
        "alice": await open_socket(table, users["alice"]),
        "bob": await open_socket(table, users["bob"]),
        "spectator": await open_socket(table, None),
        "dealer": await open_socket(table, users["dealer"], dealer=True),
    }
    for sock in socks.values():
        await sock.recv()  # the snapshot
    for sock in socks.values():
        # Connection events from the others joining. (Not Sock.drain: a receive that times
        # out cancels the application under test; receive_nothing does not.)
        while not await sock.comm.receive_nothing(0.05):
            await sock.recv()
    before = await database_sync_to_async(table_state)(table)
    version = before[0]
    sent = 0
    try:
        for frame in batch:
            sock = socks[frame.who]
            text = frame.text
            if frame.stale:
                body = json.loads(text or "{}")
                body["version"] = max(0, version + frame.stale)
                if body["version"] == version:
                    body["version"] = version + 1
                text = json.dumps(body)
            if frame.data is not None:
                await sock.send_raw(data=frame.data or b"\x00")  # no empty frames in testing
            else:
                await sock.send_raw(text or " ")
            reply = await sock.reply(timeout=10)
            sent += 1
            # Every reply, refusals included, echoes the frame's ref when it had a usable one.
            assert reply.get("ref") == (None if frame.data is not None else usable_ref(text)), (
                frame,
                reply,
            )
            CODES[reply.get("code") or "replayed"] += 1
            if frame.expect == "replayed":
                assert reply["type"] == "ok" and reply["replayed"] is True, (frame, reply)
                assert reply["version"] < version
            else:
                assert reply["type"] == "error", (frame, reply)
                assert reply["code"] and reply["message"], reply
                assert reply["code"] != "server_error", (frame, reply)
                if frame.code:
                    assert reply["code"] == frame.code, (frame, reply)
        after = await database_sync_to_async(table_state)(table)
        # No events reached anyone either: nothing happened.
        for sock in socks.values():
            assert not [f for f in sock.frames if f["type"] == "events" and f["version"] > version]
    finally:
        for sock in socks.values():
            with contextlib.suppress(Exception):  # a failure above is the one to report
                await sock.close()
        if hasattr(layer, "close_pools"):
            await layer.close_pools()
        channel_layers.backends.clear()
    return before, after, sent


TOTAL: dict[str, int] = {}
CODES: Counter[str] = Counter()


def attack(attacked: dict[str, Any], batch: list[Frame], phase: str) -> None:
    before, after, sent = asyncio.run(session(attacked, batch))
    assert after == before  # version, chain head, round, shoe, balances, seats, events
    assert ledger.verify() == []
    TOTAL[phase] = TOTAL.get(phase, 0) + sent


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


@FUZZ
@given(batch=frames("betting"))
def test_fuzz_while_betting(attacked: dict[str, Any], batch: list[Frame]) -> None:
    attack(attacked, batch, "betting")


@FUZZ
@given(batch=frames("decisions"))
def test_fuzz_during_decisions(attacked: dict[str, Any], batch: list[Frame]) -> None:
    if not attacked.get("dealt"):
        to_decisions(attacked)
        attacked["dealt"] = True
    attack(attacked, batch, "decisions")


def test_fuzz_sent_thousands_of_frames() -> None:
    """Runs after the two fuzz tests (same module, in order): they sent a few thousand."""
    if len(TOTAL) < 2:
        pytest.skip("run with the fuzz tests")
    print(f"fuzz frames: {TOTAL}; replies: {dict(CODES.most_common())}")
    assert sum(TOTAL.values()) >= (700 if ON_POSTGRES else 2_000)
    # The refusals came from every layer: the frame checks, the services and the engine.
    assert {"bad_frame", "frame_too_large", "stale_version", "not_your_box"} <= set(CODES)
    assert {"wrong_phase", "not_your_turn", "login_required", "replayed"} <= set(CODES)
    assert {"duplicate_key", "key_reused"} <= set(CODES)
