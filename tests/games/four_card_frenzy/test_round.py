"""The round state machine: betting, dealing, decisions, settlement, irregularities, money."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.games.cards import DECK, codes, parse_card
from table.games.errors import EngineError, InvalidInput, RuleViolation
from table.games.events import Event, Step, Transfer
from table.games.four_card_frenzy.irregularities import CONSEQUENCES, Irregularity
from table.games.four_card_frenzy.round import VOID_REASONS, Phase, Round
from table.games.four_card_frenzy.rules import TableRules
from table.games.shoe import Fault, shuffle

from ...conftest import SeededSource

RULES = TableRules(adjacent_boxes=3)


def stacked(*stacks: str) -> list[int]:
    """A shoe whose first stacks are these hands, the rest of the deck after them."""
    top = [parse_card(c) for s in stacks for c in s.split()]
    return top + [c for c in DECK if c not in top]


def opened(order: list[int] | None = None, rules: TableRules = RULES) -> Round:
    rnd, step = Round.open(7, rules, "red", order or list(DECK), "salt")
    assert step.events[0].kind == "round_opened"
    return rnd


class Ledger:
    """Every transfer of a round, per player (positive: the player paid the table)."""

    def __init__(self) -> None:
        self.by_player: dict[str, int] = defaultdict(int)
        self.events: list[dict[str, Any]] = []

    def add(self, step: Step) -> Step:
        for t in step.transfers:
            assert isinstance(t, Transfer) and isinstance(t.amount, int)
            self.by_player[t.player] += t.amount
        for e in step.events:
            as_dict = e.to_dict()
            assert json.loads(json.dumps(as_dict)) == as_dict, e.kind
            self.events.append(as_dict)
        return step

    def total(self) -> int:
        return sum(self.by_player.values())


def staked_by_player(rnd: Round) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for play in rnd.boxes.values():
        out[play.player] += play.staked()
    return out


def check_money(rnd: Round, ledger: Ledger) -> None:
    """The round never creates or loses money."""
    if rnd.phase is Phase.SETTLED:
        assert rnd.results is not None
        nets = {p: v["net"] for p, v in rnd.results["players"].items()}
        # What players paid the table is exactly what they lost.
        assert ledger.total() == -sum(nets.values())
        for player, paid in ledger.by_player.items():
            assert paid == -nets.get(player, 0), player
    elif rnd.phase is Phase.VOID:
        assert all(v == 0 for v in ledger.by_player.values()), dict(ledger.by_player)
    else:
        staked = staked_by_player(rnd)
        for player in set(staked) | set(ledger.by_player):
            assert ledger.by_player.get(player, 0) == staked.get(player, 0), player


def check_round_trip(rnd: Round) -> None:
    data = rnd.to_dict()
    again = Round.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert again.commitment == rnd.commitment


def test_the_stored_form_is_the_one_rounds_were_always_stored_in() -> None:
    """Rounds in the database were stored before the skeleton: its keys, in its order, no
    game key (nor in round_opened); one stored with the key loads too, another game's not."""
    rnd, step = Round.open(7, RULES, "red", shuffle(DECK, SeededSource(3)), "salt")
    assert "game" not in step.events[0].data
    rnd.bet(1, "ann", {"ante": 1000})
    data = rnd.to_dict()
    assert list(data) == [
        "number",
        "rules",
        "deck_back",
        "order",
        "salt",
        "phase",
        "boxes",
        "dealer_cards",
        "all_six_card",
        "discards",
        "stub",
        "to_act",
        "void_reason",
        "main_game_void",
        "results",
    ]
    assert list(data["boxes"][0]) == ["box", "player", "wagers", "cards", "decision", "abandoned"]
    named = Round.from_dict({"game": "four_card_frenzy", **data})
    assert named.to_dict() == data
    with pytest.raises(InvalidInput) as exc:
        Round.from_dict({**data, "game": "crazy_4_poker"})
    assert exc.value.code == "bad_state"


# --- a whole round -------------------------------------------------------------------------------


