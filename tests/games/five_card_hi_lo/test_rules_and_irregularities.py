"""The Rules Submission's choices (§601a.2, §663a.7(e), (f), §663a.12) and the irregularities of
§663a.13 / §663a.10(d)-(f) with the virtual shoe's deal (§663a.10(b))."""

from __future__ import annotations

import pytest

from table.games.cards import DECK
from table.games.errors import InvalidInput
from table.games.five_card_hi_lo.irregularities import (
    CONSEQUENCES,
    Irregularity,
    consequence,
    deal_round,
    face_up_irregularity,
    returned_on_void,
    stub_count_due,
    stub_count_irregularity,
)
from table.games.five_card_hi_lo.rules import HiLoRules
from table.games.five_card_hi_lo.settlement import BoxInPlay, Paytables, Wagers
from table.games.shoe import DealPlan, Fault

I = Irregularity


# --- Rules Submission -------------------------------------------------------------------------


def test_default_rules_are_valid_and_round_trip() -> None:
    rules = HiLoRules()
    assert rules.problems() == []
    assert HiLoRules.from_dict(rules.to_dict()) == rules
    assert rules.paytables() == Paytables("A", "A")
    assert rules.boxes_per_player() == 2


@pytest.mark.parametrize("letter", ["A", "B", "C", "D"])
def test_every_ante_bonus_table_accepted(letter: str) -> None:
    assert HiLoRules(ante_bonus_paytable=letter).problems() == []


@pytest.mark.parametrize(
    "change, field",
    [
        ({"ante_bonus_paytable": "E"}, "ante_bonus_paytable"),
        ({"poker_bonus_paytable": "C"}, "poker_bonus_paytable"),
        ({"ante_min": 0}, "ante_min"),
        ({"tie_min": 500, "tie_max": 100}, "tie_min"),
        ({"poker_bonus_min": -1}, "poker_bonus_min"),
        ({"decision_seconds": 2}, "decision_seconds"),
        ({"setting_seconds": 1}, "setting_seconds"),
        ({"betting_seconds": 0}, "betting_seconds"),
        ({"offers_tie": "yes"}, "offers_tie"),
        ({"ante_max": 10.5}, "ante_max"),
    ],
)
def test_rules_problems_name_the_field(change: dict[str, object], field: str) -> None:
    rules = HiLoRules(**change)  # type: ignore[arg-type]
    assert field in [f for f, _ in rules.problems()]
    with pytest.raises(InvalidInput) as exc:
        rules.validated()
    assert field in exc.value.message


def test_rules_offers_and_limits() -> None:
    rules = HiLoRules(offers_tie=False, adjacent_boxes=False)
    assert rules.offers("ante") and not rules.offers("tie") and rules.offers("poker_bonus")
    assert rules.limits("tie") == (rules.tie_min, rules.tie_max)
    assert rules.boxes_per_player() == 1
    with pytest.raises(InvalidInput):
        rules.offers("odds")
    with pytest.raises(InvalidInput):
        HiLoRules.from_dict({"prime_paytable": "A"})


# --- §663a.13 ---------------------------------------------------------------------------------


def test_every_irregularity_has_a_consequence() -> None:
    assert set(CONSEQUENCES) == set(Irregularity)


@pytest.mark.parametrize(
    "irregularity, void, reshuffle, remove_deck",
    [
        (I.ONE_CARD_FACE_UP, False, False, False),  # §663a.13(a): discarded, dealing goes on
        (I.CARDS_FACE_UP, True, True, False),  # §663a.13(a): more than one
        (I.CARD_DRAWN_IN_ERROR, False, False, False),  # §663a.13(b)
        (I.WRONG_CARD_COUNT, True, True, False),  # §663a.13(c)
        (I.SHUFFLER_JAM, False, True, False),  # §663a.13(d)
        (I.SHOE_JAM, True, True, False),  # §663a.13(e)
        (I.DEVICE_OUT_OF_ORDER, False, False, False),  # §663a.13(f)
        (I.SHUFFLER_MISCOUNT, False, False, True),  # §663a.5(b)
        (I.STUB_MISCOUNT_MISDEALT, True, False, False),  # §663a.10(f)
        (I.STUB_MISCOUNT, True, False, True),  # §663a.10(f)
    ],
)
def test_consequences(irregularity: I, void: bool, reshuffle: bool, remove_deck: bool) -> None:
    c = consequence(irregularity)
    assert (c.void, c.reshuffle, c.remove_deck) == (void, reshuffle, remove_deck)
    assert c.section.startswith("§663a.")


