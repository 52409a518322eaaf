"""Irregularities (§657a.13, §657a.5(b), §657a.10(f)), void rounds and the §657a.10(b) deal."""

from __future__ import annotations

import pytest

from table.games.crazy_4_poker.irregularities import (
    CONSEQUENCES,
    FROM_DEAL,
    FROM_SHOE_FAULT,
    Irregularity,
    consequence,
    deal,
    dealer_card_exposed,
    procedure,
    void_round,
)
from table.games.crazy_4_poker.settlement import no_more_bets
from table.games.errors import InvalidInput
from table.games.progressive import Meter
from table.games.shoe import DealPlan, Fault

from .helpers import box, rules


@pytest.mark.parametrize(
    "irregularity, void, reshuffle, remove_deck, section",
    [
        (Irregularity.ONE_CARD_FACE_UP, False, False, False, "§657a.13(a)"),
        (Irregularity.CARDS_FACE_UP, True, True, False, "§657a.13(a)"),
        (Irregularity.CARD_DRAWN_IN_ERROR, False, False, False, "§657a.13(b)"),
        (Irregularity.WRONG_CARD_COUNT, True, True, False, "§657a.13(c)"),
        (Irregularity.STUB_COUNT_WRONG, True, False, True, "§657a.10(f)"),
        (Irregularity.DEALER_CARD_EXPOSED, True, True, False, "§657a.13(d)"),
        (Irregularity.SHUFFLER_JAM, False, True, False, "§657a.13(e)"),
        (Irregularity.SHUFFLER_MISCOUNT, False, False, True, "§657a.5(b)"),
        (Irregularity.SHOE_JAM, True, True, False, "§657a.13(f)"),
        # §657a.13(g): nothing voided or reshuffled; the device is covered or signed first
        (Irregularity.DEVICE_OUT_OF_ORDER, False, False, False, "§657a.13(g)"),
    ],
)
def test_consequences(
    irregularity: Irregularity, void: bool, reshuffle: bool, remove_deck: bool, section: str
) -> None:
    c = consequence(irregularity)
    assert (c.void, c.reshuffle, c.remove_deck, c.section) == (
        void,
        reshuffle,
        remove_deck,
        section,
    )
    assert set(CONSEQUENCES) == set(Irregularity)


def test_one_card_face_up_is_discarded_and_one_drawn_in_error_is_used() -> None:
    assert consequence(Irregularity.ONE_CARD_FACE_UP).discard_card
    assert consequence(Irregularity.CARD_DRAWN_IN_ERROR).use_as_next_card


def test_a_device_out_of_order_is_covered_or_signed_before_another_method() -> None:
    # §657a.13(g), as §684a.13(g) and §663a.13(f) at the other games
    c = consequence(Irregularity.DEVICE_OUT_OF_ORDER)
    assert c.mark_out_of_order and not (c.void or c.reshuffle or c.remove_deck)
    assert (
        "out of order" in c.words
        and procedure(Irregularity.DEVICE_OUT_OF_ORDER)["section"] == "§657a.13(g)"
    )
    assert not any(
        x.mark_out_of_order
        for i, x in CONSEQUENCES.items()
        if i != Irregularity.DEVICE_OUT_OF_ORDER
    )


def test_dealer_card_exposed_voids_only_before_every_box_decided() -> None:
    # §657a.13(d): unlike Four Card Frenzy, nothing stays in action.
    assert dealer_card_exposed(2, 3) is Irregularity.DEALER_CARD_EXPOSED
    assert consequence(Irregularity.DEALER_CARD_EXPOSED).void
    assert dealer_card_exposed(3, 3) is None


