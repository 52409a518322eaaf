"""The machinery the three games share (table/games/common.py, and the adapters' helpers in
table/games/base.py): each rule once, for every game."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from table.games.base import (
    CLOSE_BETTING,
    DEAL,
    REVEAL,
    SETTLE,
    TIME_OUT,
    Actor,
    Move,
    dealer_step,
    seen_by,
)
from table.games.cards import parse_card
from table.games.common import (
    check_bettor,
    compare_resettlement,
    next_turn,
    restack_problems,
    void_problems,
    withdraw_all,
)
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Event, Step, Transfer


@dataclass
class Box:
    box: int
    player: str
    decision: object = None
    abandoned: bool = False
    wagers: dict[str, int] = field(default_factory=lambda: {"ante": 5_00})

    @property
    def in_play(self) -> bool:
        return bool(self.wagers.get("ante"))

    def staked(self) -> int:
        return sum(self.wagers.values())


def test_the_next_turn_skips_the_decided_and_folds_who_left() -> None:
    boxes = [Box(1, "ann", decision=0), Box(2, "bob", abandoned=True), Box(4, "cy")]
    folded: list[int] = []

    def fold(box: Box) -> list[Event]:
        folded.append(box.box)
        box.decision = 0
        return [Event("decision", {"box": box.box})]

    to_act, events = next_turn(boxes, fold)
    assert to_act == 4 and folded == [2]
    assert [e.kind for e in events] == ["decision", "turn"]
    assert events[-1].data == {"box": 4, "player": "cy"}
    boxes[2].decision = 1
    assert next_turn(boxes, fold) == (None, [Event("decisions_complete", {})])


def test_a_bet_is_checked_alike_in_every_game() -> None:
    boxes = {2: Box(2, "bob")}
    assert check_bettor(boxes, 1, "ann", {"ante": 5_00}, ("ante",)) == (1, None)
    assert check_bettor(boxes, 2, "bob", {}, ("ante",)) == (2, boxes[2])
    for box, player, wagers, code in (
        (7, "ann", {}, "bad_box"),
        (True, "ann", {}, "bad_box"),
        (1, "", {}, "bad_player"),
        (1, "ann", [("ante", 5)], "bad_shape"),
        (1, "ann", {"odds": 5}, "unknown_wager"),
    ):
        with pytest.raises(InvalidInput) as refused:
            check_bettor(boxes, box, player, wagers, ("ante",))
        assert refused.value.code == code
    with pytest.raises(RuleViolation) as taken:
        check_bettor(boxes, 2, "ann", {"ante": 5_00}, ("ante",))
    assert taken.value.code == "box_taken"


def test_a_player_who_leaves_while_betting_gets_every_wager_back() -> None:
    def withdraw(box: int) -> Step:
        return Step((Event("wagers_withdrawn", {"box": box}),), (Transfer("ann", -5_00, "", box),))

    events, transfers = withdraw_all([2, 3], withdraw)
    assert [e.data["box"] for e in events] == [2, 3]
    assert [t.box for t in transfers] == [2, 3]
    assert withdraw_all([], withdraw) == ((), ())


def test_the_redeal_finds_every_card_out_of_place() -> None:
    a, b, c = (parse_card(x) for x in ("AS", "KD", "2C"))
    assert restack_problems([(1, [a])], [[a]], [("the stub", [c], [c])], [(3, [])]) == []
    found = restack_problems(
        [(1, [a]), (2, [b])],
        [[a]],  # a jammed shoe dealt one stack only
        [("the stub", [c], [b])],
        idle=[(3, [c]), (4, [])],
        dealt_for="an Ante and Super Bonus",
    )
    assert found == [
        "box 2 holds KD but the committed shoe deals it nothing",
        "box 3 has cards without an Ante and Super Bonus",
        "the stub is 2C but the committed shoe gives KD",
    ]


def test_a_redeal_that_ends_in_an_irregularity_must_be_the_void() -> None:
    assert void_problems(None, None, "settled") == []
    assert void_problems("shoe_jam", "shoe_jam", "void") == []
    assert void_problems("shoe_jam", None, "settled") == [
        "the re-deal ends in shoe_jam but the round shows settled"
    ]


def test_the_resettlement_compares_boxes_and_totals() -> None:
    assert compare_resettlement([(1, 5)], [(1, 5)], {"ann": 5}, {"ann": 5}) == []
    assert compare_resettlement([(1, 5)], [(1, 6)], {"ann": 5}, {"ann": 6}) == [
        "re-settling the round gives [(1, 5)], the record says [(1, 6)]",
        "player totals {'ann': 6} differ from the re-settlement {'ann': 5}",
    ]


@pytest.mark.parametrize(
    ("phase", "anyone_bet", "to_act", "due"),
    [
        ("betting", False, None, None),
        ("betting", True, None, Move(CLOSE_BETTING, "No more bets")),
        ("closed", True, None, Move(DEAL, "Deal")),
        ("decisions", True, 3, Move(TIME_OUT, "Box 3: time is up", 3)),
        ("decisions", True, None, Move(REVEAL, "Reveal the dealer's hand")),
        ("revealed", True, None, Move(SETTLE, "Settle")),
        ("settled", True, None, None),
    ],
)
def test_the_dealer_is_offered_the_step_due(
    phase: str, anyone_bet: bool, to_act: int | None, due: Move | None
) -> None:
    assert dealer_step(phase, anyone_bet, to_act) == due


def test_a_later_phase_may_be_the_one_the_reveal_ends() -> None:
    """A game may reveal after a later step than the decisions (a setting step, say)."""
    assert dealer_step("decisions", True, None, "setting") is None
    assert dealer_step("setting", True, None, "setting", "Reveal") == Move(REVEAL, "Reveal")


def test_a_view_gets_its_viewer_and_moves() -> None:
    view = seen_by({"viewer": {"boxes": [1]}}, Actor.player("ann"), [Move(DEAL, "Deal")])
    assert view["viewer"] == {"boxes": [1], "role": "player", "name": "ann"}
    assert view["moves"] == [Move(DEAL, "Deal").to_dict()]
