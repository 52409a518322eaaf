"""The ``settle_round`` contract for ``"game": "crazy_4_poker"`` (CRAZY_4_POKER.md): the worked
example byte for byte through ``manage.py settle_round``, and every kind of bad input."""

# ruff: noqa: E501  (the contract example is kept verbatim, as CRAZY_4_POKER.md prints it)
from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from table.games import settle_document
from table.games.errors import InvalidInput

ROOT = Path(__file__).resolve().parents[3]
Doc = dict[str, Any]

#: CRAZY_4_POKER.md, "The settle_round contract for this game": the input ...
EXAMPLE_INPUT = """
{"game": "crazy_4_poker",
 "rules": {"queens_up_paytable": "B", "progressive": {"type": "five_card", "paytable": "C", "wager": 100},
           "hand_bonus": {"wager": 100}, "six_card_bonus_paytable": "E"},
 "meters": {"mega": {"amount": 1234567}, "major": {"amount": 156789}, "minor": {"amount": 31234},
            "hand_bonus": {"amount": 1050000, "reserve": 2000}},
 "dealer": ["KS", "QD", "8C", "5H", "2D"], "six_card_bonus_card": "AC", "magic_card": "7S",
 "lucky_position": "dealer",
 "boxes": [{"box": 2, "player": "p1", "cards": ["AH", "AD", "7S", "7C", "4H"],
            "wagers": {"ante": 1000, "super_bonus": 1000, "play": 3000, "queens_up": 500, "progressive": 100,
                       "hand_bonus": 100, "hand_bonus_on": "both", "six_card_bonus": 500}},
           {"box": 5, "player": "p2", "cards": ["9H", "TH", "JH", "QH", "KH"],
            "wagers": {"ante": 1000, "super_bonus": 1000, "play": 3000, "queens_up": 500, "progressive": 100}}]}
"""
#: ... and the output.
EXAMPLE_OUTPUT = """
{"game": "crazy_4_poker",
 "dealer": {"hand": ["KS", "QD", "8C", "5H"], "category": "high_card", "qualifies": true, "five_card_category": "high_card"},
 "boxes": [{"box": 2, "player": "p1", "folded": false, "hand": ["AH", "AD", "7S", "7C"], "category": "two_pair",
            "five_card_category": "two_pair", "six_card_category": "full_house",
            "wagers": {"ante": {"outcome": "win", "net": 1000}, "play": {"outcome": "win", "net": 3000},
                       "super_bonus": {"outcome": "push", "net": 0}, "queens_up": {"outcome": "win", "net": 1000},
                       "progressive": {"outcome": "lose", "net": -100}, "hand_bonus_player": {"outcome": "lose", "net": -100},
                       "hand_bonus_dealer": {"outcome": "lose", "net": -100}, "six_card_bonus": {"outcome": "win", "net": 10000}},
            "bonuses": {"magic_card": 2000, "lucky_bonus": 500},
            "envy": [{"from_box": 5, "hand": "straight_flush", "amount": 30000}], "net": 47200},
           {"box": 5, "player": "p2", "folded": false, "hand": ["TH", "JH", "QH", "KH"], "category": "straight_flush",
            "five_card_category": "straight_flush", "six_card_category": null,
            "wagers": {"ante": {"outcome": "win", "net": 1000}, "play": {"outcome": "win", "net": 3000},
                       "super_bonus": {"outcome": "win", "net": 15000}, "queens_up": {"outcome": "win", "net": 20000},
                       "progressive": {"outcome": "win", "net": 156703}},
            "bonuses": {}, "envy": [], "net": 195703}],
 "meters": {"hand_bonus": {"amount": 1050026, "reserve": 2016, "increment": 26, "reserve_increment": 16, "paid": 0},
            "major": {"amount": 100000, "reserve": 0, "increment": 14, "reserve_increment": 0, "paid": 156803},
            "mega": {"amount": 1234585, "reserve": 0, "increment": 18, "reserve_increment": 0, "paid": 0},
            "minor": {"amount": 31240, "reserve": 0, "increment": 6, "reserve_increment": 0, "paid": 0}},
 "players": {"p1": {"net": 47200}, "p2": {"net": 195703}}}
"""


