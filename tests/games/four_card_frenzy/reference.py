"""An independent reference implementation of Four Card Frenzy settlement, for the tests.

Written from the regulation (58 Pa. Code ch. 684a) and RULES.md, *not* from the engine: it
imports nothing from ``table.engine``. Cards are the strings of the contract (``"AS"``), ranks
2..14, and the paytables are the hand-copied posted figures of
:mod:`tests.games.four_card_frenzy.posted`.
Only valid input is handled; :func:`settle_reference` answers in the exact JSON shape of the
``settle_round`` contract so that it can be compared key by key with the engine.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from . import posted

RANK_OF = {ch: i + 2 for i, ch in enumerate("23456789TJQKA")}
ACE, KING, QUEEN = 14, 13, 12
RED = {"D", "H"}

#: §684a.6(b), highest first.
CATEGORIES = (
    "four_of_a_kind",
    "straight_flush",
    "three_of_a_kind",
    "flush",
    "straight",
    "two_pair",
    "pair",
    "high_card",
)
STRENGTH = {name: len(CATEGORIES) - i for i, name in enumerate(CATEGORIES)}


def rank(card: str) -> int:
    return RANK_OF[card[0].upper()]


def suit(card: str) -> str:
    return card[1].upper()


# --- four-card hands (§684a.6) -----------------------------------------------------------


def four_card_hand(cards: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """(category, tie-break ranks) of four cards, straight from §684a.6(a)-(c)."""
    assert len(cards) == 4 and len(set(cards)) == 4
    ranks = [rank(c) for c in cards]
    by_count = Counter(ranks)
    one_suit = len({suit(c) for c in cards}) == 1
    distinct = sorted(set(ranks))
    top: int | None = None
    if len(distinct) == 4:
        if distinct == [2, 3, 4, ACE]:
            top = 4  # (a): the ace completes A-2-3-4 only, and it is the lowest straight
        elif distinct[3] - distinct[0] == 3:
            top = distinct[3]  # Q-K-A-2 has a gap of 12 and is not a straight
    groups = sorted(by_count.items(), key=lambda kv: (-kv[1], -kv[0]))
    desc = tuple(sorted(ranks, reverse=True))
    if groups[0][1] == 4:
        return "four_of_a_kind", (groups[0][0],)
    if top is not None and one_suit:
        return "straight_flush", (top,)
    if groups[0][1] == 3:
        return "three_of_a_kind", (groups[0][0], groups[1][0])
    if one_suit:
        return "flush", desc
    if top is not None:
        return "straight", (top,)
    if groups[0][1] == 2 and groups[1][1] == 2:
        return "two_pair", (groups[0][0], groups[1][0])
    if groups[0][1] == 2:
        return "pair", (groups[0][0], *(r for r, _ in groups[1:]))
    return "high_card", desc


def hand_key(cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    category, ties = four_card_hand(cards)
    return STRENGTH[category], ties


def best_four(cards: Sequence[str]) -> tuple[list[str], tuple[int, tuple[int, ...]]]:
    """The best four of five cards in dealt order; of equal choices the latest card dealt
    is the one left out (the engine's documented convention, so hands compare as lists)."""
    assert len(cards) == 5
    best: tuple[list[str], tuple[int, tuple[int, ...]]] | None = None
    for drop in range(5):
        kept = [c for i, c in enumerate(cards) if i != drop]
        key = hand_key(kept)
        if best is None or key >= best[1]:
            best = (kept, key)
    assert best is not None
    return best


def compare_section_6c(a: Sequence[str], b: Sequence[str]) -> int:
    """-1, 0, 1: four-card hand ``a`` against ``b`` by the words of §684a.6(b),(c).

    Deliberately formulated differently from :func:`hand_key`: (b) orders the ranks of hands
    and, inside quads/trips/two pair/pair, the rank of the set(s) (four aces highest ... two
    3s and two 2s the lowest two pair); straights by their top card with A-2-3-4 lowest. Then
    (c): "the hand that contains the highest ranking card ... which is not contained in the
    other hand" is higher, comparing the cards as multisets of ranks; nothing left is a tie.
    """
    cat_a, _ = four_card_hand(a)
    cat_b, _ = four_card_hand(b)
    if cat_a != cat_b:
        return 1 if STRENGTH[cat_a] > STRENGTH[cat_b] else -1
    ra, rb = Counter(rank(c) for c in a), Counter(rank(c) for c in b)
    if cat_a in ("straight", "straight_flush"):

        def top(ranks: Counter[int]) -> int:
            return 4 if set(ranks) == {ACE, 2, 3, 4} else max(ranks)

        ta, tb = top(ra), top(rb)
        return (ta > tb) - (ta < tb)
    if cat_a in ("four_of_a_kind", "three_of_a_kind", "two_pair", "pair"):
        size = {"four_of_a_kind": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 2}[cat_a]
        sets_a = sorted((r for r, n in ra.items() if n == size), reverse=True)
        sets_b = sorted((r for r, n in rb.items() if n == size), reverse=True)
        if sets_a != sets_b:
            return 1 if sets_a > sets_b else -1
    only_a = ra - rb
    only_b = rb - ra
    if not only_a and not only_b:
        return 0
    high_a = max(only_a, default=0)
    high_b = max(only_b, default=0)
    return 1 if high_a > high_b else -1


# --- the optional wagers' hands ------------------------------------------------------------


def prime_row(cards: Sequence[str]) -> int | None:
    """Row of the Prime table (0: five of one colour, 1: four), §684a.11(d)(1)."""
    red = sum(1 for c in cards if suit(c) in RED)
    same = max(red, 5 - red)
    return {5: 0, 4: 1}.get(same)


def four_card_bonus_row(cards: Sequence[str], manufacturer: bool) -> int | None:
    """Row of a Four Card Bonus table for the best four-card hand (§684a.6(d), §684a.12(e);
    manufacturer's Appendix C: "Two Pair" is every two pair and "QQ-AA" a pair of queens,
    kings or aces)."""
    category, ties = four_card_hand(best_four(cards)[0])
    if category == "four_of_a_kind":
        return 0 if ties[0] == ACE else 1
    if category == "straight_flush":
        return 2 if ties[0] == ACE else 3  # royal: A-K-Q-J of one suit, §684a.6(d)(2)
    if category == "three_of_a_kind":
        return 4 if ties[0] == ACE else 5
    if category == "flush":
        return 6
    if category == "straight":
        return 7
    if category == "two_pair":
        if manufacturer:
            return 8
        return 9 if ties == (ACE, QUEEN) else 8
    if category == "pair" and manufacturer and ties[0] >= QUEEN:
        return 9
    return None


def _five_card_class(cards: Sequence[str]) -> str | None:
    """Class of a five-card poker hand for the All-Six Bonus (§684a.6(e)(2)-(8))."""
    ranks = sorted(rank(c) for c in cards)
    counts = sorted(Counter(ranks).values(), reverse=True)
    one_suit = len({suit(c) for c in cards}) == 1
    straight = len(set(ranks)) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [2, 3, 4, 5, ACE])
    if straight and one_suit:
        return "royal_flush" if ranks == [10, 11, 12, 13, ACE] else "straight_flush"
    if counts[0] == 4:
        return "four_of_a_kind"
    if counts[:2] == [3, 2]:
        return "full_house"
    if one_suit:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three_of_a_kind"
    return None


