"""Crazy 4 Poker's words, as its round view carries them (table/games/crazy_4_poker/words.py).
These were the browser's (game_words.js) until the words moved into the game (issue 27); the
sentences are the same."""

from __future__ import annotations

from typing import Any

from table.games.crazy_4_poker import words

from .test_view import ROUNDS


def test_two_hands_of_one_name_say_what_told_them_apart() -> None:
    """King high against king high: the higher cards decided (§657a.6(b))."""
    view: dict[str, Any] = {
        "phase": "settled",
        "dealer": {"hand": "King high", "best_four": ["KS", "9D", "8H", "5D"], "qualifies": True},
        "boxes": [
            {"box": 4, "hand": "King high", "best_four": ["KH", "TH", "9H", "6C"],
             "results": [{"wager": "ante", "outcome": "win", "net": 1000}]},
        ],
    }  # fmt: skip
    box = words.annotate(view)["boxes"][0]
    assert box["results"][0]["why"] == (
        "your king high (K♥ 10♥ 9♥ 6♣) beats the dealer's king high (K♠ 9♦ 8♥ 5♦)"
    )
    assert box["reason"] == box["results"][0]["why"]
    assert view["dealer"]["words"] == "King high — qualifies (king high or better)"


def test_a_paying_hand_paid_less_than_its_stake_says_what_it_hit() -> None:
    """A hand-bonus straight flush that won 10% of a meter a jackpot had just reset: 2 cents
    on a $1 wager, a loss by its net (issue 23)."""
    view: dict[str, Any] = {
        "phase": "settled",
        "dealer": {"hand": "Four of a kind", "five_card_category": "royal_flush",
                   "qualifies": True},
        "boxes": [
            {"box": 1, "hand": "Straight flush", "five_card_category": "straight_flush",
             "results": [
                 {"wager": "hand_bonus_player", "stake": 100, "outcome": "lose", "net": -98,
                  "row": "Straight flush: 10% of the meter"},
                 {"wager": "hand_bonus_dealer", "stake": 100, "outcome": "lose", "net": -100},
             ]},
        ],
    }  # fmt: skip
    lines = words.annotate(view)["boxes"][0]["results"]
    why = {line["wager"]: line["why"] for line in lines}
    assert why["hand_bonus_player"] == (
        "your five cards: a straight flush — hit Straight flush: 10% of the meter, paid less "
        "than the stake"
    )
    assert why["hand_bonus_dealer"].endswith("(not a paying hand)")


def test_a_dealer_below_king_high_returns_the_ante() -> None:
    """§657a.11(c)(3): the Ante is returned and the Play wins whatever the hands."""
    view: dict[str, Any] = {
        "phase": "settled",
        "dealer": {"hand": "Queen high", "qualifies": False},
        "boxes": [
            {"box": 2, "hand": "Pair of twos", "results": [
                {"wager": "ante", "outcome": "push", "net": 0},
                {"wager": "play", "outcome": "win", "net": 500},
            ]},
        ],
    }  # fmt: skip
    annotated = words.annotate(view)
    box = annotated["boxes"][0]
    assert box["reason"] == (
        "the dealer's queen high does not qualify (king high or better): Ante returned, Play wins"
    )
    assert box["results"][1]["why"] == (
        "the dealer's queen high does not qualify: the Play wins whatever the hands"
    )
    assert annotated["dealer"]["words"] == (
        "Queen high — does not qualify (needs king high or better)"
    )


def test_the_play_offered_is_said_in_words() -> None:
    """§657a.11(b): the Play equals the Ante; aces or better may Play up to three times it."""
    aces = {"hand": "Pair of aces"}
    assert words.play_words(aces, {"min": 500, "max": 1500, "ante": 500}) == (
        "A pair of aces or better allows a Play of up to 3x your Ante: with your pair of aces "
        "you may Play from $5.00 (1x) to $15.00 (3x)."
    )
    assert words.play_words({}, {"min": 500, "max": 500, "ante": 500}) == (
        "With your hand you may Play 1x your Ante ($5.00) only: 2x or 3x needs a pair of aces "
        "or better."
    )


def test_every_view_carries_its_words_and_leaves_the_round_alone() -> None:
    for name, rnd in ROUNDS.items():
        before = rnd.to_dict()
        for viewer, dealer in ((None, False), ("bob", False), ("carol", False), (None, True)):
            view = rnd.view(viewer, dealer)
            if view["dealer"]:
                assert isinstance(view["dealer"]["words"], str)
            for box in view["boxes"]:
                if box.get("play_options"):
                    assert box["play_options"]["words"].endswith("."), name
                if box.get("results") is not None and view["phase"] != "void":
                    assert all(isinstance(line["why"], str) for line in box["results"]), name
        assert rnd.to_dict() == before, name