def test_a_whole_round() -> None:
    order = stacked(
        "AS AD AH 7C 2S",  # box 1: three aces
        "KS KD 4H 8C 9S",  # box 2: a pair of kings
        "2C 7D 9H JC 3S",  # box 4: jack high (folds)
        "QS JD 9C 8D 3D",  # the dealer: queen high, does not qualify
        "5H 6H 7H 8H TH",  # the All-Six stack: 5H is the All-Six card
    )
    rnd = opened(order)
    ledger = Ledger()
    ledger.add(rnd.bet(1, "ann", {"ante": 1000, "prime": 100}))
    ledger.add(rnd.bet(2, "ann", {"ante": 1000, "all_six": 100}))
    ledger.add(rnd.bet(4, "bob", {"ante": 500, "four_card_bonus": 100}))
    check_money(rnd, ledger)
    assert ledger.by_player == {"ann": 2000 + 2000 + 200, "bob": 1100}
    ledger.add(rnd.close_betting())
    step = ledger.add(rnd.deal())
    assert rnd.phase is Phase.DECISIONS
    assert rnd.boxes[1].cards == [parse_card(c) for c in "AS AD AH 7C 2S".split()]
    assert rnd.all_six_card == parse_card("5H")
    # Hole cards go to their owner only; the first to decide is box 1 (dealer's left).
    holes = [e for e in step.events if e.kind == "hole_cards"]
    assert [(e.audience, e.data["box"]) for e in holes] == [
        ("player:ann", 1),
        ("player:ann", 2),
        ("player:bob", 4),
    ]
    assert holes[0].data["max_raise"] == 3 and holes[1].data["max_raise"] == 1
    assert rnd.to_act == 1
    assert rnd.view("bob")["boxes"][0]["cards"] is None
    assert rnd.view("ann")["boxes"][0]["cards"] == ["AS", "AD", "AH", "7C", "2S"]
    assert rnd.view(None)["dealer"] is None
    # The All-Six card is dealt face down: nobody sees it before the reveal (§684a.10(b)).
    assert rnd.view("ann")["all_six"] == {"dealt": True, "card": None}
    mine = rnd.view("ann")["boxes"][0]
    assert mine["mine"] and mine["max_raise"] == 3 and len(mine["best_four"]) == 4
    assert not rnd.view("bob")["boxes"][0]["mine"]
    console = rnd.view(None, dealer=True)
    assert console["viewer"]["role"] == "dealer" and console["stub"] == len(rnd.stub)
    assert all(b["cards"] is None for b in console["boxes"])
    assert "stub" not in rnd.view(None)
    ledger.add(rnd.decide(1, "ann", 3))
    ledger.add(rnd.decide(2, "ann", 1))
    ledger.add(rnd.decide(4, "bob", 0))
    # Folded with a Four Card Bonus: the hand stays on the layout (§684a.11(b)(2)).
    assert rnd.view(None)["boxes"][2]["folded"] and not rnd.view(None)["boxes"][2]["discarded"]
    check_money(rnd, ledger)
    assert rnd.to_act is None
    ledger.add(rnd.reveal())
    assert rnd.view("bob")["dealer"]["qualifies"] is False
    assert rnd.view(None)["all_six"] == {"dealt": True, "card": "5H"}
    step = ledger.add(rnd.settle())
    assert rnd.phase is Phase.SETTLED
    check_money(rnd, ledger)
    assert rnd.results is not None
    by_box = {b["box"]: b for b in rnd.results["boxes"]}
    lines = {n: {r["wager"]: r["net"] for r in b["results"]} for n, b in by_box.items()}
    # Dealer does not qualify: Ante pushes, Raise wins, three aces' Odds 2 to 1.
    assert lines[1] == {"ante": 0, "raise": 3000, "odds": 2000, "prime": -100}
    assert lines[2] == {"ante": 0, "raise": 1000, "odds": 0, "all_six": -100}
    assert lines[4] == {"ante": -500, "odds": -500, "four_card_bonus": -100}
    assert by_box[4]["cards"] is not None  # folded with an optional wager: cards shown
    # The view says why each wager won, pushed or lost, in words (words.py).
    ann = {b["box"]: b for b in rnd.view("ann")["boxes"]}
    why = {line["wager"]: line["why"] for line in ann[1]["results"]}
    assert why["ante"] == "dealer below king high: Ante pushes, Raise still plays"
    assert why["raise"].startswith("pays 1 to 1: your three aces beat the dealer's queen high")
    assert why["odds"] == "three-of-a-kind pays 2 to 1"
    assert why["prime"].startswith("no paying hand (lowest paying: ")
    assert ann[1]["decision_words"] == "Raised 3x" and ann[4]["decision_words"] == "Folded"
    assert ann[4]["reason"] == "box 4 folded"
    assert rnd.view(None)["dealer"]["words"].endswith("does not qualify (below king high)")
    assert [b["box"] for b in rnd.results["boxes"]] == [4, 2, 1]  # from the dealer's right
    assert step.events[-1].kind == "round_settled"
    assert step.events[-1].data["shoe"][0] == "AS"
    check_round_trip(rnd)


