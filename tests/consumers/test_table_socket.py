"""The live table over websockets: players, the dealer console, spectators, secrecy."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async

from table import ledger
from table.models import Table

from .conftest import Sock, open_socket, refusal

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


def card_codes(frame: dict[str, Any]) -> str:
    return json.dumps(frame)


async def play_round(
    table: Table, players: dict[str, tuple[Sock, int]], dealer: Sock, fold: set[str] = frozenset()
) -> None:
    """Everyone seated bets; the dealer deals; players act in turn; reveal; settle."""
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
    for sock, box in players.values():
        reply = await sock.command(
            cmd="act",
            move="bet",
            box=box,
            args={"ante": 1000, "prime": 100, "four_card_bonus": 200, "all_six": 100},
        )
        assert reply["type"] == "ok", reply
    assert (await dealer.command(cmd="no_more_bets"))["type"] == "ok"
    assert (await dealer.command(cmd="deal"))["type"] == "ok"
    by_box = {box: (name, sock) for name, (sock, box) in players.items()}
    for _ in range(len(players)):
        turn = await dealer.until(
            lambda f: (
                f["type"] == "events"
                and any(e["kind"] in ("turn", "decisions_complete") for e in f["events"])
            )
        )
        kinds = {e["kind"]: e for e in turn["events"]}
        if "turn" not in kinds:
            break
        box = kinds["turn"]["data"]["box"]
        name, sock = by_box[box]
        multiple = 0 if name in fold else 1
        reply = await sock.command(cmd="act", move="decide", box=box, args={"raise": multiple})
        assert reply["type"] == "ok", reply
    assert (await dealer.command(cmd="reveal"))["type"] == "ok"
    assert (await dealer.command(cmd="settle"))["type"] == "ok"
    await dealer.until(
        lambda f: f["type"] == "events" and any(e["kind"] == "round_settled" for e in f["events"])
    )


async def seat(sock: Sock, box: int) -> None:
    reply = await sock.command(cmd="sit", box=box)
    assert reply["type"] == "ok", reply


async def test_full_round_versions_in_order_and_secrets_kept(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    bob = await open_socket(table.pk, table_setup["bob"])
    watcher = await open_socket(table.pk, None)
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    for sock in (alice, bob, watcher, dealer):
        assert (await sock.recv())["type"] == "snapshot"
    await seat(alice, 1)
    await seat(bob, 4)
    await play_round(table, {"alice": (alice, 1), "bob": (bob, 4)}, dealer, fold={"bob"})
    for sock in (alice, bob, watcher):
        await sock.until(
            lambda f: (
                f["type"] == "events" and any(e["kind"] == "round_settled" for e in f["events"])
            )
        )

    # Every socket saw every version after its snapshot, in order, none skipped.
    for sock in (alice, bob, watcher, dealer):
        start = sock.frames[0]["version"]
        public = [
            f["version"] for f in sock.frames if f["type"] == "events" and not f.get("private")
        ]
        later = [v for v in public if v > start]
        assert later == list(range(start + 1, start + 1 + len(later))), (sock.name, public)

    # What the cards were, learned only after settlement.
    settled = alice.events("round_settled")[0]["data"]
    boxes = {e["data"]["box"]: e["data"] for e in alice.events("box_settled")}
    alice_cards = set(alice.events("hole_cards")[0]["data"]["cards"])
    bob_cards = set(bob.events("hole_cards")[0]["data"]["cards"])
    dealer_cards = set(alice.events("dealer_revealed")[0]["data"]["cards"])
    assert alice_cards.isdisjoint(bob_cards) and alice_cards.isdisjoint(dealer_cards)
    assert boxes[1]["cards"] is not None
    assert len(settled["shoe"]) == 52

    def leaked(sock: Sock, secret: set[str], until_kind: str) -> list[str]:
        """Card codes of ``secret`` in any frame this socket got before ``until_kind``."""
        found = []
        for frame in sock.frames:
            if frame["type"] == "events" and any(e["kind"] == until_kind for e in frame["events"]):
                break
            text = card_codes(frame)
            found += [c for c in secret if f'"{c}"' in text]
        return found

    # The dealer's cards reach nobody, the console included, before the reveal (§684a.13(d)).
    for sock in (alice, bob, watcher, dealer):
        assert leaked(sock, dealer_cards, "dealer_revealed") == [], sock.name
    # A box's cards reach only its owner before settlement turns them face up.
    assert leaked(bob, alice_cards, "box_settled") == []
    assert leaked(watcher, alice_cards, "box_settled") == []
    assert leaked(dealer, alice_cards, "box_settled") == []
    assert leaked(alice, bob_cards, "box_settled") == []
    assert leaked(watcher, bob_cards, "box_settled") == []
    # The shoe order goes to nobody before the round is over.
    shoe = settled["shoe"]
    for sock in (alice, bob, watcher, dealer):
        for frame in sock.frames:
            if frame["type"] == "events" and any(
                e["kind"] == "round_settled" for e in frame["events"]
            ):
                break
            assert (
                shoe[30] not in card_codes(frame)
                or shoe[30] in alice_cards | bob_cards | dealer_cards
            )
    # The dealer console never receives a private frame.
    assert not any(f.get("private") for f in dealer.frames)
    # Bob folded with optional wagers in action: cards shown at settlement, Ante and Odds lost.
    bob_lines = {r["wager"]: r for r in boxes[4]["results"]}
    assert bob_lines["ante"]["outcome"] == "lose" and "raise" not in bob_lines
    assert {"prime", "four_card_bonus", "all_six"} <= set(bob_lines)

    balances = await database_sync_to_async(
        lambda: {a.name: a.balance for a in ledger.Account.objects.all()}
    )()
    assert alice.events("balance")[-1]["data"]["balance"] == balances["player:alice"]
    for sock in (alice, bob, watcher, dealer):
        await sock.close()


async def test_bad_frames_get_an_error_and_change_nothing(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    snap = await alice.recv()
    version = snap["version"]
    bad = [
        "not json",
        "[]",
        "{}",
        '{"cmd": "explode"}',
        '{"cmd": "sit", "box": 9}',
        '{"cmd": "sit", "box": "1"}',
        '{"cmd": "sit", "box": true}',
        '{"cmd": "act", "move": "bet", "box": 1, "args": {"ante": -5}}',
        '{"cmd": "act", "move": "bet", "box": 1, "args": {"ante": 500, "bonus": 5}}',
        '{"cmd": "act", "move": "decide", "box": 1, "args": {"raise": 4}}',
        '{"cmd": "act", "move": "raise", "box": 1, "args": {"raise": 1}}',
        '{"cmd": "bet", "box": 1, "wagers": {"ante": 500}}',
        '{"cmd": "deal"}',
        '{"cmd": "sit", "box": 1, "extra": 1}',
        json.dumps({"cmd": "sit", "box": 1, "ref": "x" * 5000}),
        '{"cmd": "act", "move": "bet", "box": 2, "args": {"ante": 500}}',
        '{"cmd": "act", "move": "decide", "box": 1, "args": {"raise": 1}}',
        '{"cmd": "stand", "box": 3}',
    ]
    for text in bad:
        await alice.send_raw(text)
        reply = await alice.reply()
        assert reply["type"] == "error" and reply["code"] and reply["message"], text
    await alice.send_raw(data=b"\x00\x01")
    assert (await alice.reply())["code"] == "binary_frame"
    await alice.send(cmd="snapshot", ref="s")
    again = await alice.until(lambda f: f["type"] == "snapshot")
    assert again["version"] == version and again["round"] == snap["round"]
    await alice.close()


async def test_protocol_v1_is_retired(table_setup: dict[str, Any]) -> None:
    """Protocol v1's player commands are answered with the ``act`` frame to send instead, at
    every table (docs/protocol.md): nothing runs."""
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await alice.recv()
    await seat(alice, 2)
    for frame in (
        {"cmd": "bet", "box": 2, "wagers": {"ante": 500}, "ref": "v1"},
        {"cmd": "withdraw", "box": 2, "ref": "v1"},
        {"cmd": "decide", "box": 2, "raise": 1, "ref": "v1"},
    ):
        reply = await alice.command(**frame)
        assert reply["type"] == "error" and reply["code"] == "wrong_protocol", reply
        assert reply["ref"] == "v1" and "retired" in reply["message"]
        assert f'"move": "{frame["cmd"]}"' in reply["message"]
    await alice.close()


async def test_idempotent_replay_and_stale_version(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await alice.recv()
    await dealer.recv()
    await seat(alice, 2)
    await dealer.command(cmd="open_betting")
    first = await alice.command(
        cmd="act", move="bet", box=2, args={"ante": 500}, key="bet-key-0001"
    )
    again = await alice.command(
        cmd="act", move="bet", box=2, args={"ante": 500}, key="bet-key-0001"
    )
    assert first["type"] == again["type"] == "ok"
    assert again["replayed"] is True and again["version"] == first["version"]
    stale = await alice.command(
        cmd="act", move="bet", box=2, args={"ante": 700}, version=first["version"] - 1
    )
    assert stale["type"] == "error" and stale["code"] == "stale_version"
    balance = await database_sync_to_async(
        lambda: ledger.Account.objects.get(name="player:alice").balance
    )()
    assert balance == 10_000_00 - 1000  # Ante and Odds of $5 once, not twice
    await alice.close()
    await dealer.close()


async def test_dealer_console_only_for_dealers_and_origin_checked(
    table_setup: dict[str, Any],
) -> None:
    table = table_setup["table"]
    # Each refusal says why (a closing frame, then the close code and reason), so that a
    # browser tells a bad origin from a missing table from a console it may not open.
    refused = await open_socket(table.pk, table_setup["alice"], dealer=True)
    assert await refusal(refused) == ("forbidden", 4403, "forbidden")
    anonymous = await open_socket(table.pk, None, dealer=True)
    assert await refusal(anonymous) == ("forbidden", 4403, "forbidden")
    foreign = await open_socket(table.pk, table_setup["alice"], origin="http://evil.example")
    # Cross-site websocket hijacking refused, before any session or table is read.
    assert await refusal(foreign) == ("bad_origin", 4403, "bad_origin")
    missing = await open_socket(999999, table_setup["alice"])
    assert await refusal(missing) == ("no_such_table", 4404, "no_such_table")
    missing_console = await open_socket(999999, table_setup["dealer"], dealer=True)
    assert await refusal(missing_console) == ("no_such_table", 4404, "no_such_table")
    watcher = await open_socket(table.pk, None)
    await watcher.recv()
    reply = await watcher.command(cmd="sit", box=1)
    assert reply["code"] == "login_required"
    await watcher.close()


async def test_second_tab_takes_over(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    first = await open_socket(table.pk, table_setup["alice"], name="tab1")
    await first.recv()
    second = await open_socket(table.pk, table_setup["alice"], name="tab2")
    await second.recv()
    told = await first.until(lambda f: f["type"] == "superseded")
    assert told["code"] == "second_connection"
    with pytest.raises(ConnectionError):
        await first.recv()
    assert first.closed_code == 4409
    assert (await second.command(cmd="sit", box=5))["type"] == "ok"  # the new tab plays
    await second.close()


async def test_reconnect_gets_own_cards_in_snapshot(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await alice.recv()
    await dealer.recv()
    await seat(alice, 3)
    await dealer.command(cmd="open_betting")
    await alice.command(cmd="act", move="bet", box=3, args={"ante": 500})
    await dealer.command(cmd="no_more_bets")
    await dealer.command(cmd="deal")
    await alice.until(
        lambda f: f.get("private") is True and any(e["kind"] == "hole_cards" for e in f["events"])
    )
    cards = alice.events("hole_cards")[0]["data"]["cards"]
    await alice.close()
    again = await open_socket(table.pk, table_setup["alice"])
    snap = await again.recv()
    mine = [b for b in snap["round"]["boxes"] if b["box"] == 3][0]
    assert mine["cards"] == cards and snap["round"]["to_act"] == 3
    watcher = await open_socket(table.pk, None)
    seen = await watcher.recv()
    assert all(b["cards"] is None for b in seen["round"]["boxes"])
    assert seen["round"]["dealer"] is None
    await again.close()
    await watcher.close()
    await dealer.close()


async def test_rate_limit(table_setup: dict[str, Any]) -> None:
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await alice.recv()
    for i in range(60):
        await alice.send(cmd="ping", t=i)
    codes = []
    for _ in range(60):
        frame = await alice.until(lambda f: f["type"] in ("pong", "error"))
        codes.append(frame.get("code", "pong"))
    assert "rate_limited" in codes and codes.count("pong") >= 30
    await alice.close()


async def test_error_frames_echo_the_ref(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client matches replies by ``ref``: every error for a frame that carries a usable
    ref (a string of up to 64 characters) echoes it, whatever refused the frame."""
    from table import consumers

    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    await alice.recv()
    cases = [
        ('{"cmd": "explode", "ref": "r-unknown"}', "unknown_command", "r-unknown"),
        ('{"ref": "r-missing"}', "unknown_command", "r-missing"),
        ('{"cmd": "sit", "box": 9, "ref": "r-box"}', "bad_frame", "r-box"),
        ('{"cmd": "sit", "box": 1, "extra": 1, "ref": "r-extra"}', "bad_frame", "r-extra"),
        ('{"cmd": "deal", "ref": "r-dealer-only"}', "unknown_command", "r-dealer-only"),
        ('{"cmd": "sit", "box": 1, "ref": 7}', "bad_frame", None),  # not a string
        (json.dumps({"cmd": "sit", "box": 9, "ref": "x" * 65}), "bad_frame", None),
        ('{"cmd": "sit", "box": 1, "ref": "r-', "bad_json", None),
    ]
    for text, code, ref in cases:
        await alice.send_raw(text)
        reply = await alice.reply()
        assert reply["type"] == "error", text
        assert reply["code"] == code, (text, reply)
        assert reply["ref"] == ref, (text, reply)
    await alice.close()
    # Rate limiting: the refused frames' refs come back too.
    monkeypatch.setattr(consumers, "RATE_BURST", 2.0)
    monkeypatch.setattr(consumers, "RATE_PER_SECOND", 0.01)
    bob = await open_socket(table.pk, table_setup["bob"])
    await bob.recv()
    for i in range(5):
        await bob.send(cmd="ping", t=i, ref=f"p{i}")
    limited = [await bob.until(lambda f: f["type"] in ("pong", "error")) for _ in range(5)]
    assert [f["ref"] for f in limited] == [f"p{i}" for i in range(5)]
    assert [f.get("code") for f in limited][2:] == ["rate_limited"] * 3
    await bob.close()