_ALL_SIX_ORDER = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
)


def all_six_class(six: Sequence[str]) -> str | None:
    """Best class of six cards: the six-card royal (A-K-Q-J-10-9 of one suit), else the best
    five-card hand among the six choices of five."""
    assert len(six) == 6
    for s in "CDHS":
        if {r + s for r in "AKQJT9"} <= {c.upper() for c in six}:
            return "six_card_royal_diamonds" if s == "D" else "six_card_royal"
    found = {_five_card_class(five) for five in itertools.combinations(six, 5)}
    for name in _ALL_SIX_ORDER:
        if name in found:
            return name
    return None


def all_six_row(six: Sequence[str], table: str) -> int | None:
    cls = all_six_class(six)
    if cls is None:
        return None
    if table == "E":
        order = ["six_card_royal_diamonds", "six_card_royal", *_ALL_SIX_ORDER]
        return order.index(cls)
    if cls.startswith("six_card_royal"):
        cls = "royal_flush"  # tables A-D have no six-card row: it is a royal flush
    return _ALL_SIX_ORDER.index(cls)


# --- payouts ---------------------------------------------------------------------------------


def ratio(figure: str) -> Fraction:
    """ "3 to 2" -> 3/2, "1.5 to 1" -> 3/2, "200,000 to 1" -> 200000."""
    win, per = figure.replace(",", "").split(" to ")
    return Fraction(win) / Fraction(per)


def pays(table: posted.Posted, row: int, stake: int) -> int:
    return math.floor(stake * ratio(table[row][1]))  # a fractional cent is rounded down


def _odds_row(category: str, ties: tuple[int, ...]) -> int:
    if category == "four_of_a_kind":
        return 0 if ties[0] == ACE else 1
    return {"straight_flush": 2, "three_of_a_kind": 3, "flush": 4, "straight": 5}[category]


