"""Properties of Crazy 4 Poker settlement over random rounds (hypothesis).

* money: every cent a meter pays reaches a wager, each meter's books balance (before +
  increments - paid + house-funded reseeds = after), each box's net is its lines, bonuses and
  Envy Bonuses, each player's net is their boxes';
* a fold forfeits exactly what §657a.11(b) says and changes nothing else of that box;
* input order never matters; settlement order (box 6 first) does, for the meters.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from table.games.crazy_4_poker.contract import settlement_json
from table.games.crazy_4_poker.hands import best_four
from table.games.crazy_4_poker.rules import Rules, play_range
from table.games.crazy_4_poker.settlement import (
    FORFEITED_ON_FOLD,
    PLAY,
    SIX_CARD_BONUS,
    BoxInPlay,
    Draws,
    RoundSettlement,
    Wagers,
    settle_round,
)
from table.games.progressive import Meter

from .helpers import cards, rules

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PROGRESSIVES = (
    [None]
    + [("four_card", t, w) for t in "AB" for w in (100, 500)]
    + [("five_card", t, w) for t in "ABCD" for w in (100, 500)]
)


@st.composite
def tables(draw: st.DrawFn) -> Rules:
    return rules(
        draw(st.sampled_from("ABCD")),
        draw(st.sampled_from(PROGRESSIVES)),  # type: ignore[arg-type]
        draw(st.sampled_from([None, 100, 500])),
        draw(st.sampled_from([None, "A", "B", "C", "D", "E"])),
    )


Round = tuple[Rules, list[int], list[BoxInPlay], dict[str, Meter], int | None, Draws]


@st.composite
def rounds(draw: st.DrawFn, rare_hands: bool = True) -> Round:
    r = draw(tables())
    deck = draw(st.permutations(range(52)))
    numbers = sorted(draw(st.sets(st.integers(1, 6), min_size=1, max_size=6)))
    if rare_hands and draw(st.booleans()):
        # Plant meter-winning hands: royal / straight flushes and four aces are rare.
        planted = draw(st.sampled_from([
            cards("AH KH QH JH TH"), cards("AS AH AD AC 2C"), cards("5D 6D 7D 8D 9D"),
            cards("AS KS QS JS TS"), cards("9C TC JC QC KC"),
        ]))  # fmt: skip
        deck = list(planted) + [c for c in deck if c not in planted]
        if draw(st.booleans()):  # to the dealer
            deck = deck[5 : 5 * (len(numbers) + 1)] + deck[:5] + deck[5 * (len(numbers) + 1) :]
    boxes = []
    pos = 0
    for n in numbers:
        hand = tuple(deck[pos : pos + 5])
        pos += 5
        ante = draw(st.integers(1, 5000))
        low, high = play_range(best_four(list(hand)).value, ante)
        play = draw(st.one_of(st.just(0), st.integers(low, high)))
        w: dict[str, Any] = {"ante": ante, "super_bonus": ante, "play": play}
        w["queens_up"] = draw(st.sampled_from([0, draw(st.integers(1, 5000))]))
        if r.progressive and draw(st.booleans()):
            w["progressive"] = r.progressive.wager
        if r.hand_bonus_wager and draw(st.booleans()):
            w["hand_bonus_player"] = r.hand_bonus_wager
        if r.hand_bonus_wager and draw(st.booleans()):
            w["hand_bonus_dealer"] = r.hand_bonus_wager
        if r.six_card_bonus and draw(st.booleans()):
            w["six_card_bonus"] = draw(st.integers(1, 5000))
        player = draw(st.sampled_from(["ann", "bob", "cat", "dan"]))
        boxes.append(BoxInPlay(n, player, hand, Wagers(**w)))
    dealer = list(deck[pos : pos + 5])
    pos += 5
    six = deck[pos] if any(b.wagers.six_card_bonus for b in boxes) else None
    meters = {
        spec.name: Meter(
            draw(st.integers(0, 10**8)), draw(st.integers(0, 10**6)) if spec.reserve else 0
        )
        for spec in r.meters
    }
    draws = Draws()
    if r.hand_bonus_wager is not None:
        magic = draw(st.one_of(st.none(), st.integers(0, 51)))
        lucky = draw(st.one_of(st.none(), st.integers(1, 6), st.just("dealer")))
        draws = Draws(magic, lucky)
    return r, dealer, boxes, meters, six, draws


def settle(rnd: Round) -> RoundSettlement:
    r, dealer, boxes, meters, six, draws = rnd
    return settle_round(r, dealer, boxes, meters, six, draws)


@SETTINGS
@given(rounds())
def test_money_is_neither_lost_nor_created(rnd: Round) -> None:
    r, _, boxes, meters, _, _ = rnd
    result = settle(rnd)
    paid_to_wagers: dict[str, int] = {}
    for b in result.boxes:
        assert b.net == (
            sum(x.net for x in b.results)
            + sum(a for _, a in b.bonuses)
            + sum(e.amount for e in b.envy)
        )
        for x in b.results:
            assert x.net >= -x.stake  # nobody loses more than the stake
            if x.meter is not None:
                assert x.net + x.stake == x.meter_paid
                paid_to_wagers[x.meter] = paid_to_wagers.get(x.meter, 0) + x.meter_paid
    for m in result.meters:
        spec = r.meter_spec(m.name)
        reseed = spec.reseed_amount(r.meter_wager(m.name))
        assert m.paid == paid_to_wagers.get(m.name, 0)
        assert (
            m.before.amount + m.before.reserve + m.increment.primary + m.increment.reserve
            - m.paid + m.reseeds * reseed
            == m.after.amount + m.after.reserve
        )  # fmt: skip
    # The increments are the locked wagers' rates (§657a.12), folded boxes included.
    locked = sum(b.wagers.progressive for b in boxes) + sum(
        b.wagers.hand_bonus_player + b.wagers.hand_bonus_dealer for b in boxes
    )
    assert (
        sum(m.increment.primary + m.increment.reserve for m in result.meters) <= locked * 30 // 100
    )
    # The contract's JSON adds up the same way.
    out = settlement_json(result, list(boxes))
    for b_json in out["boxes"]:
        assert b_json["net"] == (
            sum(x["net"] for x in b_json["wagers"].values())
            + sum(b_json["bonuses"].values())
            + sum(e["amount"] for e in b_json["envy"])
        )
    assert {p: v["net"] for p, v in out["players"].items()} == result.player_nets()
    nets = result.player_nets()
    assert sum(nets.values()) == sum(b.net for b in result.boxes)
    assert set(nets) == {b.player for b in boxes}
    assert set(meters) == {m.name for m in result.meters}


@SETTINGS
@given(rounds(), st.data())
def test_a_fold_forfeits_exactly_what_657a_11b_says(rnd: Round, data: st.DataObject) -> None:
    r, dealer, boxes, meters, six, draws = rnd
    i = data.draw(st.integers(0, len(boxes) - 1))

    def with_play(play: int) -> list[BoxInPlay]:
        box = boxes[i]
        changed = dataclasses.replace(box, wagers=dataclasses.replace(box.wagers, play=play))
        return [changed if j == i else b for j, b in enumerate(boxes)]

    playing, folding = with_play(boxes[i].wagers.ante), with_play(0)
    played = settle((r, dealer, playing, meters, six, draws))
    folded = settle((r, dealer, folding, meters, six, draws))
    n = boxes[i].box
    f, p = folded.box(n), played.box(n)
    assert f.folded and not p.folded
    lines = {x.wager: x for x in f.results}
    assert PLAY not in lines
    w = boxes[i].wagers
    for name in FORFEITED_ON_FOLD:  # (b)(1), (b)(2), interpretation 3
        stake = getattr(w, name)
        assert (lines[name].net == -stake) if stake else (name not in lines)
    # (b)(3): the Six Card Bonus stays in action; (b)(2): Envy Bonuses are still received.
    assert f.result(SIX_CARD_BONUS) == p.result(SIX_CARD_BONUS)
    assert {(e.from_box, e.hand, e.amount) for e in f.envy} == {
        (e.from_box, e.hand, e.amount) for e in p.envy
    }
    assert f.bonuses == ()
    # (c): the folded hand gives nobody an Envy Bonus.
    assert all(e.from_box != n for b in folded.boxes for e in b.envy)
    assert f.net == (
        -sum(getattr(w, name) for name in FORFEITED_ON_FOLD)
        + sum(x.net for x in f.results if x.wager == SIX_CARD_BONUS)
        + sum(e.amount for e in f.envy)
    )


@SETTINGS
@given(rounds(), st.randoms(use_true_random=False))
def test_the_order_of_the_input_never_matters(rnd: Round, rng: Any) -> None:
    r, dealer, boxes, meters, six, draws = rnd
    shuffled = list(boxes)
    rng.shuffle(shuffled)
    assert settle(rnd) == settle((r, dealer, shuffled, meters, six, draws))
    assert [b.box for b in settle(rnd).boxes] == sorted((b.box for b in boxes), reverse=True)


@SETTINGS
@given(
    st.sets(st.integers(1, 6), min_size=2, max_size=2),
    st.sampled_from(["A", "B", "C", "D"]),
    st.sampled_from([100, 500]),
    st.integers(0, 10**8),
    st.booleans(),
)
def test_the_settlement_order_matters_for_a_meter(
    numbers: set[int], table: str, wager: int, amount: int, swap: bool
) -> None:
    # Two royal flushes on one five-card meter: the box nearer the dealer's right (higher
    # number) is settled first and takes the meter; the other gets what is left (the reseed).
    low, high = sorted(numbers)
    hands = [cards("AH KH QH JH TH"), cards("AS KS QS JS TS")]
    if swap:
        hands.reverse()
    r = rules(progressive=("five_card", table, wager))
    w = Wagers(ante=100, super_bonus=100, play=100, progressive=wager)
    boxes = [BoxInPlay(low, "ann", hands[0], w), BoxInPlay(high, "bob", hands[1], w)]
    top = r.progressive.table.paytable.meters[0] if r.progressive else ""
    meters = {spec.name: Meter(amount if spec.name == top else 0) for spec in r.meters}
    result = settle_round(r, cards("2C 3D 5S 8C 9D"), boxes, meters)
    spec = r.meter_spec(top)
    increment = 2 * wager * spec.primary // 100
    first, second = result.box(high).result("progressive"), result.box(low).result("progressive")
    assert first is not None and second is not None
    assert first.meter_paid == amount + increment
    assert second.meter_paid == spec.reseed_amount(wager)