async def test_duplicate_json_keys_are_refused(table_setup: dict[str, Any]) -> None:
    """``{"ante": 500, "ante": 50000}`` must not become a $500 bet (JSON parsers disagree
    about which duplicate wins): a frame with a key twice in one object is refused."""
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await alice.recv()
    await dealer.recv()
    await seat(alice, 1)
    assert (await dealer.command(cmd="open_betting"))["type"] == "ok"
    await alice.send(cmd="snapshot")
    before = await alice.until(lambda f: f["type"] == "snapshot")
    for text in (
        '{"cmd": "act", "move": "bet", "box": 1, "args": {"ante": 500, "ante": 50000}, '
        '"ref": "d1"}',
        '{"cmd": "act", "move": "bet", "box": 1, "box": 2, "args": {"ante": 500}, "ref": "d2"}',
        '{"cmd": "stand", "cmd": "sit", "box": 2, "ref": "d3"}',
    ):
        await alice.send_raw(text)
        reply = await alice.reply()
        assert reply["type"] == "error" and reply["code"] == "duplicate_key", (text, reply)
        assert reply["ref"] == text.rsplit('"ref": "', 1)[1][:2]
        assert "twice" in reply["message"]
    await alice.send(cmd="snapshot")
    after = await alice.until(lambda f: f["type"] == "snapshot")
    assert after["version"] == before["version"] and after["round"] == before["round"]
    # The same bet without the duplicate goes through.
    ok = await alice.command(cmd="act", move="bet", box=1, args={"ante": 500}, ref="d4")
    assert ok["type"] == "ok" and ok["result"]["wagers"]["ante"] == 500
    await alice.close()
    await dealer.close()