def _bad_beat_row(category: str) -> int:
    return {
        "four_of_a_kind": 0,
        "straight_flush": 1,
        "three_of_a_kind": 2,
        "flush": 3,
        "straight": 4,
    }[category]


def _line(outcome: str, net: int) -> dict[str, Any]:
    return {"outcome": outcome, "net": net}


def settle_reference(round_: dict[str, Any]) -> dict[str, Any]:
    """Settle one valid round of the contract, answering in the contract's output shape."""
    rules = round_.get("rules") or {}
    bad_beat = posted.BAD_BEAT[rules.get("bad_beat_paytable", "A")]
    prime = posted.PRIME[rules.get("prime_paytable", "A")]
    fcb_name = rules.get("four_card_bonus_paytable", "A")
    fcb = posted.FOUR_CARD_BONUS[fcb_name]
    six_name = rules.get("all_six_paytable", "A")
    six = posted.ALL_SIX[six_name]
    limit = rules.get("payout_limit")

    dealer_cards = [c.upper() for c in round_["dealer"]]
    dealer_hand, dealer_key = best_four(dealer_cards)
    dealer_category = CATEGORIES[len(CATEGORIES) - dealer_key[0]]
    # §684a.11(c)(2)(i): the dealer needs king high or better.
    qualifies = dealer_key >= (STRENGTH["high_card"], (KING,))
    all_six_card = round_.get("all_six_card")

    boxes_out = []
    limited: dict[str, int] = {}
    totals: dict[str, int] = {}
    for box in round_["boxes"]:
        cards = [c.upper() for c in box["cards"]]
        hand, key = best_four(cards)
        category, ties = four_card_hand(hand)
        w = box["wagers"]
        ante, odds = w["ante"], w["odds"]
        raised = w.get("raise") or 0
        lines: dict[str, dict[str, Any]] = {}
        if not raised:
            # §684a.11(b)(2): a fold forfeits Ante and Odds; there is no Raise.
            lines["ante"] = _line("lose", -ante)
            lines["odds"] = _line("lose", -odds)
        else:
            at_least = key >= dealer_key  # "greater than or equal to the dealer's hand"
            if not qualifies:
                lines["ante"] = _line("push", 0)
            else:
                lines["ante"] = _line("win", ante) if at_least else _line("lose", -ante)
            if STRENGTH[category] >= STRENGTH["straight"]:
                if at_least:
                    lines["odds"] = _line("win", pays(posted.ODDS, _odds_row(category, ties), odds))
                else:
                    lines["odds"] = _line("win", pays(bad_beat, _bad_beat_row(category), odds))
            else:
                lines["odds"] = _line("push", 0) if at_least else _line("lose", -odds)
            lines["raise"] = _line("win", raised) if at_least else _line("lose", -raised)
        if stake := w.get("prime"):
            row = prime_row(cards)
            lines["prime"] = (
                _line("lose", -stake) if row is None else _line("win", pays(prime, row, stake))
            )
        if stake := w.get("four_card_bonus"):
            row = four_card_bonus_row(cards, fcb_name.startswith("FC-"))
            lines["four_card_bonus"] = (
                _line("lose", -stake) if row is None else _line("win", pays(fcb, row, stake))
            )
        if stake := w.get("all_six"):
            row = all_six_row([*cards, all_six_card.upper()], six_name)
            lines["all_six"] = (
                _line("lose", -stake) if row is None else _line("win", pays(six, row, stake))
            )

        player = box["player"]
        totals.setdefault(player, 0)
        limited.setdefault(player, 0)
        for name, line in lines.items():
            totals[player] += line["net"]
            if name in ("ante", "odds", "raise") and line["net"] > 0:
                limited[player] += line["net"]
        order = ("ante", "odds", "raise", "prime", "four_card_bonus", "all_six")
        boxes_out.append(
            {
                "box": box["box"],
                "player": player,
                "hand": hand,
                "category": category,
                "wagers": {k: lines[k] for k in order if k in lines},
            }
        )

    players = {}
    for player, net in totals.items():
        # §684a.12(g): the limit caps the player's Ante/Raise/Odds winnings over all boxes.
        over = 0 if limit is None else max(0, limited[player] - limit)
        players[player] = {"net": net - over, "payout_limit_applied": over > 0}
    return {
        "dealer": {"hand": dealer_hand, "category": dealer_category, "qualifies": qualifies},
        "boxes": boxes_out,
        "players": players,
    }