def test_folded_box_without_optional_wagers_stays_face_down() -> None:
    rnd = opened(stacked("2C 7D 9H JC 3S", "QS JD 9C 8D 3D"))
    rnd.bet(1, "ann", {"ante": 1000})
    rnd.close_betting()
    rnd.deal()
    rnd.decide(1, "ann", 0)
    rnd.reveal()
    rnd.settle()
    assert rnd.results is not None
    assert rnd.results["boxes"][0]["cards"] is None
    shown = rnd.view(None)["boxes"][0]
    assert shown["discarded"] and shown["cards"] is None and shown["net"] == -2000


# --- betting -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "box, player, wagers, error, code",
    [
        (1, "ann", {"ante": 499}, RuleViolation, "out_of_limits"),
        (1, "ann", {"ante": 50001}, RuleViolation, "out_of_limits"),
        (1, "ann", {"ante": 1000, "prime": 99}, RuleViolation, "out_of_limits"),
        (1, "ann", {"prime": 100}, RuleViolation, "ante_required"),
        (1, "ann", {"ante": 1000, "insurance": 5}, InvalidInput, "unknown_wager"),
        (1, "ann", {"ante": 1000, "odds": 900}, InvalidInput, "unknown_wager"),
        (1, "ann", {"ante": -1000}, InvalidInput, "bad_amount"),
        (1, "ann", {"ante": "1000"}, InvalidInput, "bad_amount"),
        (1, "ann", {"ante": 1000.0}, InvalidInput, "bad_amount"),
        (1, "ann", {"ante": True}, InvalidInput, "bad_amount"),
        (1, "ann", {"ante": None}, InvalidInput, "bad_amount"),
        (1, "ann", {"ante": 1000, "all_six": -1}, InvalidInput, "bad_amount"),
        (0, "ann", {"ante": 1000}, InvalidInput, "bad_box"),
        (7, "ann", {"ante": 1000}, InvalidInput, "bad_box"),
        ("1", "ann", {"ante": 1000}, InvalidInput, "bad_box"),
        (True, "ann", {"ante": 1000}, InvalidInput, "bad_box"),
        (5, "bob", {"ante": 1000}, RuleViolation, "box_taken"),
        (3, "bob", {"ante": 1000}, RuleViolation, "not_adjacent"),
    ],
)
def test_bets_refused(
    box: Any, player: str, wagers: dict[str, object], error: type, code: str
) -> None:
    rnd = opened()
    rnd.bet(5, "carl", {"ante": 1000})
    rnd.bet(6, "bob", {"ante": 1000})
    before = rnd.to_dict()
    with pytest.raises(error) as exc:
        rnd.bet(box, player, wagers)
    assert exc.value.code == code and exc.value.message
    assert rnd.to_dict() == before  # a refusal changes nothing


