"""The Crazy 4 Poker round state machine: betting, no more bets, dealing, decisions, reveal,
settlement, irregularities, time-outs, persistence and money (ch. 657a)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.games.cards import DECK, card_code, parse_card
from table.games.crazy_4_poker.round import (
    DEALER,
    VOID_REASONS,
    Phase,
    Round,
    Step,
    TableRules,
)
from table.games.crazy_4_poker.rules import Rules
from table.games.errors import EngineError, InvalidInput, RuleViolation
from table.games.events import PUBLIC, to_player
from table.games.events import Step as EngineStep
from table.games.progressive import Meter
from table.games.shoe import Fault, commitment, shuffle

from ...conftest import SeededSource
from .rounds import (
    FOUR_CARD,
    FULL,
    PLAIN,
    Books,
    check_money,
    check_round_trip,
    codes_of,
    opened,
    stacked,
    table,
)

ALICE_CARDS = "AS AH 7C 4D 2H"  # pair of aces: may Play 1x-3x
BOB_CARDS = "KS KH 8C 5D 3H"  # pair of kings: Plays exactly the Ante
CAROL_CARDS = "9C 7D 5S 3C 2D"
DEALER_LOW = "QD JC 8D 6H 4S"  # queen high: does not qualify
SIX_STACK = "AD TC TD TH TS"  # the Six Card Bonus card is AD
ALICE_WAGERS = {
    "ante": 1000,
    "queens_up": 500,
    "progressive": 100,
    "hand_bonus_player": 100,
    "six_card_bonus": 500,
}


def whole_round_start(books: Books | None = None) -> tuple[Round, Books]:
    order = stacked(ALICE_CARDS, BOB_CARDS, CAROL_CARDS, DEALER_LOW, SIX_STACK)
    rnd, opening = Round.open(7, table(), "red", order, "salt")
    books = books or Books(rnd.rules)
    books.add(opening)
    books.add(rnd.bet(1, "alice", ALICE_WAGERS))
    books.add(rnd.bet(2, "bob", {"ante": 1000}))
    books.add(rnd.bet(4, "carol", {"ante": 1000, "super_bonus": 1000}))
    return rnd, books


def dealt_round() -> tuple[Round, Books]:
    rnd, books = whole_round_start()
    books.add(rnd.close_betting())
    books.add(rnd.deal())
    return rnd, books


def test_a_whole_round() -> None:
    rnd, books = whole_round_start()
    check_money(rnd, books)
    assert rnd.boxes[1].wagers["super_bonus"] == 1000  # §657a.7(d)(1): equal to the Ante

    step = books.add(rnd.close_betting())
    assert isinstance(step, EngineStep)  # the same shape as Four Card Frenzy's step
    assert rnd.phase is Phase.CLOSED
    # §657a.10(a)(2): the increments at "no more bets", one $1 progressive and one hand bonus.
    incs = {c.meter: (c.kind, c.amount, c.reserve) for c in step.meters}
    assert incs == {
        "mega": ("increment", 9, 0),
        "major": ("increment", 7, 0),
        "minor": ("increment", 3, 0),
        "hand_bonus": ("increment", 13, 8),
    }
    check_money(rnd, books)
    check_round_trip(rnd)

    step = books.add(rnd.deal())
    assert rnd.phase is Phase.DECISIONS
    # §657a.10(b): box 1, box 2, box 4, the dealer, then the Six Card Bonus stack's top card.
    assert rnd.boxes[1].cards == codes_of(ALICE_CARDS)
    assert rnd.boxes[2].cards == codes_of(BOB_CARDS)
    assert rnd.boxes[4].cards == codes_of(CAROL_CARDS)
    assert rnd.dealer_cards == codes_of(DEALER_LOW)
    assert rnd.six_card_bonus_card == parse_card("AD")
    assert rnd.discards == codes_of("TC TD TH TS")  # the rest of that stack, unseen
    assert len(rnd.stub) == 52 - 25
    hole = [e for e in step.events if e.kind == "hole_cards"]
    assert [(e.data["box"], e.audience) for e in hole] == [
        (1, to_player("alice")),
        (2, to_player("bob")),
        (4, to_player("carol")),
    ]
    assert hole[0].data["play"] == {"min": 1000, "max": 3000}
    assert hole[1].data["play"] == {"min": 1000, "max": 1000}
    assert [e.audience for e in step.events if e.kind == "shoe_stub"] == [DEALER]
    public = [e for e in step.events if e.audience == PUBLIC]
    assert "AS" not in json.dumps([e.to_dict() for e in public])
    assert step.events[-1].kind == "turn" and rnd.to_act == 1
    check_round_trip(rnd)

    # §657a.11(b): from the dealer's left.
    books.add(rnd.decide(1, "alice", 3000))
    assert rnd.to_act == 2
    books.add(rnd.decide(2, "bob", 1000))
    step = books.add(rnd.decide(4, "carol", 0))
    assert step.events[-1].kind == "decisions_complete" and rnd.to_act is None
    check_money(rnd, books)
    check_round_trip(rnd)

    step = books.add(rnd.reveal())
    assert rnd.phase is Phase.REVEALED
    assert step.events[0].data["qualifies"] is False
    assert step.events[0].data["six_card_bonus_card"] == "AD"
    check_round_trip(rnd)

    step = books.settle(rnd)
    assert rnd.phase is Phase.SETTLED
    settled = [e.data for e in step.events if e.kind == "box_settled"]
    assert [b["box"] for b in settled] == [4, 2, 1]  # §657a.11(c): from the dealer's right
    alice = settled[2]
    lines = {r["wager"]: (r["outcome"], r["net"]) for r in alice["results"]}
    assert lines == {
        "ante": ("push", 0),  # §657a.11(c)(3)(i): dealer below king high
        "play": ("win", 3000),
        "super_bonus": ("push", 0),
        "queens_up": ("win", 500),  # pair of aces, 1 to 1
        "progressive": ("lose", -100),
        "hand_bonus_player": ("lose", -100),
        "six_card_bonus": ("win", 2500),  # three aces with AD, table E 5 to 1
    }
    assert alice["net"] == 5800
    assert settled[0]["cards"] is None  # carol folded with no Six Card Bonus: unseen
    assert rnd.results is not None
    assert rnd.results["players"] == {
        "alice": {"net": 5800},
        "bob": {"net": 1000},
        "carol": {"net": -2000},
    }
    final = step.events[-1]
    assert final.kind == "round_settled"
    shoe = [parse_card(c) for c in final.data["shoe"]]
    assert commitment(shoe, final.data["salt"]) == books.events[0]["data"]["commitment"]
    check_money(rnd, books)
    check_round_trip(rnd)


def test_without_a_six_card_bonus_no_sixth_stack_is_dealt() -> None:
    rnd = opened(stacked(BOB_CARDS, DEALER_LOW))
    rnd.bet(3, "bob", {"ante": 1000, "queens_up": 100})
    rnd.close_betting()
    rnd.deal()
    assert rnd.boxes[3].cards == codes_of(BOB_CARDS)
    assert rnd.dealer_cards == codes_of(DEALER_LOW)
    assert rnd.six_card_bonus_card is None and rnd.discards == []
    assert len(rnd.stub) == 42


def test_a_table_without_meters_increments_nothing() -> None:
    rnd = opened(rules=table(PLAIN))
    rnd.bet(1, "bob", {"ante": 1000})
    assert rnd.close_betting().meters == ()


# --- betting ---------------------------------------------------------------------------------

BET_REFUSALS: list[tuple[int, str, dict[str, Any], type, str]] = [
    (0, "alice", {"ante": 1000}, InvalidInput, "bad_box"),
    (7, "alice", {"ante": 1000}, InvalidInput, "bad_box"),
    (3, "", {"ante": 1000}, InvalidInput, "bad_player"),
    (2, "alice", {"ante": 1000}, RuleViolation, "box_taken"),  # bob's box
    (3, "alice", {"ante": 1000, "odds": 1000}, InvalidInput, "unknown_wager"),
    (3, "alice", {"ante": 1000, "play": 1000}, InvalidInput, "unknown_wager"),
    (3, "alice", {"ante": -5}, InvalidInput, "bad_amount"),
    (3, "alice", {"ante": 10.0}, InvalidInput, "bad_amount"),
    (3, "alice", {"ante": True}, InvalidInput, "bad_amount"),
    (3, "alice", {"ante": 1000, "super_bonus": 500}, RuleViolation, "unequal_super_bonus"),
    (3, "alice", {"ante": 400}, RuleViolation, "out_of_limits"),
    (3, "alice", {"ante": 50_001}, RuleViolation, "out_of_limits"),
    (3, "alice", {"queens_up": 500}, RuleViolation, "ante_required"),
    (3, "alice", {"ante": 1000, "queens_up": 50}, RuleViolation, "out_of_limits"),
    (3, "alice", {"ante": 1000, "six_card_bonus": 10_001}, RuleViolation, "out_of_limits"),
    (3, "alice", {"ante": 1000, "progressive": 500}, RuleViolation, "fixed_wager"),
    (3, "alice", {"ante": 1000, "hand_bonus_dealer": 200}, RuleViolation, "fixed_wager"),
    (4, "alice", {"ante": 1000}, RuleViolation, "not_adjacent"),  # alice has box 1
]


@pytest.mark.parametrize(("box", "player", "wagers", "error", "code"), BET_REFUSALS)
def test_bets_refused_change_nothing(
    box: int, player: str, wagers: dict[str, Any], error: type, code: str
) -> None:
    rnd = opened()
    rnd.bet(1, "alice", {"ante": 1000})
    rnd.bet(2, "bob", {"ante": 1000})
    before = rnd.to_dict()
    with pytest.raises(error) as info:
        rnd.bet(box, player, wagers)
    assert info.value.code == code
    assert rnd.to_dict() == before


def test_optional_wagers_the_rules_do_not_offer_are_refused() -> None:
    rnd = opened(rules=table(PLAIN))
    for wager in ("progressive", "hand_bonus_player", "hand_bonus_dealer", "six_card_bonus"):
        with pytest.raises(RuleViolation) as info:
            rnd.bet(1, "alice", {"ante": 1000, wager: 100})
        assert info.value.code == "not_offered"
    rnd.bet(1, "alice", {"ante": 1000, "queens_up": 100})  # §657a.7(d)(2): always offered
    assert rnd.boxes[1].wagers["queens_up"] == 100


def test_adjacent_boxes_per_the_rules_submission() -> None:
    # §657a.7(e): the Rules Submission's number of adjacent boxes (2 by default).
    rnd = opened()
    rnd.bet(2, "alice", {"ante": 1000})
    rnd.bet(3, "alice", {"ante": 1000})
    with pytest.raises(RuleViolation) as info:
        rnd.bet(4, "alice", {"ante": 1000})
    assert info.value.code == "too_many_boxes"
    three = Rules(FULL.queens_up, max_boxes_per_player=3)
    rnd = opened(rules=table(three))
    for b in (2, 3, 4):
        rnd.bet(b, "alice", {"ante": 1000})
    with pytest.raises(RuleViolation) as info:
        rnd.withdraw(3, "alice")  # would leave boxes 2 and 4 apart
    assert info.value.code == "not_adjacent"
    rnd.withdraw(4, "alice")
    assert rnd.boxes_of("alice") == [2, 3]


def test_changing_and_withdrawing_bets_moves_only_the_difference() -> None:
    rnd = opened()
    first = rnd.bet(1, "alice", {"ante": 1000, "queens_up": 500})
    assert [t.amount for t in first.transfers] == [2500]
    more = rnd.bet(1, "alice", {"ante": 2000, "hand_bonus_dealer": 100})
    assert [t.amount for t in more.transfers] == [1600]
    gone = rnd.withdraw(1, "alice")
    assert [t.amount for t in gone.transfers] == [-4100]
    assert gone.events[0].kind == "wagers_withdrawn" and not rnd.boxes
    assert rnd.bet(1, "alice", {}).transfers == ()


def test_no_more_bets_locks_every_wager() -> None:
    rnd = opened()
    with pytest.raises(RuleViolation) as info:
        rnd.close_betting()
    assert info.value.code == "no_wagers"
    rnd.bet(1, "alice", {"ante": 1000})
    rnd.close_betting()
    before = rnd.to_dict()
    # §657a.7(c): nothing placed, changed or withdrawn after "no more bets".
    for attempt in (
        lambda: rnd.bet(2, "bob", {"ante": 1000}),
        lambda: rnd.bet(1, "alice", {"ante": 2000}),
        lambda: rnd.withdraw(1, "alice"),
        rnd.close_betting,
    ):
        with pytest.raises(RuleViolation) as info:
            attempt()
        assert info.value.code == "wrong_phase"
    assert rnd.to_dict() == before


# --- decisions -------------------------------------------------------------------------------

DECISION_REFUSALS: list[tuple[int, str | None, Any, type, str]] = [
    (2, "bob", 1000, RuleViolation, "not_your_turn"),  # box 1 decides first
    (4, "carol", 0, RuleViolation, "not_your_turn"),
    (3, "bob", 1000, RuleViolation, "not_in_play"),  # an empty box (the skeleton says so first)
    (9, "alice", 1000, InvalidInput, "bad_box"),
    (1, "bob", 1000, RuleViolation, "not_your_box"),  # acting for alice's box
    (1, "", 1000, InvalidInput, "bad_player"),
    (1, "alice", 4000, RuleViolation, "play_not_allowed"),  # over 3x with aces
    (1, "alice", 999, RuleViolation, "play_not_allowed"),  # under 1x
    (1, "alice", -1000, InvalidInput, "bad_play"),
    (1, "alice", True, InvalidInput, "bad_play"),
    (1, "alice", "3x", InvalidInput, "bad_play"),
    (1, "alice", 1500.0, InvalidInput, "bad_play"),
]


@pytest.mark.parametrize(("box", "player", "play", "error", "code"), DECISION_REFUSALS)
def test_decisions_refused_change_nothing(
    box: int, player: str | None, play: Any, error: type, code: str
) -> None:
    rnd, _ = dealt_round()
    before = rnd.to_dict()
    with pytest.raises(error) as info:
        rnd.decide(box, player, play)
    assert info.value.code == code
    assert rnd.to_dict() == before


def test_below_a_pair_of_aces_the_play_is_exactly_the_ante() -> None:
    rnd, _ = dealt_round()
    rnd.decide(1, "alice", 1000)
    before = rnd.to_dict()
    for play in (2000, 3000, 1001):
        with pytest.raises(RuleViolation) as info:
            rnd.decide(2, "bob", play)
        assert info.value.code == "play_not_allowed"
    assert rnd.to_dict() == before
    step = rnd.decide(2, "bob", 1000)
    assert [(t.amount, t.wager) for t in step.transfers] == [(1000, "play")]


@pytest.mark.parametrize("play", [1000, 1500, 2000, 2999, 3000])
def test_aces_or_better_play_any_amount_from_one_to_three_times(play: int) -> None:
    # §657a.11(b) and house interpretation 4: "up to three times" the Ante.
    rnd, _ = dealt_round()
    step = rnd.decide(1, "alice", play)
    assert rnd.boxes[1].wagers["play"] == play
    assert step.transfers[0].amount == play


def test_decisions_in_the_wrong_phase_are_refused() -> None:
    rnd, _ = whole_round_start()
    for attempt in (lambda: rnd.decide(1, "alice", 1000), rnd.time_out, rnd.reveal):
        with pytest.raises(RuleViolation) as info:
            attempt()
        assert info.value.code == "wrong_phase"
    rnd.close_betting()
    with pytest.raises(RuleViolation):
        rnd.decide(1, "alice", 1000)


def test_time_out_folds_the_box_to_act() -> None:
    rnd, books = dealt_round()
    step = books.add(rnd.time_out())
    decision = step.events[0]
    assert decision.data == {
        "box": 1,
        "player": "alice",
        "play": 0,
        "folded": True,
        "cards_kept": True,  # §657a.11(b)(3): her Six Card Bonus keeps the cards on the layout
        "why": "timeout",
    }
    assert step.transfers == ()
    books.add(rnd.time_out())
    step = books.add(rnd.time_out())
    assert step.events[0].data["cards_kept"] is False
    assert rnd.to_act is None
    before = rnd.to_dict()
    with pytest.raises(RuleViolation) as info:
        rnd.time_out()
    assert info.value.code == "nobody_to_act"
    assert rnd.to_dict() == before
    books.add(rnd.reveal())
    books.settle(rnd)
    check_money(rnd, books)
    # Alice folded: she forfeits everything but the Six Card Bonus (§657a.11(b)), which wins.
    assert rnd.results is not None
    alice = next(b for b in rnd.results["boxes"] if b["box"] == 1)
    assert {r["wager"]: r["outcome"] for r in alice["results"]} == {
        "ante": "lose",
        "super_bonus": "lose",
        "queens_up": "lose",
        "progressive": "lose",
        "hand_bonus_player": "lose",
        "six_card_bonus": "win",
    }
    assert alice["cards"] == ALICE_CARDS.split()  # kept on the layout, turned up
    carol = next(b for b in rnd.results["boxes"] if b["box"] == 4)
    assert carol["cards"] is None


def test_abandon() -> None:
    rnd, books = whole_round_start()
    step = books.add(rnd.abandon("bob"))
    assert [t.amount for t in step.transfers] == [-2000]  # before the deal: returned
    assert 2 not in rnd.boxes
    books.add(rnd.bet(2, "bob", {"ante": 1000}))
    books.add(rnd.close_betting())
    step = books.add(rnd.abandon("bob"))
    assert [e.kind for e in step.events] == ["box_abandoned"]
    books.add(rnd.deal())
    books.add(rnd.decide(1, "alice", 1000))
    # Bob's box folds as its turn comes (§657a.7(b)); carol is next.
    assert rnd.boxes[2].decision == 0 and rnd.to_act == 4
    step = books.add(rnd.abandon("carol"))  # the box to act: folds at once
    assert [e.kind for e in step.events] == ["box_abandoned", "decision", "decisions_complete"]
    assert rnd.abandon("nobody").events == ()
    books.add(rnd.reveal())
    books.settle(rnd)
    check_money(rnd, books)


# --- reveal and settlement ---------------------------------------------------------------------


def test_reveal_waits_for_every_decision_and_settle_for_the_reveal() -> None:
    rnd, books = dealt_round()
    before = rnd.to_dict()
    with pytest.raises(RuleViolation) as info:
        rnd.reveal()
    assert info.value.code == "decisions_pending"
    with pytest.raises(RuleViolation) as info:
        rnd.settle(books.meters)
    assert info.value.code == "wrong_phase"
    assert rnd.to_dict() == before
    for box in (1, 2, 4):
        books.add(rnd.decide(box, None, 0))  # None: the house acting for the box
    books.add(rnd.reveal())
    before = rnd.to_dict()
    for bad in ({}, {"mega": Meter(1)}, {**books.meters, "other": Meter(1)}):
        with pytest.raises(InvalidInput) as info:
            rnd.settle(bad)
        assert info.value.code == "bad_meters"
    with pytest.raises(InvalidInput):
        rnd.settle({name: 5 for name in books.meters})  # type: ignore[misc]
    assert rnd.to_dict() == before
    books.settle(rnd)
    for attempt in (rnd.reveal, lambda: rnd.settle(books.meters), rnd.time_out):
        with pytest.raises(RuleViolation) as info:
            attempt()
        assert info.value.code == "wrong_phase"


def test_a_progressive_jackpot_is_paid_from_the_meter_and_resets_it() -> None:
    # Five-Card C: a royal flush pays 100% of the mega meter (§657a.12(e)), which resets to
    # its $10,000 reseed; box 5 is settled before box 3 (§657a.11(c)).
    royal, low = "AH KH QH JH TH", "9C 7D 5S 3C 2D"
    rnd = opened(stacked(low, royal, "KD QD 8C 5H 3D"))
    books = Books(rnd.rules)
    books.add(rnd.bet(3, "p3", {"ante": 1000, "progressive": 100}))
    books.add(rnd.bet(5, "p5", {"ante": 1000, "progressive": 100}))
    books.meters["mega"] = Meter(1_234_567)
    books.start["mega"] = Meter(1_234_567)
    books.add(rnd.close_betting())
    books.add(rnd.deal())
    books.add(rnd.decide(3, "p3", 0))
    books.add(rnd.decide(5, "p5", 3000))
    books.add(rnd.reveal())
    step = books.settle(rnd)
    payouts = [c for c in step.meters if c.kind == "payout"]
    assert [(c.meter, c.box, c.wager, c.paid, c.reset) for c in payouts] == [
        ("mega", 5, "progressive", 1_234_567 + 2 * 9, True)
    ]
    assert rnd.results is not None
    assert rnd.results["meters"]["mega"]["amount"] == 1_000_000
    assert rnd.results["meters"]["mega"]["reseeds"] == 1
    # The folded box still receives the $1,000 Envy Bonus (§657a.11(b)(2)).
    p3 = next(b for b in rnd.results["boxes"] if b["box"] == 3)
    assert p3["envy"] == [{"from_box": 5, "hand": "royal_flush", "amount": 100_000}]
    envy = [t for t in step.transfers if t.memo == "envy bonus"]
    assert [(t.player, t.amount) for t in envy] == [("p3", -100_000)]
    check_money(rnd, books)


def test_magic_card_and_lucky_bonus_are_drawn_when_triggered() -> None:
    rules = Rules(
        FULL.queens_up,
        hand_bonus_wager=100,
        magic_card_probability=Fraction(1),
        lucky_bonus_probability=Fraction(1),
    )
    rnd = opened(stacked(ALICE_CARDS, DEALER_LOW), table(rules))
    books = Books(rnd.rules)
    books.add(rnd.bet(1, "alice", {"ante": 1000, "hand_bonus_player": 100}))
    books.add(rnd.close_betting())
    before = rnd.to_dict()
    with pytest.raises(InvalidInput):
        rnd.deal(faults=["jam"])  # type: ignore[list-item]
    assert rnd.to_dict() == before

    class Scripted:
        def __init__(self, answers: list[int]) -> None:
            self.answers = answers

        def randbelow(self, n: int, /) -> int:
            return self.answers.pop(0) % n

    # Magic Card: triggered, then AH from a full deck; Lucky Bonus: triggered, then box 1.
    books.add(rnd.deal(rng=Scripted([0, parse_card("AH"), 0, 0])))
    assert rnd.magic_card == parse_card("AH") and rnd.lucky_position == 1
    assert rnd.view("alice")["draws"] is None  # shown at settlement
    check_round_trip(rnd)
    books.add(rnd.decide(1, "alice", 1000))
    books.add(rnd.reveal())
    step = books.settle(rnd)
    assert rnd.results is not None
    assert rnd.results["draws"] == {"magic_card": "AH", "lucky_position": 1}
    bonuses = {
        t.wager: t.amount for t in step.transfers if t.wager in ("magic_card", "lucky_bonus")
    }
    assert bonuses == {"magic_card": -2000, "lucky_bonus": -500}  # 20 for 1 and 5 for 1
    check_money(rnd, books)


def test_no_draws_when_the_rules_keep_them_off() -> None:
    rnd, _ = whole_round_start()
    rnd.close_betting()

    class Refuses:
        def randbelow(self, n: int, /) -> int:
            raise AssertionError("no draw should happen")

    rnd.deal(rng=Refuses())
    assert rnd.magic_card is None and rnd.lucky_position is None


# --- irregularities ---------------------------------------------------------------------------


def _in_phase(phase: str) -> tuple[Round, Books]:
    rnd, books = whole_round_start()
    if phase == "betting":
        return rnd, books
    books.add(rnd.close_betting())
    if phase == "closed":
        return rnd, books
    books.add(rnd.deal())
    if phase == "decisions":
        return rnd, books
    if phase == "decisions_one_left":
        books.add(rnd.decide(1, "alice", 3000))
        books.add(rnd.decide(2, "bob", 1000))
        return rnd, books
    for box in sorted(rnd.boxes):
        books.add(rnd.decide(box, None, 1000))
    if phase == "decided":
        return rnd, books
    books.add(rnd.reveal())
    if phase == "revealed":
        return rnd, books
    books.settle(rnd)
    return rnd, books


PHASES = ["betting", "closed", "decisions", "decisions_one_left", "decided", "revealed", "settled"]
AFTER_THE_DEAL = ("decisions", "decisions_one_left", "decided")
EVIDENCE = {"seen_by": "the floorperson", "note": "camera 3"}


def expected(reason: str, phase: str) -> str:
    """ "void", or the code a void for ``reason`` is refused with in ``phase``."""
    if phase == "settled":
        return "wrong_phase"
    if reason == "supervisor_void":
        return "void"  # the platform's way out, in any phase before settled (issue 23)
    if phase == "revealed":
        return "outcome_known"  # the dealer's hand is face up: settled, not voided
    if reason in ("cards_face_up", "shoe_jam", "wrong_card_count"):
        return "shoe_only"  # §657a.13(a), (c), (f): found by the deal itself
    if reason == "stub_count_wrong":
        # §657a.10(f): counted after the deal, not taken on trust; the virtual shoe's is right.
        return "stub_correct" if phase in AFTER_THE_DEAL else "irregularity_not_now"
    if reason == "dealer_card_exposed":
        if phase in ("decisions", "decisions_one_left"):
            return "void"  # §657a.13(d): before every box has played or folded
        return "decisions_complete" if phase == "decided" else "irregularity_not_now"
    if reason == "table_closed":
        return "void" if phase == "betting" else "round_in_play"
    assert reason == "server_restart"
    return "void"


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("reason", sorted(VOID_REASONS))
def test_void_only_in_the_phases_where_it_can_happen(reason: str, phase: str) -> None:
    rnd, books = _in_phase(phase)
    outcome = expected(reason, phase)
    assert (outcome == "void") is (rnd.phase.value in VOID_REASONS[reason].phases) or (
        outcome in ("decisions_complete", "stub_correct")
    )
    if outcome != "void":
        before = rnd.to_dict()
        with pytest.raises(RuleViolation) as info:
            rnd.void(reason, EVIDENCE)
        assert info.value.code == outcome
        assert rnd.to_dict() == before
        return
    assert reason in rnd.void_reasons_now()
    increments = {c.meter: c for c in books.changes if c.kind == "increment"}
    step = books.add(rnd.void(reason, EVIDENCE))
    assert rnd.phase is Phase.VOID and rnd.void_reason == reason and rnd.to_act is None
    # §657a.13: every wager back, side bets (and any Play) included...
    assert sum(t.amount for t in step.transfers) == -sum(b.staked() for b in rnd.boxes.values())
    # ...and this round's meter increments taken back out.
    assert {c.meter: (c.amount, c.reserve) for c in step.meters} == {
        name: (-c.amount, -c.reserve) for name, c in increments.items()
    }
    public, procedure = step.events
    assert public.kind == "round_void" and public.data["reason"] == reason
    assert public.data["evidence"]["seen_by"] == "the floorperson"
    assert procedure.kind == "irregularity_procedure" and procedure.audience == DEALER
    assert procedure.data["reshuffle"] is True and procedure.data["remove_deck"] is False
    assert rnd.irregularity() == VOID_REASONS[reason].explanation
    check_money(rnd, books)
    check_round_trip(rnd)
    with pytest.raises(RuleViolation):
        rnd.void("server_restart", EVIDENCE)


@pytest.mark.parametrize("evidence", [None, {}, [1], "camera", {"x": object()}])
def test_a_declared_void_needs_its_evidence(evidence: Any) -> None:
    rnd, _ = _in_phase("decisions")
    before = rnd.to_dict()
    with pytest.raises(InvalidInput) as info:
        rnd.void("server_restart", evidence)
    assert info.value.code == "no_evidence"
    assert rnd.to_dict() == before


def test_the_shoe_exposing_a_dealer_card_while_dealing_voids_everything() -> None:
    # §657a.13(d): before any box has decided; unlike ch. 684a, the side bets are returned too.
    rnd, books = _in_phase("closed")
    step = books.add(rnd.deal([Fault.DEALER_CARD_EXPOSED]))
    assert rnd.phase is Phase.VOID and rnd.void_reason == "dealer_card_exposed"
    void = next(e for e in step.events if e.kind == "round_void")
    assert void.data["evidence"]["card"] == card_code(rnd.dealer_cards[0])
    assert sum(t.amount for t in step.transfers) == -sum(b.staked() for b in rnd.boxes.values())
    assert not any(e.kind == "hole_cards" for e in step.events)
    check_money(rnd, books)
    check_round_trip(rnd)


def test_dealer_card_exposed_before_every_decision_voids_everything() -> None:
    rnd, books = _in_phase("decisions_one_left")
    played = rnd.boxes[1].staked()
    step = books.add(rnd.dealer_card_exposed())
    returned = {(t.box, t.wager): -t.amount for t in step.transfers}
    assert returned[(1, "play")] == 3000 and returned[(1, "six_card_bonus")] == 500
    assert (
        returned[(1, "progressive")] == 100
        and sum(a for (b, _), a in returned.items() if b == 1) == played
    )
    check_money(rnd, books)


def test_dealer_card_exposed_after_every_decision_changes_nothing() -> None:
    rnd, _ = _in_phase("decided")
    before = rnd.to_dict()
    with pytest.raises(RuleViolation) as info:
        rnd.dealer_card_exposed()
    assert info.value.code == "decisions_complete"
    assert rnd.to_dict() == before


def test_irregularities_that_do_not_void_and_unknown_ones_are_refused() -> None:
    rnd, _ = _in_phase("decisions")
    before = rnd.to_dict()
    for reason in ("one_card_face_up", "card_drawn_in_error", "shuffler_jam"):
        with pytest.raises(RuleViolation) as info:
            rnd.void(reason, EVIDENCE)
        assert info.value.code == "not_void"
    for reason in ("nope", 3, None):
        with pytest.raises(InvalidInput) as info2:
            rnd.void(reason, EVIDENCE)  # type: ignore[arg-type]
        assert info2.value.code == "unknown_irregularity"
    assert rnd.to_dict() == before


@pytest.mark.parametrize(
    ("faults", "void"),
    [
        ([], None),
        ([Fault.FACE_UP_CARD], None),  # §657a.13(a): discarded, the deal goes on
        ([Fault.TWO_FACE_UP_CARDS], "cards_face_up"),
        ([Fault.FACE_UP_CARD, Fault.FACE_UP_CARD], "cards_face_up"),
        ([Fault.MISDEAL], "wrong_card_count"),  # §657a.13(c)
        ([Fault.JAM], "shoe_jam"),  # §657a.13(f)
    ],
)
def test_deal_faults(faults: list[Fault], void: str | None) -> None:
    rnd, books = _in_phase("closed")
    step = books.add(rnd.deal(faults))
    if void is None:
        assert rnd.phase is Phase.DECISIONS
        face_up = [e for e in step.events if e.kind == "face_up_card"]
        assert len(face_up) == len(faults)
        assert all(len(b.cards) == 5 for b in rnd.boxes_in_play())
        assert len(rnd.dealer_cards) == 5
    else:
        assert rnd.phase is Phase.VOID and rnd.void_reason == void
        assert any(c.kind == "reverse" for c in step.meters)
        check_money(rnd, books)


def test_a_shuffler_miscount_is_not_a_deal_fault() -> None:
    rnd, _ = _in_phase("closed")
    before = rnd.to_dict()
    with pytest.raises(InvalidInput) as info:
        rnd.deal([Fault.MISCOUNT])
    assert info.value.code == "bad_fault"
    assert rnd.to_dict() == before


# --- opening and persistence -----------------------------------------------------------------


def test_open_refuses_a_bad_shoe_and_bad_rules() -> None:
    with pytest.raises(InvalidInput):
        Round.open(1, table(), "red", [0, 0, *DECK[2:]], "s")
    with pytest.raises(InvalidInput) as info:
        Round.open(1, table(), "red", list(DECK[:51]), "s")
    assert info.value.code == "bad_shoe"
    with pytest.raises(InvalidInput):
        Round.open(1, FULL, "red", list(DECK), "s")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        TableRules(FULL, ante_min=1000, ante_max=500)


def test_shuffled_uses_the_injected_source() -> None:
    a, _ = Round.shuffled(1, table(), SeededSource(5), "red", "s")
    b, _ = Round.shuffled(1, table(), SeededSource(5))
    assert a.order == b.order == shuffle(DECK, SeededSource(5))
    assert a.salt == "s" and len(b.salt) == 32


@pytest.mark.parametrize("rules", [FULL, FOUR_CARD, PLAIN])
def test_table_rules_round_trip(rules: Rules) -> None:
    t = table(rules, ante_min=1000, queens_up_max=5000)
    assert TableRules.from_dict(json.loads(json.dumps(t.to_dict()))) == t


def test_from_dict_refuses_what_is_not_a_saved_round() -> None:
    rnd, _ = dealt_round()
    saved = rnd.to_dict()
    for bad in ({}, {**saved, "phase": "nope"}, {**saved, "game": "four_card_frenzy"}):
        with pytest.raises(InvalidInput) as info:
            Round.from_dict(bad)
        assert info.value.code == "bad_state"


# --- money over random whole rounds -------------------------------------------------------------

PLAYERS = ["alice", "bob", "carol"]


def _wagers(data: st.DataObject) -> dict[str, object]:
    wagers: dict[str, object] = {"ante": data.draw(st.sampled_from([500, 1000, 2500, 400, 0]))}
    for name, sizes in (
        ("queens_up", [100, 500, 50]),
        ("progressive", [100, 500]),
        ("hand_bonus_player", [100, 500]),
        ("hand_bonus_dealer", [100, 500]),
        ("six_card_bonus", [100, 1000]),
    ):
        if data.draw(st.booleans()):
            wagers[name] = data.draw(st.sampled_from(sizes))
    return wagers


RULE_CHOICES = [
    FULL,
    FOUR_CARD,
    PLAIN,
    Rules.from_names("D", ("five_card", "A", 500), 500, "C"),
    Rules(
        FULL.queens_up,
        FULL.progressive,
        100,
        FULL.six_card_bonus,
        Fraction(1, 2),
        Fraction(1, 2),
        3,
    ),
]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, len(RULE_CHOICES) - 1), st.data())
def test_random_command_sequences_conserve_money(
    seed: int, rules_index: int, data: st.DataObject
) -> None:
    rules = RULE_CHOICES[rules_index]
    source = SeededSource(seed)
    rnd, opening = Round.open(7, table(rules), "red", shuffle(DECK, source), "salt")
    books = Books(rnd.rules)
    books.add(opening)
    commands = ["bet"] * 4 + ["withdraw", "close", "close", "deal", "deal"]
    commands += ["decide"] * 5 + ["time_out", "abandon", "reveal", "reveal", "settle", "settle"]
    commands += ["exposed", "void"]
    for _ in range(data.draw(st.integers(5, 45))):
        command = data.draw(st.sampled_from(commands))
        player = data.draw(st.sampled_from(PLAYERS))
        box = data.draw(st.integers(0, 7))
        before = rnd.to_dict()
        try:
            if command == "bet":
                step = rnd.bet(box, player, _wagers(data))
            elif command == "withdraw":
                step = rnd.withdraw(box, player)
            elif command == "close":
                step = rnd.close_betting()
            elif command == "deal":
                faults = data.draw(
                    st.lists(
                        st.sampled_from([f for f in Fault if f is not Fault.MISCOUNT]), max_size=2
                    )
                )
                step = rnd.deal(faults if data.draw(st.integers(0, 3)) == 0 else [], source)
            elif command == "decide":
                to_act = rnd.to_act if rnd.to_act is not None else box
                owner = rnd.boxes[to_act].player if to_act in rnd.boxes else player
                ante = rnd.boxes[to_act].wagers.get("ante", 1000) if to_act in rnd.boxes else 1000
                step = rnd.decide(
                    to_act if data.draw(st.integers(0, 5)) else box,
                    owner if data.draw(st.integers(0, 5)) else player,
                    ante * data.draw(st.sampled_from([0, 1, 1, 1, 2, 3, 4]))
                    + data.draw(st.sampled_from([0, 0, 0, 1, 500])),
                )
            elif command == "time_out":
                step = rnd.time_out()
            elif command == "abandon":
                step = rnd.abandon(player)
            elif command == "reveal":
                step = rnd.reveal()
            elif command == "settle":
                step = books.settle(rnd)
                check_money(rnd, books)
                check_round_trip(rnd)
                continue
            elif command == "exposed":
                step = rnd.dealer_card_exposed()
            else:
                step = rnd.void(
                    data.draw(st.sampled_from([*VOID_REASONS, "nope"])),
                    data.draw(st.sampled_from([None, EVIDENCE])),
                )
        except EngineError as exc:
            assert exc.code and exc.message
            assert rnd.to_dict() == before, (command, exc.code)  # refusals change nothing
            continue
        books.add(step)
        check_money(rnd, books)
        check_round_trip(rnd)
    # Finish the round where it stands and check the books once more.
    if rnd.phase is Phase.BETTING and rnd.boxes_in_play():
        books.add(rnd.close_betting())
    if rnd.phase is Phase.CLOSED:
        books.add(rnd.deal(rng=source))
    while rnd.phase is Phase.DECISIONS and rnd.to_act is not None:
        books.add(rnd.decide(rnd.to_act, None, rnd.play_range(rnd.boxes[rnd.to_act])[1]))
    if rnd.phase is Phase.DECISIONS:
        books.add(rnd.reveal())
    if rnd.phase is Phase.REVEALED:
        books.settle(rnd)
    check_money(rnd, books)
    check_round_trip(rnd)
    if rnd.phase in (Phase.SETTLED, Phase.VOID):
        ends = [e for e in books.events if e["kind"] in ("round_settled", "round_void")]
        assert len(ends) == 1
        final = ends[0]
        shoe = [parse_card(c) for c in final["data"]["shoe"]]
        assert commitment(shoe, final["data"]["salt"]) == books.events[0]["data"]["commitment"]
        assert card_code(shoe[0]) == final["data"]["shoe"][0]


def test_the_round_has_four_card_frenzys_shape() -> None:
    """One interface will wrap the games: the same events and transfers, a step that is Four
    Card Frenzy's plus the meter changes, the same commands and phases."""
    from table.games import events
    from table.games.four_card_frenzy import round as frenzy

    step = Step()
    assert isinstance(step, events.Step) and step.events == () and step.meters == ()
    assert DEALER == "dealer" and PUBLIC == events.PUBLIC
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
        "dealer_card_exposed",
        "abandon",
        "view",
        "to_dict",
        "from_dict",
        "boxes_in_play",
        "boxes_of",
        "stub_count",
        "irregularity",
    ):
        assert callable(getattr(Round, name)) and callable(getattr(frenzy.Round, name)), name
    assert {p.value for p in Phase} == {p.value for p in frenzy.Phase}


