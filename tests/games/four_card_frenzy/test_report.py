"""Four Card Frenzy's committed paytable report, its loader and flags, and the
``paytable_report`` command with its names and parts (``--only``)."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from table.games import REPORT_FILES
from table.games.four_card_frenzy.paytables import PAYTABLES, PaytableKind
from table.games.four_card_frenzy.report import flags, paytable_summary
from table.management.commands.paytable_report import parse_games, parse_only
from table.paytable_report import REPORT_PATH, load_report

KINDS = (
    PaytableKind.PRIME,
    PaytableKind.FOUR_CARD_BONUS,
    PaytableKind.ALL_SIX,
    PaytableKind.BAD_BEAT,
)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return load_report()


def test_every_selectable_paytable_is_in_the_report(report: dict[str, Any]) -> None:
    assert list(report["wagers"]) == [k.value for k in KINDS]
    for kind in KINDS:
        entries = report["wagers"][kind.value]["paytables"]
        assert list(entries) == list(PAYTABLES[kind])
        for name, table in PAYTABLES[kind].items():
            entry = entries[name]
            assert [(r["label"], r["payout"]) for r in entry["rows"]] == table.as_posted()
            assert 0 < entry["hit_frequency"] < 1
            assert all(0 <= r["probability"] <= 1 for r in entry["rows"])
            assert entry["house_edge_exact"].count("/") == 1


def test_side_bet_rows_add_up(report: dict[str, Any]) -> None:
    for kind in ("prime", "four_card_bonus", "all_six"):
        for entry in report["wagers"][kind]["paytables"].values():
            hit = sum(r["probability"] for r in entry["rows"])
            assert hit == pytest.approx(entry["hit_frequency"], rel=1e-12)
            ev = sum(r["return"] for r in entry["rows"]) - (1 - hit)
            assert -ev == pytest.approx(entry["house_edge"], abs=1e-12)


def test_main_game_entries(report: dict[str, Any]) -> None:
    section = report["wagers"]["bad_beat"]
    for entry in section["paytables"].values():
        assert entry["element_of_risk"] == pytest.approx(
            entry["house_edge"] / entry["average_total_wager"], rel=1e-12
        )
        assert sum(entry["decisions"].values()) == pytest.approx(1)
        assert sum(entry["expected_net_by_wager"].values()) == pytest.approx(-entry["house_edge"])
        assert entry["strategy"]["raise_3x_from"] == "a pair of aces"
        assert entry["strategy"]["words"]
    edges = {n: e["house_edge"] for n, e in section["paytables"].items()}
    # same paytables, same figures; richer bad beats, lower edge
    assert edges["A"] == edges["BB-1"] and edges["D"] == edges["BB-5"]
    assert edges["A"] > edges["B"] > edges["C"] > edges["D"] > edges["BB-6"]


def test_paytable_summary(report: dict[str, Any]) -> None:
    entry = paytable_summary("four_card_bonus", "FC-9", report)
    assert entry["house_edge"] == pytest.approx(0.009779, abs=1e-6)
    assert paytable_summary("prime", "A")["house_edge"] == pytest.approx(0.047419, abs=1e-6)
    with pytest.raises(KeyError):
        paytable_summary("four_card_bonus", "Z", report)


def test_flags_of_the_committed_report(report: dict[str, Any]) -> None:
    flagged = {(f["kind"], f["name"]): f for f in flags(report)}
    pa_bonus = {("four_card_bonus", n) for n in "ABCDEFGH"}
    assert set(flagged) == pa_bonus | {("all_six", "B"), ("all_six", "E")}
    assert "23.27%" in flagged[("four_card_bonus", "A")]["reason"]
    assert "FC-2" in flagged[("four_card_bonus", "A")]["reason"]
    assert "18.10%" in flagged[("all_six", "E")]["reason"]


def test_flags_a_player_advantage_and_a_costly_main_game(report: dict[str, Any]) -> None:
    doctored = copy.deepcopy(report)
    doctored["wagers"]["prime"]["paytables"]["A"]["house_edge"] = -0.012
    doctored["wagers"]["bad_beat"]["paytables"]["D"]["house_edge"] = 0.08
    flagged = {(f["kind"], f["name"]): f["reason"] for f in flags(doctored)}
    assert "player has the advantage" in flagged[("prime", "A")]
    assert "8.00% of the Ante" in flagged[("bad_beat", "D")]


def test_parse_only() -> None:
    assert parse_only(None) == ["prime", "four_card_bonus", "all_six", "bad_beat"]
    assert parse_only("main, prime,prime") == ["bad_beat", "prime"]
    with pytest.raises(CommandError, match="unknown section"):
        parse_only("blackjack")


def test_command_recomputes_only_what_is_asked(tmp_path: Path, report: dict[str, Any]) -> None:
    output = tmp_path / "report.json"
    output.write_text(REPORT_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    out = StringIO()
    call_command(
        "paytable_report", only="prime,four_card_bonus", output=str(output), quiet=True, stdout=out
    )
    written = json.loads(output.read_text(encoding="utf-8"))
    assert written["sections_this_run"] == ["prime", "four_card_bonus"]
    assert written["wagers"]["bad_beat"] == report["wagers"]["bad_beat"]
    assert written["wagers"]["all_six"] == report["wagers"]["all_six"]
    assert written["wagers"]["prime"]["paytables"] == report["wagers"]["prime"]["paytables"]
    text = out.getvalue()
    assert "== Prime Wager" in text and "house edge 4.7419%" in text
    assert "tables outside the usual house-edge range" in text


# --- the command with Four Card Frenzy's own names and parts ------------------------------------


def test_parse_games_with_four_card_frenzys_names() -> None:
    """Its aliases and title pick it; ``--only`` alone means it (its report has the parts), and
    ``--only`` with another game alone is refused in its words."""
    assert "four_card_frenzy" in parse_games(None, "prime")
    assert parse_games("fcf", None) == ["four_card_frenzy"]
    assert parse_games("Four-Card-Frenzy", "main") == ["four_card_frenzy"]
    others = [g for g in REPORT_FILES if g != "four_card_frenzy"]
    assert others
    for other in others:
        with pytest.raises(CommandError, match="--only names .*Four Card Frenzy"):
            parse_games(other, "prime")


def test_command_refuses_only_without_four_card_frenzy(tmp_path: Path) -> None:
    other = next(g for g in REPORT_FILES if g != "four_card_frenzy")
    with pytest.raises(CommandError, match="--only names .*Four Card Frenzy"):
        call_command("paytable_report", game=other, only="prime", output_dir=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_four_card_frenzy_output_is_unchanged_but_for_timings(tmp_path: Path) -> None:
    """Byte for byte the committed file, once the timings of this run are put back."""
    output = tmp_path / "report.json"
    output.write_text(REPORT_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    call_command(
        "paytable_report", only="prime,four_card_bonus", output=str(output), quiet=True,
        stdout=StringIO(),
    )  # fmt: skip
    committed = json.loads(REPORT_PATH.read_text(encoding="utf-8"))
    written = json.loads(output.read_text(encoding="utf-8"))
    for key in ("seconds_this_run", "sections_this_run"):
        written[key] = committed[key]
    for kind in ("prime", "four_card_bonus"):
        written["wagers"][kind]["seconds"] = committed["wagers"][kind]["seconds"]
    text = json.dumps(written, indent=1, ensure_ascii=False) + "\n"
    assert text == REPORT_PATH.read_text(encoding="utf-8")
