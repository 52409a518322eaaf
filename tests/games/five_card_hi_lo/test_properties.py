"""Property tests: every offered setting is legal and every other split is judged by the rule of
§663a.11(d) exactly; settlement neither loses nor creates money."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from table.games.cards import ACE
from table.games.five_card_hi_lo.hands import (
    HIGH_POINTS,
    Setting,
    default_setting,
    house_way,
    possible_settings,
    setting_problem,
)
from table.games.five_card_hi_lo.settlement import (
    ANTE,
    PLAY,
    BoxInPlay,
    Outcome,
    Paytables,
    Wagers,
    settle_round,
)

hands = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


def legal_by_definition(high: tuple[int, ...], low: tuple[int, ...]) -> bool:
    """The digest's statement of §663a.11(d), written out independently."""
    if sum(1 for c in low if c >> 2 == ACE) > 1:
        return False
    return all(
        HIGH_POINTS[lo >> 2] <= HIGH_POINTS[hi >> 2] for lo in low if lo >> 2 != ACE for hi in high
    )


@given(hands)
def test_offered_settings_are_legal_and_distinct(cards: list[int]) -> None:
    offered = possible_settings(cards)
    assert 1 <= len(offered) <= 2
    assert len({s.totals for s in offered}) == len(offered)
    for s in offered:
        assert setting_problem(cards, s.high, s.low) is None
        assert sorted(s.high + s.low) == sorted(cards)
    assert offered[0] == default_setting(cards)
    assert not offered[0].ace_low or sum(1 for c in cards if c >> 2 == ACE) == 4


@settings(deadline=None)
@given(hands)
def test_every_split_judged_by_the_rule_and_offered_totals_cover_the_legal_ones(
    cards: list[int],
) -> None:
    offered = {s.totals for s in possible_settings(cards)}
    legal_totals = set()
    for high in combinations(cards, 3):
        low = tuple(c for c in cards if c not in high)
        legal = legal_by_definition(high, low)
        assert (setting_problem(cards, high, low) is None) is legal
        if legal:
            legal_totals.add(Setting.of(high, low).totals)
    # The felt offers exactly the distinct legal settings (equal values interchangeable).
    assert legal_totals == offered


@given(hands)
def test_house_way_is_legal_and_keeps_aces_high_unless_four(cards: list[int]) -> None:
    dealer = house_way(cards)
    assert setting_problem(cards, dealer.high, dealer.low) is None
    aces = sum(1 for c in cards if c >> 2 == ACE)
    assert dealer.ace_low is (aces == 4)


stake = st.integers(1, 10_000)


@settings(max_examples=200, deadline=None)
@given(
    st.permutations(list(range(52))),
    st.lists(
        st.tuples(stake, st.booleans(), st.integers(0, 1000), st.integers(0, 1000), st.booleans()),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from("ABCD"),
    st.sampled_from("AB"),
)
def test_money_is_conserved(
    deck: list[int],
    boxes: list[tuple[int, bool, int, int, bool]],
    ante_table: str,
    poker_table: str,
) -> None:
    dealer_cards = deck[:5]
    in_play = []
    for i, (ante, played, tie, bonus, ace_low) in enumerate(boxes):
        cards = deck[5 + 5 * i : 10 + 5 * i]
        offered = possible_settings(cards)
        setting = offered[-1] if ace_low else offered[0]
        wagers = Wagers(ante, ante if played else 0, tie, bonus)
        in_play.append(BoxInPlay(i + 1, f"p{i // 2}", tuple(cards), wagers, setting))
    result = settle_round(dealer_cards, in_play, Paytables(ante_table, poker_table))
    assert [b.box for b in result.boxes] == sorted((b.box for b in in_play), reverse=True)
    by_box = {b.box: b for b in in_play}
    paid_back = 0
    for settled in result.boxes:
        wagers = by_box[settled.box].wagers
        stakes = {"ante": wagers.ante, "play": wagers.play, "tie": wagers.tie}
        stakes["poker_bonus"] = wagers.poker_bonus
        lines = {line.wager: line for line in settled.lines}
        for line in settled.lines:
            if line.wager == "ante_bonus":  # no stake of its own: X times the Ante
                assert line.outcome is Outcome.WIN and line.net % wagers.ante == 0
                continue
            # A loss takes the whole stake, a push returns it, a win pays a whole multiple.
            stake_of = stakes.pop(line.wager)
            assert stake_of > 0 or line.wager in ("ante", "play")
            if line.outcome is Outcome.LOSE:
                assert line.net == -stake_of
            elif line.outcome is Outcome.PUSH:
                assert line.net == 0
            else:
                assert line.net > 0 and line.net % stake_of == 0
        # Every placed wager has exactly one line; a fold shows no Play line.
        assert all(amount == 0 for amount in stakes.values())
        if settled.played:
            assert lines[ANTE].outcome is lines[PLAY].outcome
        else:
            assert PLAY not in lines
        paid_back += wagers.total + settled.net
        assert wagers.total + settled.net >= 0
    total_staked = sum(b.wagers.total for b in in_play)
    assert sum(result.players.values()) == paid_back - total_staked
    assert sum(result.players.values()) == sum(b.net for b in result.boxes)
