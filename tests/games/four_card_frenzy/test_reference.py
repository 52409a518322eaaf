"""The engine against an independent reference settlement, on thousands of random rounds.

The rounds come from :mod:`bench.games.four_card_frenzy.rounds` (random paytables
including the manufacturer's, random payout limits, several boxes per player, folds, legal
1x/2x/3x raises, optional wagers present or not, and planted rare hands); the legal raises are
decided by the *reference* evaluator, and the reference settles them without importing the
engine's hands.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bench.games.four_card_frenzy.rounds import random_rounds
from table.games.four_card_frenzy.contract import parse_round, settle_document, settlement_json
from table.games.four_card_frenzy.settlement import settle

from . import reference

ROOT = Path(__file__).resolve().parents[3]


def reference_max_raise(cards: Sequence[str]) -> int:
    """§684a.11(b)(1), from the reference evaluator: 3x with a pair of aces or better."""
    _, key = reference.best_four([c.upper() for c in cards])
    return 3 if key >= (reference.STRENGTH["pair"], (reference.ACE,)) else 1


@pytest.fixture(scope="module")
def rounds() -> list[dict[str, Any]]:
    return random_rounds(4000, seed=20261121, max_raise=reference_max_raise)


def assert_same(engine: dict[str, Any], expected: dict[str, Any], index: int) -> None:
    assert engine == expected, f"round {index} differs"
    # Key order as in the contract's example, too.
    for got, want in zip(engine["boxes"], expected["boxes"], strict=True):
        assert list(got) == list(want)
        assert list(got["wagers"]) == list(want["wagers"]), f"round {index}"


def test_engine_equals_reference_on_random_rounds(rounds: list[dict[str, Any]]) -> None:
    out = settle_document(rounds)
    assert isinstance(out, list) and len(out) == len(rounds)
    for index, (round_, engine) in enumerate(zip(rounds, out, strict=True)):
        assert_same(engine, reference.settle_reference(round_), index)


def test_random_rounds_one_by_one_equal_the_batch(rounds: list[dict[str, Any]]) -> None:
    batch = settle_document(rounds[:200])
    assert batch == [settle_document(r) for r in rounds[:200]]


def test_contract_answer_equals_settlement_json_of_settle(rounds: list[dict[str, Any]]) -> None:
    """settle_document builds its JSON straight from the settlement lines; settlement_json
    builds it from settle's RoundSettlement. Both say the same, key order included."""
    for index, round_ in enumerate(rounds[:1500]):
        dealer, boxes, rules, all_six = parse_round(round_)
        expected = settlement_json(settle(dealer, boxes, rules, all_six), boxes)
        assert json.dumps(settle_document(round_)) == json.dumps(expected), f"round {index}"


def test_random_rounds_reach_the_rare_cases(rounds: list[dict[str, Any]]) -> None:
    """The comparison above means something only if the rare rows are in the sample."""
    seen: Counter[str] = Counter()
    for round_ in rounds:
        out = reference.settle_reference(round_)
        dealer = reference.best_four(round_["dealer"])[1]
        seen["dealer does not qualify"] += not out["dealer"]["qualifies"]
        tables = round_.get("rules") or {}
        seen["manufacturer Four Card Bonus"] += str(
            tables.get("four_card_bonus_paytable", "")
        ).startswith("FC-")
        seen["manufacturer bad beat"] += str(tables.get("bad_beat_paytable", "")).startswith("BB-")
        seen["payout limit applied"] += any(
            p["payout_limit_applied"] for p in out["players"].values()
        )
        seen["player with two boxes"] += len(out["players"]) < len(out["boxes"])
        for box, settled in zip(round_["boxes"], out["boxes"], strict=True):
            wagers = settled["wagers"]
            category = settled["category"]
            if "raise" not in wagers:
                seen["fold"] += 1
                seen["fold with optional wagers"] += len(wagers) > 2
                continue
            seen[f"raise {box['wagers']['raise'] // box['wagers']['ante']}x"] += 1
            if wagers["raise"]["outcome"] == "lose" and wagers["odds"]["outcome"] == "win":
                seen[f"bad beat {category}"] += 1
            if reference.best_four(box["cards"])[1] == dealer:
                seen[f"copy {'straight+' if wagers['odds']['net'] > 0 else 'low'}"] += 1
            if reference.best_four(box["cards"])[1] == (8, (14,)):
                seen["four aces"] += 1
            if box["wagers"]["odds"] % 2 and category == "flush":
                seen["flush on an odd stake"] += 1
            if "all_six" in wagers:
                cls = reference.all_six_class([*box["cards"], round_["all_six_card"]])
                seen[f"all-six {cls}"] += 1
    for case in [
        "dealer does not qualify",
        "manufacturer Four Card Bonus",
        "manufacturer bad beat",
        "payout limit applied",
        "player with two boxes",
        "fold",
        "fold with optional wagers",
        "raise 1x",
        "raise 2x",
        "raise 3x",
        "bad beat four_of_a_kind",
        "bad beat straight_flush",
        "bad beat three_of_a_kind",
        "bad beat flush",
        "bad beat straight",
        "copy straight+",
        "copy low",
        "four aces",
        "flush on an odd stake",
        "all-six six_card_royal_diamonds",
        "all-six six_card_royal",
        "all-six royal_flush",
        "all-six straight_flush",
        "all-six straight",
        "all-six full_house",
    ]:
        assert seen[case] > 0, case


def test_settle_round_command_on_an_array_of_2000_rounds(
    rounds: list[dict[str, Any]], tmp_path: Path
) -> None:
    """The real ``manage.py settle_round``, once, in its own process."""
    sample = rounds[:2000]
    path = tmp_path / "rounds.json"
    path.write_text(json.dumps(sample), encoding="utf-8")
    with path.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "manage.py", "settle_round"],
            cwd=ROOT,
            stdin=stdin,
            capture_output=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr.decode()
    out = json.loads(done.stdout)
    assert len(out) == len(sample)
    for index, (round_, engine) in enumerate(zip(sample, out, strict=True)):
        assert_same(engine, reference.settle_reference(round_), index)