def test_adjacent_boxes_limit_and_optional_wagers_offered() -> None:
    rnd = opened(rules=TableRules(adjacent_boxes=2, offers_all_six=False))
    rnd.bet(1, "ann", {"ante": 1000})
    rnd.bet(2, "ann", {"ante": 1000})
    with pytest.raises(RuleViolation) as exc:
        rnd.bet(3, "ann", {"ante": 1000})
    assert exc.value.code == "too_many_boxes"
    with pytest.raises(RuleViolation) as exc:
        rnd.bet(4, "bob", {"ante": 1000, "all_six": 100})
    assert exc.value.code == "not_offered"
    # Withdrawing box 1 is fine; the middle of three boxes is not.
    rnd3 = opened()
    for b in (1, 2, 3):
        rnd3.bet(b, "ann", {"ante": 1000})
    with pytest.raises(RuleViolation) as exc:
        rnd3.withdraw(2, "ann")
    assert exc.value.code == "not_adjacent"


def test_changing_and_withdrawing_bets_moves_only_the_difference() -> None:
    rnd = opened()
    ledger = Ledger()
    ledger.add(rnd.bet(1, "ann", {"ante": 1000, "prime": 500}))
    ledger.add(rnd.bet(1, "ann", {"ante": 600}))
    check_money(rnd, ledger)
    assert ledger.by_player["ann"] == 1200
    ledger.add(rnd.withdraw(1, "ann"))
    assert ledger.by_player["ann"] == 0 and rnd.boxes == {}
    with pytest.raises(RuleViolation) as exc:
        rnd.close_betting()
    assert exc.value.code == "no_wagers"


# --- decisions -----------------------------------------------------------------------------------


def decisions_round() -> Round:
    rnd = opened(stacked("KS KD 4H 8C 9S", "AS AD 2H 7C 3S", "QS JD 9C 8D 3D"))
    rnd.bet(1, "ann", {"ante": 1000})
    rnd.bet(2, "bob", {"ante": 1000})
    rnd.close_betting()
    rnd.deal()
    return rnd


@pytest.mark.parametrize(
    "box, player, multiple, error, code",
    [
        (1, "ann", 3, RuleViolation, "raise_too_large"),  # 3x on a pair of kings
        (1, "ann", 2, RuleViolation, "raise_too_large"),  # 2x on a pair of kings
        (1, "ann", 4, InvalidInput, "bad_raise"),
        (1, "ann", -1, InvalidInput, "bad_raise"),
        (1, "ann", "1", InvalidInput, "bad_raise"),
        (1, "ann", True, InvalidInput, "bad_raise"),
        (1, "ann", 1.0, InvalidInput, "bad_raise"),
        (1, "bob", 1, RuleViolation, "not_your_box"),
        (2, "bob", 1, RuleViolation, "not_your_turn"),
        (9, "bob", 1, InvalidInput, "bad_box"),
    ],
)
def test_decisions_refused(box: int, player: str, multiple: Any, error: type, code: str) -> None:
    rnd = decisions_round()
    before = rnd.to_dict()
    with pytest.raises(error) as exc:
        rnd.decide(box, player, multiple)
    assert exc.value.code == code
    assert rnd.to_dict() == before


def test_pair_of_aces_may_raise_three_times() -> None:
    rnd = decisions_round()
    rnd.decide(1, "ann", 1)
    step = rnd.decide(2, "bob", 3)
    assert step.transfers == (Transfer("bob", 3000, "raise", 2, "raise"),)
    assert rnd.boxes[2].wagers["raise"] == 3000


def test_time_out_folds_the_box_to_act() -> None:
    rnd = decisions_round()
    rnd.time_out()
    assert rnd.boxes[1].decision == 0 and rnd.to_act == 2
    rnd.decide(2, "bob", 1)
    with pytest.raises(RuleViolation) as exc:
        rnd.time_out()
    assert exc.value.code == "nobody_to_act"


