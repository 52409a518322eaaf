"""The committed paytable report, its loader and flags, and the ``paytable_report`` command."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from table.games import game
from table.games.four_card_frenzy.paytables import PAYTABLES, PaytableKind
from table.games.four_card_frenzy.report import flags, paytable_summary
from table.management.commands.paytable_report import parse_games, parse_only
from table.paytable_report import (
    GAME_TITLES,
    REPORT_FILES,
    REPORT_PATH,
    load_game_report,
    load_report,
    markdown,
)

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


# --- every game: the command's dispatch, the docs page, Four Card Frenzy's output unchanged ----


def test_parse_games() -> None:
    everything = ["four_card_frenzy", "crazy_4_poker", "five_card_hi_lo"]
    assert parse_games(None, None) == everything
    assert parse_games("all", None) == everything
    assert parse_games(None, "prime") == ["four_card_frenzy"]  # --only is Four Card Frenzy's
    assert parse_games("hilo, c4p", None) == ["crazy_4_poker", "five_card_hi_lo"]
    assert parse_games("Five-Card-Hi-Lo,fcf", "main") == ["four_card_frenzy", "five_card_hi_lo"]
    with pytest.raises(CommandError, match="unknown game"):
        parse_games("blackjack", None)
    with pytest.raises(CommandError, match="--only names Four Card Frenzy sections"):
        parse_games("c4p", "prime")


def test_docs_page_is_generated_from_the_committed_reports() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "paytables.md").read_text(
        encoding="utf-8"
    )
    assert page == markdown()
    for name in REPORT_FILES:  # every game with a report has its section, headed alike
        assert f"\n## {GAME_TITLES[name]} ({game(name).regulation})" in page
    assert "as if the meter always stood at its seed" in page
    assert "#### Optimal strategy (the same for every Ante Bonus table)" in page


def test_command_writes_the_games_asked_for(tmp_path: Path) -> None:
    out = StringIO()
    page = tmp_path / "paytables.md"
    call_command(
        "paytable_report", game="hilo", output_dir=str(tmp_path), markdown=str(page),
        quiet=True, stdout=out,
    )  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "five_card_hi_lo_report.json",
        "paytables.md",
    ]
    written = json.loads((tmp_path / "five_card_hi_lo_report.json").read_text(encoding="utf-8"))
    committed = load_game_report("five_card_hi_lo")
    assert written["main_game"]["paytables"] == committed["main_game"]["paytables"]
    assert (
        written["wagers"]["poker_bonus"]["paytables"]
        == (committed["wagers"]["poker_bonus"]["paytables"])
    )
    text = out.getvalue()
    assert "== Five Card Hi-Lo: Ante and Play" in text and "house edge 2.7638% per Ante" in text
    assert "Crazy 4 Poker" not in text
    # The page takes the games not computed now from their committed reports.
    assert page.read_text(encoding="utf-8") == markdown(
        {"five_card_hi_lo": written, "crazy_4_poker": load_game_report("crazy_4_poker")}
    )


def test_command_refuses_only_without_four_card_frenzy(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="--only names Four Card Frenzy sections"):
        call_command("paytable_report", game="c4p", only="prime", output_dir=str(tmp_path))
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