def example() -> Doc:
    doc: Doc = json.loads(EXAMPLE_INPUT)
    return doc


def run(text: str | bytes) -> subprocess.CompletedProcess[bytes]:
    data = text.encode() if isinstance(text, str) else text
    return subprocess.run(
        [sys.executable, "manage.py", "settle_round"],
        cwd=ROOT,
        input=data,
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_worked_example_byte_for_byte_through_the_command() -> None:
    done = run(EXAMPLE_INPUT)
    assert done.returncode == 0, done.stderr
    # The command prints one line of compact JSON, keys in the contract's order.
    expected = orjson.dumps(json.loads(EXAMPLE_OUTPUT))
    assert done.stdout.rstrip(b"\n") == expected
    assert done.stdout.count(b"\n") <= 1


def test_worked_example_in_an_array_mixed_with_four_card_frenzy() -> None:
    from tests.examples import rules_md_round

    out = settle_document([example(), rules_md_round(), example()])
    assert isinstance(out, list)
    assert out[0] == out[2] == json.loads(EXAMPLE_OUTPUT)
    assert "game" not in out[1]


def test_rules_with_nothing_optional_and_no_meters() -> None:
    doc = example()
    doc["rules"] = {"queens_up_paytable": "A"}
    del doc["meters"], doc["six_card_bonus_card"], doc["magic_card"], doc["lucky_position"]
    for b in doc["boxes"]:
        for k in ("progressive", "hand_bonus", "hand_bonus_on", "six_card_bonus"):
            b["wagers"].pop(k, None)
    out = settle_document(doc)
    assert isinstance(out, dict)
    assert out["meters"] == {}
    # Queens Up A: two pair 2 to 1, straight flush 30 to 1.
    assert [b["net"] for b in out["boxes"]] == [1000 + 3000 + 1000, 1000 + 3000 + 15000 + 15000]
    doc["meters"] = {}
    assert settle_document(doc) == out


def test_a_fold_in_the_contract() -> None:
    doc = example()
    doc["boxes"][0]["wagers"]["play"] = 0
    out = settle_document(doc)
    assert isinstance(out, dict)
    b = out["boxes"][0]
    assert b["folded"] is True
    assert "play" not in b["wagers"]
    assert b["wagers"]["six_card_bonus"] == {"outcome": "win", "net": 10000}
    assert b["bonuses"] == {}
    assert b["envy"] == [{"from_box": 5, "hand": "straight_flush", "amount": 30000}]
    assert b["net"] == -1000 - 1000 - 500 - 100 - 100 - 100 + 10000 + 30000
    # Absent is the same as 0.
    del doc["boxes"][0]["wagers"]["play"]
    assert settle_document(doc) == out


def test_magic_card_may_repeat_a_dealt_card() -> None:
    doc = example()
    doc["magic_card"] = "KS"  # the dealer's: pays box 2's dealer-hand wager
    out = settle_document(doc)
    assert isinstance(out, dict)
    assert out["boxes"][0]["bonuses"] == {"magic_card": 2000, "lucky_bonus": 500}


def _set(path: str, value: object) -> Callable[[Doc], None]:
    """Set ``value`` at a dotted path; ``...`` deletes the key."""

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


def _both(*changes: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def apply(doc: Doc) -> None:
        for change in changes:
            change(doc)

    return apply


def _no_hand_bonus(doc: Doc) -> None:
    doc["rules"]["hand_bonus"] = None
    del doc["meters"]["hand_bonus"]
    for b in doc["boxes"]:
        b["wagers"].pop("hand_bonus", None)
        b["wagers"].pop("hand_bonus_on", None)


def _pair_of_kings(doc: Doc) -> None:
    doc["boxes"][0]["cards"] = ["AH", "KD", "KC", "7C", "4H"]


# (id, change, code, words the message must contain) - CRAZY_4_POKER.md's list of bad input.
BAD: list[tuple[str, Callable[[Doc], None], str, str]] = [
    ("unknown card", _set("boxes.0.cards.0", "ZZ"), "bad_card", "'ZZ'"),
    ("unknown dealer card", _set("dealer.0", "1S"), "bad_card", "'1S'"),
    ("unknown six card", _set("six_card_bonus_card", "AX"), "bad_card", "'AX'"),
    ("unknown magic card", _set("magic_card", "7Z"), "bad_card", "'7Z'"),
    ("duplicate in a box", _set("boxes.0.cards.1", "AH"), "duplicate_card", "AH"),
    ("duplicate across boxes", _set("boxes.1.cards.0", "AH"), "duplicate_card", "AH"),
    ("duplicate box and dealer", _set("dealer.0", "AH"), "duplicate_card", "AH"),
    ("duplicate six card", _set("six_card_bonus_card", "KS"), "duplicate_card", "KS"),
    ("missing card", _set("boxes.0.cards", ["AH", "AD", "7S", "7C"]), "wrong_card_count", "4"),
    (
        "six cards",
        _set("boxes.0.cards", ["AH", "AD", "7S", "7C", "4H", "3C"]),
        "wrong_card_count",
        "6",
    ),
    ("dealer four cards", _set("dealer", ["KS", "QD", "8C", "5H"]), "wrong_card_count", "dealer"),
    ("dealer missing", _set("dealer", ...), "bad_cards", "dealer"),
    ("cards missing", _set("boxes.0.cards", ...), "bad_cards", "box 2"),
    ("box 0", _set("boxes.0.box", 0), "bad_box", "0"),
    ("box 7", _set("boxes.0.box", 7), "bad_box", "7"),
    ("box a string", _set("boxes.0.box", "2"), "bad_box", "'2'"),
    ("box repeated", _set("boxes.1.box", 2), "duplicate_box", "box 2"),
    (
        "super bonus not the ante",
        _set("boxes.0.wagers.super_bonus", 500),
        "unequal_ante_super_bonus",
        "500",
    ),
    (
        "super bonus missing",
        _set("boxes.0.wagers.super_bonus", ...),
        "unequal_ante_super_bonus",
        "Super Bonus",
    ),
    ("ante missing", _set("boxes.0.wagers.ante", ...), "missing_ante", "ante"),
    ("3x play on a pair of kings", _both(_pair_of_kings), "bad_play", "pair of aces"),
    (
        "2x play on a pair of kings",
        _both(_pair_of_kings, _set("boxes.0.wagers.play", 2000)),
        "bad_play",
        "2000",
    ),
    ("play below the ante", _set("boxes.0.wagers.play", 999), "bad_play", "999"),
    ("play above 3x", _set("boxes.0.wagers.play", 3001), "bad_play", "3001"),
    ("unknown queens up table", _set("rules.queens_up_paytable", "E"), "unknown_paytable", "'E'"),
    (
        "queens up table missing",
        _set("rules.queens_up_paytable", ...),
        "unknown_paytable",
        "queens_up",
    ),
    (
        "unknown six card table",
        _set("rules.six_card_bonus_paytable", "F"),
        "unknown_paytable",
        "'F'",
    ),
    (
        "unknown progressive table",
        _set("rules.progressive.paytable", "E"),
        "unknown_paytable",
        "'E'",
    ),
    (
        "unknown progressive type",
        _set("rules.progressive.type", "six_card"),
        "unknown_progressive",
        "six_card",
    ),
    ("progressive wager size", _set("rules.progressive.wager", 200), "bad_wager_size", "200"),
    ("hand bonus wager size", _set("rules.hand_bonus.wager", 1000), "bad_wager_size", "1000"),
    ("progressive not offered", _set("rules.progressive", None), "bad_meters", "meters"),
    (
        "progressive wager not offered",
        _both(_set("rules.progressive", None), _set("meters", {"hand_bonus": {"amount": 1}})),
        "not_offered",
        "progressive",
    ),
    (
        "six card bonus not offered",
        _set("rules.six_card_bonus_paytable", None),
        "not_offered",
        "six_card_bonus",
    ),
    (
        "queens up of another size is fine, progressive not",
        _set("boxes.0.wagers.progressive", 500),
        "bad_wager_size",
        "500",
    ),
    ("hand bonus of another size", _set("boxes.0.wagers.hand_bonus", 500), "bad_wager_size", "500"),
    (
        "hand_bonus_on missing",
        _set("boxes.0.wagers.hand_bonus_on", ...),
        "bad_hand_bonus_on",
        "None",
    ),
    (
        "hand_bonus_on unknown",
        _set("boxes.0.wagers.hand_bonus_on", "table"),
        "bad_hand_bonus_on",
        "'table'",
    ),
    (
        "six card bonus without the card",
        _set("six_card_bonus_card", ...),
        "missing_six_card_bonus_card",
        "Six Card Bonus",
    ),
    (
        "card without a six card bonus",
        _set("boxes.0.wagers.six_card_bonus", 0),
        "unexpected_six_card_bonus_card",
        "Six Card Bonus",
    ),
    ("meter missing", _set("meters.minor", ...), "bad_meters", "minor"),
    ("meter extra", _set("meters.four_card", {"amount": 1}), "bad_meters", "four_card"),
    ("meters missing", _set("meters", ...), "bad_meters", "meters"),
    ("meter negative", _set("meters.mega.amount", -1), "bad_amount", "-1"),
    ("meter reserve negative", _set("meters.hand_bonus.reserve", -5), "bad_amount", "-5"),
    ("meter a float", _set("meters.mega.amount", 1234567.5), "bad_amount", "1234567.5"),
    ("lucky position 7", _set("lucky_position", 7), "bad_lucky_position", "7"),
    ("lucky position 0", _set("lucky_position", 0), "bad_lucky_position", "0"),
    ("lucky position a string", _set("lucky_position", "box 2"), "bad_lucky_position", "'box 2'"),
    ("lucky position true", _set("lucky_position", True), "bad_lucky_position", "True"),
    (
        "magic without hand bonus",
        _both(_no_hand_bonus, _set("lucky_position", ...)),
        "not_offered",
        "Magic Card",
    ),
    (
        "lucky without hand bonus",
        _both(_no_hand_bonus, _set("magic_card", ...)),
        "not_offered",
        "Lucky Bonus",
    ),
    ("negative ante", _set("boxes.0.wagers.ante", -1000), "bad_amount", "-1000"),
    ("negative queens up", _set("boxes.0.wagers.queens_up", -5), "bad_amount", "-5"),
    ("float play", _set("boxes.0.wagers.play", 3000.0), "bad_amount", "3000.0"),
    ("zero float play", _set("boxes.0.wagers.play", 0.0), "bad_amount", "0.0"),
    ("string ante", _set("boxes.0.wagers.ante", "1000"), "bad_amount", "'1000'"),
    ("boolean queens up", _set("boxes.0.wagers.queens_up", True), "bad_amount", "True"),
    ("unknown game", _set("game", "crazy_5_poker"), "unknown_game", "crazy_5_poker"),
    ("unknown round key", _set("dealr", []), "bad_shape", "dealr"),
    ("unknown wager", _set("boxes.0.wagers.odds", 5), "bad_shape", "odds"),
    ("rules not an object", _set("rules", "B"), "bad_shape", "rules"),
    ("rules missing", _set("rules", ...), "bad_shape", "rules"),
    ("player empty", _set("boxes.0.player", ""), "bad_player", "player"),
    ("boxes not a list", _set("boxes", {}), "bad_shape", "boxes"),
]


@pytest.mark.parametrize("change, code, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_the_problem_and_the_round(
    change: Callable[[Doc], None], code: str, words: str
) -> None:
    doc = example()
    change(doc)
    before = copy.deepcopy(doc)
    with pytest.raises(InvalidInput) as exc:
        settle_document(doc)
    assert exc.value.code == code, exc.value.message
    assert exc.value.message.startswith("round 0: ")
    assert words in exc.value.message, exc.value.message
    assert "\n" not in exc.value.message
    assert doc == before  # nothing changed
    with pytest.raises(InvalidInput) as exc:
        settle_document([example(), doc])
    assert exc.value.message.startswith("round 1: ")


def test_bad_input_through_the_command_exits_non_zero_with_one_line() -> None:
    doc = example()
    doc["boxes"][0]["wagers"]["super_bonus"] = 500
    done = run(json.dumps([example(), doc]))
    assert done.returncode != 0
    assert done.stdout == b""
    err = done.stderr.decode().strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("round 1: ") or "round 1: " in err
