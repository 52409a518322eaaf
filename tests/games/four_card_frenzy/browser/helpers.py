"""What the browser tests of Four Card Frenzy do at its live demo table, in its words: the
decision (fold or Raise 1x-3x, §684a.11(b)), and the round's cards as the store keeps them
(each box's five, the dealer's, the All-Six card) to check that none reached a page early."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.fixtures import Client, Site

CARD = re.compile(r"^[2-9TJQKA][CDHS]$")

RANKS = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
    "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}  # fmt: skip
SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}


def card_name(code: str) -> str:
    return f"{RANKS[code[0]]} of {SUITS[code[1]][1]}"


def card_text(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]][0]


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a parsed JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= card_codes(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_codes(item)
    return found


def frames_before_reveal(frames: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    """The frames a page received from round ``number`` opening until the dealer's reveal
    (not including the reveal itself). A page learns of either from the event, or from a
    snapshot or view showing the round (a socket that fell behind on a loaded host is sent a
    snapshot in place of the frames it missed: docs/protocol.md, gaps)."""

    def shown(frame: dict[str, Any]) -> dict[str, Any] | None:
        held = frame.get("round") if frame.get("type") in ("snapshot", "view") else None
        return held if isinstance(held, dict) and held.get("round") == number else None

    start = None
    for i, frame in enumerate(frames):
        kinds = [(e["kind"], e["data"]) for e in frame.get("events", [])]
        held = shown(frame)
        revealed = held is not None and held.get("phase") in ("revealed", "settled", "void")
        if start is None:
            opened = any(k == "round_opened" and d.get("round") == number for k, d in kinds)
            if opened or (held is not None and not revealed):
                start = i
            continue
        if revealed or any(k == "dealer_revealed" for k, _ in kinds):
            return frames[start:i]
    kinds_seen = [
        (
            f.get("type"),
            (f.get("round") or {}).get("round"),
            [e["kind"] for e in f.get("events", [])],
        )
        for f in frames
    ]
    raise AssertionError(f"round {number}: no opening and reveal in the frames: {kinds_seen}")


def round_cards(site: Site, number: int) -> dict[str, Any]:
    """Who held which cards in a round of the demo table (read from the store after it is
    over)."""
    from table.games.cards import card_code, codes

    (state,) = site.query(
        "SELECT state FROM table_round WHERE table_id = ? AND number = ?",
        (site.table_id, number),
    )[0]
    r = json.loads(state) if isinstance(state, str) else state
    return {
        "boxes": {
            int(b["box"]): {"player": b["player"], "cards": codes(b["cards"])} for b in r["boxes"]
        },
        "dealer": codes(r["dealer_cards"]),
        "all_six": card_code(r["all_six_card"]) if r["all_six_card"] is not None else None,
        "discards": codes(r["discards"]),
        "players": (r["results"] or {}).get("players"),
        "phase": r["phase"],
    }


def decide(client: Client, box: int, raise_: int | str, keyboard: bool = False) -> int:
    """On the box's turn: fold (0), raise 1-3, or "max"; returns the multiple used.
    ``keyboard``: focus the button and press Enter instead of clicking."""
    panel = client.page.locator("#my-turn")
    expect(panel).to_be_visible()
    expect(panel.locator(".decision-title strong")).to_contain_text(f"Your turn — box {box}")
    expect(panel.locator(".g-play-why")).to_contain_text("you may raise")
    if raise_ == "max":
        raise_ = 3 if panel.locator("button", has_text="Raise 3x").count() else 1
    assert isinstance(raise_, int)
    button = panel.locator(
        ".decision-buttons button", has_text="Fold" if raise_ == 0 else f"Raise {raise_}x"
    )
    if keyboard:
        button.focus()
        client.page.keyboard.press("Enter")
    else:
        button.click()
    expect(panel).to_be_hidden()
    return raise_


def assert_no_foreign_cards_seen(
    site: Site, number: int, clients: list[Client], html_before_reveal: dict[str, str]
) -> dict[str, Any]:
    """Nothing another player held, nor the dealer's cards or the All-Six card, reached a page
    (websocket frames, DOM) before the dealer's reveal of round ``number``."""
    cards = round_cards(site, number)
    dealer_secret = set(cards["dealer"]) | ({cards["all_six"]} if cards["all_six"] else set())
    for client in clients:
        own_boxes = {b for b, v in cards["boxes"].items() if v["player"] == client.name}
        own = {c for b in own_boxes for c in cards["boxes"][b]["cards"]}
        others = {
            c for b, v in cards["boxes"].items() if b not in own_boxes for c in v["cards"]
        } | dealer_secret
        window = frames_before_reveal(client.frames, number)
        assert window, f"{client.name}: no frames for round {number}"
        seen: set[str] = set()
        face_up: set[str] = set()
        for frame in window:
            seen |= card_codes(frame)
            for event in frame.get("events", []):
                if event["kind"] == "face_up_card":
                    face_up.add(event["data"]["card"])
                if event["kind"] == "hole_cards":
                    assert event["data"]["box"] in own_boxes, (client.name, event)
                    assert frame.get("private") is True, (client.name, frame)
            if frame.get("type") == "snapshot" and frame.get("round"):
                assert frame["round"]["dealer"] is None, (client.name, "dealer cards early")
                for box in frame["round"]["boxes"]:
                    if box["cards"] is not None:
                        assert box["box"] in own_boxes, (client.name, box)
        assert not (seen & others), f"{client.name} received {sorted(seen & others)} early"
        assert seen - face_up <= own, f"{client.name} received {sorted(seen - face_up - own)}"
        if own:
            assert own <= seen, f"{client.name} never got their own cards"
        html = html_before_reveal[client.name]
        lowered = html.lower()
        for code in others:
            assert f'data-card="{code}"' not in html, (client.name, code)
            assert card_name(code) not in lowered, (client.name, card_name(code))
            assert card_text(code) not in html, (client.name, card_text(code))
    return cards