def test_reveal_waits_for_every_decision_and_phases_are_enforced() -> None:
    rnd = decisions_round()
    with pytest.raises(RuleViolation) as exc:
        rnd.reveal()
    assert exc.value.code == "decisions_pending"
    for command in (rnd.settle, rnd.close_betting, rnd.deal):
        with pytest.raises(RuleViolation) as exc:
            command()
        assert exc.value.code == "wrong_phase"
    with pytest.raises(RuleViolation):
        rnd.bet(3, "carl", {"ante": 1000})
    fresh = opened()
    for command in (
        fresh.reveal,
        fresh.settle,
        fresh.deal,
        fresh.dealer_card_exposed,
        fresh.time_out,
    ):
        with pytest.raises(RuleViolation) as exc:
            command()
        assert exc.value.code == "wrong_phase"


def test_abandon() -> None:
    rnd = opened()
    ledger = Ledger()
    ledger.add(rnd.bet(1, "ann", {"ante": 1000}))
    ledger.add(rnd.bet(2, "ann", {"ante": 1000, "prime": 100}))
    ledger.add(rnd.abandon("ann"))  # before "no more bets": everything comes back
    assert rnd.boxes == {} and ledger.by_player["ann"] == 0
    rnd = decisions_round()
    rnd.abandon("bob")  # bob's box folds when its turn comes
    rnd.decide(1, "ann", 1)
    assert rnd.boxes[2].decision == 0 and rnd.to_act is None


# --- irregularities (§684a.13) -----------------------------------------------------------------


def _all_phases() -> Iterable[tuple[str, Round, Ledger]]:
    def make(stop: str) -> tuple[str, Round, Ledger]:
        rnd = opened(stacked("AS AD AH 7C 2S", "KS KD 4H 8C 9S", "QS JD 9C 8D 3D"))
        ledger = Ledger()
        ledger.add(rnd.bet(1, "ann", {"ante": 1000, "prime": 100, "all_six": 100}))
        ledger.add(rnd.bet(2, "bob", {"ante": 2000, "four_card_bonus": 100}))
        if stop == "betting":
            return stop, rnd, ledger
        ledger.add(rnd.close_betting())
        if stop == "closed":
            return stop, rnd, ledger
        ledger.add(rnd.deal())
        ledger.add(rnd.decide(1, "ann", 3))
        if stop == "decisions":
            return stop, rnd, ledger
        ledger.add(rnd.decide(2, "bob", 1))
        ledger.add(rnd.reveal())
        return stop, rnd, ledger

    return [make(s) for s in ("betting", "closed", "decisions", "revealed")]


@pytest.mark.parametrize("reason", sorted(VOID_REASONS))
def test_void_returns_every_stake_before_the_reveal_and_never_after(reason: str) -> None:
    """A void returns every stake; it needs its evidence, the deal's own irregularities come
    only from the shoe (§684a.13(a),(c),(f)), and once the dealer's hand is face up the round
    is settled, not voided (§684a.11(c))."""
    for phase, rnd, ledger in _all_phases():
        staked = staked_by_player(rnd)
        before = rnd.to_dict()
        allowed = reason == "server_restart" or (reason == "table_closed" and phase == "betting")
        # The platform's supervisor void: in any phase before settled (issue 23).
        supervisor = reason == "supervisor_void"
        if not supervisor and (not allowed or phase == "revealed"):
            with pytest.raises(RuleViolation) as refused:
                rnd.void(reason, {"why": "test"})
            if phase == "revealed":
                assert refused.value.code == "outcome_known"
            assert rnd.to_dict() == before, (reason, phase)
            continue
        with pytest.raises(InvalidInput):
            rnd.void(reason)  # no evidence, no void
        step = ledger.add(rnd.void(reason, {"why": "test"}))
        assert rnd.phase is Phase.VOID and rnd.void_reason == reason, phase
        check_money(rnd, ledger)
        assert all(t.amount < 0 for t in step.transfers)
        assert -sum(t.amount for t in step.transfers) == sum(staked.values())
        assert step.events[0].data["returned"]
        assert step.events[0].data["evidence"] == {"why": "test"}
        check_round_trip(rnd)
        with pytest.raises(RuleViolation):
            rnd.void(reason, {"why": "test"})  # once finished, nothing more


