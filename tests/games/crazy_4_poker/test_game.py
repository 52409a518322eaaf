"""Crazy 4 Poker through the platform's interface: what only this game has - a Play of up to
3x the Ante, a side bet on the dealer's hand whose jackpot is split, meters shared across
tables - lands where the round's own settlement says (§657a.11(b), §657a.12(f)(2))."""

from __future__ import annotations

from table.games import game
from table.games.base import Actor, Command, MeterReading
from table.games.cards import DECK, parse_card
from table.games.driver import TableDriver
from tests.conftest import SeededSource

GAME = game("crazy_4_poker")


def _stacked(*stacks: str) -> list[int]:
    top = [parse_card(c) for c in " ".join(stacks).split()]
    return top + [c for c in DECK if c not in top]


def test_a_split_dealer_hand_jackpot_leaves_the_shared_meter_where_settlement_says() -> None:
    rules = GAME.parse_rules(
        {**GAME.rules_to_dict(GAME.default_rules()), "six_card_bonus_paytable": None}
    )
    driver = TableDriver(GAME, rules, SeededSource(1))
    # Box 1, box 2, then the dealer's royal flush (§657a.12(f)(2): split between the boxes).
    driver.open(order=_stacked("2C 3D 5H 7S 9C", "2D 4D 6H 8S TC", "AS KS QS JS TS"))
    for box, player in ((1, "ann"), (2, "bob")):
        driver.send(
            Actor.player(player), Command("bet", box, {"ante": 500, "hand_bonus_dealer": 100})
        )
    driver.send(Actor.dealer(), Command("close_betting"))
    meter = driver.meters.readings["hand_bonus"]
    driver.send(Actor.dealer(), Command("deal"))
    # Neither box may Play more than the Ante without aces or better: the move offers 1x.
    for box, player in ((1, "ann"), (2, "bob")):
        [move] = driver.moves(Actor.player(player))
        assert {c.args["play"] for c in move.choices} == {0, 500} and not move.amounts
        driver.send(Actor.player(player), Command("decide", box, {"play": 500}))
    driver.send(Actor.dealer(), Command("reveal"))
    step = driver.send(Actor.dealer(), Command("settle"))
    paid = [c for c in step.meters if c.kind == "payout"]
    assert {c.box for c in paid} == {1, 2}
    assert sum(c.paid for c in paid) == meter.amount  # 100% of the meter, in two shares
    # Taken once and split: the meter resets once, after the last share (table/meters.py).
    assert [c.reset for c in paid] == [False, True]
    ends = GAME.view(driver.state(), Actor.dealer())["meters"]["hand_bonus"]
    assert driver.meters.readings["hand_bonus"] == MeterReading(ends["amount"], ends["reserve"])
    status = driver.status()
    assert status.players is not None
    assert all(driver.money[p] == net for p, net in status.players.items())


def test_a_play_up_to_three_times_the_ante_with_aces() -> None:
    driver = TableDriver(GAME, GAME.default_rules(), SeededSource(2))
    driver.open(order=_stacked("AS AD 7C 5H 2S", "3C 4D 8H 9S JC"))
    driver.send(Actor.player("ann"), Command("bet", 1, {"ante": 1000}))
    driver.send(Actor.dealer(), Command("close_betting"))
    driver.send(Actor.dealer(), Command("deal"))
    [move] = driver.moves(Actor.player("ann"))
    assert {c.args["play"] for c in move.choices} == {0, 1000, 2000, 3000}
    [amount] = move.amounts
    assert (amount.low, amount.high) == (1000, 3000)
    driver.send(Actor.player("ann"), Command("decide", 1, {"play": 2500}))
    assert driver.game.boxes(driver.state())[0].wagers["play"] == 2500


def test_each_meter_is_one_the_meters_store_can_link() -> None:
    """The meters a table needs name the store's meters (kind, paytable, wager: the games'
    meter catalogue) with the seed and reseed of §657a.12 for the table's fixed wager."""
    from table.games import meter_catalogue

    catalogue = meter_catalogue()
    stored = GAME.rules_to_dict(GAME.default_rules())
    for kind, letters in (("four_card", "AB"), ("five_card", "ABCD")):
        for letter in letters:
            for wager in (100, 500):
                progressive = {"type": kind, "paytable": letter, "wager": wager}
                rules = GAME.parse_rules(
                    {**stored, "progressive": progressive, "hand_bonus": {"wager": wager}}
                )
                specs = GAME.meters(rules)
                assert specs and specs[-1].name == "hand_bonus"
                for spec in specs:
                    name, paytable, cents = spec.pool.split(":")
                    assert int(cents) == wager
                    engine = catalogue[(name, paytable)]
                    assert spec.seed == engine.rates.seed_amount(wager)
                    assert spec.reseed == engine.rates.reseed_amount(wager)
                    assert wager in engine.stakes


def test_the_magic_card_and_lucky_bonus_return_is_in_the_mathematics() -> None:
    """CRAZY_4_POKER.md: the admin shows the Magic Card / Lucky Bonus return with its trigger
    probabilities when the Rules Submission enables them (§657a.12(f)(3)); with both off (the
    default) there is no such figure."""
    from dataclasses import replace
    from fractions import Fraction

    from table.games.crazy_4_poker.rules import bonus_return

    g = game("crazy_4_poker")
    off = g.default_rules()
    assert not any("Magic Card" in f.wager for f in g.math_report(off))
    rules = replace(
        off,
        rules=replace(
            off.rules,
            magic_card_probability=Fraction(1, 100),
            lucky_bonus_probability=Fraction(1, 20),
        ),
    )
    figures = {f.wager: f for f in g.math_report(rules)}
    plain = figures["Five Card Hand Bonus"]
    [with_draws] = [f for w, f in figures.items() if "Magic Card" in w]
    extra = bonus_return(rules.rules)
    assert extra == Fraction(1, 100) * Fraction(100, 52) + Fraction(1, 20) * Fraction(5, 7)
    assert with_draws.house_edge == plain.house_edge - float(extra)
    assert with_draws.paytable == "§657a.12(f)(3)"
    assert "1.00% of rounds" in with_draws.basis and "5.00% of rounds" in with_draws.basis
    assert f"{float(extra):.2%}" in with_draws.basis
    # One of the two enabled: only its words.
    magic_only = replace(off, rules=replace(off.rules, magic_card_probability=Fraction(1, 10)))
    [figure] = [f for f in g.math_report(magic_only) if "Magic Card" in f.wager]
    assert "Lucky Bonus drawn" not in figure.basis and "10.00% of rounds" in figure.basis
