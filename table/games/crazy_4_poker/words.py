"""Crazy 4 Poker's words for the felt, carried by the round view (table.games.words): why each
wager of a settled box won, pushed or lost (§657a.11, §657a.12), what decided the main game,
the dealer's hand with whether it qualifies (§657a.11(c)(3)), and why the Play offered is
what it is (§657a.11(b)). Only puts the view's facts into sentences. Pure: no Django.
"""

from __future__ import annotations

from typing import Any

from table.games.words import annotate as annotate_view
from table.games.words import annotate_box as annotate_one
from table.games.words import (
    cards_text,
    dollars,
    folded,
    hand_words,
    lower_first,
)

#: §657a.11(b)(3): a fold loses every wager but the Six Card Bonus (and its Envy Bonuses).
FOLD_KEEPS = ("six_card_bonus",)
#: The inscriptions §657a.2(b)(7) requires on the layout (FeltParts.printed), in the player's
#: words: (i) the best four cards play, (ii) the dealer qualifies with king high or better,
#: (iii) a Play of up to 3x the Ante with a pair of aces or better, (iv) when the Super Bonus
#: is returned.
PRINTED = (
    "Best four-card hand plays",
    "Dealer qualifies with king high or better",
    "Play up to 3x your Ante with a pair of aces or better",
    "Super Bonus returned if you beat or tie the dealer with less than a straight",
)
#: What "X for 1" means on the signs: the progressive and hand-bonus wagers are collected at
#: "no more bets" (§657a.10(a)(2)) and "X for 1" pays X times the wager, the wager included.
FOR_ONE = "“for 1”: the payout includes your wager, which was taken at “no more bets”"


def _versus(line: dict[str, Any], yours: str, theirs: str, box: dict[str, Any], dealer: Any) -> str:
    """Who won a hand against the dealer's. Two hands of the same name ("king high" against
    "king high") are told apart by their four cards: the higher cards decided (§657a.6(b))."""
    if yours == theirs and box.get("best_four") and dealer and dealer.get("best_four"):
        yours = f"{yours} ({cards_text(box['best_four'])})"
        theirs = f"{theirs} ({cards_text(dealer['best_four'])})"
    if line["outcome"] == "win":
        return f"your {yours} beats the dealer's {theirs}"
    if line["outcome"] == "lose":
        return f"the dealer's {theirs} beats your {yours}"
    return f"your {yours} ties the dealer's {theirs}"


def _unpaid(line: dict[str, Any]) -> str:
    """A wager paid on a hand from a sign, lost: the hand is not on it (the sign is below).
    A paying hand whose payout came to less than the stake (a share of a jackpot, a percentage
    of a small meter) is a loss by its net, yet the hand hit: say what it hit."""
    if line["outcome"] != "lose":
        return ""
    row = line.get("row")
    return (
        f" — hit {row.replace('_', ' ')}, paid less than the stake"
        if row
        else (" (not a paying hand)")
    )


