"""The Five Card Hi-Lo ``settle_round`` contract (docs/games/FIVE_CARD_HI_LO.md): the worked
example through ``manage.py settle_round``, and every kind of bad input the digest lists."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from table.games import settle_document
from table.games.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[3]

Doc = dict[str, Any]

EXAMPLE_INPUT: Doc = {
    "game": "five_card_hi_lo",
    "rules": {"ante_bonus_paytable": "A", "poker_bonus_paytable": "A"},
    "dealer": ["KS", "9D", "7H", "4C", "3S"],
    "boxes": [
        {
            "box": 1,
            "player": "p1",
            "cards": ["AS", "JD", "TH", "9C", "2S"],
            "high": ["JD", "TH", "9C"],
            "low": ["AS", "2S"],
            "wagers": {"ante": 1000, "play": 1000, "tie": 500, "poker_bonus": 500},
        },
        {
            "box": 2,
            "player": "p1",
            "cards": ["AD", "AH", "AC", "8S", "8C"],
            "high": ["AD", "AH", "AC"],
            "low": ["8S", "8C"],
            "wagers": {"ante": 1000, "play": 1000, "poker_bonus": 500},
        },
        {
            "box": 4,
            "player": "p2",
            "cards": ["QH", "QD", "5S", "6D", "2C"],
            "wagers": {"ante": 2500, "tie": 500, "poker_bonus": 500},
        },
        {
            "box": 5,
            "player": "p3",
            "cards": ["TD", "9H", "7C", "3D", "2D"],
            "high": ["TD", "9H", "7C"],
            "low": ["3D", "2D"],
            "wagers": {"ante": 500, "play": 500, "tie": 500},
        },
    ],
}

EXAMPLE_OUTPUT: Doc = {
    "dealer": {"high": ["KS", "9D", "7H"], "low": ["4C", "3S"], "high_total": 26, "low_total": 7},
    "boxes": [
        {
            "box": 1,
            "player": "p1",
            "played": True,
            "high_total": 29,
            "low_total": 3,
            "poker_hand": "high_card",
            "wagers": {
                "ante": {"outcome": "win", "net": 1000},
                "play": {"outcome": "win", "net": 1000},
                "tie": {"outcome": "lose", "net": -500},
                "poker_bonus": {"outcome": "lose", "net": -500},
            },
        },
        {
            "box": 2,
            "player": "p1",
            "played": True,
            "high_total": 33,
            "low_total": 16,
            "poker_hand": "full_house",
            "wagers": {
                "ante": {"outcome": "push", "net": 0},
                "play": {"outcome": "push", "net": 0},
                "ante_bonus": {"outcome": "win", "hand": "three_aces", "net": 10000},
                "poker_bonus": {"outcome": "win", "net": 7500},
            },
        },
        {
            "box": 4,
            "player": "p2",
            "played": False,
            "high_total": None,
            "low_total": None,
            "poker_hand": "pair",
            "wagers": {
                "ante": {"outcome": "lose", "net": -2500},
                "tie": {"outcome": "lose", "net": -500},
                "poker_bonus": {"outcome": "win", "net": 500},
            },
        },
        {
            "box": 5,
            "player": "p3",
            "played": True,
            "high_total": 26,
            "low_total": 5,
            "poker_hand": "high_card",
            "wagers": {
                "ante": {"outcome": "push", "net": 0},
                "play": {"outcome": "push", "net": 0},
                "tie": {"outcome": "win", "net": 2000},
            },
        },
    ],
    "players": {"p1": {"net": 18500}, "p2": {"net": -2500}, "p3": {"net": 2000}},
}


def base() -> Doc:
    return copy.deepcopy(EXAMPLE_INPUT)


def run(text: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "manage.py", "settle_round"],
        cwd=ROOT,
        input=text.encode(),
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_worked_example_through_the_command() -> None:
    done = run(json.dumps(EXAMPLE_INPUT))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == EXAMPLE_OUTPUT
    # Exactly the digest's keys, in its order.
    assert list(out) == list(EXAMPLE_OUTPUT)
    for got, want in zip(out["boxes"], EXAMPLE_OUTPUT["boxes"], strict=True):
        assert list(got) == list(want)
        assert list(got["wagers"]) == list(want["wagers"])


def test_command_mixes_games_and_names_the_bad_round() -> None:
    bad = base()
    bad["boxes"][0]["low"] = ["AS", "9C"]
    bad["boxes"][0]["high"] = ["JD", "TH", "2S"]
    done = run(json.dumps([EXAMPLE_INPUT, EXAMPLE_INPUT, bad]))
    assert done.returncode != 0
    assert done.stdout == b""
    err = done.stderr.decode().strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "round 2: box 1:" in err and "9C" in err


def test_array_of_rounds_and_input_unchanged() -> None:
    doc = base()
    assert settle_document([doc, doc]) == [EXAMPLE_OUTPUT, EXAMPLE_OUTPUT]
    assert doc == EXAMPLE_INPUT


def test_equal_valued_cards_may_stand_in_and_any_order() -> None:
    doc = base()
    doc["boxes"][0]["high"] = ["9C", "TH", "JD"]
    doc["boxes"][0]["low"] = ["2S", "AS"]
    assert settle_document(doc) == EXAMPLE_OUTPUT


def test_aces_high_setting_of_the_example_box() -> None:
    # The same box set aces high: A-J-10 (31) / 9-2 (11) against 26 / 7: a push.
    doc = base()
    doc["boxes"][0]["high"] = ["AS", "JD", "TH"]
    doc["boxes"][0]["low"] = ["9C", "2S"]
    out = settle_document(doc)
    assert isinstance(out, dict)
    box = out["boxes"][0]
    assert (box["high_total"], box["low_total"]) == (31, 11)
    assert box["wagers"]["ante"] == {"outcome": "push", "net": 0}


def test_zero_optional_wagers_are_not_placed() -> None:
    doc = base()
    doc["boxes"][3]["wagers"] = {"ante": 500, "play": 500, "tie": 0, "poker_bonus": 0}
    out = settle_document(doc)
    assert isinstance(out, dict)
    assert list(out["boxes"][3]["wagers"]) == ["ante", "play"]


def test_a_box_abandoned_before_it_was_set_loses_ante_play_and_tie() -> None:
    """§663a.7(b), one rule for every wager of an abandoned box: no setting, so nothing is
    paid from a hand its player never set; the Poker Bonus (cards as dealt) still pays."""
    doc = base()
    box = doc["boxes"][0]
    del box["high"], box["low"]
    box["abandoned"] = True
    out = settle_document(doc)
    assert isinstance(out, dict)
    wagers = out["boxes"][0]["wagers"]
    assert wagers["ante"] == {"outcome": "lose", "net": -1000}
    assert wagers["play"] == {"outcome": "lose", "net": -1000}
    assert wagers["tie"] == {"outcome": "lose", "net": -500}
    assert set(wagers) == {"ante", "play", "tie", "poker_bonus"}
    assert out["boxes"][0]["high_total"] is None
    box["high"], box["low"] = ["JD", "TH", "9C"], ["AS", "2S"]
    with pytest.raises(InvalidInput) as exc:
        settle_document(doc)
    assert exc.value.code == "setting_on_abandoned"


def test_four_aces_dealer() -> None:
    doc = base()
    doc["dealer"] = ["AS", "AD", "AH", "AC", "9S"]
    doc["boxes"] = [
        {
            "box": 3,
            "player": "p",
            "cards": ["KS", "KD", "QH", "2C", "3C"],
            "high": ["KS", "KD", "QH"],
            "low": ["2C", "3C"],
            "wagers": {"ante": 100, "play": 100, "tie": 100},
        }
    ]
    out = settle_document(doc)
    assert isinstance(out, dict)
    assert (out["dealer"]["high_total"], out["dealer"]["low_total"]) == (33, 10)
    assert out["boxes"][0]["wagers"]["ante"] == {"outcome": "push", "net": 0}  # 30/5 v 33/10


def _set(path: str, value: object) -> Callable[[Doc], None]:
    """Set ``value`` at a dotted path ("boxes.0.wagers.ante"); ``...`` deletes it."""

    def apply(doc: Doc) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        elif value is ...:
            del node[last]
        else:
            node[last] = value

    return apply


def _three_boxes_for_p1(doc: Doc) -> None:
    doc["boxes"][2]["player"] = "p1"  # boxes 1, 2 and 4


# (id, change, code, words the message must contain) — the digest's list of bad input.
BAD: list[tuple[str, Callable[[Doc], None], str, str]] = [
    ("unknown game", _set("game", "five_card_low_hi"), "unknown_game", "five_card_low_hi"),
    ("rules missing", _set("rules", ...), "missing_rules", "rules"),
    ("rules key missing", _set("rules.poker_bonus_paytable", ...), "missing_rules", "poker"),
    ("ante bonus table E", _set("rules.ante_bonus_paytable", "E"), "unknown_paytable", "'E'"),
    ("poker bonus table C", _set("rules.poker_bonus_paytable", "C"), "unknown_paytable", "'C'"),
    ("paytable lower case", _set("rules.ante_bonus_paytable", "a"), "unknown_paytable", "'a'"),
    ("card not rank+suit", _set("boxes.0.cards.0", "1S"), "bad_card", "'1S'"),
    ("card a number", _set("dealer.0", 51), "bad_card", "51"),
    ("ten written 10", _set("boxes.2.cards.0", "10H"), "bad_card", "'10H'"),
    ("card twice in a box", _set("boxes.2.cards.1", "QH"), "duplicate_card", "QH"),
    ("card twice box and dealer", _set("boxes.2.cards.0", "KS"), "duplicate_card", "KS"),
    ("card twice two boxes", _set("boxes.3.cards.4", "2C"), "duplicate_card", "2C"),
    ("no boxes", _set("boxes", []), "no_boxes", "box"),
    ("boxes not a list", _set("boxes", {}), "bad_shape", "boxes"),
    ("dealer four cards", _set("dealer", ["KS", "9D", "7H", "4C"]), "wrong_card_count", "dealer"),
    ("dealer missing", _set("dealer", ...), "bad_cards", "dealer"),
    (
        "box six cards",
        _set("boxes.2.cards", ["QH", "QD", "5S", "6D", "2C", "3C"]),
        "wrong_card_count",
        "box 4",
    ),
    ("box 0", _set("boxes.0.box", 0), "bad_box", "0"),
    ("box 7", _set("boxes.0.box", 7), "bad_box", "7"),
    ("box a string", _set("boxes.0.box", "1"), "bad_box", "'1'"),
    ("box repeated", _set("boxes.1.box", 1), "duplicate_box", "box 1"),
    ("player missing", _set("boxes.2.player", ...), "bad_player", "box 4"),
    ("player empty", _set("boxes.2.player", ""), "bad_player", "box 4"),
    ("player on three boxes", _three_boxes_for_p1, "bad_boxes", "two adjacent"),
    ("two boxes not adjacent", _set("boxes.1.box", 3), "bad_boxes", "not adjacent"),
    ("ante missing", _set("boxes.2.wagers.ante", ...), "missing_ante", "box 4"),
    ("ante zero", _set("boxes.2.wagers.ante", 0), "missing_ante", "box 4"),
    ("ante negative", _set("boxes.2.wagers.ante", -2500), "bad_amount", "-2500"),
    ("ante a float", _set("boxes.2.wagers.ante", 2500.0), "bad_amount", "2500.0"),
    ("ante a string", _set("boxes.2.wagers.ante", "2500"), "bad_amount", "'2500'"),
    ("tie a boolean", _set("boxes.2.wagers.tie", True), "bad_amount", "True"),
    ("poker bonus negative", _set("boxes.2.wagers.poker_bonus", -1), "bad_amount", "-1"),
    ("play not the ante", _set("boxes.0.wagers.play", 2000), "bad_play", "2000"),
    ("play half the ante", _set("boxes.0.wagers.play", 500), "bad_play", "500"),
    ("unknown wager", _set("boxes.0.wagers.odds", 5), "unknown_wager", "odds"),
    ("playing box without setting", _set("boxes.0.high", ...), "missing_setting", "box 1"),
    ("playing box without low", _set("boxes.0.low", ...), "missing_setting", "box 1"),
    ("high of two cards", _set("boxes.0.high", ["JD", "TH"]), "bad_setting", "3 cards"),
    (
        "low of three cards",
        _set("boxes.0.low", ["AS", "2S", "9C"]),
        "bad_setting",
        "2 cards",
    ),
    ("setting card not the box's", _set("boxes.0.low", ["AS", "3S"]), "bad_setting", "3S"),
    ("setting card twice", _set("boxes.0.low", ["9C", "9C"]), "duplicate_card", "9C"),
    ("setting card high and low", _set("boxes.0.low", ["AS", "JD"]), "bad_setting", "JD"),
    ("setting bad card", _set("boxes.0.low", ["AS", "ZZ"]), "bad_card", "'ZZ'"),
    (
        "two aces low",
        lambda d: (
            _set("boxes.1.high", ["AC", "8S", "8C"])(d),
            _set("boxes.1.low", ["AD", "AH"])(d),
        ),
        "illegal_setting",
        "box 2: two aces in the low hand",
    ),
    (
        "a higher card low",
        lambda d: (
            _set("boxes.3.high", ["TD", "9H", "3D"])(d),
            _set("boxes.3.low", ["7C", "2D"])(d),
        ),
        "illegal_setting",
        "box 5: 7C",
    ),
    (
        "folded box with a setting",
        _set("boxes.2.high", ["QH", "QD", "6D"]),
        "setting_on_fold",
        "box 4",
    ),
    ("unknown round key", _set("dealr", []), "bad_shape", "dealr"),
    ("unknown box key", _set("boxes.0.hand", []), "bad_shape", "hand"),
]


@pytest.mark.parametrize("change, code, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_the_problem_and_the_round(
    change: Callable[[Doc], None], code: str, words: str
) -> None:
    doc = base()
    change(doc)
    with pytest.raises(InvalidInput) as exc:
        settle_document(doc)
    assert exc.value.code == code, exc.value.message
    assert exc.value.message.startswith("round 0: ")
    assert words in exc.value.message, exc.value.message
    assert "\n" not in exc.value.message
    with pytest.raises(InvalidInput) as exc:
        settle_document([base(), base(), base(), doc])
    assert exc.value.message.startswith("round 3: ")
