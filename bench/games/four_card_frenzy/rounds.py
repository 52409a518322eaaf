"""Random dealt rounds in the ``settle_round`` JSON format of RULES.md.

Shared by ``manage.py bench_engine``, ``bench/settle_corpus.py`` (through the game's bench
``ENGINE``) and the game's tests. A bench module, not the engine's: it uses :mod:`random` (a
seeded Mersenne Twister is right for test data and wrong for a shoe; the engine's modules never
import it).

Rounds are not only uniform deals: a share of the hands is *planted* (four aces, quads,
straight flushes including A-2-3-4, flushes, copies of the dealer's hand, two aces and two
queens, six-card royal flushes, the wheel for the All-Six Bonus, a dealer on exactly king or
queen high ...) so that rare rows of every paytable are reached in a few thousand rounds.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"
ALL_CARDS = tuple(r + s for r in RANKS for s in SUITS)

BAD_BEAT_NAMES = ("A", "B", "C", "D", "BB-1", "BB-2", "BB-3", "BB-4", "BB-5", "BB-6")
PRIME_NAMES = ("A", "B", "Prime-1", "Prime-2")
FOUR_CARD_BONUS_NAMES = (*"ABCDEFGH", *(f"FC-{i}" for i in range(1, 13)))
ALL_SIX_NAMES = ("A", "B", "C", "D", "E")

#: Stakes in cents; odd amounts exercise the rounding of 3 to 2 down to the cent.
ANTES = (1, 3, 5, 99, 100, 101, 333, 500, 777, 1000, 2500, 5001, 10000, 50000)
SIDE_STAKES = (1, 7, 100, 101, 250, 500, 999, 2500)
PAYOUT_LIMITS = (1, 150, 1000, 5000, 20000, 100000, 1_000_000, 5_000_000_00)

MaxRaise = Callable[[Sequence[str]], int]


def engine_max_raise(cards: Sequence[str]) -> int:
    """The engine's answer to "may this hand raise 3x?" (§684a.11(b)(1))."""
    from table.games.cards import parse_card
    from table.games.four_card_frenzy.hands import best_four_value, max_raise_multiple

    return max_raise_multiple(best_four_value([parse_card(c) for c in cards]))


class _Deck:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left = set(ALL_CARDS)
        self.all_six_hint: str | None = None

    def has(self, cards: Sequence[str]) -> bool:
        return len(set(cards)) == len(cards) and all(c in self.left for c in cards)

    def take(self, cards: Sequence[str]) -> list[str]:
        for c in cards:
            self.left.remove(c)
        return list(cards)

    def random(self, n: int) -> list[str]:
        return self.take(self.rng.sample(sorted(self.left), n))

    def fill(self, cards: Sequence[str]) -> list[str] | None:
        """Take ``cards`` plus random cards up to five, shuffled into a random dealt order."""
        if not self.has(cards):
            return None
        hand = self.take(cards) + self.random(5 - len(cards))
        self.rng.shuffle(hand)
        return hand

    def of_rank(self, rank: str) -> list[str]:
        return [rank + s for s in SUITS if rank + s in self.left]


def _run(top: int) -> list[int]:
    """Rank indices of a four-card run; top 2 (the four) is A-2-3-4."""
    return [12, 0, 1, 2] if top == 2 else [top - 3, top - 2, top - 1, top]


Pattern = Callable[[_Deck, list[str] | None], list[str] | None]


