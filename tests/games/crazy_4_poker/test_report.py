"""Crazy 4 Poker's committed paytable report (table/games/crazy_4_poker/crazy_4_poker_report.json).

Checked three ways: against the analysis it is built from, against figures worked out here
from the digest's hand counts and the regulation's paytables (independent of the game's
code), and against figures published for the game (house edge 3.42% of the Ante, element
of risk 1.09%, "play 1x with K-Q-8-4 or better", Wizard of Odds / Stanley Ko).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from table.games.crazy_4_poker import analysis
from table.games.crazy_4_poker import report as c4p_report
from table.games.crazy_4_poker.paytables import (
    FIVE_CARD_PROGRESSIVES,
    FOUR_CARD_PROGRESSIVES,
    HAND_BONUS_PAYTABLE,
    QUEENS_UP_PAYTABLES,
    SIX_CARD_BONUS_PAYTABLES,
)
from table.paytable_report import load_game_report, load_report

HANDS = 2_598_960
SIX_CARD_SETS = 20_358_520
# The digest's four-card counts (best four of five): four of a kind (48 of them four aces),
# straight flush, three of a kind, flush, straight, two pair, a pair of queens to aces.
FOUR = {"quads": 624, "aces": 48, "sf": 2072, "trips": 58656, "flush": 114616,
        "straight": 101808, "two_pair": 123552, "qq_plus": 242916}  # fmt: skip
# Five-card counts: royal, straight flush, quads, full house, flush, straight, trips.
FIVE = (4, 36, 624, 3744, 5108, 10200, 54912)
# Six-card counts: six-card royal in diamonds, in another suit, other royal, straight flush,
# quads, full house, flush, straight, three of a kind.
SIX = (1, 3, 184, 1656, 14664, 165984, 205792, 361620, 732160)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return load_game_report("crazy_4_poker")


def edge(report: dict[str, Any], wager: str, name: str) -> Fraction:
    return Fraction(report["wagers"][wager]["paytables"][name]["house_edge_exact"])


def test_main_game_matches_the_published_figures(report: dict[str, Any]) -> None:
    m = report["main_game"]
    assert f"{m['house_edge'] * 100:.2f}%" == "3.42%"
    assert f"{m['element_of_risk'] * 100:.2f}%" == "1.09%"
    # The exact figure of tests/games/crazy_4_poker/test_analysis.py.
    assert Fraction(m["house_edge_exact"]) == Fraction(264_142_729, 7_726_058_340)
    assert m["element_of_risk"] == pytest.approx(m["house_edge"] / m["average_total_wager"])
    assert m["average_total_wager"] == pytest.approx(2 + m["average_play"])
    assert sum(m["decisions"].values()) == pytest.approx(1)
    assert sum(m["expected_net_by_wager"].values()) == pytest.approx(-m["house_edge"])
    s = m["strategy"]
    assert s["play_3x_from"] == "a pair of aces"
    assert s["simple"]["play_1x_from"] == "K-Q-8-4 high"
    assert 0 < s["simple"]["cost"] < 1e-5
    assert s["words"][0].startswith("Play 3x with a pair of aces or better")
    assert any("K-Q-8-4 high is borderline" in w for w in s["words"])
    # Every hand a wager lost on a fold would pay is played.
    assert set(m["folded_hands_a_lost_wager_would_pay"].values()) == {0}
    rows = {r["label"]: r["combinations"] for r in m["super_bonus_rows"]}
    assert rows["Four aces"] == FOUR["aces"] and rows["Four-of-a-kind"] == 576


def test_every_paytable_is_in_the_report(report: dict[str, Any]) -> None:
    tables = {
        "queens_up": {n: t for n, t in QUEENS_UP_PAYTABLES.items()},
        "six_card_bonus": dict(SIX_CARD_BONUS_PAYTABLES),
        "four_card_progressive": {n: t.paytable for n, t in FOUR_CARD_PROGRESSIVES.items()},
        "five_card_progressive": {n: t.paytable for n, t in FIVE_CARD_PROGRESSIVES.items()},
        "hand_bonus": {"posted": HAND_BONUS_PAYTABLE},
    }
    assert list(report["wagers"]) == list(tables)
    for wager, by_name in tables.items():
        entries = report["wagers"][wager]["paytables"]
        assert list(entries) == list(by_name)
        for name, table in by_name.items():
            entry = entries[name]
            assert [(r["label"], r["payout"]) for r in entry["rows"]] == table.as_posted()
            hit = sum(r["probability"] for r in entry["rows"])
            assert hit == pytest.approx(entry["hit_frequency"], rel=1e-12)
            ev = sum(r["return"] for r in entry["rows"]) - (1 - hit)
            key = "house_edge" if wager in c4p_report.FIXED_WAGERS else "house_edge_at_seed"
            assert -ev == pytest.approx(entry[key], abs=1e-12)


def test_side_wagers_match_the_analysis(report: dict[str, Any]) -> None:
    s = analysis.side_wagers_five_card()
    for wager in ("queens_up", "four_card_progressive", "five_card_progressive", "hand_bonus"):
        for w in s[wager]:
            entry = report["wagers"][wager]["paytables"][w.name or "posted"]
            assert [r["combinations"] for r in entry["rows"]] == [r.count for r in w.rows]
            assert entry["hit_frequency"] == float(w.hit_frequency)
            if wager == "queens_up":
                assert Fraction(entry["house_edge_exact"]) == w.house_edge


def test_queens_up_from_the_digest_counts(report: dict[str, Any]) -> None:
    counts = (FOUR["quads"], FOUR["sf"], FOUR["trips"], FOUR["flush"], FOUR["straight"],
              FOUR["two_pair"], FOUR["qq_plus"])  # fmt: skip
    pays = {  # §657a.12(c) (C and D: house interpretation 1)
        "A": (50, 30, 9, 4, 3, 2, 1),
        "B": (50, 40, 8, 4, 3, 2, 1),
        "C": (50, 30, 8, 4, 3, 2, 1),
        "D": (50, 40, 7, 4, 3, 2, 1),
    }
    for name, row in pays.items():
        won = sum(n * x for n, x in zip(counts, row, strict=True))
        expected = Fraction(won - (HANDS - sum(counts)), HANDS)
        assert edge(report, "queens_up", name) == -expected
    assert f"{float(edge(report, 'queens_up', 'A')) * 100:.2f}%" == "3.06%"
    # The manufacturer's Four Card Bonus FC-1..FC-4 of Four Card Frenzy are these tables.
    fcf = load_report()["wagers"]["four_card_bonus"]["paytables"]
    for name, other in zip("ABCD", ("FC-1", "FC-2", "FC-3", "FC-4"), strict=True):
        assert (
            fcf[other]["house_edge_exact"]
            == (report["wagers"]["queens_up"]["paytables"][name]["house_edge_exact"])
        )


def test_six_card_bonus_from_the_digest_counts(report: dict[str, Any]) -> None:
    for entry in report["wagers"]["six_card_bonus"]["paytables"].values():
        assert entry["hit_combinations"] == sum(SIX)
    diamonds, six_other, royal, *rest = SIX
    pays = {  # §657a.12(g): royal, straight flush, quads, full house, flush, straight, trips
        "A": (1000, 200, 50, 25, 20, 10, 5),
        "B": (1000, 200, 50, 25, 15, 10, 5),
        "C": (1000, 200, 100, 20, 15, 9, 8),
        "D": (1000, 200, 100, 20, 15, 10, 7),
        "E": (1000, 200, 50, 20, 15, 10, 5),
    }
    for name, row in pays.items():
        if name == "E":
            won = diamonds * 200_000 + six_other * 20_000 + royal * row[0]
        else:
            won = (diamonds + six_other + royal) * row[0]
        won += sum(n * x for n, x in zip(rest, row[1:], strict=True))
        expected = Fraction(won - (SIX_CARD_SETS - sum(SIX)), SIX_CARD_SETS)
        assert edge(report, "six_card_bonus", name) == -expected
    # Four Card Frenzy's All-Six Bonus A-E are the same tables.
    all_six = load_report()["wagers"]["all_six"]["paytables"]
    for name in "ABCDE":
        assert (
            all_six[name]["house_edge_exact"]
            == (report["wagers"]["six_card_bonus"]["paytables"][name]["house_edge_exact"])
        )


def test_progressives_at_the_seeded_meter(report: dict[str, Any]) -> None:
    w = report["wagers"]
    # Four-Card A: four aces 100% of a $5,000-per-$1 meter, quads 300, SF 100, trips 9 for 1.
    paid = (FOUR["aces"] * 5000 + (FOUR["quads"] - FOUR["aces"]) * 300 + FOUR["sf"] * 100
            + FOUR["trips"] * 9)  # fmt: skip
    a = w["four_card_progressive"]["paytables"]["A"]
    assert Fraction(a["return_at_seed_exact"]) == Fraction(paid, HANDS)
    assert Fraction(a["house_edge_at_seed_exact"]) == 1 - Fraction(paid, HANDS)
    # In the long run the meter pays back its 29% and the house's $5,000 reseeds.
    fixed = paid - FOUR["aces"] * 5000
    long_run = Fraction(fixed + FOUR["aces"] * 5000, HANDS) + Fraction(29, 100)
    assert Fraction(a["long_run_return_exact"]) == long_run
    # Five-Card A: royal 100% and straight flush 10% of a $10,000 meter, then 300/50/40/30/9.
    royal, sf, quads, full, flush, straight, trips = FIVE
    fixed = quads * 300 + full * 50 + flush * 40 + straight * 30 + trips * 9
    five_a = w["five_card_progressive"]["paytables"]["A"]
    at_seed = Fraction(royal * 10_000 + sf * 1_000 + fixed, HANDS)
    assert Fraction(five_a["return_at_seed_exact"]) == at_seed
    # The straight flush's 10% comes out of the meter: in the long run only the reseeds
    # after a royal and the 21% come back on top of the fixed rows.
    long_run = Fraction(fixed + royal * 10_000, HANDS) + Fraction(21, 100)
    assert Fraction(five_a["long_run_return_exact"]) == long_run
    # Five Card Hand Bonus: royal 100% and SF 10% of a $10,000 meter, 500/100/50 for 1.
    hb = w["hand_bonus"]["paytables"]["posted"]
    fixed = quads * 500 + full * 100 + flush * 50
    assert Fraction(hb["return_at_seed_exact"]) == Fraction(royal * 10_000 + sf * 1_000 + fixed,
                                                           HANDS)  # fmt: skip
    assert Fraction(hb["long_run_return_exact"]) == Fraction(fixed, HANDS) + Fraction(21, 100)
    assert hb["hit_frequency"] == pytest.approx(sum(FIVE[:5]) / HANDS)
    # Every progressive row's hit frequency, from the digest's counts.
    four_rows = [FOUR["aces"], FOUR["quads"] - FOUR["aces"], FOUR["sf"], FOUR["trips"]]
    for entry in w["four_card_progressive"]["paytables"].values():
        assert [r["combinations"] for r in entry["rows"]] == four_rows
    for entry in w["five_card_progressive"]["paytables"].values():
        assert [r["combinations"] for r in entry["rows"]] == list(FIVE)
    # Envy Bonus, Four-Card A: $100 / $10 / $5 per $1 for another box's four aces / other
    # four of a kind / straight flush.
    envy = Fraction(FOUR["aces"] * 100 + (FOUR["quads"] - FOUR["aces"]) * 10 + FOUR["sf"] * 5,
                    HANDS)  # fmt: skip
    assert a["envy_bonus"]["expected_per_other_box"] == pytest.approx(float(envy))


def _without_timings(document: Any) -> Any:
    if isinstance(document, dict):
        return {k: _without_timings(v) for k, v in document.items() if not k.startswith("seconds")}
    if isinstance(document, list):
        return [_without_timings(v) for v in document]
    return document


@pytest.mark.slow
def test_the_committed_report_is_what_the_analysis_builds_now(report: dict[str, Any]) -> None:
    """The whole enumeration again (about 40 s): the committed JSON is up to date."""
    import json

    built = json.loads(json.dumps(c4p_report.build_report()))
    assert _without_timings(built) == _without_timings(report)


def test_main_game_distribution_sums_to_one_and_gives_back_the_house_edge(
    report: dict[str, Any],
) -> None:
    """The back office's band reads the main game's whole distribution: every deal counted
    once, its mean minus the published edge exactly, its covariance below its variance."""
    from math import comb

    from table.games import game
    from table.games.common import net_distribution_moments

    m = report["main_game"]
    d = m["net_distribution"]
    assert d["population"] == sum(o["count"] for o in d["outcomes"]) == comb(52, 5) * comb(47, 5)
    assert sum(o["probability"] for o in d["outcomes"]) == pytest.approx(1, abs=1e-12)
    mean, variance, covariance = net_distribution_moments(d, m["house_edge_exact"])
    assert mean == -Fraction(m["house_edge_exact"])
    assert covariance is not None and 0 < covariance < variance
    # A fold forfeits the Ante and the Super Bonus: -2 in every deal of a folded hand (and a
    # straight played 3x and beaten: -1 - 3 + 2).
    fold = next(o for o in d["outcomes"] if o["net"] == "-2")
    assert fold["probability"] > m["decisions"]["fold"]
    g = game("crazy_4_poker")
    main = g.math_report(g.default_rules())[0]
    assert (main.variance, main.covariance) == (d["variance"], d["covariance"])
