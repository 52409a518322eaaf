"""The digest's exact figures, by value classes: the house way's (high, low) pairs over C(52,5)
and the win/lose/push and tie counts over all C(52,5)·C(47,5) deals."""

from __future__ import annotations

from collections import Counter
from math import comb

from hypothesis import given
from hypothesis import strategies as st

from table.games.five_card_hi_lo.enumeration import (
    ace_low_totals,
    aces_high_totals,
    class_weight,
    hand_classes,
    house_way_deal_counts,
    house_way_pairs,
    tables,
    value_class,
)
from table.games.five_card_hi_lo.hands import house_way, possible_settings
from table.games.five_card_hi_lo.settlement import Outcome, ante_play_outcome


def counts_of(cards: list[int]) -> tuple[int, ...]:
    c = Counter(value_class(card >> 2) for card in cards)
    return tuple(c[i] for i in range(10))


def test_classes_cover_every_hand_once() -> None:
    classes = hand_classes()
    assert len(classes) == len(set(classes)) == 1993
    assert sum(class_weight(c) for c in classes) == comb(52, 5)


def test_pair_weights_are_card_removal_exact() -> None:
    t = tables()
    # Every player hand leaves C(47,5) dealer hands.
    assert (t.pair_weight.sum(axis=1) == t.weight * comb(47, 5)).all()
    # Symmetric: the deal (player i, dealer j) is as likely as (player j, dealer i).
    assert (t.pair_weight == t.pair_weight.T).all()
    assert int(t.pair_weight.sum()) == comb(52, 5) * comb(47, 5) == 3_986_646_103_440


@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True))
def test_class_totals_agree_with_the_cards(cards: list[int]) -> None:
    counts = counts_of(cards)
    assert aces_high_totals(counts) == house_way(cards).totals
    offered = [s.totals for s in possible_settings(cards)]
    assert offered == [aces_high_totals(counts)] + (
        [alt] if (alt := ace_low_totals(counts)) is not None else []
    )


@given(st.permutations(list(range(52))))
def test_class_outcome_agrees_with_settlement(deck: list[int]) -> None:
    player, dealer = deck[:5], deck[5:10]
    p, d = aces_high_totals(counts_of(player)), aces_high_totals(counts_of(dealer))
    assert ante_play_outcome(*p, *d) is ante_play_outcome(
        *house_way(player).totals, *house_way(dealer).totals
    )
    assert ante_play_outcome(*p, *d) in Outcome


def test_house_way_figures() -> None:
    pairs = house_way_pairs()
    assert sum(pairs.values()) == 2_598_960
    assert len(pairs) == 253
    assert sum(w for (high, _), w in pairs.items() if high == 33) == 4_560
    assert sum(w for (_, low), w in pairs.items() if low == 3) == 4
    assert sum(w for (_, low), w in pairs.items() if low == 4) == 108_340


def test_deal_figures() -> None:
    counts = house_way_deal_counts()
    assert counts.total == 3_986_646_103_440
    assert counts.win == 405_421_631_816
    assert counts.lose == 734_132_507_648
    assert counts.push == 2_847_091_963_976
    assert counts.high_tie_only == 315_687_975_472
    assert counts.low_tie_only == 275_796_038_944
    assert counts.both_tie == 32_968_868_624