def test_a_stub_miscount_is_counted_not_declared() -> None:
    _, rnd, ledger = _all_phases()[2]
    with pytest.raises(RuleViolation) as refused:
        rnd.void("stub_miscount")
    assert refused.value.code == "stub_correct"
    rnd.stub.pop()  # a card goes missing
    step = ledger.add(rnd.void("stub_miscount"))
    assert step.events[0].data["evidence"] == {"count": 51}
    check_money(rnd, ledger)


def test_the_shoe_exposes_a_dealer_card_before_any_raise() -> None:
    """§684a.13(d) produced by the shoe while dealing: the main game is void, the optional
    wagers settled, and the exposed card is named."""
    _, rnd, ledger = _all_phases()[1]
    step = ledger.add(rnd.deal([Fault.DEALER_CARD_EXPOSED]))
    assert rnd.phase is Phase.SETTLED and rnd.main_game_void
    [exposed] = [e for e in step.events if e.kind == "dealer_card_exposed"]
    assert exposed.data["card"] == codes(rnd.dealer_cards)[0]
    check_money(rnd, ledger)
    check_round_trip(rnd)


def test_unknown_irregularity() -> None:
    rnd = opened()
    with pytest.raises(InvalidInput) as exc:
        rnd.void("gremlins")
    assert exc.value.code == "unknown_irregularity"
    assert rnd.phase is Phase.BETTING


@pytest.mark.parametrize(
    "faults, void",
    [
        ([Fault.TWO_FACE_UP_CARDS], "face_up_cards"),
        ([Fault.JAM], "shoe_jam"),
        ([Fault.MISDEAL], "wrong_card_count"),
        ([Fault.FACE_UP_CARD], None),
        ([], None),
    ],
)
def test_deal_faults(faults: list[Fault], void: str | None) -> None:
    _, rnd, ledger = _all_phases()[1]
    step = ledger.add(rnd.deal(faults))
    check_money(rnd, ledger)
    if void:
        assert rnd.phase is Phase.VOID and rnd.void_reason == void
        assert ledger.total() == 0
    else:
        assert rnd.phase is Phase.DECISIONS
        face_up = [e for e in step.events if e.kind == "face_up_card"]
        assert len(face_up) == len(faults)
        dealt = [c for b in rnd.boxes.values() for c in b.cards] + rnd.dealer_cards
        assert len(set(dealt)) == len(dealt) == 15
    check_round_trip(rnd)


def test_dealer_card_exposed_returns_main_wagers_and_settles_optional_ones() -> None:
    # §684a.13(d)
    _, rnd, ledger = _all_phases()[2]  # box 1 raised 3x; box 2 has not decided
    step = ledger.add(rnd.dealer_card_exposed())
    assert step.events[0].kind == "dealer_card_exposed"
    assert rnd.phase is Phase.SETTLED and rnd.main_game_void
    check_money(rnd, ledger)
    assert rnd.results is not None
    lines = {
        b["box"]: {r["wager"]: (r["outcome"], r["net"]) for r in b["results"]}
        for b in rnd.results["boxes"]
    }
    assert lines[1]["ante"] == lines[1]["odds"] == lines[1]["raise"] == ("void", 0)
    assert lines[1]["all_six"][0] in ("win", "lose") and lines[1]["prime"][0] in ("win", "lose")
    assert lines[2]["ante"] == ("void", 0) and "raise" not in lines[2]
    assert lines[2]["four_card_bonus"] == ("lose", -100)  # a pair of kings: no Pennsylvania win
    check_round_trip(rnd)


def _the_procedure(step: Step) -> Event:
    """The one dealer-audience ``irregularity_procedure`` of a step."""
    [procedure] = [e for e in step.events if e.kind == "irregularity_procedure"]
    assert procedure.audience == "dealer"
    return procedure