def test_void_round_returns_every_stake_and_reverses_the_increments() -> None:
    r = rules(progressive=("four_card", "B", 100), hand_bonus=500, six_card_bonus="A")
    boxes = [
        box(1, "2S 3H 8D 9C JS", play=1000, queens_up=500, progressive=100, hand_bonus_player=500,
            hand_bonus_dealer=500, six_card_bonus=500),
        box(4, "2C 3D 8C 9S JD", play=0, progressive=100),
    ]  # fmt: skip
    before = {"four_card": Meter(123_456, 789), "hand_bonus": Meter(5_000_000, 100)}
    locked, inc = no_more_bets(r, boxes, before)
    assert locked != before
    voided = void_round(Irregularity.DEALER_CARD_EXPOSED, boxes, locked, inc)
    assert dict(voided.meters) == before
    assert dict(voided.returned) == {1: 1000 * 3 + 500 + 100 + 500 + 500 + 500, 4: 2100}
    assert voided.nets == {1: 0, 4: 0}


def test_void_round_refuses_what_does_not_void() -> None:
    with pytest.raises(InvalidInput):
        void_round(Irregularity.ONE_CARD_FACE_UP, [], {}, {})


def test_the_deal_follows_657a_10b() -> None:
    order = list(range(51, -1, -1))
    d = deal(order, 3, six_card_bonus=True)
    assert d.box_stacks == (tuple(order[0:5]), tuple(order[5:10]), tuple(order[10:15]))
    assert d.dealer_stack == tuple(order[15:20])
    assert d.shared_card == order[20]  # the top card of the next stack
    assert d.shared_discards == tuple(order[21:25])
    assert d.stub == tuple(order[25:])
    assert deal(order, 3, six_card_bonus=False).shared_card is None


@pytest.mark.parametrize(
    "fault, irregularity",
    [
        (Fault.JAM, Irregularity.SHOE_JAM),
        (Fault.TWO_FACE_UP_CARDS, Irregularity.CARDS_FACE_UP),
        (Fault.MISDEAL, Irregularity.WRONG_CARD_COUNT),
    ],
)
def test_shoe_faults_are_the_657a_irregularities(fault: Fault, irregularity: Irregularity) -> None:
    d = deal(list(range(52)), 2, True, DealPlan.from_faults([fault], 4))
    assert d.irregularity is not None
    assert FROM_DEAL[d.irregularity] is irregularity is FROM_SHOE_FAULT[fault]
    assert consequence(irregularity).void


def test_one_face_up_card_does_not_void_the_deal() -> None:
    d = deal(list(range(52)), 2, True, DealPlan.from_faults([Fault.FACE_UP_CARD], 4))
    assert d.irregularity is None and len(d.face_up_discards) == 1
    assert FROM_SHOE_FAULT[Fault.FACE_UP_CARD] is Irregularity.ONE_CARD_FACE_UP


def test_each_procedure_says_it_in_the_regulations_words() -> None:
    """The dealer's procedure after each irregularity (the console shows it) gives the sentence
    of its section that says what to do, as ch. 657a says it: a void where it voids, the
    reshuffle and the deck's removal where it orders them, nothing it does not."""
    for irregularity, c in CONSEQUENCES.items():
        said = procedure(irregularity)
        assert said["section"] == c.section and said["words"] == c.words, irregularity
        assert c.words[:1].isupper() and c.words.endswith("."), irregularity
        assert ("shall be void" in c.words) is c.void, irregularity
        assert ("reshuffled" in c.words) is c.reshuffle, irregularity
        assert ("removed from the table" in c.words) is c.remove_deck, irregularity
        assert ("reshuffled with any cards already dealt" in c.words) is c.reshuffle_with_dealt
    # §657a.13(f), whole: the shoe's cards go back with those already dealt.
    assert procedure(Irregularity.SHOE_JAM) == {
        "section": "§657a.13(f)",
        "reshuffle": True,
        "remove_deck": False,
        "reshuffle_with_dealt": True,
        "words": "If an automated dealing shoe is being used and the device jams, stops "
        "dealing cards or fails to deal cards during a round of play, the round of play shall "
        "be void, all wagers shall be returned to the players and the cards shall be removed "
        "from the device and reshuffled with any cards already dealt.",
    }
