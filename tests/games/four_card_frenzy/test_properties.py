"""Property tests (hypothesis): hand order, the best four, money conservation, robustness."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.games.four_card_frenzy.rounds import random_round
from table.games.cards import card_code
from table.games.errors import InvalidInput
from table.games.four_card_frenzy.contract import parse_round, settle_document
from table.games.four_card_frenzy.hands import best_four, best_four_value, four_value
from table.games.four_card_frenzy.settlement import LIMITED_WAGERS, Outcome, settle

from . import reference


def distinct_cards(n: int) -> st.SearchStrategy[list[int]]:
    """n distinct cards, often from a few ranks so that pairs, trips and ties are common."""
    anywhere = st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
    few_ranks = st.lists(st.integers(0, 3), min_size=2, max_size=4, unique=True).flatmap(
        lambda offsets: st.integers(0, 12 - max(offsets)).flatmap(
            lambda low: st.lists(
                st.sampled_from([(low + o) * 4 + s for o in offsets for s in range(4)]),
                min_size=n,
                max_size=n,
                unique=True,
            )
        )
    )
    wheel_and_broadway = st.lists(
        st.sampled_from([r * 4 + s for r in (0, 1, 2, 3, 9, 10, 11, 12) for s in range(4)]),
        min_size=n,
        max_size=n,
        unique=True,
    )
    one_suit = st.integers(0, 3).flatmap(
        lambda s: st.lists(st.integers(0, 12), min_size=n, max_size=n, unique=True).map(
            lambda ranks: [r * 4 + s for r in ranks]
        )
    )
    return st.one_of(anywhere, few_ranks, wheel_and_broadway, one_suit)


@settings(max_examples=400)
@given(distinct_cards(5))
def test_best_four_is_never_worse_than_any_four(five: list[int]) -> None:
    best = best_four_value(five)
    fours = [four_value(list(four)) for four in itertools.combinations(five, 4)]
    assert all(best >= v for v in fours)
    assert best == max(fours)
    chosen = best_four(five)
    assert chosen.value == best
    assert list(chosen.cards) == [c for c in five if c != chosen.unused]  # dealt order kept


def codes(cards: list[int]) -> list[str]:
    return [card_code(c) for c in cards]


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


@settings(max_examples=400)
@given(distinct_cards(4), distinct_cards(4), distinct_cards(4))
def test_hand_order_is_total_transitive_and_follows_684a_6_c(
    a: list[int], b: list[int], c: list[int]
) -> None:
    va, vb, vc = (four_value(h) for h in (a, b, c))
    ca, cb, cc = codes(a), codes(b), codes(c)
    # The engine's value comparison agrees with the independent comparator of §684a.6(b),(c).
    assert sign(va - vb) == reference.compare_section_6c(ca, cb)
    assert sign(vb - vc) == reference.compare_section_6c(cb, cc)
    assert sign(va - vc) == reference.compare_section_6c(ca, cc)
    # Total and antisymmetric: exactly one of <, =, > and swapping the hands flips it.
    assert reference.compare_section_6c(ca, cb) == -reference.compare_section_6c(cb, ca)
    # Transitive (on the comparator, the values being integers).
    if reference.compare_section_6c(ca, cb) >= 0 and reference.compare_section_6c(cb, cc) >= 0:
        assert reference.compare_section_6c(ca, cc) >= 0
    # Order of the cards never matters.
    assert four_value(a[::-1]) == va


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_settlement_conserves_money(seed: int, boxes: int) -> None:
    round_ = random_round(random.Random(seed), boxes)
    dealer, in_play, rules, all_six = parse_round(round_)
    result = settle(dealer, in_play, rules, all_six)
    stakes = returned = wager_nets = 0
    for box in result.boxes:
        for line in box.results:
            stakes += line.stake
            returned += line.returned
            wager_nets += line.net
            if line.outcome is Outcome.LOSE:
                assert line.net == -line.stake and line.returned == 0
            elif line.outcome is Outcome.WIN:
                assert line.net >= 0 and line.returned == line.stake + line.net
            else:
                assert line.net == 0 and line.returned == line.stake
    # Everything on the layout comes back or is kept; nothing else moves.
    assert returned - stakes == wager_nets == sum(b.net for b in result.boxes)
    withheld = sum(p.withheld for p in result.players)
    assert sum(p.net for p in result.players) == wager_nets - withheld
    for player in result.players:
        assert player.withheld >= 0
        assert player.payout_limit_applied is (player.withheld > 0)
        limited = sum(
            line.net
            for box in result.boxes
            if box.player == player.player
            for line in box.results
            if line.wager in LIMITED_WAGERS and line.net > 0
        )
        if rules.payout_limit is not None:
            assert limited - player.withheld == min(limited, rules.payout_limit)
        else:
            assert player.withheld == 0
    # The contract's totals are the same figures.
    out = settle_document(round_)
    assert isinstance(out, dict)
    assert sum(p["net"] for p in out["players"].values()) == wager_nets - withheld


# --- random JSON never crashes settle_document -----------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=6)
    | st.sampled_from(["AS", "KD", "2C", "A", "FC-1", "BB-4", "E", "ante", "raise"]),
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(
            st.sampled_from(
                ["rules", "dealer", "boxes", "box", "player", "cards", "wagers", "ante", "odds"]
            )
            | st.text(max_size=5),
            children,
            max_size=6,
        )
    ),
    max_leaves=30,
)


def check_robust(document: object) -> None:
    try:
        out = settle_document(document)
    except InvalidInput as exc:
        assert exc.code and exc.message.startswith("round ")
        assert "\n" not in exc.message
    else:
        json.dumps(out)


@settings(max_examples=300)
@given(JSON)
def test_random_json_is_settled_or_refused(document: object) -> None:
    check_robust(document)
    check_robust([document])


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


@settings(max_examples=400)
@given(st.integers(0, 2**32 - 1), st.data())
def test_mutated_rounds_are_settled_or_refused(seed: int, data: st.DataObject) -> None:
    round_ = random_round(random.Random(seed))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(round_)[1:]
        path = data.draw(st.sampled_from(paths))
        parent: Any = round_
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON)
    check_robust(round_)
