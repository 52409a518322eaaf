"""The shoe deals what a game's dealing plan says (:func:`table.games.shoe.dispense`): any
number of cards per stack, a shared stack keeping any number of its top cards, in the plan's
order; the armed faults act on the plan's cards."""

from __future__ import annotations

import random

from table.games.cards import DECK
from table.games.shoe import (
    DealingPlan,
    DealPlan,
    Fault,
    Stack,
    dispense,
)

ORDER = list(DECK)
random.Random(27).shuffle(ORDER)


def plan(*stacks: tuple[str, int | None, int, int]) -> DealingPlan:
    return DealingPlan(tuple(Stack(*s) for s in stacks))


THREES = plan(("box", 1, 3, 3), ("box", 4, 3, 3), ("dealer", None, 3, 3), ("shared", None, 4, 2))


def test_stacks_of_any_size_and_shared_cards_kept() -> None:
    dealt = dispense(ORDER, THREES)
    assert dealt.box_stacks == (tuple(ORDER[0:3]), tuple(ORDER[3:6]))
    assert dealt.dealer_stack == tuple(ORDER[6:9])
    assert dealt.shared_cards == tuple(ORDER[9:11]) and dealt.shared_card == ORDER[9]
    assert dealt.shared_discards == tuple(ORDER[11:13])
    assert dealt.stub == tuple(ORDER[13:]) and dealt.irregularity is None
    assert dealt.cards_dealt == THREES.cards == 13


def test_faults_act_on_the_plan() -> None:
    one_up = dispense(ORDER, THREES, DealPlan.for_plan([Fault.FACE_UP_CARD], THREES))
    assert one_up.face_up_discards == (ORDER[1],) and one_up.irregularity is None
    assert one_up.box_stacks[0] == (ORDER[0], ORDER[2], ORDER[3])
    assert dispense(ORDER, THREES, DealPlan.for_plan([Fault.MISDEAL], THREES)).irregularity == (
        "wrong_card_count"
    )
    jammed = dispense(ORDER, THREES, DealPlan.for_plan([Fault.JAM], THREES))
    assert jammed.irregularity == "shoe_jam" and jammed.cards_dealt == THREES.cards - 2
    two_up = DealPlan.for_plan([Fault.TWO_FACE_UP_CARDS], THREES)
    assert dispense(ORDER, THREES, two_up).irregularity == "face_up_cards"
