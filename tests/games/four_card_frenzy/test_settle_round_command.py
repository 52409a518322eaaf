"""``manage.py settle_round`` and :func:`settle_document`: good input, and every kind of bad
input refused with a code and a one-line message naming the problem and the round's index."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from table.games.errors import InvalidInput
from table.games.four_card_frenzy.contract import settle_document
from tests.examples import rules_md_round

from .test_settlement import EXAMPLE_OUTPUT

ROOT = Path(__file__).resolve().parents[3]

Doc = dict[str, Any]


def base() -> Doc:
    doc = rules_md_round()
    doc["boxes"].append(
        {
            "box": 2,
            "player": "p2",
            "cards": ["KS", "KH", "3D", "5C", "8H"],  # a pair of kings
            "wagers": {"ante": 500, "odds": 500, "raise": 500},
        }
    )
    return doc


def _set(path: str, value: object) -> Callable[[Doc], None]:
    """Set ``value`` at a dotted path ("boxes.0.wagers.ante"); a ``...`` value deletes it."""

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


# (id, change, expected code, words the message must contain)
BAD: list[tuple[str, Callable[[Doc], None], str, str]] = [
    ("unknown card", _set("boxes.0.cards.0", "ZZ"), "bad_card", "'ZZ'"),
    ("unknown card 1S", _set("dealer.0", "1S"), "bad_card", "'1S'"),
    ("ten written 10", _set("boxes.1.cards.2", "10D"), "bad_card", "'10D'"),
    ("card not a string", _set("boxes.0.cards.0", 12), "bad_card", "12"),
    ("duplicate in a box", _set("boxes.0.cards.1", "QS"), "duplicate_card", "QS"),
    ("duplicate across boxes", _set("boxes.1.cards.0", "QS"), "duplicate_card", "QS"),
    ("duplicate box and dealer", _set("boxes.0.cards.0", "AS"), "duplicate_card", "AS"),
    ("duplicate All-Six card and box", _set("all_six_card", "QS"), "duplicate_card", "QS"),
    ("duplicate All-Six card and dealer", _set("all_six_card", "AS"), "duplicate_card", "AS"),
    ("unknown All-Six card", _set("all_six_card", "2X"), "bad_card", "'2X'"),
    (
        "four cards in a box",
        _set("boxes.0.cards", ["QS", "QH", "QD", "4C"]),
        "wrong_card_count",
        "4",
    ),
    (
        "six cards in a box",
        _set("boxes.0.cards", ["QS", "QH", "QD", "4C", "9H", "9D"]),
        "wrong_card_count",
        "6",
    ),
    ("four dealer cards", _set("dealer", ["AS", "KD", "7H", "7C"]), "wrong_card_count", "dealer"),
    ("cards not a list", _set("boxes.0.cards", "QS QH QD 4C 9H"), "bad_cards", "box 1"),
    ("dealer missing", _set("dealer", ...), "bad_cards", "dealer"),
    ("unequal Ante and Odds", _set("boxes.0.wagers.odds", 900), "unequal_ante_odds", "900"),
    ("3x raise on a pair of kings", _set("boxes.1.wagers.raise", 1500), "raise_too_large", "3x"),
    ("2x raise on a pair of kings", _set("boxes.1.wagers.raise", 1000), "raise_too_large", "2x"),
    ("raise not a multiple", _set("boxes.0.wagers.raise", 1500), "bad_raise", "1500"),
    ("4x raise", _set("boxes.0.wagers.raise", 4000), "bad_raise", "4000"),
    ("unknown bad beat table", _set("rules.bad_beat_paytable", "E"), "unknown_paytable", "'E'"),
    ("unknown BB table", _set("rules.bad_beat_paytable", "BB-7"), "unknown_paytable", "BB-7"),
    (
        "FC table lower case",
        _set("rules.four_card_bonus_paytable", "fc-1"),
        "unknown_paytable",
        "fc-1",
    ),
    ("FC-13", _set("rules.four_card_bonus_paytable", "FC-13"), "unknown_paytable", "FC-13"),
    ("unknown prime table", _set("rules.prime_paytable", "C"), "unknown_paytable", "'C'"),
    ("unknown all-six table", _set("rules.all_six_paytable", "F"), "unknown_paytable", "'F'"),
    ("paytable null", _set("rules.all_six_paytable", None), "unknown_paytable", "None"),
    ("paytable a number", _set("rules.prime_paytable", 1), "unknown_paytable", "1"),
    ("amount a string", _set("boxes.0.wagers.ante", "1000"), "bad_amount", "'1000'"),
    ("amount a float", _set("boxes.0.wagers.ante", 1000.0), "bad_amount", "1000.0"),
    ("amount a boolean", _set("boxes.0.wagers.prime", True), "bad_amount", "True"),
    ("amount NaN", _set("boxes.0.wagers.prime", float("nan")), "bad_amount", "nan"),
    ("amount a list", _set("boxes.0.wagers.raise", [3000]), "bad_amount", "[3000]"),
    ("raise a float", _set("boxes.0.wagers.raise", 3000.5), "bad_amount", "3000.5"),
    ("negative Ante", _set("boxes.0.wagers.ante", -1000), "bad_amount", "-1000"),
    ("negative optional wager", _set("boxes.0.wagers.prime", -5), "bad_amount", "-5"),
    ("negative raise", _set("boxes.0.wagers.raise", -1000), "bad_amount", "-1000"),
    ("Ante null", _set("boxes.0.wagers.ante", None), "missing_ante", "ante"),
    ("Ante missing", _set("boxes.0.wagers.ante", ...), "missing_ante", "ante"),
    ("Ante and Odds zero", _set("boxes.1.wagers", {"ante": 0, "odds": 0}), "missing_ante", "box 2"),
    ("unknown wager", _set("boxes.0.wagers.insurance", 5), "unknown_wager", "insurance"),
    ("wagers not an object", _set("boxes.0.wagers", [1000, 1000]), "bad_shape", "wagers"),
    ("payout limit a string", _set("rules.payout_limit", "5000000"), "bad_payout_limit", "5000000"),
    ("payout limit a boolean", _set("rules.payout_limit", True), "bad_payout_limit", "True"),
    ("payout limit a float", _set("rules.payout_limit", 5e6), "bad_payout_limit", "5000000.0"),
    ("payout limit zero", _set("rules.payout_limit", 0), "bad_payout_limit", "0"),
    ("payout limit negative", _set("rules.payout_limit", -1), "bad_payout_limit", "-1"),
    ("All-Six card missing", _set("all_six_card", ...), "missing_all_six_card", "All-Six"),
    ("All-Six card null", _set("all_six_card", None), "missing_all_six_card", "All-Six"),
    ("box 0", _set("boxes.0.box", 0), "bad_box", "0"),
    ("box 7", _set("boxes.0.box", 7), "bad_box", "7"),
    ("box a string", _set("boxes.0.box", "1"), "bad_box", "'1'"),
    ("box a boolean", _set("boxes.0.box", True), "bad_box", "True"),
    ("box a float", _set("boxes.0.box", 1.0), "bad_box", "1.0"),
    ("box twice", _set("boxes.1.box", 1), "duplicate_box", "box"),
    ("player empty", _set("boxes.0.player", ""), "bad_player", "player"),
    ("player a number", _set("boxes.0.player", 7), "bad_player", "player"),
    ("player missing", _set("boxes.0.player", ...), "bad_player", "player"),
    ("unknown round key", _set("dealr", ["AS"]), "bad_shape", "dealr"),
    ("unknown box key", _set("boxes.0.hand", []), "bad_shape", "hand"),
    ("unknown rules key", _set("rules.limit", 5), "bad_shape", "limit"),
    ("rules not an object", _set("rules", ["A"]), "bad_shape", "rules"),
    ("boxes not a list", _set("boxes", {"box": 1}), "bad_shape", "boxes"),
    ("box not an object", _set("boxes.1", "box 2"), "bad_shape", "boxes[1]"),
]


@pytest.mark.parametrize("change, code, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_round_is_invalid_input_naming_the_round(
    change: Callable[[Doc], None], code: str, words: str
) -> None:
    doc = base()
    change(doc)
    with pytest.raises(InvalidInput) as exc:
        settle_document(doc)
    assert exc.value.code == code
    assert exc.value.message.startswith("round 0: ")
    assert words in exc.value.message
    assert "\n" not in exc.value.message
    # In an array, the index of the bad round is named.
    with pytest.raises(InvalidInput) as exc:
        settle_document([base(), base(), doc, base()])
    assert exc.value.code == code
    assert exc.value.message.startswith("round 2: ")


@pytest.mark.parametrize("document", [None, 5, "round", True, [base(), 5], [[]]], ids=repr)
def test_not_a_round(document: object) -> None:
    with pytest.raises(InvalidInput) as exc:
        settle_document(document)
    assert exc.value.code == "bad_shape"
    assert exc.value.message.startswith("round ")


def test_good_input_variants() -> None:
    doc = base()
    assert settle_document([]) == []
    assert settle_document([doc, doc]) == [settle_document(doc)] * 2
    # Lower-case card codes, an All-Six card nobody needs, rules left to their defaults.
    relaxed = base()
    relaxed["boxes"][0]["cards"] = [c.lower() for c in relaxed["boxes"][0]["cards"]]
    relaxed["boxes"][0]["wagers"].pop("all_six")
    del relaxed["rules"]
    out = settle_document(relaxed)
    assert isinstance(out, dict)
    assert out["boxes"][0]["hand"] == ["QS", "QH", "QD", "9H"]
    assert "all_six" not in out["boxes"][0]["wagers"]
    # The input is not changed.
    assert doc == base()


# --- the command -------------------------------------------------------------------------------


def run(text: str | bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    data = text.encode() if isinstance(text, str) else text
    return subprocess.run(
        [sys.executable, "manage.py", "settle_round", *args],
        cwd=ROOT,
        input=data,
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_command_prints_the_rules_md_example() -> None:
    done = run(json.dumps(_example()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXAMPLE_OUTPUT
    assert done.stdout.count(b"\n") <= 1


def _example() -> Doc:
    doc = base()
    doc["boxes"] = doc["boxes"][:1]
    return doc


@pytest.mark.parametrize(
    "text, words",
    [
        ("this is not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not valid JSON"),
        ("[" * 100_000, "JSON"),
        (json.dumps([_example(), _example(), {**_example(), "all_six_card": "QS"}]), "round 2:"),
        (json.dumps({**_example(), "dealer": ["AS", "KD", "7H", "7C", "ZZ"]}), "round 0:"),
    ],
    ids=["words", "bytes", "nested", "duplicate", "unknown card"],
)
def test_command_bad_input_exits_non_zero_with_one_line(text: str | bytes, words: str) -> None:
    done = run(text)
    assert done.returncode != 0
    assert done.stdout == b""
    err = done.stderr.decode().strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert words in err


def test_command_missing_input_file() -> None:
    done = run("", "--input", "/nonexistent/rounds.json")
    assert done.returncode != 0
    assert "cannot read input" in done.stderr.decode()
    assert "Traceback" not in done.stderr.decode()


@pytest.mark.parametrize("change, code, words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_command_in_process_names_problem_and_index(
    change: Callable[[Doc], None], code: str, words: str, tmp_path: Path
) -> None:
    doc = base()
    change(doc)
    path = tmp_path / "in.json"
    path.write_text(json.dumps([base(), doc]), encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        call_command("settle_round", input=str(path), stdout=io.StringIO())
    message = str(exc.value)
    assert message.startswith("round 1: ") and words in message
    assert "\n" not in message


def test_command_in_process_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps([_example()] * 3), encoding="utf-8")
    out = io.StringIO()
    call_command("settle_round", input=str(path), stdout=out)
    assert json.loads(out.getvalue()) == [EXAMPLE_OUTPUT] * 3


@pytest.mark.parametrize("text", ["", '{"dealer": ', "[1, 2", "{'a': 1}", "NaN NaN"])
def test_command_in_process_not_json(text: str, tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        call_command("settle_round", input=str(path), stdout=io.StringIO())
    assert str(exc.value).startswith("input is not valid JSON")
    assert "\n" not in str(exc.value)
