"""Five Card Hi-Lo's words for the felt, carried by the round view (table.games.words): why
each wager of a settled box won, pushed or lost (§663a.11(f)-(h), §663a.12), what decided the
main game, the dealer's two hands, and what each way of setting a hand does with its aces
(§663a.6(a), §663a.11(d)). Only puts the view's facts into sentences. Pure: no Django.
"""

from __future__ import annotations

from typing import Any

from table.games.words import annotate as annotate_view
from table.games.words import annotate_box as annotate_one
from table.games.words import cards_text, folded, hand_words, humanize

#: §663a.11(b)(2): a fold keeps the Poker Bonus in action.
FOLD_KEEPS = ("poker_bonus",)
#: What the layout prints under the game's name (FeltParts.printed). The dealer has no
#: qualifying hand here; the rule a player needs instead is how the Ante and Play win
#: (§663a.11(g)): both hands must beat the dealer's, a tie on either is not a win.
PRINTED = ("Win with a higher high hand and a lower low hand than the dealer's",)
#: What "X for 1" means on the signs: the Ante Bonus is paid "based on the amount of the
#: player's Ante Wager" (§663a.12(b)) and has no wager of its own: X times the Ante, besides
#: what the Ante itself wins, pushes or loses (house interpretation 1, FIVE_CARD_HI_LO.md).
FOR_ONE = (
    "“for 1”: the Ante Bonus pays that many times your Ante, besides what the Ante itself "
    "wins or loses"
)

TIE_WORDS = {
    "both_tie": "both your hands tie the dealer's",
    "high_tie": "your high hand ties the dealer's",
    "low_tie": "your low hand ties the dealer's",
}
ANTE_BONUS_WORDS = {
    "four_aces_and_2": "four aces and a 2",
    "four_aces": "four aces",
    "three_aces": "three aces",
}


def _compare(mine: int, theirs: int, low_wins: bool) -> str:
    # §663a.11(g): a tie on either hand counts for the dealer.
    if mine == theirs:
        return "a tie, which counts for the dealer"
    better = "lower" if low_wins else "higher"
    mine_better = mine < theirs if low_wins else mine > theirs
    return f"yours is {better}" if mine_better else f"the dealer's is {better}"


def why(line: dict[str, Any], box: dict[str, Any], view: dict[str, Any]) -> str:
    """Why one wager of a settled box won, pushed or lost: both hands are compared by their
    totals (§663a.11(f), §663a.12)."""
    dealer = view.get("dealer")
    setting = box.get("setting")
    wager, outcome = line["wager"], line["outcome"]
    # §663a.11(b)(1): a fold loses the Ante and the Tie Wager; the Poker Bonus stays in action.
    if box.get("decision") == "fold" and wager != "poker_bonus":
        return "you folded"
    # §663a.7(b): a box left before it was set loses its Ante, Play and Tie Wagers (never
    # compared).
    if box.get("set_by") == "abandoned" and wager != "poker_bonus":
        return "left before it was set"
    if wager in ("ante", "play"):
        if not setting or not dealer:
            return ""
        high = _compare(setting["high_total"], dealer["high_total"], False)
        low = _compare(setting["low_total"], dealer["low_total"], True)
        # §663a.11(g): both hands must beat the dealer's; a tie on either counts for the dealer.
        rule = (
            "both your hands beat the dealer's"
            if outcome == "win"
            else "only one of your hands beat the dealer's: Ante and Play returned"
            if outcome == "push"
            else "neither hand beat the dealer's"
        )
        return (
            f"high {setting['high_total']} vs {dealer['high_total']} ({high}), "
            f"low {setting['low_total']} vs {dealer['low_total']} ({low}): {rule}"
        )
    if wager == "tie":
        # §663a.12(c): like with like, high against high and low against low.
        hand = line.get("hand")
        if hand:
            return TIE_WORDS.get(hand, humanize(hand))
        return "neither hand tied the dealer's"
    if wager == "ante_bonus":
        # §663a.11(h): three aces or more, paid on a box that plays whatever its Ante did.
        hand = line.get("hand") or ""
        held = ANTE_BONUS_WORDS.get(hand, humanize(hand))
        return f"your five cards hold {held}: paid on a box that plays, win or lose"
    if wager == "poker_bonus":
        hand = line.get("hand") or box.get("poker_hand")
        if not hand:
            return ""
        # A Poker Bonus lost on a hand the sign does not pay: say so, the sign is below.
        unpaid = " (not a paying hand)" if outcome == "lose" else ""
        return f"your five cards: {hand_words(hand)}{unpaid}"
    return humanize(line["hand"]) if line.get("hand") else ""


def reason(box: dict[str, Any], view: dict[str, Any]) -> str:
    """What decided a settled box's main game, short (the pinned result bar)."""
    ante = next((x for x in box.get("results") or () if x["wager"] == "ante"), None)
    if folded(box):
        return "you folded"
    if ante is None:
        return ""
    dealer, setting = view.get("dealer"), box.get("setting")
    if not setting or not dealer:
        return ""
    # §663a.11(g): both hands must beat the dealer's; a tie on either counts for the dealer.
    rule = (
        "both your hands beat the dealer's"
        if ante["outcome"] == "win"
        else "only one of your hands beat the dealer's, so Ante and Play are returned"
        if ante["outcome"] == "push"
        else "neither of your hands beat the dealer's"
    )
    return (
        f"{rule} (high {setting['high_total']} vs {dealer['high_total']}, "
        f"low {setting['low_total']} vs {dealer['low_total']})"
    )


def dealer_words(dealer: dict[str, Any]) -> str:
    """The dealer's two hands, set the house way (§663a.11(e)), with their totals."""
    if not dealer.get("high"):
        return ""
    return (
        f"High {cards_text(dealer['high'])} = {dealer['high_total']} · "
        f"low {cards_text(dealer['low'])} = {dealer['low_total']}"
    )


def setting_title(setting: dict[str, Any], count: int = 1) -> str:
    """What a setting does with the aces, for a player who does not know the rules: an ace
    counts 11 in the high hand and 1 in the low hand (§663a.6(a)), and at most one ace may go
    low (§663a.11(d)). ``count``: how many settings the hand offers."""
    aces = sum(1 for c in [*setting["high"], *setting["low"]] if c[0] == "A")
    if setting.get("ace_low"):
        if aces == 1:
            return "Ace low: it counts 1 in your low hand"
        other = "ace high (11)" if aces == 2 else "aces high (11 each)"
        return f"One ace low (it counts 1), the other {other}"
    if aces == 1:
        return "Ace high: it counts 11 in your high hand"
    if aces > 1:
        return "Aces high: each counts 11 in your high hand"
    return "" if count > 1 else "Your cards set one way only"


def _box_words(box: dict[str, Any]) -> None:
    """Each way of setting the hand with its ``title`` (copies: the view's own stay as they are)."""
    if box.get("settings"):
        count = len(box["settings"])
        box["settings"] = [{**s, "title": setting_title(s, count)} for s in box["settings"]]


def annotate(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with its words (table.games.words.annotate): nothing in it changed in place."""
    return annotate_view(view, dealer=dealer_words, why=why, reason=reason, box_words=_box_words)


def annotate_box(box: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """One box of ``view`` with its words (as :func:`annotate` gives it), ``view``'s words in."""
    return annotate_one(box, view, why=why, reason=reason, box_words=_box_words)
