"""Settlement of Five Card Hi-Lo (§663a.11(b), (f)-(j), §663a.12) and the orders of play."""

from __future__ import annotations

import pytest

from table.games.cards import parse_card
from table.games.errors import InvalidInput
from table.games.five_card_hi_lo.hands import Setting, house_way, possible_settings
from table.games.five_card_hi_lo.paytables import (
    ANTE_BONUS_PAYTABLES,
    AnteBonusHand,
    TieHand,
    ante_bonus_hand,
    ante_bonus_payout,
    tie_hand,
)
from table.games.five_card_hi_lo.settlement import (
    ANTE,
    ANTE_BONUS,
    PLAY,
    POKER_BONUS,
    TIE,
    BoxInPlay,
    Outcome,
    Paytables,
    Wagers,
    ante_play_outcome,
    check_boxes,
    deal_order,
    fold,
    forfeited_on_fold,
    play,
    player_boxes_problem,
    setting_order,
    settle_box,
    settle_round,
)

W, P, L = Outcome.WIN, Outcome.PUSH, Outcome.LOSE


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


# --- §663a.11(g) Ante and Play ----------------------------------------------------------------


@pytest.mark.parametrize(
    "player, dealer, outcome",
    [
        ((27, 5), (26, 7), W),  # (g)(1): high higher and low lower
        ((26, 7), (26, 7), L),  # both tied: lose (a tie counts against the player)
        ((26, 9), (26, 7), L),  # high tied, low higher: lose
        ((25, 7), (26, 7), L),  # high lower, low tied: lose
        ((25, 9), (26, 7), L),  # (g)(2): high lower and low higher
        ((27, 7), (26, 7), P),  # (g)(3)(i): high higher, low tied: push, not a win
        ((27, 9), (26, 7), P),  # (g)(3)(i): high higher, low higher
        ((26, 5), (26, 7), P),  # (g)(3)(ii): high tied, low lower: push
        ((25, 5), (26, 7), P),  # (g)(3)(ii): high lower, low lower
    ],
)
def test_ante_play_outcome_is_asymmetric(
    player: tuple[int, int], dealer: tuple[int, int], outcome: Outcome
) -> None:
    assert ante_play_outcome(*player, *dealer) is outcome


DEALER = house_way(cards("KS 9D 7H 4C 3S"))  # 26 / 7
PAYTABLES = Paytables("A", "A")


def box(
    text: str,
    ante: int = 1000,
    played: bool = True,
    tie: int = 0,
    poker_bonus: int = 0,
    setting: Setting | None = None,
    number: int = 1,
    player: str = "p1",
) -> BoxInPlay:
    hand = cards(text)
    if played and setting is None:
        setting = possible_settings(hand)[0]
    wagers = Wagers(ante, ante if played else 0, tie, poker_bonus)
    return BoxInPlay(number, player, hand, wagers, setting if played else None)


def nets(settled_box: BoxInPlay, dealer: Setting = DEALER) -> dict[str, tuple[str, int]]:
    settled = settle_box(settled_box, dealer, PAYTABLES)
    return {line.wager: (line.outcome.value, line.net) for line in settled.lines}


def test_win_pays_ante_and_play_one_to_one() -> None:
    # §663a.12(a): 28 / 5 beats 26 / 7.
    assert nets(box("TS 9H 9C 3D 2D")) == {ANTE: ("win", 1000), PLAY: ("win", 1000)}


def test_push_returns_both() -> None:
    assert nets(box("TS 9H 7C 3D 2D")) == {ANTE: ("push", 0), PLAY: ("push", 0)}


def test_lose_collects_both() -> None:
    assert nets(box("TS 9H 7C 4D 3D")) == {ANTE: ("lose", -1000), PLAY: ("lose", -1000)}


# --- §663a.11(h), §663a.12(b) Ante Bonus ------------------------------------------------------


@pytest.mark.parametrize(
    "text, hand",
    [
        ("AS AD AH AC 2S", AnteBonusHand.FOUR_ACES_AND_2),
        ("AS AD AH AC 3S", AnteBonusHand.FOUR_ACES),
        ("AS AD AH 2C 2S", AnteBonusHand.THREE_ACES),
        ("AS AD KH 2C 2S", None),
    ],
)
def test_ante_bonus_hand_highest_row_only(text: str, hand: AnteBonusHand | None) -> None:
    assert ante_bonus_hand(cards(text)) == hand


