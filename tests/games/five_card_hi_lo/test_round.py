"""The Five Card Hi-Lo round state machine (§663a.7, §663a.10, §663a.11, §663a.13): every
phase transition, every refusal (changing nothing), time-outs, the two-box setting order,
void rounds where each irregularity can happen, persistence and money."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from table.games.base import REVEAL, Actor
from table.games.cards import DECK, card_code
from table.games.errors import EngineError, InvalidInput, RuleViolation
from table.games.five_card_hi_lo.game import GAME
from table.games.five_card_hi_lo.hands import possible_settings
from table.games.five_card_hi_lo.round import (
    DEALER,
    PUBLIC,
    VOID_REASONS,
    Event,
    Phase,
    Round,
    Step,
    Transfer,
)
from table.games.five_card_hi_lo.rules import HiLoRules
from table.games.four_card_frenzy.round import Round as FrenzyRound
from table.games.four_card_frenzy.rules import TableRules
from table.games.shoe import Fault

from ...conftest import SeededSource
from .round_helpers import (
    ANN_1,
    ANN_2,
    BOB_4,
    PHASES,
    Ledger,
    cards,
    check_money,
    check_round_trip,
    example_at,
    example_round,
    opened,
    stacked,
    staked_by_player,
)
from .round_helpers import (
    DEALER as DEALER_HAND,
)

# --- a whole round ---------------------------------------------------------------------------


def test_the_digests_example_round_from_betting_to_settlement() -> None:
    rnd, ledger = example_round()
    assert rnd.phase is Phase.BETTING
    assert ledger.by_player == {"ann": 1000 + 500 + 500 + 1000 + 500, "bob": 3500}
    ledger.add(rnd.close_betting())
    assert rnd.phase is Phase.CLOSED
    step = ledger.add(rnd.deal())
    assert rnd.phase is Phase.DECISIONS
    # §663a.10(b): the first stack to the box farthest to the dealer's left, then clockwise,
    # then the dealer's stack.
    assert rnd.boxes[1].cards == cards(ANN_1)
    assert rnd.boxes[2].cards == cards(ANN_2)
    assert rnd.boxes[4].cards == cards(BOB_4)
    assert rnd.dealer_cards == cards(DEALER_HAND)
    assert len(rnd.stub) == 52 - 20
    holes = [e for e in step.events if e.kind == "hole_cards"]
    assert [(e.audience, e.data["box"]) for e in holes] == [
        ("player:ann", 1),
        ("player:ann", 2),
        ("player:bob", 4),
    ]
    assert [(s["high_total"], s["low_total"]) for s in holes[0].data["settings"]] == [
        (31, 11),
        (29, 3),
    ]
    assert [e for e in step.events if e.kind == "stub"][0].audience == DEALER
    assert rnd.to_act == 1
    # §663a.11(b): from the dealer's left; Play is a wager equal to the Ante.
    step = ledger.add(rnd.decide(1, "ann", True))
    assert step.transfers == (Transfer("ann", 1000, "play", 1, "play"),)
    assert rnd.to_act == 2
    ledger.add(rnd.decide(2, "ann", True))
    step = ledger.add(rnd.decide(4, "bob", False))
    assert step.transfers == ()
    decision = next(e for e in step.events if e.kind == "decision")
    assert decision.data["forfeited"] == 3000 and decision.data["cards_kept"] is True
    assert rnd.phase is Phase.SETTING and rnd.to_act is None
    started = next(e for e in step.events if e.kind == "setting_started")
    # §663a.7(f): equal Antes, counterclockwise: box 2 before box 1.
    assert started.data == {"boxes": [1, 2], "order": {"ann": [2, 1]}}
    assert [e.data for e in step.events if e.kind == "setting_turn"] == [
        {"box": 2, "player": "ann"}
    ]
    check_money(rnd, ledger)
    step = ledger.add(rnd.set_hands(2, "ann", ["AD", "AH", "AC"], ["8S", "8C"]))
    assert [e.kind for e in step.events] == ["hands_set", "setting", "setting_turn"]
    assert step.events[0].audience == PUBLIC and "high" not in step.events[0].data
    assert step.events[1].audience == "player:ann"
    step = ledger.add(rnd.set_hands(1, "ann", ["JD", "TH", "9C"], ["AS", "2S"]))
    assert step.events[-1].kind == "settings_complete"
    step = ledger.add(rnd.reveal())
    assert rnd.phase is Phase.REVEALED
    assert step.events[0].data["high_total"] == 26 and step.events[0].data["low_total"] == 7
    step = ledger.add(rnd.settle())
    assert rnd.phase is Phase.SETTLED
    check_money(rnd, ledger)
    assert rnd.results is not None
    # §663a.11(f): from the dealer's right, box 6 to box 1.
    assert [e.data["box"] for e in step.events if e.kind == "box_settled"] == [4, 2, 1]
    lines = {b["box"]: {r["wager"]: r["net"] for r in b["results"]} for b in rnd.results["boxes"]}
    # The digest's worked answer.
    assert lines[1] == {"ante": 1000, "play": 1000, "tie": -500, "poker_bonus": -500}
    assert lines[2] == {"ante": 0, "play": 0, "ante_bonus": 10000, "poker_bonus": 7500}
    assert lines[4] == {"ante": -2500, "tie": -500, "poker_bonus": 500}
    assert rnd.results["players"] == {"ann": {"net": 18500}, "bob": {"net": -2500}}
    assert ledger.by_player == {"ann": -18500, "bob": 2500}
    settled = step.events[-1]
    assert settled.kind == "round_settled" and settled.data["shoe"][:5] == ANN_1.split()
    check_round_trip(rnd)


def test_a_folded_box_without_a_poker_bonus_is_discarded_unseen() -> None:
    rnd = opened(stacked(BOB_4, DEALER_HAND))
    rnd.bet(1, "bob", {"ante": 1000, "tie": 100})
    rnd.close_betting()
    rnd.deal()
    step = rnd.decide(1, "bob", False)
    assert next(e for e in step.events if e.kind == "decision").data["cards_kept"] is False
    # Nobody played: no setting step (issue 28: the log said "sets its high and low hands:
    # box ." and the table showed "Setting the hands"); the dealer reveals next.
    assert rnd.phase is Phase.DECISIONS and rnd.all_folded()
    kinds = [e.kind for e in step.events]
    assert kinds[-1] == "decisions_complete"
    assert "setting_started" not in kinds and "settings_complete" not in kinds
    assert [m.name for m in GAME.moves(rnd, Actor.dealer())][:1] == [REVEAL]
    assert GAME.timer(rnd) is None
    rnd.reveal()
    step = rnd.settle()
    assert rnd.results is not None
    box = rnd.results["boxes"][0]
    assert box["cards"] is None and box["poker_hand"] is None and box["setting"] is None
    assert {r["wager"]: r["net"] for r in box["results"]} == {"ante": -1000, "tie": -100}
    assert step.transfers == ()


def test_shuffled_round_uses_the_injected_randomness_and_commits_to_it() -> None:
    one, step = Round.shuffled(1, HiLoRules(), SeededSource(5), salt="s")
    two, _ = Round.shuffled(1, HiLoRules(), SeededSource(5), salt="s")
    other, _ = Round.shuffled(1, HiLoRules(), SeededSource(6), salt="s")
    assert one.order == two.order != other.order
    assert sorted(one.order) == list(DECK)
    assert step.events[0].data["commitment"] == one.commitment != other.commitment
    assert "order" not in json.dumps(step.events[0].to_dict())


# --- betting ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, box, player, wagers, error, code",
    [
        (HiLoRules(), 3, "ann", {"ante": 499}, RuleViolation, "out_of_limits"),
        (HiLoRules(), 3, "ann", {"ante": 50001}, RuleViolation, "out_of_limits"),
        (HiLoRules(), 3, "ann", {"ante": 1000, "tie": 99}, RuleViolation, "out_of_limits"),
        (
            HiLoRules(),
            3,
            "ann",
            {"ante": 1000, "poker_bonus": 10001},
            RuleViolation,
            "out_of_limits",
        ),
        (HiLoRules(), 3, "ann", {"tie": 100}, RuleViolation, "ante_required"),
        (HiLoRules(), 3, "ann", {"poker_bonus": 100}, RuleViolation, "ante_required"),
        (
            HiLoRules(offers_tie=False),
            3,
            "ann",
            {"ante": 1000, "tie": 100},
            RuleViolation,
            "not_offered",
        ),
        (
            HiLoRules(offers_poker_bonus=False),
            3,
            "ann",
            {"ante": 1000, "poker_bonus": 100},
            RuleViolation,
            "not_offered",
        ),
        (HiLoRules(), 3, "ann", {"ante": 1000, "play": 1000}, InvalidInput, "unknown_wager"),
        (HiLoRules(), 3, "ann", {"ante": 1000, "odds": 900}, InvalidInput, "unknown_wager"),
        (HiLoRules(), 3, "ann", {"ante": -1000}, InvalidInput, "bad_amount"),
        (HiLoRules(), 3, "ann", {"ante": "1000"}, InvalidInput, "bad_amount"),
        (HiLoRules(), 3, "ann", {"ante": 1000.0}, InvalidInput, "bad_amount"),
        (HiLoRules(), 3, "ann", {"ante": True}, InvalidInput, "bad_amount"),
        (HiLoRules(), 0, "ann", {"ante": 1000}, InvalidInput, "bad_box"),
        (HiLoRules(), 7, "ann", {"ante": 1000}, InvalidInput, "bad_box"),
        (HiLoRules(), "1", "ann", {"ante": 1000}, InvalidInput, "bad_box"),
        (HiLoRules(), 1, "", {"ante": 1000}, InvalidInput, "bad_player"),
        (HiLoRules(), 3, "ann", [("ante", 1000)], InvalidInput, "bad_shape"),
        (HiLoRules(), 5, "bob", {"ante": 1000}, RuleViolation, "box_taken"),
        # carl is on box 5: a second box must be next to it, and a third is never allowed.
        (HiLoRules(), 3, "carl", {"ante": 1000}, RuleViolation, "not_adjacent"),
        (HiLoRules(), 4, "dan", {"ante": 1000}, RuleViolation, "too_many_boxes"),
        (
            HiLoRules(adjacent_boxes=False),
            4,
            "carl",
            {"ante": 1000},
            RuleViolation,
            "too_many_boxes",
        ),
    ],
)
def test_bets_refused_change_nothing(
    rules: HiLoRules, box: Any, player: Any, wagers: Any, error: type, code: str
) -> None:
    rnd = opened(rules=rules)
    rnd.bet(5, "carl", {"ante": 1000})
    rnd.bet(6, "bob", {"ante": 1000})
    rnd.bet(1, "dan", {"ante": 1000})
    if rules.adjacent_boxes:
        rnd.bet(2, "dan", {"ante": 1000})
    before = rnd.to_dict()
    with pytest.raises(error) as exc:
        rnd.bet(box, player, wagers)
    assert exc.value.code == code and exc.value.message
    assert rnd.to_dict() == before


def test_two_adjacent_boxes_allowed_and_changing_bets_moves_only_the_difference() -> None:
    rnd = opened()
    ledger = Ledger()
    ledger.add(rnd.bet(3, "ann", {"ante": 1000, "tie": 500}))
    ledger.add(rnd.bet(4, "ann", {"ante": 2000}))
    assert rnd.boxes_of("ann") == [3, 4]
    step = ledger.add(rnd.bet(3, "ann", {"ante": 600}))
    assert step.transfers == (Transfer("ann", -900, "wager returned", 3),)
    check_money(rnd, ledger)
    ledger.add(rnd.withdraw(3, "ann"))
    ledger.add(rnd.withdraw(4, "ann"))
    assert rnd.boxes == {} and ledger.by_player["ann"] == 0
    with pytest.raises(RuleViolation) as exc:
        rnd.close_betting()
    assert exc.value.code == "no_wagers"


def test_nothing_is_wagered_after_no_more_bets() -> None:
    # §663a.7(c): no wager made, increased or withdrawn after "no more bets".
    for stop in PHASES[1:]:
        rnd, _ = example_at(stop)
        before = rnd.to_dict()
        for command in (
            lambda r=rnd: r.bet(6, "carl", {"ante": 1000}),
            lambda r=rnd: r.bet(1, "ann", {"ante": 2000}),
            lambda r=rnd: r.withdraw(1, "ann"),
            rnd.close_betting,
        ):
            with pytest.raises(RuleViolation) as exc:
                command()
            assert exc.value.code == "wrong_phase", stop
        assert rnd.to_dict() == before


def test_open_refuses_a_short_shoe_and_bad_rules() -> None:
    with pytest.raises(InvalidInput) as exc:
        Round.open(1, HiLoRules(), "red", list(DECK)[:51], "salt")
    assert exc.value.code == "bad_shoe"
    with pytest.raises(InvalidInput):
        Round.open(1, HiLoRules(ante_bonus_paytable="Z"), "red", list(DECK), "salt")
    with pytest.raises(InvalidInput):
        Round.open(1, TableRules(), "red", list(DECK), "salt")  # type: ignore[arg-type]


# --- decisions (§663a.11(b)) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "box, player, play, error, code",
    [
        (2, "ann", True, RuleViolation, "not_your_turn"),  # box 1 decides first
        (4, "bob", False, RuleViolation, "not_your_turn"),
        (1, "bob", True, RuleViolation, "not_your_box"),
        (3, "ann", True, RuleViolation, "not_in_play"),
        (1, "ann", 1, InvalidInput, "bad_decision"),
        (1, "ann", "play", InvalidInput, "bad_decision"),
        (9, "ann", True, InvalidInput, "bad_box"),
    ],
)
def test_decisions_refused_change_nothing(
    box: Any, player: str, play: Any, error: type, code: str
) -> None:
    rnd, _ = example_at("closed")
    rnd.deal()
    before = rnd.to_dict()
    with pytest.raises(error) as exc:
        rnd.decide(box, player, play)
    assert exc.value.code == code
    assert rnd.to_dict() == before


def test_decision_time_out_folds_the_box_to_act() -> None:
    rnd, ledger = example_at("closed")
    ledger.add(rnd.deal())
    with pytest.raises(RuleViolation) as exc:
        rnd.time_out(2)
    assert exc.value.code == "not_your_turn"
    step = ledger.add(rnd.time_out())
    assert rnd.boxes[1].folded and rnd.to_act == 2
    assert step.events[0].data["why"] == "timeout" and step.transfers == ()
    ledger.add(rnd.time_out(2))
    ledger.add(rnd.decide(4, "bob", True))
    assert rnd.phase is Phase.SETTING
    check_money(rnd, ledger)


def test_commands_in_the_wrong_phase_are_refused_and_change_nothing() -> None:
    commands: dict[str, Callable[[Round], object]] = {
        "close_betting": lambda r: r.close_betting(),
        "deal": lambda r: r.deal(),
        "decide": lambda r: r.decide(1, "ann", True),
        "set_hands": lambda r: r.set_hands(1, "ann", ["JD", "TH", "9C"], ["AS", "2S"]),
        "choose_setting": lambda r: r.choose_setting(1, "ann", False),
        "time_out": lambda r: r.time_out(),
        "reveal": lambda r: r.reveal(),
        "settle": lambda r: r.settle(),
    }
    allowed = {
        "betting": {"close_betting"},
        "closed": {"deal"},
        "decisions": {"time_out"},  # box 2 is to act; box 1 has decided
        "setting": {"time_out"},  # ann sets box 2 first
        "set": {"reveal"},
        "revealed": {"settle"},
        "settled": set(),
    }
    for stop in PHASES:
        for name, command in commands.items():
            if name in allowed[stop]:
                continue
            rnd, _ = example_at(stop)
            before = rnd.to_dict()
            with pytest.raises(EngineError) as exc:
                command(rnd)
            assert exc.value.code in {
                "wrong_phase",
                "not_your_turn",
                "set_other_box_first",
                "settings_pending",
                "already_set",
                "nobody_to_act",
            }, (stop, name, exc.value.code)
            if stop in ("betting", "closed", "revealed", "settled") or name in (
                "close_betting",
                "deal",
                "settle",
            ):
                assert exc.value.code == "wrong_phase", (stop, name)
            assert rnd.to_dict() == before, (stop, name)


def test_reveal_waits_for_every_setting() -> None:
    rnd, _ = example_at("setting")
    with pytest.raises(RuleViolation) as exc:
        rnd.reveal()
    assert exc.value.code == "settings_pending"
    rnd.set_hands(2, "ann", ["AD", "AH", "AC"], ["8S", "8C"])
    with pytest.raises(RuleViolation) as exc:
        rnd.reveal()
    assert exc.value.code == "settings_pending"


# --- setting the hands (§663a.11(d), §663a.7(f)) ----------------------------------------------


@pytest.mark.parametrize(
    "box, player, high, low, error, code",
    [
        # Two aces in the low hand: §663a.11(d) allows "up to one ace".
        (2, "ann", ["AD", "8S", "8C"], ["AH", "AC"], RuleViolation, "illegal_setting"),
        # An eight low while an ace... fine; but a higher card low than one high is not.
        (2, "ann", ["AD", "AH", "8S"], ["AC", "8C"], None, None),
        # A card the box does not hold (the dealer's king).
        (2, "ann", ["AD", "AH", "KS"], ["8S", "8C"], RuleViolation, "bad_setting"),
        (2, "ann", ["AD", "AH", "AC", "8S"], ["8C"], RuleViolation, "bad_setting"),
        (2, "ann", ["AD", "AH", "AH"], ["8S", "8C"], RuleViolation, "bad_setting"),
        (2, "ann", ["AD", "AH", "ZZ"], ["8S", "8C"], InvalidInput, "bad_card"),
        (2, "ann", "AD AH AC", ["8S", "8C"], InvalidInput, "bad_setting"),
        (2, "ann", ["AD", "AH", 99], ["8S", "8C"], InvalidInput, "bad_card"),
        # Setting another player's box.
        (2, "bob", ["AD", "AH", "AC"], ["8S", "8C"], RuleViolation, "not_your_box"),
        # Box 1 before box 2: equal Antes, the higher box first (§663a.7(f)).
        (1, "ann", ["JD", "TH", "9C"], ["AS", "2S"], RuleViolation, "set_other_box_first"),
        # A folded box is never set; a box without cards neither.
        (4, "bob", ["QH", "QD", "6D"], ["5S", "2C"], RuleViolation, "folded"),
        (3, "ann", ["QH", "QD", "6D"], ["5S", "2C"], RuleViolation, "not_in_play"),
        (0, "ann", ["AD", "AH", "AC"], ["8S", "8C"], InvalidInput, "bad_box"),
    ],
)
def test_settings_refused_change_nothing(
    box: Any, player: str, high: Any, low: Any, error: type | None, code: str | None
) -> None:
    rnd, _ = example_at("setting")
    before = rnd.to_dict()
    if error is None:
        # A legal setting: A-A-8 high and A-8 low (equal values interchangeable).
        step = rnd.set_hands(box, player, high, low)
        assert rnd.boxes[box].setting() is not None
        assert step.events[1].data["high_total"] == 30 and step.events[1].data["low_total"] == 9
        return
    with pytest.raises(error) as exc:
        rnd.set_hands(box, player, high, low)
    assert exc.value.code == code and exc.value.message
    assert rnd.to_dict() == before


def test_a_higher_card_low_is_refused() -> None:
    rnd, _ = example_at("setting")
    rnd.set_hands(2, "ann", ["AD", "AH", "AC"], ["8S", "8C"])
    before = rnd.to_dict()
    with pytest.raises(RuleViolation) as exc:
        rnd.set_hands(1, "ann", ["AS", "9C", "2S"], ["JD", "TH"])
    assert exc.value.code == "illegal_setting"
    assert rnd.to_dict() == before


def test_a_set_hand_is_locked_and_setting_after_reveal_is_refused() -> None:
    rnd, _ = example_at("setting")
    rnd.set_hands(2, "ann", ["AD", "AH", "AC"], ["8S", "8C"])
    before = rnd.to_dict()
    with pytest.raises(RuleViolation) as exc:
        rnd.set_hands(2, "ann", ["AD", "AH", "8S"], ["AC", "8C"])
    assert exc.value.code == "already_set"
    assert rnd.to_dict() == before
    rnd.set_hands(1, "ann", ["JD", "TH", "9C"], ["AS", "2S"])
    rnd.reveal()
    before = rnd.to_dict()
    for box, high, low in (
        (1, ["AS", "JD", "TH"], ["9C", "2S"]),
        (2, ["AD", "AH", "AC"], ["8S", "8C"]),
    ):
        with pytest.raises(RuleViolation) as exc:
            rnd.set_hands(box, "ann", high, low)
        assert exc.value.code == "wrong_phase"
    assert rnd.to_dict() == before


def test_setting_order_larger_ante_first() -> None:
    # §663a.7(f): unequal wagers: the larger one's hand is set first, whatever its side.
    rnd, _ = example_round(ante_1=2000, ante_2=1000)
    rnd.close_betting()
    rnd.deal()
    rnd.decide(1, "ann", True)
    step = rnd.decide(2, "ann", True)
    assert rnd.setting_order_of("ann") == [1, 2]
    rnd.decide(4, "bob", True)
    assert [e.data for e in step.events if e.kind == "setting_turn"] == []
    with pytest.raises(RuleViolation) as exc:
        rnd.choose_setting(2, "ann", False)
    assert exc.value.code == "set_other_box_first"
    # bob sets at the same time as ann (each player his own hands).
    rnd.choose_setting(4, "bob", False)
    step = rnd.choose_setting(1, "ann", True)
    assert rnd.boxes[1].setting() is not None and rnd.boxes[1].setting().totals == (29, 3)  # type: ignore[union-attr]
    assert [e.data for e in step.events if e.kind == "setting_turn"] == [
        {"box": 2, "player": "ann"}
    ]
    rnd.choose_setting(2, "ann", False)
    assert rnd.pending_settings() == []


def test_setting_order_with_one_box_folded() -> None:
    rnd, _ = example_round()
    rnd.close_betting()
    rnd.deal()
    rnd.decide(1, "ann", True)
    rnd.decide(2, "ann", False)
    rnd.decide(4, "bob", True)
    assert rnd.setting_order_of("ann") == [1]
    assert rnd.next_to_set("ann") == 1
    with pytest.raises(RuleViolation) as exc:
        rnd.choose_setting(2, "ann", False)
    assert exc.value.code == "folded"


def test_choose_setting_offers_exactly_the_hands_choices() -> None:
    rnd, _ = example_at("setting")
    before = rnd.to_dict()
    for bad, code in ((1, "bad_setting"), ("yes", "bad_setting"), (None, "bad_setting")):
        with pytest.raises(InvalidInput) as exc:
            rnd.choose_setting(2, "ann", bad)
        assert exc.value.code == code
    assert rnd.to_dict() == before
    rnd.choose_setting(2, "ann", True)  # three aces: one may go low
    assert rnd.boxes[2].setting().totals == (30, 9)  # type: ignore[union-attr]
    rnd.choose_setting(1, "ann", False)
    assert rnd.boxes[1].setting().totals == (31, 11)  # type: ignore[union-attr]
    # A hand without an ace has no ace-low setting.
    rnd = opened(stacked(BOB_4, DEALER_HAND))
    rnd.bet(1, "bob", {"ante": 1000})
    rnd.close_betting()
    rnd.deal()
    rnd.decide(1, "bob", True)
    before = rnd.to_dict()
    with pytest.raises(RuleViolation) as exc:
        rnd.choose_setting(1, "bob", True)
    assert exc.value.code == "no_ace_low_setting"
    assert rnd.to_dict() == before


def test_setting_time_out_sets_aces_high_never_an_ace_low() -> None:
    rnd, ledger = example_at("setting")
    step = ledger.add(rnd.time_out())
    assert rnd.pending_settings() == []
    for box in (1, 2):
        setting = rnd.boxes[box].setting()
        assert setting is not None and setting == possible_settings(rnd.boxes[box].cards)[0]
        assert not setting.ace_low and rnd.boxes[box].set_by == "timeout"
    assert rnd.boxes[1].setting().totals == (31, 11)  # type: ignore[union-attr]
    # ann's boxes in the order of §663a.7(f): box 2, then box 1.
    assert [e.data["box"] for e in step.events if e.kind == "hands_set"] == [2, 1]
    assert step.events[-1].kind == "settings_complete"
    with pytest.raises(RuleViolation) as exc:
        rnd.time_out()
    assert exc.value.code == "nobody_to_act"
    ledger.add(rnd.reveal())
    ledger.add(rnd.settle())
    check_money(rnd, ledger)


def test_setting_time_out_of_one_box_passes_the_turn_to_the_next() -> None:
    rnd, _ = example_at("setting")
    before = rnd.to_dict()
    for box, code in ((1, "not_your_turn"), (4, "not_your_turn"), (3, "not_your_turn")):
        with pytest.raises(RuleViolation) as exc:
            rnd.time_out(box)
        assert exc.value.code == code
    assert rnd.to_dict() == before
    step = rnd.time_out(2)
    assert rnd.boxes[2].is_set and not rnd.boxes[1].is_set
    assert [e.data for e in step.events if e.kind == "setting_turn"] == [
        {"box": 1, "player": "ann"}
    ]
    rnd.choose_setting(1, "ann", True)
    assert rnd.pending_settings() == []


# --- players leaving (§663a.7(b)) --------------------------------------------------------------


def test_abandon_before_no_more_bets_returns_the_wagers() -> None:
    rnd, ledger = example_round()
    ledger.add(rnd.abandon("ann"))
    assert rnd.boxes_of("ann") == [] and ledger.by_player["ann"] == 0


def abandoned_lines(rnd: Round, box: int) -> dict[str, tuple[str, int]]:
    assert rnd.results is not None
    [settled] = [b for b in rnd.results["boxes"] if b["box"] == box]
    return {line["wager"]: (line["outcome"], line["net"]) for line in settled["results"]}


def test_abandon_during_decisions_folds_undecided_and_forfeits_played_boxes() -> None:
    """One rule for every wager of a box its player left (§663a.7(b), ABANDON_RULE): box 1
    played, then ann left before setting it: its Ante, Play and Tie lose (the Tie used to be
    paid from a hand the house set for her); its Poker Bonus stays in action, as after the
    fold of box 2."""
    rnd, ledger = example_at("decisions")  # box 1 played, box 2 to act
    step = ledger.add(rnd.abandon("ann"))
    kinds = [e.kind for e in step.events]
    assert kinds.count("box_abandoned") == 2
    assert rnd.boxes[2].folded and rnd.to_act == 4
    ledger.add(rnd.decide(4, "bob", True))
    # Box 1 played: never set for her (no hand made up); bob sets his own.
    assert rnd.boxes[1].set_by == "abandoned" and rnd.boxes[1].setting() is None
    assert rnd.boxes[1].is_set and rnd.pending_settings() == [4]
    ledger.add(rnd.choose_setting(4, "bob", False))
    ledger.add(rnd.reveal())
    ledger.add(rnd.settle())
    check_money(rnd, ledger)
    lines = abandoned_lines(rnd, 1)
    assert lines["ante"] == ("lose", -1000) and lines["play"] == ("lose", -1000)
    assert lines["tie"] == ("lose", -500) and "ante_bonus" not in lines
    assert set(lines) == {"ante", "play", "tie", "poker_bonus"}
    folded = abandoned_lines(rnd, 2)  # the same rule for the box that folded on leaving
    assert folded["ante"] == ("lose", -1000) and set(folded) == {"ante", "poker_bonus"}


def test_abandon_during_setting_forfeits_the_boxes_not_yet_set() -> None:
    rnd, ledger = example_at("setting")
    ledger.add(rnd.choose_setting(2, "ann", True))
    step = ledger.add(rnd.abandon("ann"))
    assert rnd.boxes[2].set_by == "player" and rnd.boxes[1].set_by == "abandoned"
    assert step.events[-1].kind == "settings_complete"
    forfeit = next(e for e in step.events if e.kind == "hands_set" and e.data["box"] == 1)
    assert forfeit.data["forfeited"] == 1000 + 1000 + 500
    assert not any(e.kind == "setting" and e.data["box"] == 1 for e in step.events)
    ledger.add(rnd.reveal())
    ledger.add(rnd.settle())
    check_money(rnd, ledger)
    lines = abandoned_lines(rnd, 1)
    assert [lines[w][0] for w in ("ante", "play", "tie")] == ["lose"] * 3
    # Box 2, set before she left, is settled as set.
    assert abandoned_lines(rnd, 2)["ante"][0] in ("win", "push", "lose")
    again = Round.from_dict(rnd.to_dict())
    assert again.boxes[1].forfeited and again.to_dict() == rnd.to_dict()


# --- irregularities (§663a.13, §663a.10(f)) ----------------------------------------------------

STOP_PHASE = {
    "betting": Phase.BETTING,
    "closed": Phase.CLOSED,
    "decisions": Phase.DECISIONS,
    "setting": Phase.SETTING,
    "set": Phase.SETTING,
    "revealed": Phase.REVEALED,
    "settled": Phase.SETTLED,
}


@pytest.mark.parametrize("reason", sorted(VOID_REASONS))
@pytest.mark.parametrize("stop", PHASES)
def test_void_returns_every_stake_only_where_the_irregularity_can_happen(
    reason: str, stop: str
) -> None:
    rnd, ledger = example_at(stop)
    before = rnd.to_dict()
    if STOP_PHASE[stop] not in VOID_REASONS[reason].phases:
        with pytest.raises(RuleViolation) as exc:
            rnd.void(reason)
        expected = "wrong_phase" if stop == "settled" else "irregularity_not_now"
        assert exc.value.code == expected
        assert rnd.to_dict() == before
        return
    if reason in ("stub_miscount", "stub_miscount_misdealt"):
        # §663a.10(e), (f): counted, not trusted: the virtual shoe's stub counts 52 ...
        with pytest.raises(RuleViolation) as exc:
            rnd.void(reason)
        assert exc.value.code == "stub_correct"
        assert rnd.to_dict() == before
        # ... so the count shows a miscount only with a card gone, or a hand of six.
        lost = rnd.stub.pop()
        if reason == "stub_miscount_misdealt":
            rnd.boxes_in_play()[0].cards.append(lost)
    staked = staked_by_player(rnd)
    step = ledger.add(rnd.void(reason))
    assert rnd.phase is Phase.VOID and rnd.void_reason == reason
    check_money(rnd, ledger)
    assert all(t.amount < 0 for t in step.transfers)
    assert -sum(t.amount for t in step.transfers) == sum(staked.values())
    public = step.events[0]
    assert public.kind == "round_void" and public.audience == PUBLIC
    assert public.data["shoe"] == [card_code(c) for c in rnd.order]  # commit-reveal
    assert step.events[1].audience == DEALER and step.events[1].data["reshuffle"] is True
    check_round_trip(rnd)
    with pytest.raises(RuleViolation):
        rnd.void(reason)  # once finished, nothing more


def test_where_each_irregularity_can_happen() -> None:
    deal_only = {r for r, v in VOID_REASONS.items() if not v.phases}
    assert deal_only == {"cards_face_up", "wrong_card_count", "shoe_jam"}
    # §663a.10(c)-(f), §663a.11(a): the stub is counted once every stack is delivered, before
    # the players examine their cards; never once hands are set or the dealer's is face up.
    assert VOID_REASONS["stub_miscount"].phases == (Phase.DECISIONS,)
    assert VOID_REASONS["stub_miscount_misdealt"].phases == (Phase.DECISIONS,)
    assert VOID_REASONS["table_closed"].phases == (Phase.BETTING, Phase.CLOSED)


def test_unknown_irregularity() -> None:
    rnd = opened()
    with pytest.raises(InvalidInput) as exc:
        rnd.void("gremlins")
    assert exc.value.code == "unknown_irregularity"
    assert rnd.phase is Phase.BETTING


@pytest.mark.parametrize(
    "faults, void",
    [
        ([Fault.TWO_FACE_UP_CARDS], "cards_face_up"),  # §663a.13(a)
        ([Fault.JAM], "shoe_jam"),  # §663a.13(e)
        ([Fault.MISDEAL], "wrong_card_count"),  # §663a.13(c)
        ([Fault.FACE_UP_CARD], None),  # §663a.13(a): one card discarded, dealing goes on
        ([], None),
    ],
)
def test_deal_faults_void_while_dealing(faults: list[Fault], void: str | None) -> None:
    rnd, ledger = example_at("closed")
    step = ledger.add(rnd.deal(faults))
    check_money(rnd, ledger)
    if void:
        assert rnd.phase is Phase.VOID and rnd.void_reason == void
        assert ledger.total() == 0
        procedure = next(e for e in step.events if e.kind == "irregularity_procedure")
        assert procedure.audience == DEALER and procedure.data["reshuffle"] is True
        if void == "shoe_jam":
            assert procedure.data["reshuffle_with_dealt"] is True
    else:
        assert rnd.phase is Phase.DECISIONS
        face_up = [e for e in step.events if e.kind == "face_up_card"]
        assert len(face_up) == len(faults) == len(rnd.discards)
        dealt = [c for b in rnd.boxes.values() for c in b.cards] + rnd.dealer_cards
        assert len(set(dealt)) == len(dealt) == 20
        assert not set(rnd.discards) & set(dealt)
    check_round_trip(rnd)


def test_bad_faults_refused() -> None:
    rnd, _ = example_at("closed")
    before = rnd.to_dict()
    for faults in (["jam"], Fault.JAM, [Fault.MISCOUNT]):
        with pytest.raises(InvalidInput) as exc:
            rnd.deal(faults)  # type: ignore[arg-type]
        assert exc.value.code == "bad_fault"
    assert rnd.to_dict() == before


# --- persistence ------------------------------------------------------------------------------


@pytest.mark.parametrize("stop", PHASES)
def test_every_phase_stores_and_reloads(stop: str) -> None:
    rnd, _ = example_at(stop)
    check_round_trip(rnd)
    again = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    assert again.view("ann") == rnd.view("ann")
    assert again.view(None, dealer=True) == rnd.view(None, dealer=True)


def test_a_reloaded_round_plays_on() -> None:
    rnd, ledger = example_at("setting")
    rnd = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    ledger.add(rnd.choose_setting(2, "ann", False))
    ledger.add(rnd.choose_setting(1, "ann", True))
    rnd = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    ledger.add(rnd.reveal())
    ledger.add(rnd.settle())
    check_money(rnd, ledger)
    assert rnd.results is not None and rnd.results["players"]["ann"]["net"] == 18500


@pytest.mark.parametrize(
    "mangle",
    [
        lambda d: {},
        lambda d: {**d, "phase": "dancing"},
        lambda d: {**d, "game": "four_card_frenzy"},
        lambda d: {**d, "boxes": [{"box": 1}]},
        lambda d: {**d, "rules": {"no_such_rule": 1}},
        lambda d: {**d, "boxes": [{**d["boxes"][0], "decision": "raise"}]},
    ],
)
def test_a_mangled_saved_round_is_refused(mangle: Callable[[dict[str, Any]], Any]) -> None:
    rnd, _ = example_at("setting")
    with pytest.raises(InvalidInput) as exc:
        Round.from_dict(mangle(rnd.to_dict()))
    assert exc.value.code == "bad_state"


def test_a_four_card_frenzy_round_is_not_a_hi_lo_round() -> None:
    frenzy, _ = FrenzyRound.open(1, TableRules(), "red", list(DECK), "salt")
    with pytest.raises(InvalidInput) as exc:
        Round.from_dict(frenzy.to_dict())
    assert exc.value.code == "bad_state"


# --- money over random whole rounds ------------------------------------------------------------

ACTIONS = st.lists(st.integers(0, 99), min_size=40, max_size=40)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), choices=ACTIONS)
def test_money_is_conserved_over_random_whole_rounds(seed: int, choices: list[int]) -> None:
    """Random seats, wagers, decisions, settings, time-outs, departures, faults and voids:
    at every step the table holds exactly the stakes, and at the end each player has paid
    exactly what he lost (void: nothing)."""
    pick = iter(choices)

    def choice(n: int) -> int:
        # Once the drawn numbers run out, the round goes straight on (no departure, no void).
        return next(pick, n - 1) % n

    rules = HiLoRules(adjacent_boxes=bool(choice(2)), offers_tie=bool(choice(4)))
    rnd, _ = Round.shuffled(1, rules, SeededSource(seed), salt="s")
    ledger = Ledger()
    players = ["ann", "bob", "cy"]
    for box in range(1, 7):
        if choice(3) == 0:
            continue
        wagers: dict[str, object] = {"ante": 500 * (1 + choice(4))}
        if choice(2):
            wagers["tie"] = 100 * (1 + choice(3))
        if choice(2):
            wagers["poker_bonus"] = 100 * (1 + choice(3))
        try:
            ledger.add(rnd.bet(box, players[choice(3)], wagers))
        except EngineError:
            pass
        check_money(rnd, ledger)
    if not rnd.boxes_in_play():
        return

    def maybe_void() -> bool:
        reasons = rnd.void_reasons_now()
        if reasons and choice(12) == 0:
            ledger.add(rnd.void(reasons[choice(len(reasons))]))
            return True
        return False

    if maybe_void():
        check_money(rnd, ledger)
        return
    ledger.add(rnd.close_betting())
    faults = [[], [], [], [Fault.FACE_UP_CARD], [Fault.JAM], [Fault.MISDEAL]][choice(6)]
    ledger.add(rnd.deal(faults))
    check_money(rnd, ledger)
    while not rnd.finished:
        if maybe_void():
            break
        if choice(15) == 0:
            ledger.add(rnd.abandon(players[choice(3)]))
        elif rnd.phase is Phase.DECISIONS and rnd.to_act is not None:
            if choice(5) == 0:
                ledger.add(rnd.time_out())
            else:
                ledger.add(rnd.decide(rnd.to_act, rnd.boxes[rnd.to_act].player, bool(choice(3))))
        elif rnd.phase is Phase.SETTING and rnd.pending_settings():
            if choice(6) == 0:
                ledger.add(rnd.time_out())
            else:
                pending = rnd.pending_settings()
                player = rnd.boxes[pending[choice(len(pending))]].player
                box = rnd.next_to_set(player)
                assert box is not None
                offered = possible_settings(rnd.boxes[box].cards)
                ledger.add(rnd.choose_setting(box, player, bool(choice(len(offered)))))
        elif rnd.phase is Phase.SETTING or rnd.all_folded():
            ledger.add(rnd.reveal())
        elif rnd.phase is Phase.REVEALED:
            ledger.add(rnd.settle())
        check_money(rnd, ledger)
    check_money(rnd, ledger)
    check_round_trip(rnd)


def test_choosing_for_another_players_box_is_refused_before_anything_about_its_cards() -> None:
    rnd, _ = example_round()
    rnd.close_betting()
    rnd.deal()
    for box in (1, 2, 4):
        rnd.decide(box, rnd.boxes[box].player, True)
    before = rnd.to_dict()
    # bob's queens have no ace, but ann learns only that the box is not hers.
    for ace_low in (True, False):
        with pytest.raises(RuleViolation) as exc:
            rnd.choose_setting(4, "ann", ace_low)
        assert exc.value.code == "not_your_box"
    with pytest.raises(RuleViolation) as exc:
        rnd.set_hands(4, "ann", ["QH", "QD", "6D"], ["5S", "2C"])
    assert exc.value.code == "not_your_box"
    assert rnd.to_dict() == before
    rnd.set_hands(4, "bob", ["QD", "QH", "6D"], ["2C", "5S"])  # any order within a hand
    assert rnd.boxes[4].setting().totals == (26, 7)  # type: ignore[union-attr]


# --- any command at any moment: a refusal changes nothing ----------------------------------------


class AnyCommandAnyTime(RuleBasedStateMachine):
    """Random commands, legal or not, from random players: every refusal is a domain error
    that leaves the round exactly as it was, and the money always balances."""

    def __init__(self) -> None:
        super().__init__()
        self.rnd, _ = Round.shuffled(1, HiLoRules(), SeededSource(11), salt="s")
        self.ledger = Ledger()

    def attempt(self, command: Callable[[], Any]) -> None:
        before = self.rnd.to_dict()
        try:
            step = command()
        except EngineError as exc:
            assert exc.code and exc.message
            assert self.rnd.to_dict() == before
            return
        self.ledger.add(step)

    def settable(self, box: int, player: str, own: bool) -> tuple[int, str]:
        """Mostly a box its owner may set now, else the drawn box and player."""
        pending = self.rnd.pending_settings() if self.rnd.phase is Phase.SETTING else []
        if own and pending:
            owner = self.rnd.boxes[pending[-1]].player
            return self.rnd.next_to_set(owner) or box, owner
        return box, player

    players = st.sampled_from(["ann", "bob", "cy"])
    boxes = st.integers(0, 7)

    @rule(
        box=boxes,
        player=players,
        ante=st.sampled_from([0, 400, 500, 2000]),
        tie=st.sampled_from([0, 100]),
        bonus=st.sampled_from([0, 100, 20000]),
    )
    def bet(self, box: int, player: str, ante: int, tie: int, bonus: int) -> None:
        self.attempt(
            lambda: self.rnd.bet(box, player, {"ante": ante, "tie": tie, "poker_bonus": bonus})
        )

    @rule()
    def close_betting(self) -> None:
        self.attempt(self.rnd.close_betting)

    @rule(fault=st.sampled_from([None, None, None, Fault.FACE_UP_CARD, Fault.JAM]))
    def deal(self, fault: Fault | None) -> None:
        self.attempt(lambda: self.rnd.deal([fault] if fault else []))

    @rule(box=boxes, player=players, play=st.sampled_from([True, False, 1]), own=st.booleans())
    def decide(self, box: int, player: str, play: Any, own: bool) -> None:
        if own and self.rnd.to_act is not None:  # mostly the box whose turn it is
            box, player = self.rnd.to_act, self.rnd.boxes[self.rnd.to_act].player
        self.attempt(lambda: self.rnd.decide(box, player, play))

    @rule(
        box=boxes,
        player=players,
        picks=st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True),
        split=st.integers(1, 4),
        own=st.booleans(),
    )
    def set_hands(self, box: int, player: str, picks: list[int], split: int, own: bool) -> None:
        box, player = self.settable(box, player, own)
        # Mostly the box's own cards in a random order (3 high, 2 low), else any five cards.
        play = self.rnd.boxes.get(box)
        hand = picks
        if play is not None and play.cards and split != 4:
            hand = [card for _, card in sorted(zip(picks, play.cards, strict=True))]
        self.attempt(lambda: self.rnd.set_hands(box, player, hand[:3], hand[3:]))

    @rule(box=boxes, player=players, ace_low=st.booleans(), own=st.booleans())
    def choose_setting(self, box: int, player: str, ace_low: bool, own: bool) -> None:
        box, player = self.settable(box, player, own)
        self.attempt(lambda: self.rnd.choose_setting(box, player, ace_low))

    @rule(box=st.one_of(st.none(), boxes))
    def time_out(self, box: int | None) -> None:
        self.attempt(lambda: self.rnd.time_out(box))

    @rule()
    def reveal(self) -> None:
        self.attempt(self.rnd.reveal)

    @rule()
    def settle(self) -> None:
        self.attempt(self.rnd.settle)

    @rule(reason=st.sampled_from(sorted(VOID_REASONS)), draw=st.integers(0, 15))
    def void(self, reason: str, draw: int) -> None:
        if draw:  # seldom: a void ends the round
            return
        self.attempt(lambda: self.rnd.void(reason))

    @rule(player=players)
    def abandon(self, player: str) -> None:
        self.attempt(lambda: self.rnd.abandon(player))

    @invariant()
    def money_balances_and_the_round_reloads(self) -> None:
        check_money(self.rnd, self.ledger)
        check_round_trip(self.rnd)


AnyCommandAnyTime.TestCase.settings = settings(
    max_examples=80, stateful_step_count=80, deadline=None
)
test_any_command_any_time = AnyCommandAnyTime.TestCase


def test_the_round_has_four_card_frenzys_shape() -> None:
    """One interface will wrap both games: the same step, event and transfer types, the same
    commands and phase names where the games share them."""
    from table.games import events
    from table.games.four_card_frenzy import round as frenzy

    assert Step is frenzy.Step and Event is frenzy.Event
    assert Step is events.Step and Transfer is events.Transfer and PUBLIC == events.PUBLIC
    for name in (
        "open",
        "bet",
        "withdraw",
        "close_betting",
        "deal",
        "decide",
        "time_out",
        "reveal",
        "settle",
        "void",
        "abandon",
        "view",
        "to_dict",
        "from_dict",
        "boxes_in_play",
        "boxes_of",
    ):
        assert callable(getattr(Round, name)) and callable(getattr(frenzy.Round, name)), name
    shared = {p.value for p in frenzy.Phase}
    assert shared <= {p.value for p in Phase}
    assert {p.value for p in Phase} - shared == {"setting"}
