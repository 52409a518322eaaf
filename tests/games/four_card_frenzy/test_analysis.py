"""Paytable mathematics (issue #7): the enumeration, checked against combinatorics, the engine's
own reference classifiers and settlement, brute force, and the committed report."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pytest

from table.games.cards import parse_cards
from table.games.four_card_frenzy import analysis
from table.games.four_card_frenzy.hands import (
    BestFour,
    BonusHand,
    Category,
    PrimeHand,
    all_six_hand,
    best_four,
    evaluate_four,
    four_card_bonus_hand,
    prime_hand,
)
from table.games.four_card_frenzy.paytables import (
    ALL_SIX_PAYTABLES,
    BAD_BEAT_PAYTABLES,
    FOUR_CARD_BONUS_PAYTABLES,
    PRIME_PAYTABLES,
)
from table.games.four_card_frenzy.settlement import settle_main_game
from table.paytable_report import load_report

FIVE = comb(52, 5)


def _without_timings(section: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in section.items() if not k.startswith("seconds")}


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return load_report()


# --- the shared enumeration -----------------------------------------------------------------


def test_best_four_counts_match_the_rules_digest() -> None:
    five = analysis.five_card_hands()
    by_category = np.bincount(five.values >> 16, minlength=8)
    assert by_category.tolist() == [1150080, 1047552, 123552, 101808, 114616, 58656, 2072, 624]
    assert len(five.distinct) == 2150


def test_best_four_values_agree_with_the_reference_evaluator() -> None:
    five = analysis.five_card_hands()
    rng = np.random.default_rng(684)
    for i in rng.choice(FIVE, 300, replace=False):
        cards = [int(c) for c in five.cards[i]]
        reference = max(evaluate_four([c for c in cards if c != d]) for d in cards)
        assert int(five.values[i]) == reference == best_four(cards).value


def test_subset_index_is_the_combinatorial_number_system() -> None:
    rows = analysis.combinations_array(9, 3)
    index = analysis.subset_index(rows)
    assert sorted(index.tolist()) == list(range(comb(9, 3)))


# --- Prime ------------------------------------------------------------------------------------


def test_prime_counts_are_exact_combinatorics() -> None:
    counts = analysis.prime_class_counts()
    assert counts[PrimeHand.FIVE_SAME_COLOUR] == 2 * comb(26, 5) == 131_560
    assert counts[PrimeHand.FOUR_SAME_COLOUR] == 2 * comb(26, 4) * 26 == 777_400
    assert sum(counts.values()) == FIVE
    # and the engine's own classifier agrees on a sample
    five = analysis.five_card_hands()
    red = np.isin(five.cards & 3, [1, 2]).sum(axis=1)
    for i in np.random.default_rng(7).choice(FIVE, 500, replace=False):
        expected = {5: 2, 4: 1}.get(max(int(red[i]), 5 - int(red[i])), 0)
        assert int(prime_hand([int(c) for c in five.cards[i]])) == expected


def test_prime_house_edges() -> None:
    results = {r.name: r for r in analysis.prime_results()}
    p5 = Fraction(2 * comb(26, 5), FIVE)
    p4 = Fraction(2 * comb(26, 4) * 26, FIVE)
    for name, five_pays in (("A", 6), ("B", 5), ("Prime-1", 6), ("Prime-2", 5)):
        assert results[name].hit_frequency == p5 + p4
        assert results[name].house_edge == -(five_pays * p5 + p4 - (1 - p5 - p4))
    assert float(results["A"].house_edge) == pytest.approx(0.047419, abs=1e-6)
    assert float(results["B"].house_edge) == pytest.approx(0.098039, abs=1e-6)
    assert set(results) == set(PRIME_PAYTABLES)


def test_prime_matches_committed_report(report: dict[str, Any]) -> None:
    assert _without_timings(analysis.prime_section()) == _without_timings(report["wagers"]["prime"])


# --- Four Card Bonus --------------------------------------------------------------------------


def test_four_card_bonus_class_counts() -> None:
    counts = analysis.four_card_bonus_class_counts()
    assert counts[BonusHand.FOUR_ACES] == 48
    assert counts[BonusHand.FOUR_OF_A_KIND] == 576
    assert counts[BonusHand.ROYAL_FLUSH] + counts[BonusHand.STRAIGHT_FLUSH] == 2072
    assert counts[BonusHand.THREE_ACES] + counts[BonusHand.THREE_OF_A_KIND] == 58_656
    assert counts[BonusHand.TWO_PAIR] + counts[BonusHand.TWO_ACES_TWO_QUEENS] == 123_552
    # AAQQ + any of the 44 cards that are neither an ace nor a queen: 6 * 6 * 44
    assert counts[BonusHand.TWO_ACES_TWO_QUEENS] == 6 * 6 * 44
    # Royal A-K-Q-J suited: 4 suits x 48 fifth cards
    assert counts[BonusHand.ROYAL_FLUSH] == 4 * 48
    assert sum(counts.values()) == FIVE


def test_four_card_bonus_classes_agree_with_the_engine_on_a_sample() -> None:
    five = analysis.five_card_hands()
    for i in np.random.default_rng(12).choice(FIVE, 500, replace=False):
        cards = [int(c) for c in five.cards[i]]
        assert four_card_bonus_hand(int(five.values[i])) is four_card_bonus_hand(
            best_four(cards).value
        )


def test_four_card_bonus_house_edges_and_counterparts() -> None:
    results = {r.name: r for r in analysis.four_card_bonus_results()}
    assert set(results) == set(FOUR_CARD_BONUS_PAYTABLES)
    fc = [r for name, r in results.items() if name.startswith("FC-")]
    pa = [r for name, r in results.items() if not name.startswith("FC-")]
    # the manufacturer's tables win from a pair of queens, Pennsylvania's from two pair
    assert {r.hit_frequency for r in fc} == {Fraction(644_244, FIVE)}
    assert {r.hit_frequency for r in pa} == {Fraction(401_328, FIVE)}
    assert float(results["FC-9"].house_edge) == pytest.approx(0.009779, abs=1e-6)
    assert float(results["A"].house_edge) == pytest.approx(0.232745, abs=1e-6)
    assert results["FC-6"].house_edge == results["FC-10"].house_edge  # same paytable
    counterparts = analysis.four_card_bonus_counterparts(list(results.values()))
    assert counterparts == {
        "A": "FC-2",
        "B": "FC-4",
        "C": "FC-5",
        "D": "FC-6",
        "E": "FC-7",
        "F": "FC-8",
        "G": "FC-11",
        "H": "FC-8",
    }


def test_four_card_bonus_matches_committed_report(report: dict[str, Any]) -> None:
    assert _without_timings(analysis.four_card_bonus_section()) == _without_timings(
        report["wagers"]["four_card_bonus"]
    )


# --- All-Six Bonus ----------------------------------------------------------------------------


def test_all_six_vectorised_classifier_matches_all_six_hand_on_random_sets() -> None:
    rng = np.random.default_rng(20261121)
    rows = np.array([rng.choice(52, 6, replace=False) for _ in range(20_000)], dtype=np.int8)
    assert analysis.validate_all_six_classifier(rows) == 0


def test_all_six_classifier_on_hand_picked_sets() -> None:
    cases = [
        "9D TD JD QD KD AD",  # six-card royal, diamonds
        "9S TS JS QS KS AS",
        "TH JH QH KH AH 9C",  # royal
        "AH 2H 3H 4H 5H 9C",  # steel wheel: straight flush
        "7C 7D 7H 7S 2C 3D",
        "7C 7D 7H 2S 2C 2D",  # two trips: full house
        "AC 2D 3H 4S 5C 9D",  # wheel straight
        "QC KD AH 2S 3C 9D",  # no wrap-around
        "2C 5C 7C 9C JC 2D",  # flush beats the pair
        "2C 2D 2H 5S 9C JD",
    ]
    rows = np.array([sorted(parse_cards(c.split())) for c in cases], dtype=np.int8)
    fast = analysis.all_six_classes(rows).tolist()
    assert fast == [int(all_six_hand([int(c) for c in row])) for row in rows]
    assert fast[0] == 9 and fast[7] == 0


def test_strided_sample_is_deterministic_and_holds_the_six_card_royals() -> None:
    a, b = analysis.strided_six_sample(200), analysis.strided_six_sample(200)
    assert np.array_equal(a, b) and len(a) == 204
    assert len({tuple(r) for r in a.tolist()}) == 204
    assert analysis.validate_all_six_classifier(a) == 0


def test_all_six_full_enumeration(report: dict[str, Any]) -> None:
    counts = analysis.all_six_class_counts()
    by_name = {cls.name.lower(): n for cls, n in counts.items()}
    # the classic best-five-of-six counts (royal 188 includes the 4 six-card royals)
    assert by_name["royal_flush"] + by_name["six_card_royal_flush"] == 187
    assert by_name["six_card_royal_flush_diamonds"] == 1
    assert by_name["straight_flush"] == 1_656
    assert by_name["four_of_a_kind"] == 14_664
    assert by_name["full_house"] == 165_984
    assert by_name["flush"] == 205_792
    assert by_name["straight"] == 361_620
    assert by_name["three_of_a_kind"] == 732_160
    assert sum(counts.values()) == comb(52, 6)
    section = report["wagers"]["all_six"]
    assert section["class_counts"] == by_name
    for result in analysis.all_six_results(counts):
        entry = section["paytables"][result.name]
        assert entry == analysis.side_bet_json(result)
    assert set(section["paytables"]) == set(ALL_SIX_PAYTABLES)


# --- the main game ----------------------------------------------------------------------------

HANDS = {
    "nine high": "2C 3D 5H 7S 9C",
    "K-Q-8-4 borderline": "2H 4D 8C QC KC",
    "pair of kings": "KC KD 2H 5S 9C",
    "pair of aces": "AC AD 2H 5S 9C",
    "wheel straight": "AC 2D 3H 4S 9C",
    "flush": "2H 6H 9H JH KS",
    "quad aces": "AC AD AH AS 2C",
}


def _brute_force_values(cards: list[int]) -> dict[int, int]:
    rest = np.array([c for c in range(52) if c not in cards], dtype=np.int8)
    values = analysis.best_four_values(rest[analysis.combinations_array(47, 5)])
    distinct, counts = np.unique(values, return_counts=True)
    return dict(zip(distinct.tolist(), counts.tolist(), strict=True))


@pytest.mark.parametrize("name", list(HANDS))
def test_choice_values_equal_settlement_over_every_dealer_hand(name: str) -> None:
    """The vectorised Ante/Raise/Odds arithmetic against the engine's settle_main_game, for
    every one of the 1,533,939 dealer hands (grouped by the dealer's value)."""
    cards = sorted(parse_cards(HANDS[name].split()))
    hand = best_four(cards)
    dealer_values = _brute_force_values(cards)
    assert sum(dealer_values.values()) == analysis.DEALER_HANDS
    counts = analysis.dealer_outcomes_brute_force(cards)
    table = BAD_BEAT_PAYTABLES["D"]
    cv = analysis.choice_values(
        np.array([hand.value]),
        np.array([counts.beats]),
        np.array([counts.no_qualify]),
        np.array([counts.beats_no_qualify]),
        table,
    )
    unit = 200  # cents: 3 to 2 on 200 is exact
    for multiple, fast in ((0, cv.fold), (1, cv.one), (3, cv.three)):
        if multiple == 3 and hand.value < analysis.PAIR_OF_ACES:
            assert int(fast[0]) == np.iinfo(np.int64).min
            continue
        total = 0
        for value, n in dealer_values.items():
            dealer = BestFour(value, (), 0)
            results = settle_main_game(hand, dealer, unit, unit, multiple * unit, table)
            total += n * sum(r.net for r in results)
        assert Fraction(total, unit * analysis.DEALER_HANDS) == Fraction(
            int(fast[0]), analysis.DEALER_HANDS * cv.scale
        )


def test_four_aces_never_lose_and_odds_class() -> None:
    cards = parse_cards("AC AD AH AS 2C".split())
    assert analysis.dealer_outcomes_brute_force(cards).beats == 0
    assert analysis.odds_class(best_four(cards).value) == "four_aces"
    assert analysis.odds_class(best_four(parse_cards("KC KD KH KS 2C".split())).value) is (
        Category.FOUR_OF_A_KIND
    )


def test_suit_pattern_is_invariant_exactly_under_suit_permutations() -> None:
    rng = np.random.default_rng(4)
    hands = np.array([np.sort(rng.choice(52, 5, replace=False)) for _ in range(200)])
    key = analysis.suit_pattern(hands)
    for perm in ((1, 0, 2, 3), (3, 2, 1, 0), (2, 3, 0, 1), (1, 2, 3, 0)):
        moved = np.sort((hands >> 2) * 4 + np.array(perm)[hands & 3], axis=1)
        assert np.array_equal(analysis.suit_pattern(moved), key)
    # a different rank or a different way of sharing suits changes the key
    base = sorted(parse_cards("2C 5C 9D JH KS".split()))
    other = sorted(parse_cards("2C 5D 9C JH KS".split()))
    assert analysis.suit_pattern(np.array([base]))[0] != analysis.suit_pattern(np.array([other]))[0]


@pytest.fixture(scope="module")
def index() -> analysis.ContainmentIndex:
    return analysis.ContainmentIndex.build(analysis.five_card_hands())


@pytest.fixture(scope="module")
def classes(index: analysis.ContainmentIndex) -> analysis.PlayerClasses:
    return analysis.player_classes(index=index)


@pytest.mark.slow
def test_fast_dealer_counts_equal_brute_force(index: analysis.ContainmentIndex) -> None:
    rng = np.random.default_rng(47)
    hands = [sorted(parse_cards(h.split())) for h in HANDS.values()]
    hands += [sorted(rng.choice(52, 5, replace=False).tolist()) for _ in range(5)]
    for cards in hands:
        assert analysis.dealer_outcomes(cards, index) == analysis.dealer_outcomes_brute_force(cards)


@pytest.mark.slow
def test_main_game_matches_committed_report(
    classes: analysis.PlayerClasses, report: dict[str, Any]
) -> None:
    assert len(classes.rows) == analysis.SUIT_CLASSES
    assert classes.total_weight == FIVE
    section = report["wagers"]["bad_beat"]
    assert set(section["paytables"]) == set(BAD_BEAT_PAYTABLES)
    for table in BAD_BEAT_PAYTABLES.values():
        result = analysis.main_game_result(classes, table)
        entry = section["paytables"][table.name]
        assert entry["house_edge_exact"] == analysis.exact(result.house_edge)
        assert entry["element_of_risk_exact"] == analysis.exact(result.element_of_risk)
        assert entry["rows"] == [analysis._row_json(r) for r in result.bad_beat_rows]
        assert entry["decisions"] == {k: float(v) for k, v in result.decisions.items()}
        assert result.ties == 0
    # the same strategy whatever the bad-beat table; a pair of aces or better always 3x
    strategy = analysis.describe_strategy(
        analysis.main_game_result(classes, BAD_BEAT_PAYTABLES["A"])
    )
    assert analysis.hand_words(strategy.raise_3x_from) == "a pair of aces"
    assert strategy.words == section["paytables"]["A"]["strategy"]["words"]
    assert analysis.hand_words(strategy.raise_from) == "K-Q-8-5 high"
    assert 0 <= strategy.simple_cost < Fraction(1, 10_000)


@pytest.mark.slow
def test_the_published_distributions_are_recounted(
    classes: analysis.PlayerClasses, report: dict[str, Any]
) -> None:
    """Every table's published distribution of a box's net, counted again from the dealer
    counts (the covariance is checked against the house edge when it is published)."""
    from table.games.four_card_frenzy.spread import frenzy_distribution

    section = report["wagers"]["bad_beat"]["paytables"]
    for table in BAD_BEAT_PAYTABLES.values():
        counts = frenzy_distribution(analysis.main_game_result(classes, table))
        published = section[table.name]["net_distribution"]["outcomes"]
        assert {Fraction(o["net"]): o["count"] for o in published} == counts


@pytest.mark.slow
def test_optimal_beats_every_other_simple_strategy(classes: analysis.PlayerClasses) -> None:
    table = BAD_BEAT_PAYTABLES["A"]
    optimal = analysis.main_game_result(classes, table)
    always_1x = np.where(
        classes.value >= analysis.PAIR_OF_ACES, analysis.RAISE_3X, analysis.RAISE_1X
    )
    for strategy in (
        np.full(len(classes.rows), analysis.RAISE_1X),
        always_1x,
        analysis.threshold_strategy(classes, analysis.PAIR_OF_ACES),
    ):
        other = analysis.main_game_result(classes, table, strategy.astype(np.int64))
        assert other.house_edge > optimal.house_edge


@pytest.mark.slow
def test_any_hand_has_its_suit_class_counts(classes: analysis.PlayerClasses) -> None:
    """Weights stand for every hand of a class: a hand that is not its class's representative
    has exactly the representative's dealer outcomes."""
    five = analysis.five_card_hands()
    pattern_of_class = analysis.suit_pattern(five.cards[classes.rows])
    where = {int(p): i for i, p in enumerate(pattern_of_class.tolist())}
    rng = np.random.default_rng(1121)
    for _ in range(4):
        cards = sorted(rng.choice(52, 5, replace=False).tolist())
        i = where[int(analysis.suit_pattern(np.array([cards]))[0])]
        brute = analysis.dealer_outcomes_brute_force(cards)
        assert (brute.beats, brute.no_qualify, brute.beats_no_qualify) == (
            int(classes.beats[i]),
            int(classes.no_qualify[i]),
            int(classes.beats_no_qualify[i]),
        )