def test_time_out_names_the_box_to_act_or_is_refused() -> None:
    rnd, _ = dealt_round()
    before = rnd.to_dict()
    for box, error, code in ((2, RuleViolation, "not_your_turn"), (8, InvalidInput, "bad_box")):
        with pytest.raises(error) as info:
            rnd.time_out(box)
        assert info.value.code == code
    assert rnd.to_dict() == before
    assert rnd.time_out(1).events[0].data["why"] == "timeout" and rnd.to_act == 2


def test_a_dealer_hand_jackpot_is_split_in_settlement_order() -> None:
    # §657a.12(f)(2): the dealer's royal flush takes 100% of the hand-bonus meter once, split
    # equally among the live dealer-hand wagers; listed box 5 first, then box 2 (§657a.11(c)).
    rnd = opened(stacked("2C 3D 5H 7S 9C", "2D 3H 5S 7C 9D", "AS KS QS JS TS"))
    books = Books(rnd.rules)
    books.meters["hand_bonus"] = books.start["hand_bonus"] = Meter(1_000_000)
    books.add(rnd.bet(2, "p2", {"ante": 1000, "hand_bonus_dealer": 100}))
    books.add(rnd.bet(5, "p5", {"ante": 1000, "hand_bonus_dealer": 100}))
    books.add(rnd.close_betting())
    assert books.meters["hand_bonus"] == Meter(1_000_026, 16)
    books.add(rnd.deal())
    books.add(rnd.decide(2, "p2", 1000))
    books.add(rnd.decide(5, "p5", 1000))
    books.add(rnd.reveal())
    step = books.settle(rnd)
    payouts = [(c.meter, c.box, c.wager, c.paid, c.reset, c.split) for c in step.meters]
    # One payment per share, taken together; the meter resets once, after the last share.
    assert payouts == [
        ("hand_bonus", 5, "hand_bonus_dealer", 500_013, False, 2),
        ("hand_bonus", 2, "hand_bonus_dealer", 500_013, True, 2),
    ]
    assert rnd.results is not None
    # Reset to the $0 reseed plus the reserve (house interpretation 6).
    assert rnd.results["meters"]["hand_bonus"] == {
        "before": {"amount": 1_000_026, "reserve": 16},
        "paid": 1_000_026,
        "reseeds": 1,
        "amount": 16,
        "reserve": 0,
    }
    check_money(rnd, books)