@pytest.mark.parametrize(
    "letter, a2, a4, a3",
    [("A", 1000, 100, 10), ("B", 500, 50, 5), ("C", 200, 50, 5), ("D", 100, 50, 5)],
)
def test_ante_bonus_paytables(letter: str, a2: int, a4: int, a3: int) -> None:
    table = ANTE_BONUS_PAYTABLES[letter]
    assert [table[h] for h in AnteBonusHand] == [a2, a4, a3]


def test_ante_bonus_is_x_times_the_ante() -> None:
    # Interpretation 1: "10 for 1" on a $10 Ante pays $100 on top of the Ante/Play result.
    assert ante_bonus_payout(1000, 10) == 10000


@pytest.mark.parametrize(
    "dealer_text, ace_low, outcome",
    [("KS 9D 7H 4C 3S", False, "push"), ("AS KD QD 4S 3S", True, "lose")],
)
def test_ante_bonus_paid_whatever_the_outcome(
    dealer_text: str, ace_low: bool, outcome: str
) -> None:
    # §663a.11(h): "regardless of the outcome" of the Ante and Play. Aces high 33 / 16 pushes
    # 26 / 7; one ace low, 30 / 9, loses to 31 / 7.
    hand = "AC AD AH 8S 8C"
    setting = possible_settings(cards(hand))[1 if ace_low else 0]
    result = nets(box(hand, setting=setting), house_way(cards(dealer_text)))
    assert result[ANTE] == (outcome, {"push": 0, "lose": -1000}[outcome])
    assert result[ANTE_BONUS] == ("win", 10000)


def test_ante_bonus_four_aces_and_a_two_on_table_d() -> None:
    settled = settle_box(box("AC AD AH AS 2C"), DEALER, Paytables("D", "A"))
    line = settled.line(ANTE_BONUS)
    assert line is not None and line.net == 100 * 1000
    assert line.hand == AnteBonusHand.FOUR_ACES_AND_2


def test_no_ante_bonus_on_a_fold() -> None:
    # Interpretation 2: a folded box forfeits the Ante and gets no Ante Bonus.
    assert nets(box("AC AD AH AS 2C", played=False)) == {ANTE: ("lose", -1000)}


# --- §663a.11(j)(1), §663a.12(c) Tie Wager ----------------------------------------------------


@pytest.mark.parametrize(
    "player, hand, odds",
    [
        ((26, 7), TieHand.BOTH, 20),  # both tie: 20 to 1, not 4 + 4
        ((26, 5), TieHand.HIGH, 4),
        ((25, 7), TieHand.LOW, 4),
        ((27, 5), None, None),
        ((7, 26), None, None),  # like with like: the player's low against the dealer's low
    ],
)
def test_tie_wager(player: tuple[int, int], hand: TieHand | None, odds: int | None) -> None:
    assert tie_hand(*player, *DEALER.totals) == hand
    setting = Setting((), (), *player)
    settled = settle_box(
        BoxInPlay(1, "p", cards("2S 3S 4S 5S 7D"), Wagers(1000, 1000, 500), setting),
        DEALER,
        PAYTABLES,
    )
    line = settled.line(TIE)
    assert line is not None
    assert line.net == (-500 if odds is None else 500 * odds)


def test_tie_lost_on_a_fold_even_when_the_hands_would_tie() -> None:
    # §663a.11(b)(1): a fold forfeits the Ante and the Tie Wager.
    assert nets(box("KH 9C 7D 4S 3C", played=False, tie=500)) == {
        ANTE: ("lose", -1000),
        TIE: ("lose", -500),
    }


# --- §663a.11(b)(2), (c), (j)(2) Poker Bonus --------------------------------------------------


def test_poker_bonus_stays_in_action_on_a_fold() -> None:
    result = nets(box("QH QD 5S 6D 2C", played=False, tie=500, poker_bonus=500))
    assert result == {ANTE: ("lose", -2 * 500), TIE: ("lose", -500), POKER_BONUS: ("win", 500)}


