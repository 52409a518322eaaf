"""The Rules Submission's choices (§657a.7(d)-(e), §657a.12) and the Play decision (§657a.11(b))."""

from __future__ import annotations

from fractions import Fraction

import pytest

from table.engine.errors import InvalidInput, RuleViolation
from table.games.crazy_4_poker.rules import Rules, check_play, play_range

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