def test_events_already_sent_do_not_change_afterwards() -> None:
    rnd, books = dealt_round()
    placed = next(e for e in books.events if e["kind"] == "wagers_placed")
    sent = json.dumps(placed)
    rnd.decide(1, "alice", 3000)  # the Play joins the box's wagers, not the old event
    assert json.dumps(placed) == sent and "play" not in placed["data"]["wagers"]


@pytest.mark.parametrize(
    "answers", [[0, 52], [0, -1], [1], [0, 3, 0, 7], [0, 3, 0, -1], [0, 3, 0, True]]
)
def test_a_faulty_random_source_refuses_the_deal_and_changes_nothing(answers: list[int]) -> None:
    rules = Rules(
        FULL.queens_up,
        hand_bonus_wager=100,
        magic_card_probability=Fraction(1),
        lucky_bonus_probability=Fraction(1),
    )
    rnd = opened(rules=table(rules))
    rnd.bet(1, "alice", {"ante": 1000})
    rnd.close_betting()
    before = rnd.to_dict()

    class Faulty:
        def randbelow(self, n: int, /) -> int:
            return answers.pop(0)

    with pytest.raises(InvalidInput) as info:
        rnd.deal(rng=Faulty())
    assert info.value.code == "bad_random"
    assert rnd.to_dict() == before


def test_a_short_stack_from_a_jammed_shoe_renders_without_a_hand() -> None:
    # §657a.13(f): without a Six Card Bonus the jam hits the dealer's stack; void, and the
    # recall still shows what was dealt.
    rnd = opened()
    rnd.bet(1, "bob", {"ante": 1000})
    rnd.close_betting()
    rnd.deal([Fault.JAM])
    assert rnd.phase is Phase.VOID and len(rnd.dealer_cards) < 5
    dealer = rnd.dealer_public()
    assert dealer["hand"] is None and dealer["qualifies"] is None
    assert dealer["cards"] == [card_code(c) for c in rnd.dealer_cards]
    check_round_trip(rnd)
