"""Four Card Frenzy's words for the felt, carried by the round view (table.games.words): why
each wager of a settled box won, pushed or lost with the posted payout that applied
(§684a.2(b)(4), §684a.11(c), §684a.12), what decided the main game, the dealer's hand with
whether it qualifies (king high or better, §684a.11(c)(2)), and why the Raise offered is what
it is (§684a.11(b)). Only puts the view's facts into sentences. Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from table.games.words import dollars, folded, lower_first, with_lines_why

from .paytables import ODDS_PAYTABLE, PaytableKind, paytable
from .rules import TableRules

#: §684a.11(b)(2): a fold loses the Ante and Odds; the optional wagers stay in action.
FOLD_KEEPS = ("prime", "four_card_bonus", "all_six")
#: What the layout prints under the game's name (FeltParts.printed), as the table printed it
#: before the generic felt: the Ante is returned below king high (§684a.11(c)(2)(i)).
PRINTED = ("Dealer qualifies with king high or better",)
_KINDS = {
    "prime": (PaytableKind.PRIME, "prime_paytable"),
    "four_card_bonus": (PaytableKind.FOUR_CARD_BONUS, "four_card_bonus_paytable"),
    "all_six": (PaytableKind.ALL_SIX, "all_six_paytable"),
}
_PLURAL = re.compile(r"^(three|four) [a-z]+s$", re.IGNORECASE)


def _verb(hand: str, singular: str) -> str:
    """ "three aces beat", "a pair of kings beats": the verb agrees with the hand's name."""
    return singular[:-1] if _PLURAL.match(hand) else singular


def _versus(box: Mapping[str, Any], dealer: Mapping[str, Any] | None) -> str:
    mine = lower_first(box.get("hand") or "") or "hand"
    theirs = lower_first((dealer or {}).get("hand") or "") or "hand"
    if box.get("hand") and (dealer or {}).get("hand") == box.get("hand"):
        return f"your {mine} {_verb(mine, 'ties')} the dealer's (a tie goes to you)"
    return f"your {mine} {_verb(mine, 'beats')} the dealer's {theirs}"


def _beaten(box: Mapping[str, Any], dealer: Mapping[str, Any] | None) -> str:
    theirs = lower_first((dealer or {}).get("hand") or "") or "hand"
    mine = lower_first(box.get("hand") or "") or "hand"
    return f"dealer's {theirs} {_verb(theirs, 'beats')} your {mine}"


def _beat_dealer(box: Mapping[str, Any]) -> bool:
    return any(x["wager"] == "raise" and x["outcome"] == "win" for x in box.get("results") or ())


def _posted(rows: Sequence[tuple[str, str]], row: str | None) -> str:
    return next((pays for hand, pays in rows if hand == row), "as posted")


def why(
    line: Mapping[str, Any], box: Mapping[str, Any], view: Mapping[str, Any], rules: TableRules
) -> str:
    """Why one wager of a settled box won, pushed or lost (§684a.11(c), §684a.12)."""
    dealer = view.get("dealer")
    wager, outcome, row = line["wager"], line["outcome"], line.get("row")
    if outcome == "void":  # §684a.13(d): the main game is returned
        return (
            "returned: a dealer card was exposed before every decision was made, so the main "
            "game is void"
        )
    if wager in ("ante", "odds") and folded(box):
        return "you folded: Ante and Odds are lost"
    if wager == "ante":
        if outcome == "push":
            return "dealer below king high: Ante pushes, Raise still plays"
        return f"pays 1 to 1: {_versus(box, dealer)}" if outcome == "win" else _beaten(box, dealer)
    if wager == "raise":
        if outcome != "win":
            return _beaten(box, dealer)
        note = ""
        if dealer and not dealer.get("qualifies"):
            note = " (the Raise plays even when the dealer does not qualify)"
        return f"pays 1 to 1: {_versus(box, dealer)}{note}"
    if wager == "odds":
        if outcome == "push":
            return "Odds pushes below a straight when you beat or tie the dealer"
        if outcome == "lose":
            return _beaten(box, dealer)
        hand = lower_first(row or "")
        if _beat_dealer(box):
            return f"{hand} pays {_posted(ODDS_PAYTABLE.as_posted(), row)}"
        bad_beat = paytable(PaytableKind.BAD_BEAT, rules.bad_beat_paytable).as_posted()
        return f"bad beat: the dealer won, but your {hand} still pays {_posted(bad_beat, row)}"
    kind, field = _KINDS[wager]
    rows = paytable(kind, getattr(rules, field)).as_posted()
    if outcome == "win":
        return f"{lower_first(row or '')} pays {_posted(rows, row)}"
    return (
        f"no paying hand (lowest paying: {lower_first(rows[-1][0])})" if rows else "no paying hand"
    )


def reason(box: Mapping[str, Any], view: Mapping[str, Any]) -> str:
    """What decided the box's main game, for the pinned result bar."""
    if view.get("main_game_void"):
        return "main game void: Ante, Odds and Raise returned"
    if folded(box):
        return f"box {box['box']} folded"
    dealer = view.get("dealer")
    if _beat_dealer(box):
        note = (
            " (dealer below king high: Ante pushes)"
            if dealer and not dealer.get("qualifies")
            else ""
        )
        return f"{_versus(box, dealer)}{note}"
    return _beaten(box, dealer)


def dealer_words(dealer: Mapping[str, Any]) -> str:
    """The dealer's hand once face up, and whether it qualifies (§684a.11(c)(1))."""
    if not dealer.get("hand"):
        return f"Dealt {len(dealer.get('cards') or ())} cards: no hand (the round is void)"
    said = "qualifies" if dealer.get("qualifies") else "does not qualify (below king high)"
    return f"{dealer['hand']} — {said}"


def raise_words(box: Mapping[str, Any]) -> str:
    """Why the Raise offered is what it is (§684a.11(b): 2x-3x only from a pair of aces)."""
    ante = int((box.get("wagers") or {}).get("ante") or 0)
    hand = lower_first(box.get("hand") or "")
    if (box.get("max_raise") or 1) > 1:
        return (
            f"With your {hand} you may raise 1x to 3x your Ante ({dollars(ante)} to "
            f"{dollars(3 * ante)}), or fold."
        )
    return (
        f"A pair of aces or better allows a Raise of up to 3x your Ante: with your {hand} "
        f"you may raise 1x ({dollars(ante)}), or fold."
    )


def annotate(view: dict[str, Any], rules: TableRules) -> dict[str, Any]:
    """The view with its words: each box's ``decision_words``, each settled box's lines'
    ``why`` and its ``reason``, the dealer's ``words``, the deciding owner's
    ``play_options.words``."""
    if view.get("dealer"):
        view["dealer"] = {**view["dealer"], "words": dealer_words(view["dealer"])}
    for box in view["boxes"]:
        annotate_box(box, view, rules)
    return view


def annotate_box(box: dict[str, Any], view: dict[str, Any], rules: TableRules) -> dict[str, Any]:
    """One box of ``view`` (a box the view built, not shared) with its words, in place; they
    read the box and what every viewer sees alike (the dealer's hand, a main game void)."""
    if box.get("decision") is not None:  # the decision is a Raise multiple, 0 folds
        box["decision_words"] = "Folded" if folded(box) else f"Raised {box['decision']}x"
    if box.get("results"):
        box["results"] = with_lines_why(box, lambda line, b=box: why(line, b, view, rules))
        box["reason"] = reason(box, view)
    options = box.get("play_options")
    if options is not None:
        options["words"] = raise_words(box)
    return box