def test_specific_consequences() -> None:
    assert consequence(I.ONE_CARD_FACE_UP).discard_card
    assert consequence(I.CARD_DRAWN_IN_ERROR).use_as_next_card
    assert consequence(I.SHOE_JAM).reshuffle_with_dealt
    assert consequence(I.DEVICE_OUT_OF_ORDER).mark_out_of_order


def test_face_up_and_stub_counts() -> None:
    assert face_up_irregularity(0) is None
    assert face_up_irregularity(1) is I.ONE_CARD_FACE_UP
    assert face_up_irregularity(2) is I.CARDS_FACE_UP
    assert stub_count_irregularity(52, misdealt=False) is None
    assert stub_count_irregularity(52, misdealt=True) is I.STUB_MISCOUNT_MISDEALT
    assert stub_count_irregularity(51, misdealt=False) is I.STUB_MISCOUNT
    # §663a.10(d): at least once every 5 rounds without a counting shuffler.
    assert not stub_count_due(3, counting_shuffler=False)
    assert stub_count_due(4, counting_shuffler=False)
    assert not stub_count_due(10, counting_shuffler=True)


def test_void_round_returns_every_stake() -> None:
    boxes = [
        BoxInPlay(1, "a", (0, 1, 2, 3, 4), Wagers(1000, 1000, 500, 200)),
        BoxInPlay(2, "a", (5, 6, 7, 8, 9), Wagers(1000, 0, 0, 100)),
        BoxInPlay(4, "b", (10, 11, 12, 13, 14), Wagers(500)),
    ]
    assert returned_on_void(boxes) == {"a": 3800, "b": 500}


def test_deal_stacks_of_five_from_the_dealers_left() -> None:
    order = list(DECK)
    dealt = deal_round(order, 3)
    assert dealt.irregularity is None and not dealt.void
    # §663a.10(b): the first stack to the box farthest to the dealer's left, the dealer last.
    assert dealt.box_stacks == ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13, 14))
    assert dealt.dealer_stack == (15, 16, 17, 18, 19)
    assert len(dealt.stub) == 52 - 20


@pytest.mark.parametrize(
    "fault, irregularity, void",
    [
        (Fault.FACE_UP_CARD, I.ONE_CARD_FACE_UP, False),
        (Fault.TWO_FACE_UP_CARDS, I.CARDS_FACE_UP, True),
        (Fault.JAM, I.SHOE_JAM, True),
        (Fault.MISDEAL, I.WRONG_CARD_COUNT, True),
    ],
)
def test_deal_faults(fault: Fault, irregularity: I, void: bool) -> None:
    dealt = deal_round(list(DECK), 2, DealPlan.from_faults([fault], 3))
    assert dealt.irregularity is irregularity
    assert dealt.void is void
    if fault is Fault.FACE_UP_CARD:
        # The face-up card is not used; every stack still has five cards.
        assert len(dealt.face_up_discards) == 1
        assert all(len(s) == 5 for s in (*dealt.box_stacks, dealt.dealer_stack))
        assert dealt.face_up_discards[0] not in {c for s in dealt.box_stacks for c in s}


def test_deal_refuses_no_boxes() -> None:
    with pytest.raises(InvalidInput):
        deal_round(list(DECK), 0)
