"""The Rules Submission's choices (§657a.7(d)-(e), §657a.12) and the Play decision (§657a.11(b))."""

from __future__ import annotations

from fractions import Fraction

import pytest

from table.games.crazy_4_poker.rules import (
    Rules,
    bonus_return,
    check_boxes_per_player,
    check_play,
    draw_bonuses,
    play_range,
)
from table.games.errors import InvalidInput, RuleViolation

from .helpers import rules
from .test_hands import value


def test_meters_follow_the_offered_wagers() -> None:
    assert rules().meters == ()
    assert [m.name for m in rules(progressive=("five_card", "C", 500)).meters] == [
        "mega",
        "major",
        "minor",
    ]
    r = rules(progressive=("four_card", "B", 100), hand_bonus=500)
    assert [m.name for m in r.meters] == ["four_card", "hand_bonus"]
    assert r.meter_wager("four_card") == 100 and r.meter_wager("hand_bonus") == 500


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"queens_up": "E"}, "unknown_paytable"),
        ({"progressive": ("six_card", "A", 100)}, "unknown_progressive"),
        ({"progressive": ("four_card", "C", 100)}, "unknown_paytable"),
        ({"progressive": ("five_card", "A", 200)}, "bad_wager_size"),
        ({"hand_bonus": 1000}, "bad_wager_size"),
        ({"six_card_bonus": "F"}, "unknown_paytable"),
    ],
)
def test_bad_choices(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidInput) as exc:
        rules(**kwargs)  # type: ignore[arg-type]
    assert exc.value.code == code


def test_magic_card_needs_the_hand_bonus() -> None:
    base = rules()
    with pytest.raises(InvalidInput):
        Rules(base.queens_up, magic_card_probability=Fraction(1, 100))
    r = Rules(base.queens_up, hand_bonus_wager=100, lucky_bonus_probability=Fraction(1, 50))
    assert r.lucky_bonus_probability == Fraction(1, 50)
    with pytest.raises(InvalidInput):
        Rules(base.queens_up, hand_bonus_wager=100, magic_card_probability=Fraction(3, 2))


def test_play_is_the_ante_below_a_pair_of_aces() -> None:
    # §657a.11(b)
    kings = value("KS KH 3D 5C 8H")
    assert play_range(kings, 1000) == (1000, 1000)
    check_play(kings, 1000, 1000)
    check_play(kings, 1000, 0)  # a fold
    with pytest.raises(RuleViolation):
        check_play(kings, 1000, 2000)
    with pytest.raises(RuleViolation):
        check_play(kings, 1000, 999)


def test_play_up_to_three_times_with_aces_or_better() -> None:
    # §657a.11(b), §657a.2(b)(7)(iii); interpretation 4: any amount from 1x to 3x.
    for hand in ("AS AH 3D 5C 8H", "2S 2H 2D 5C 8H", "AS 2S 3S 4S 9D"):
        assert play_range(value(hand), 1000) == (1000, 3000)
        check_play(value(hand), 1000, 2500)
    with pytest.raises(RuleViolation):
        check_play(value("AS AH 3D 5C 8H"), 1000, 3001)
    with pytest.raises(RuleViolation):
        check_play(value("AS AH 3D 5C 8H"), 1000, 500)


def test_boxes_per_player_adjacent_and_limited() -> None:
    # §657a.7(e)
    r = rules()
    check_boxes_per_player(r, {"ann": [2, 3], "bob": [5]})
    with pytest.raises(RuleViolation) as exc:
        check_boxes_per_player(r, {"ann": [2, 3, 4]})
    assert exc.value.code == "too_many_boxes"
    with pytest.raises(RuleViolation) as exc:
        check_boxes_per_player(r, {"ann": [2, 4]})
    assert exc.value.code == "boxes_not_adjacent"


class Scripted:
    def __init__(self, *answers: int) -> None:
        self.answers = list(answers)
        self.asked: list[int] = []

    def randbelow(self, n: int, /) -> int:
        self.asked.append(n)
        return self.answers.pop(0)


def test_bonus_draws_follow_the_trigger_probabilities() -> None:
    base = rules().queens_up
    off = Rules(base, hand_bonus_wager=100)
    assert draw_bonuses(off, Scripted()) == (None, None)  # off by default: nothing drawn
    r = Rules(
        base,
        hand_bonus_wager=100,
        magic_card_probability=Fraction(1, 10),
        lucky_bonus_probability=Fraction(1, 4),
    )
    rng = Scripted(0, 51, 0, 6)
    assert draw_bonuses(r, rng) == (51, "dealer")
    assert rng.asked == [10, 52, 4, 7]
    assert draw_bonuses(r, Scripted(1, 3)) == (None, None)  # neither triggered


def test_bonus_return() -> None:
    base = rules().queens_up
    r = Rules(base, hand_bonus_wager=100, magic_card_probability=Fraction(1))
    assert bonus_return(r) == Fraction(100, 52)  # CRAZY_4_POKER.md: about 1.92 per unit
    r = Rules(base, hand_bonus_wager=100, lucky_bonus_probability=Fraction(1, 5))
    assert bonus_return(r) == Fraction(1, 7)
