"""Five Card Hi-Lo's words, as its round view carries them (table/games/five_card_hi_lo/words.py):
what each wager did and why, for a player who does not know the rules. These were the browser's
(game_words.js) until the words moved into the game (issue 27); the sentences are the same."""

from __future__ import annotations

from typing import Any

from table.games.five_card_hi_lo import words
from tests.games.five_card_hi_lo.round_helpers import example_at

#: A settled box whose hands both tie the dealer's (27 / 7), with four aces and a 2 for the
#: Ante Bonus (a view made up here: no shoe deals it on demand).
DEALER = {"high": ["JD", "JH", "7S"], "low": ["5H", "2S"], "high_total": 27, "low_total": 7}


def tied_view() -> dict[str, Any]:
    box = {
        "box": 1,
        "decision": "play",
        "wagers": {"ante": 500, "play": 500, "tie": 100},
        "setting": {"high": ["KC", "9D", "8H"], "low": ["4C", "3D"], "high_total": 27,
                    "low_total": 7},
        "results": [
            {"wager": "ante", "outcome": "lose", "net": -500},
            {"wager": "play", "outcome": "lose", "net": -500},
            {"wager": "ante_bonus", "outcome": "win", "net": 50000, "hand": "four_aces_and_2"},
            {"wager": "tie", "outcome": "win", "net": 2000, "hand": "both_tie"},
        ],
    }  # fmt: skip
    return {"phase": "settled", "dealer": dict(DEALER), "boxes": [box]}


def test_results_say_why_in_words() -> None:
    """§663a.11(g): a tie on a hand counts for the dealer; §663a.12(c): which hands tied for
    the Tie Wager; §663a.11(h): what the Ante Bonus paid on."""
    view = tied_view()
    results = view["boxes"][0]["results"]
    annotated = words.annotate(view)
    box = annotated["boxes"][0]
    why = {line["wager"]: line["why"] for line in box["results"]}
    assert why["tie"] == "both your hands tie the dealer's"
    assert why["ante"] == (
        "high 27 vs 27 (a tie, which counts for the dealer), low 7 vs 7 (a tie, which counts "
        "for the dealer): neither hand beat the dealer's"
    )
    assert why["ante_bonus"].startswith("your five cards hold four aces and a 2")
    assert box["reason"] == "neither of your hands beat the dealer's (high 27 vs 27, low 7 vs 7)"
    assert annotated["dealer"]["words"] == "High J♦ J♥ 7♠ = 27 · low 5♥ 2♠ = 7"
    assert all("why" not in line for line in results)  # the round's own lines are untouched


def test_a_setting_says_what_it_does_with_the_aces() -> None:
    two_aces = {"high": ["AS", "KD", "QH"], "low": ["5C", "AD"], "high_total": 31,
                "low_total": 6, "ace_low": True}  # fmt: skip
    assert words.setting_title(two_aces) == "One ace low (it counts 1), the other ace high (11)"
    one_ace = {**two_aces, "low": ["5C", "4D"], "ace_low": False}
    assert words.setting_title(one_ace) == "Ace high: it counts 11 in your high hand"
    no_ace = {**one_ace, "high": ["KS", "KD", "QH"]}
    assert words.setting_title(no_ace, 1) == "Your cards set one way only"


def test_every_settled_view_carries_its_words() -> None:
    """A real round: every line of every settled box has its why, the dealer its words; the
    round's own record is not changed by a view."""
    rnd, _ = example_at("settled")
    before = rnd.to_dict()
    for viewer, dealer in ((None, False), ("ann", False), (None, True)):
        view = rnd.view(viewer, dealer=dealer)
        assert view["dealer"]["words"].startswith("High ")
        for box in view["boxes"]:
            assert isinstance(box["reason"], str)
            assert all(isinstance(line["why"], str) for line in box["results"])
    assert rnd.to_dict() == before