@pytest.mark.parametrize(
    "fault, section, with_dealt",
    [
        (Fault.TWO_FACE_UP_CARDS, "§684a.13(a)", False),
        (Fault.MISDEAL, "§684a.13(c)", False),
        (Fault.JAM, "§684a.13(f)", True),
    ],
)
def test_a_void_of_the_deal_tells_the_dealer_its_procedure(
    fault: Fault, section: str, with_dealt: bool
) -> None:
    """§684a.13(a), (c), (f): the dealer is told what to do with the cards, in the
    regulation's words, as Crazy 4 Poker's and Five Card Hi-Lo's dealers are; the public
    never sees it."""
    _, rnd, ledger = _all_phases()[1]
    step = ledger.add(rnd.deal([fault]))
    assert rnd.phase is Phase.VOID
    procedure = _the_procedure(step).data
    assert procedure["reason"] == rnd.void_reason
    assert procedure["section"] == section
    assert procedure["reshuffle"] is True and procedure["remove_deck"] is False
    assert procedure["reshuffle_with_dealt"] is with_dealt  # §684a.13(f) only
    assert "all wagers returned to the players" in procedure["words"]
    assert procedure["words"] == CONSEQUENCES[Irregularity(rnd.void_reason)].words


def test_a_stub_miscount_tells_the_dealer_to_remove_the_deck() -> None:
    """§684a.10(f): the count is wrong and nothing was misdealt: the entire deck leaves."""
    _, rnd, ledger = _all_phases()[2]
    rnd.stub.pop()
    procedure = _the_procedure(ledger.add(rnd.void("stub_miscount"))).data
    assert procedure["section"] == "§684a.10(f)" and procedure["remove_deck"] is True
    assert "entire deck removed from the table" in procedure["words"]


def test_a_void_that_is_no_irregularity_tells_the_dealer_to_reshuffle() -> None:
    """The table closing is no irregularity of §684a.13: a reshuffle, no section."""
    rnd = opened()
    procedure = _the_procedure(rnd.void("table_closed", {"why": "test"})).data
    assert procedure == {"reason": "table_closed", "reshuffle": True, "remove_deck": False}


def test_a_dealer_card_exposed_tells_the_dealer_its_procedure() -> None:
    """§684a.13(d): the main game void, the cards reshuffled; the optional wagers settled."""
    _, rnd, ledger = _all_phases()[1]
    step = ledger.add(rnd.deal([Fault.DEALER_CARD_EXPOSED]))
    assert rnd.main_game_void
    procedure = _the_procedure(step).data
    assert procedure["reason"] == "dealer_card_exposed" and procedure["section"] == "§684a.13(d)"
    assert procedure["reshuffle"] is True and procedure["remove_deck"] is False
    assert "Ante, Odds and Raise Wagers returned" in procedure["words"]
    assert "All-Six Bonus Wagers are settled" in procedure["words"]


def test_every_irregularity_says_what_the_dealer_does() -> None:
    """Each §684a.13 irregularity (and §684a.5(b), §684a.10(f)) has its section and words;
    every void reason that is one names it."""
    assert {c.section for c in CONSEQUENCES.values()} >= {f"§684a.13({x})" for x in "abcdefg"} | {
        "§684a.5(b)",
        "§684a.10(f)",
    }
    assert all(c.words for c in CONSEQUENCES.values())
    named = {r: v.irregularity for r, v in VOID_REASONS.items() if v.irregularity is not None}
    assert set(named) == {"face_up_cards", "wrong_card_count", "shoe_jam", "stub_miscount"}
    assert all(str(i) == r for r, i in named.items())


def test_open_refuses_a_shoe_with_a_card_twice() -> None:
    with pytest.raises(InvalidInput):
        Round.open(1, RULES, "red", [0, 1, 1, 2], "salt")


# --- random command sequences: the machine never creates or loses money --------------------------