def test_poker_bonus_on_the_cards_as_dealt_whatever_the_setting() -> None:
    # A straight A-2-3-4-5 pays 8 to 1 on table A, 6 to 1 on table B, set how it may be.
    hand = "AS 2D 3H 4C 5S"
    for setting in possible_settings(cards(hand)):
        for letter, odds in (("A", 8), ("B", 6)):
            settled = settle_box(
                box(hand, poker_bonus=100, setting=setting), DEALER, Paytables("A", letter)
            )
            line = settled.line(POKER_BONUS)
            assert line is not None and line.net == 100 * odds


def test_fold_forfeits_ante_and_tie_only() -> None:
    wagers = Wagers(1000, 0, 500, 300)
    assert forfeited_on_fold(wagers) == 1500
    assert fold(play(wagers)) == wagers
    assert play(wagers).play == 1000


@pytest.mark.parametrize(
    "wagers, code",
    [
        ((0, 0, 0, 0), "missing_ante"),
        ((1000, 500, 0, 0), "bad_play"),
        ((1000, 2000, 0, 0), "bad_play"),
        ((1000, 1000, -1, 0), "bad_amount"),
    ],
)
def test_wagers_refused(wagers: tuple[int, int, int, int], code: str) -> None:
    with pytest.raises(InvalidInput) as exc:
        Wagers(*wagers)
    assert exc.value.code == code


# --- orders of play ---------------------------------------------------------------------------


def test_settlement_order_is_box_6_to_1() -> None:
    # §663a.11(f): from the dealer's right counterclockwise.
    boxes = [
        box("2S 3S 4S 5S 7D", number=1, player="a"),
        box("2H 3H 4H 5H 7C", number=6, player="b"),
        box("2D 3D 4D 5D 7H", number=3, player="c"),
    ]
    result = settle_round(cards("KS 9D 7S 4C 3C"), boxes, PAYTABLES)
    assert [b.box for b in result.boxes] == [6, 3, 1]
    assert deal_order([6, 1, 3]) == [1, 3, 6]  # §663a.10(b): from the dealer's left


@pytest.mark.parametrize(
    "antes, order",
    [
        ({2: 1000, 3: 2500}, [3, 2]),  # §663a.7(f): the larger wager first
        ({2: 2500, 3: 1000}, [2, 3]),
        ({2: 1000, 3: 1000}, [3, 2]),  # equal: counterclockwise, box 3 before box 2
        ({5: 500, 4: 500}, [5, 4]),
    ],
)
def test_two_box_setting_order(antes: dict[int, int], order: list[int]) -> None:
    assert setting_order(antes) == order


@pytest.mark.parametrize(
    "numbers, allowed, ok",
    [
        ([1], True, True),
        ([2, 3], True, True),
        ([3, 5], True, False),
        ([1, 2, 3], True, False),
        ([2, 3], False, False),
    ],
)
def test_player_boxes(numbers: list[int], allowed: bool, ok: bool) -> None:
    assert (player_boxes_problem(numbers, allowed) is None) is ok


def test_round_refuses_repeated_cards_and_boxes() -> None:
    with pytest.raises(InvalidInput):
        settle_round(cards("KS 9D 7H 4C 3S"), [box("KS 9H 9C 3D 2D")], PAYTABLES)
    with pytest.raises(InvalidInput):
        check_boxes([box("2S 3S 4S 5S 7D"), box("2H 3H 4H 5H 7C")])


def test_round_players_net_sums_every_line() -> None:
    boxes = [
        box("TS 9H 9C 3D 2D", number=2, tie=100, poker_bonus=100),
        box("AS AD AH 8S 8C", number=3, poker_bonus=100),
    ]
    result = settle_round(cards("KS 9D 7H 4C 3S"), boxes, PAYTABLES)
    lines = [line.net for b in result.boxes for line in b.lines]
    assert result.players == {"p1": sum(lines)}
    # 2000 - 100 (tie) + 100 (pair of nines), then 0 + 10000 + 1500 (full house 15 to 1)
    assert result.players["p1"] == 2000 - 100 + 100 + 10000 + 1500