def _quads(rank: str | None = None) -> Pattern:
    def make(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
        r = rank or deck.rng.choice(RANKS)
        return deck.fill([r + s for s in SUITS])

    return make


def _straight_flush(top: int | None = None) -> Pattern:
    def make(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
        t = top if top is not None else deck.rng.randrange(2, 13)
        suit = deck.rng.choice(SUITS)
        return deck.fill([RANKS[r] + suit for r in _run(t)])

    return make


def _straight(top: int | None = None) -> Pattern:
    def make(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
        t = top if top is not None else deck.rng.randrange(2, 13)
        return deck.fill([RANKS[r] + deck.rng.choice(SUITS) for r in _run(t)])

    return make


def _flush(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
    suit = deck.rng.choice(SUITS)
    ranks = deck.rng.sample(RANKS, 4)
    return deck.fill([r + suit for r in ranks])


def _sets(*shape: int) -> Pattern:
    """Groups of equal rank: (3,) trips, (2, 2) two pair, (2,) a pair ..."""

    def make(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
        ranks = deck.rng.sample(RANKS, len(shape))
        cards: list[str] = []
        for rank, n in zip(ranks, shape, strict=True):
            cards += deck.rng.sample([rank + s for s in SUITS], n)
        return deck.fill(cards)

    return make


def _fixed_ranks(*ranks: str) -> Pattern:
    """Cards of exactly these ranks (suits random)."""

    def make(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
        return deck.fill([r + deck.rng.choice(SUITS) for r in ranks])

    return make


def _copy(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
    """The dealer's five ranks in other suits: the same best hand, a tie ("copy")."""
    if dealer is None:
        return None
    cards = []
    for card in dealer:
        options = [
            card[0] + s for s in SUITS if card[0] + s in deck.left and card[0] + s not in cards
        ]
        if not options:
            return None
        cards.append(deck.rng.choice(options))
    return deck.fill(cards)


def _high_card(top: str) -> Pattern:
    """``top`` high and nothing better: a dealer on exactly king or queen high."""
    shapes = {"A": "AT742", "K": "K9742", "Q": "Q9642", "J": "J9632"}

    def make(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
        ranks = shapes[top]
        for _ in range(20):
            suits = [deck.rng.choice(SUITS) for _ in ranks]
            if max(suits.count(s) for s in SUITS) < 4:
                return deck.fill([r + s for r, s in zip(ranks, suits, strict=True)])
        return None

    return make


def _six_royal(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
    """Five of A-K-Q-J-10-9 of one suit; the sixth becomes the All-Six card."""
    suit = deck.rng.choice(SUITS)
    six = [r + suit for r in "AKQJT9"]
    if not deck.has(six) or deck.all_six_hint is not None:
        return None
    missing = six.pop(deck.rng.randrange(6))
    hand = deck.fill(six)
    if hand is not None:
        deck.all_six_hint = deck.take([missing])[0]  # kept back for the All-Six card
    return hand


def _all_six_helper(ranks: str, hint_rank: str) -> Pattern:
    """Four cards of ``ranks`` and the All-Six card of ``hint_rank``: A-2-3-4 + 5 is a wheel."""

    def make(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
        if deck.all_six_hint is not None:
            return None
        hints = deck.of_rank(hint_rank)
        if not hints:
            return None
        hint = deck.take([deck.rng.choice(hints)])[0]  # kept back for the All-Six card
        hand = deck.fill([r + deck.rng.choice(SUITS) for r in ranks])
        if hand is None:
            deck.left.add(hint)
        else:
            deck.all_six_hint = hint
        return hand

    return make


def _random(deck: _Deck, dealer: list[str] | None) -> list[str] | None:
    return deck.fill([])


PLAYER_PATTERNS: tuple[tuple[Pattern, int], ...] = (
    (_random, 40),
    (_quads(), 3),
    (_quads("A"), 2),
    (_straight_flush(), 3),
    (_straight_flush(2), 2),  # A-2-3-4 of one suit
    (_straight_flush(12), 2),  # A-K-Q-J of one suit (royal for the Four Card Bonus)
    (_straight(), 4),
    (_straight(2), 2),  # A-2-3-4
    (_fixed_ranks("Q", "K", "A", "2"), 2),  # no wrap-around
    (_flush, 4),
    (_sets(3), 4),
    (_fixed_ranks("A", "A", "A"), 1),
    (_sets(2, 2), 3),
    (_fixed_ranks("A", "A", "Q", "Q"), 2),
    (_fixed_ranks("A", "A", "K", "K"), 1),
    (_fixed_ranks("K", "K"), 2),
    (_fixed_ranks("A", "A"), 2),
    (_fixed_ranks("Q", "Q"), 2),
    (_fixed_ranks("J", "J"), 1),
    (_copy, 8),
    (_six_royal, 2),
    (_all_six_helper("A234", "5"), 2),  # the wheel
    (_all_six_helper("TJQK", "A"), 1),
    (_all_six_helper("AAKK", "K"), 1),  # full house
)
DEALER_PATTERNS: tuple[tuple[Pattern, int], ...] = (
    (_random, 30),
    (_high_card("K"), 5),
    (_high_card("Q"), 5),
    (_high_card("A"), 2),
    (_high_card("J"), 2),
    (_quads(), 3),
    (_quads("A"), 2),
    (_quads("K"), 1),
    (_straight_flush(), 3),
    (_straight(), 3),
    (_flush, 3),
    (_sets(3), 3),
    (_sets(2, 2), 2),
)


def _pick(rng: random.Random, patterns: Sequence[tuple[Pattern, int]]) -> Pattern:
    return rng.choices([p for p, _ in patterns], weights=[w for _, w in patterns])[0]


def _deal(
    deck: _Deck, patterns: Sequence[tuple[Pattern, int]], dealer: list[str] | None
) -> list[str]:
    for _ in range(3):
        hand = _pick(deck.rng, patterns)(deck, dealer)
        if hand is not None:
            return hand
    hand = _random(deck, dealer)
    assert hand is not None
    return hand


def random_rules(rng: random.Random) -> dict[str, Any]:
    rules: dict[str, Any] = {
        "bad_beat_paytable": rng.choice(BAD_BEAT_NAMES),
        "prime_paytable": rng.choice(PRIME_NAMES),
        "four_card_bonus_paytable": rng.choice(FOUR_CARD_BONUS_NAMES),
        "all_six_paytable": rng.choice(ALL_SIX_NAMES),
        "payout_limit": rng.choice(PAYOUT_LIMITS) if rng.random() < 0.5 else None,
    }
    for key in list(rules):
        if rng.random() < 0.05:
            del rules[key]  # absent: the default ("A", no limit)
    return rules


def random_round(
    rng: random.Random,
    boxes: int | None = None,
    max_raise: MaxRaise = engine_max_raise,
    planted: bool = True,
) -> dict[str, Any]:
    """One dealt round after the decisions, in the ``settle_round`` input format.

    ``boxes``: how many boxes are played (default 1 to 6 at random). ``max_raise`` answers
    1 or 3 for five cards so that only legal raises are generated. ``planted=False`` deals
    every hand uniformly at random.
    """
    deck = _Deck(rng)
    player_patterns = PLAYER_PATTERNS if planted else ((_random, 1),)
    dealer_patterns = DEALER_PATTERNS if planted else ((_random, 1),)
    dealer = _deal(deck, dealer_patterns, None)
    count = boxes if boxes is not None else rng.randint(1, 6)
    numbers = sorted(rng.sample(range(1, 7), count))
    # Players own runs of adjacent boxes (§684a.7(e)).
    owners: list[str] = []
    player = 0
    for i, number in enumerate(numbers):
        if i == 0 or number != numbers[i - 1] + 1 or rng.random() < 0.5:
            player += 1
        owners.append(f"p{player}")

    out_boxes: list[dict[str, Any]] = []
    any_all_six = False
    for number, owner in zip(numbers, owners, strict=True):
        cards = _deal(deck, player_patterns, dealer)
        ante = rng.choice(ANTES)
        wagers: dict[str, Any] = {"ante": ante, "odds": ante}
        if rng.random() < 0.2:
            fold = rng.random()
            if fold < 0.4:
                wagers["raise"] = 0
            elif fold < 0.5:
                wagers["raise"] = None
            # else: no raise key at all
        else:
            wagers["raise"] = ante * rng.randint(1, max_raise(cards))
        for side in ("prime", "four_card_bonus", "all_six"):
            roll = rng.random()
            if roll < 0.55:
                wagers[side] = rng.choice(SIDE_STAKES)
            elif roll < 0.6:
                wagers[side] = 0  # the same as not placed
            elif roll < 0.65:
                wagers[side] = None
        if wagers.get("all_six"):
            any_all_six = True
        out_boxes.append({"box": number, "player": owner, "cards": cards, "wagers": wagers})

    if rng.random() < 0.3:
        rng.shuffle(out_boxes)  # any input order; the output keeps it

    round_: dict[str, Any] = {"rules": random_rules(rng), "dealer": dealer, "boxes": out_boxes}
    if any_all_six or rng.random() < 0.3:
        hint = deck.all_six_hint
        round_["all_six_card"] = hint if hint is not None else deck.random(1)[0]
    elif rng.random() < 0.5:
        round_["all_six_card"] = None
    return round_


def random_rounds(
    count: int,
    seed: int,
    boxes: int | None = None,
    max_raise: MaxRaise = engine_max_raise,
    planted: bool = True,
) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [random_round(rng, boxes, max_raise, planted) for _ in range(count)]


def broken_round(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
    """One round broken one way (or, now and then, left valid)."""
    doc = copy.deepcopy(doc)
    box = rng.choice(doc["boxes"])
    how = rng.randrange(14)
    if how == 0:
        del doc["dealer"]
    elif how == 1:
        doc["dealer"] = doc["dealer"][:4]
    elif how == 2:
        doc["dealer"][0] = box["cards"][0]  # a card twice
    elif how == 3:
        box["cards"][1] = "1X"
    elif how == 4:
        box["wagers"]["ante"] = -box["wagers"]["ante"]
    elif how == 5:
        box["wagers"]["odds"] = box["wagers"]["ante"] + 1
    elif how == 6:
        box["wagers"]["raise"] = box["wagers"]["ante"] * 4
    elif how == 7:
        doc["rules"]["bad_beat_paytable"] = "Z"
    elif how == 8:
        box["box"] = 7
    elif how == 9:
        doc["boxes"].append(copy.deepcopy(box))  # the same box twice
    elif how == 10:
        box["wagers"]["ante"] = str(box["wagers"]["ante"])
    elif how == 11:
        doc["rules"]["payout_limit"] = -5
    elif how == 12:
        del box["player"]
    # how == 13: valid
    return doc