PLAYERS = ["ann", "bob", "cat"]
AMOUNTS = [0, 1, 499, 500, 1000, 2500, 50_000, 50_001, -5, "100", 2.5, True, None]


def _wagers(data: st.DataObject) -> dict[str, object]:
    wagers: dict[str, object] = {"ante": data.draw(st.sampled_from(AMOUNTS))}
    for name in ("prime", "four_card_bonus", "all_six"):
        if data.draw(st.booleans()):
            wagers[name] = data.draw(st.sampled_from([100, 500, 99, 10_001, 0]))
    return wagers


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([None, 1, 5000, 10**9]), st.data())
def test_random_command_sequences_conserve_money(
    seed: int, limit: int | None, data: st.DataObject
) -> None:
    rules = TableRules(adjacent_boxes=3, payout_limit=limit, offers_prime=seed % 3 != 0)
    rnd = opened(shuffle(DECK, SeededSource(seed)), rules)
    ledger = Ledger()
    commands = [
        "bet",
        "bet",
        "bet",
        "withdraw",
        "close",
        "close",
        "deal",
        "deal",
        "decide",
        "decide",
        "decide",
        "decide",
        "time_out",
        "abandon",
        "reveal",
        "reveal",
        "settle",
        "settle",
        "exposed",
        "void",
    ]
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
                faults = data.draw(st.lists(st.sampled_from(list(Fault)), max_size=2))
                step = rnd.deal(faults if data.draw(st.integers(0, 3)) == 0 else [])
            elif command == "decide":
                to_act = rnd.to_act if rnd.to_act is not None else box
                owner = rnd.boxes[to_act].player if to_act in rnd.boxes else player
                step = rnd.decide(
                    to_act if data.draw(st.integers(0, 5)) else box,
                    owner if data.draw(st.integers(0, 5)) else player,
                    data.draw(st.sampled_from([0, 1, 1, 1, 2, 3, 4])),
                )
            elif command == "time_out":
                step = rnd.time_out()
            elif command == "abandon":
                step = rnd.abandon(player)
            elif command == "reveal":
                step = rnd.reveal()
            elif command == "settle":
                step = rnd.settle()
            elif command == "exposed":
                step = rnd.dealer_card_exposed()
            else:
                step = rnd.void(data.draw(st.sampled_from([*VOID_REASONS, "nope"])))
        except EngineError as exc:
            assert exc.code and exc.message
            assert rnd.to_dict() == before, (command, exc.code)  # refusals change nothing
            continue
        ledger.add(step)
        check_money(rnd, ledger)
        check_round_trip(rnd)
    # Finish the round where it stands and check the books once more.
    if rnd.phase is Phase.BETTING and rnd.boxes_in_play():
        ledger.add(rnd.close_betting())
    if rnd.phase is Phase.CLOSED:
        ledger.add(rnd.deal())
    while rnd.phase is Phase.DECISIONS and rnd.to_act is not None:
        ledger.add(rnd.decide(rnd.to_act, None, 1))
    if rnd.phase is Phase.DECISIONS:
        ledger.add(rnd.reveal())
    if rnd.phase is Phase.REVEALED:
        ledger.add(rnd.settle())
    check_money(rnd, ledger)
    check_round_trip(rnd)
    if rnd.phase is Phase.SETTLED:
        assert rnd.results is not None
        assert ledger.total() == -sum(p["net"] for p in rnd.results["players"].values())


def test_an_event_keeps_the_wagers_as_they_were_when_it_happened() -> None:
    """An event is a record of its moment: a later Raise on the box must not show up in the
    ``wagers_placed`` event that went out at betting (the round's own dict is not shared)."""
    rnd = opened(stacked("AS AD AH 7C 2S", "QS JD 9C 8D 3D"))
    placed = rnd.bet(1, "ann", {"ante": 1000})
    sent = json.dumps(placed.events[0].data, sort_keys=True)
    rnd.close_betting()
    rnd.deal()
    rnd.decide(1, "ann", 3)
    assert json.dumps(placed.events[0].data, sort_keys=True) == sent