async def test_a_key_reused_for_another_command_is_refused(table_setup: dict[str, Any]) -> None:
    """A withdraw sent with the key of the bet must not get the bet's "ok" marked replayed
    while the bet stays on the felt: it is refused as a reused key."""
    table = table_setup["table"]
    alice = await open_socket(table.pk, table_setup["alice"])
    dealer = await open_socket(table.pk, table_setup["dealer"], dealer=True)
    await alice.recv()
    await dealer.recv()
    await seat(alice, 2)
    await dealer.command(cmd="open_betting")
    bet = await alice.command(cmd="act", move="bet", box=2, args={"ante": 500}, key="reuse-key-01")
    assert bet["type"] == "ok" and not bet["replayed"]
    withdraw = await alice.command(cmd="act", move="withdraw", box=2, key="reuse-key-01", ref="w1")
    assert withdraw["type"] == "error" and withdraw["code"] == "key_reused", withdraw
    assert withdraw["ref"] == "w1"
    other_bet = await alice.command(
        cmd="act", move="bet", box=2, args={"ante": 900}, key="reuse-key-01"
    )
    assert other_bet["type"] == "error" and other_bet["code"] == "key_reused", other_bet
    # The very same command again is a retry: its first answer comes back.
    again = await alice.command(
        cmd="act", move="bet", box=2, args={"ante": 500}, key="reuse-key-01"
    )
    assert again["type"] == "ok" and again["replayed"] is True
    assert again["version"] == bet["version"]
    await alice.send(cmd="snapshot")
    snap = await alice.until(lambda f: f["type"] == "snapshot")
    assert snap["version"] == bet["version"]
    assert [b["wagers"]["ante"] for b in snap["round"]["boxes"]] == [500]  # still on the felt
    balance = await database_sync_to_async(
        lambda: ledger.Account.objects.get(name="player:alice").balance
    )()
    assert balance == 10_000_00 - 1000
    await alice.close()
    await dealer.close()