def why(line: dict[str, Any], box: dict[str, Any], view: dict[str, Any]) -> str:
    """Why one wager of a settled box won, pushed or lost (§657a.11, §657a.12)."""
    dealer = view.get("dealer")
    yours = (box.get("hand") or "").lower()
    theirs = ((dealer or {}).get("hand") or "").lower()
    wager, outcome = line["wager"], line["outcome"]
    qualifies = (dealer or {}).get("qualifies")
    # §657a.11(b): a fold loses every wager but the Six Card Bonus (and its Envy Bonuses).
    if box.get("folded") and wager not in ("six_card_bonus", "envy_bonus"):
        return "you folded"
    if wager == "ante":
        if dealer and qualifies is False and outcome == "push":
            return (
                f"the dealer's {theirs} does not qualify (king high or better): "
                "the Ante is returned"
            )
        return _versus(line, yours, theirs, box, dealer) if yours and theirs else ""
    if wager == "play":
        if dealer and qualifies is False and outcome == "win":
            return f"the dealer's {theirs} does not qualify: the Play wins whatever the hands"
        return _versus(line, yours, theirs, box, dealer) if yours and theirs else ""
    if wager == "super_bonus":
        if not yours:
            return ""
        # §657a.12(b): paid from a straight up, win or lose; below it, it follows the Ante.
        if outcome == "push":
            return f"your {yours}: below a straight the Super Bonus is returned"
        if outcome == "lose":
            return (
                f"your {yours} lost to the dealer's {theirs}: below a straight the Super "
                "Bonus loses with it"
            )
        return f"your {yours} (paid from a straight up, win or lose)"
    if wager == "queens_up":
        if not yours:
            return ""
        # §657a.12(c): the Queens Up pays on the player's own hand, from a pair of queens up.
        if outcome == "lose":
            return f"your {yours}: Queens Up pays from a pair of queens up"
        return f"your {yours}"
    if wager in ("progressive", "hand_bonus_player"):
        category = box.get("five_card_category")
        return f"your five cards: {hand_words(category)}{_unpaid(line)}" if category else ""
    if wager == "hand_bonus_dealer":
        category = (dealer or {}).get("five_card_category")
        return f"the dealer's five cards: {hand_words(category)}{_unpaid(line)}" if category else ""
    if wager == "six_card_bonus":
        card = (view.get("six_card_bonus") or {}).get("card")
        category = box.get("six_card_category")
        hand = hand_words(category) if category else "no paying hand"
        bonus = f" with the bonus card {cards_text([card])}" if card else ""
        return f"your five cards and the dealer's{bonus}: {hand}"
    return str(line.get("row") or "")


def reason(box: dict[str, Any], view: dict[str, Any]) -> str:
    """What decided a settled box's main game, short (the pinned result bar)."""
    ante = next((x for x in box.get("results") or () if x["wager"] == "ante"), None)
    if folded(box):
        return "you folded"
    if ante is None:
        return ""
    dealer = view.get("dealer") or {}
    # §657a.11(c)(3): a dealer below king high returns the Ante, and the Play still wins.
    if dealer.get("qualifies") is False and ante["outcome"] == "push":
        return (
            f"the dealer's {str(dealer.get('hand') or '').lower()} does not qualify (king high "
            "or better): Ante returned, Play wins"
        )
    return why(ante, box, view)


def dealer_words(dealer: dict[str, Any]) -> str:
    """The dealer's hand once face up; §657a.11(c)(3): it qualifies with king high or better
    (say so, not just the word)."""
    hand = str(dealer.get("hand") or "")
    qualifies = dealer.get("qualifies")
    if not hand or qualifies is None:
        return hand
    if qualifies:
        return f"{hand} — qualifies (king high or better)"
    return f"{hand} — does not qualify (needs king high or better)"


def play_words(box: dict[str, Any], options: dict[str, Any]) -> str:
    """Why the Play offered is what it is, before the player decides. §657a.11(b): the Play
    equals the Ante, and a pair of aces or better may Play up to three times it."""
    low, high = options["min"], options["max"]
    hand = box.get("hand")
    yours = f"your {lower_first(hand)}" if hand else "your hand"
    if high > low:
        return (
            "A pair of aces or better allows a Play of up to 3x your Ante: with "
            f"{yours} you may Play from {dollars(low)} (1x) to {dollars(high)} (3x)."
        )
    return (
        f"With {yours} you may Play 1x your Ante ({dollars(options['ante'])}) only: 2x or 3x "
        "needs a pair of aces or better."
    )


def _box_words(box: dict[str, Any]) -> None:
    """The deciding owner's ``play_options.words`` (a copy: the view's own stays as it is)."""
    if box.get("play_options"):
        box["play_options"] = {**box["play_options"], "words": play_words(box, box["play_options"])}


def annotate(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with its words (table.games.words.annotate): nothing in it changed in place."""
    return annotate_view(view, dealer=dealer_words, why=why, reason=reason, box_words=_box_words)


def annotate_box(box: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """One box of ``view`` with its words (as :func:`annotate` gives it), ``view``'s words in."""
    return annotate_one(box, view, why=why, reason=reason, box_words=_box_words)
