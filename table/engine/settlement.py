"""Settlement of a dealt round (§684a.11(c),(d), §684a.12).

Pure arithmetic in integer cents. The input is what lies on the layout after the decisions:
each box's five cards and wagers, the dealer's five cards and the All-Six card. The output
is one line per wager with its outcome and net, and one total per player after the payout
limit (§684a.12(g)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from .cards import Card, check_distinct
from .errors import InvalidInput
from .hands import (
    BestFour,
    Category,
    all_six_hand_trusted,
    best_four,
    best_four_value,
    four_card_bonus_hand,
    max_raise_multiple,
    prime_hand_trusted,
    qualifies,
)
from .paytables import (
    FOUR_ACES,
    ODDS_PAYTABLE,
    Paytable,
    PaytableKind,
    paytable,
)

ANTE, ODDS, RAISE, PRIME, FOUR_CARD_BONUS, ALL_SIX = (
    "ante",
    "odds",
    "raise",
    "prime",
    "four_card_bonus",
    "all_six",
)
#: Order in which one box's wagers are settled (§684a.11(c)(1), (d)).
WAGER_ORDER: Final = (ANTE, RAISE, ODDS, PRIME, FOUR_CARD_BONUS, ALL_SIX)
#: The wagers a player places before "no more bets" (§684a.7(c),(d)).
OPTIONAL_WAGERS: Final = (PRIME, FOUR_CARD_BONUS, ALL_SIX)
#: The wagers the payout limit applies to (§684a.12(g): payouts under (a)-(c)).
LIMITED_WAGERS: Final = frozenset({ANTE, RAISE, ODDS})


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    #: Returned because of an irregularity (§684a.13).
    VOID = "void"


def _check_payout_limit(payout_limit: object) -> None:
    if payout_limit is not None and (
        not isinstance(payout_limit, int) or isinstance(payout_limit, bool) or payout_limit <= 0
    ):
        raise InvalidInput(
            "bad_payout_limit",
            f"payout_limit must be null or a positive number of cents, not {payout_limit!r}",
        )


@dataclass(frozen=True, slots=True)
class Rules:
    """The Rules Submission choices that settlement needs (§601a.2, §684a.12)."""

    bad_beat: Paytable
    prime: Paytable
    four_card_bonus: Paytable
    all_six: Paytable
    payout_limit: int | None = None

    @classmethod
    def from_names(
        cls,
        bad_beat: object = "A",
        prime: object = "A",
        four_card_bonus: object = "A",
        all_six: object = "A",
        payout_limit: object = None,
    ) -> Rules:
        _check_payout_limit(payout_limit)
        assert payout_limit is None or isinstance(payout_limit, int)
        return cls(
            bad_beat=paytable(PaytableKind.BAD_BEAT, bad_beat),
            prime=paytable(PaytableKind.PRIME, prime),
            four_card_bonus=paytable(PaytableKind.FOUR_CARD_BONUS, four_card_bonus),
            all_six=paytable(PaytableKind.ALL_SIX, all_six),
            payout_limit=payout_limit,
        )


@dataclass(frozen=True, slots=True)
class BoxInPlay:
    """One box as it stands at the reveal: its owner, five cards and wagers in cents.

    ``wagers`` holds ``ante`` and ``odds`` (equal), ``raise`` (0 = folded) and any optional
    wager placed (absent = not placed).
    """

    box: int
    player: str
    cards: tuple[Card, ...]
    wagers: Mapping[str, int]

    @property
    def folded(self) -> bool:
        return self.wagers.get(RAISE, 0) == 0


@dataclass(frozen=True, slots=True)
class WagerResult:
    wager: str
    stake: int
    outcome: Outcome
    net: int  # winnings, 0 for a push or void, minus the stake for a loss
    row: str | None = None  # the paytable row that paid, as posted

    @property
    def returned(self) -> int:
        """What goes back to the player: the stake and winnings, or nothing."""
        return 0 if self.outcome is Outcome.LOSE else self.stake + self.net


@dataclass(frozen=True, slots=True)
class BoxSettlement:
    box: int
    player: str
    hand: BestFour
    folded: bool
    results: tuple[WagerResult, ...]

    @property
    def net(self) -> int:
        return sum(r.net for r in self.results)

    def result(self, wager: str) -> WagerResult | None:
        for r in self.results:
            if r.wager == wager:
                return r
        return None


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    player: str
    net: int
    payout_limit_applied: bool
    withheld: int = 0  # winnings above the payout limit that are not paid


@dataclass(frozen=True, slots=True)
class RoundSettlement:
    dealer: BestFour
    dealer_qualifies: bool
    all_six_card: Card | None
    boxes: tuple[BoxSettlement, ...]  # in the order the dealer settles them
    players: tuple[PlayerTotal, ...] = field(default=())

    def player(self, name: str) -> PlayerTotal:
        for p in self.players:
            if p.player == name:
                return p
        raise KeyError(name)


def _bad_amount(box: BoxInPlay, wager: str, amount: object) -> InvalidInput:
    return InvalidInput(
        "bad_amount",
        f"box {box.box}: {wager} must be a whole number of cents ≥ 0, not {amount!r}",
    )


def _stake(box: BoxInPlay, wager: str) -> int:
    amount = box.wagers.get(wager, 0)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise _bad_amount(box, wager, amount)
    return amount


_WAGER_NAMES: Final = frozenset(WAGER_ORDER)


def _validate_layout(box: BoxInPlay) -> None:
    if not isinstance(box, BoxInPlay):
        raise InvalidInput("bad_box", f"not a box: {box!r}")
    if not isinstance(box.box, int) or isinstance(box.box, bool) or not 1 <= box.box <= 6:
        raise InvalidInput("bad_box", f"box number must be 1 to 6, not {box.box!r}")
    if not isinstance(box.player, str) or not box.player:
        raise InvalidInput("bad_player", f"box {box.box}: the player must be a non-empty name")
    if not isinstance(box.cards, list | tuple) or len(box.cards) != 5:
        count = len(box.cards) if isinstance(box.cards, list | tuple) else box.cards
        raise InvalidInput("wrong_card_count", f"box {box.box} has {count!r} cards, it must have 5")
    if not isinstance(box.wagers, Mapping):
        raise InvalidInput("bad_shape", f"box {box.box}: wagers must be a mapping of cents")


def validate_box(box: BoxInPlay, all_six_card: Card | None, hand_value: int | None = None) -> None:
    """Refuse a box that could not be on a real layout.

    ``hand_value``: the box's best four-card value when the caller has it already.
    """
    _validate_layout(box)
    _validate_wagers(box, all_six_card, hand_value)


def _validate_wagers(box: BoxInPlay, all_six_card: Card | None, hand_value: int | None) -> None:
    wagers = box.wagers
    if not _WAGER_NAMES.issuperset(wagers):
        unknown = sorted(str(w) for w in set(wagers) - _WAGER_NAMES)[0]
        raise InvalidInput("unknown_wager", f"box {box.box}: unknown wager {unknown!r}")
    for wager, amount in wagers.items():
        if type(amount) is not int or amount < 0:  # a bool is not an amount either
            raise _bad_amount(box, wager, amount)
    ante, odds, raised = wagers.get(ANTE, 0), wagers.get(ODDS, 0), wagers.get(RAISE, 0)
    if ante <= 0:
        raise InvalidInput("missing_ante", f"box {box.box}: Ante and Odds are required")
    if ante != odds:
        # §684a.7(d)(1): Ante and Odds in equal amounts.
        raise InvalidInput(
            "unequal_ante_odds", f"box {box.box}: Ante {ante} and Odds {odds} must be equal"
        )
    if raised:
        multiple, rest = divmod(raised, ante)
        if rest or multiple not in (1, 2, 3):
            raise InvalidInput(
                "bad_raise",
                f"box {box.box}: Raise {raised} must be 1, 2 or 3 times the Ante {ante}",
            )
        if hand_value is None:
            hand_value = best_four_value(box.cards)
        allowed = max_raise_multiple(hand_value)
        if multiple > allowed:
            # §684a.11(b)(1): a pair of kings or lower raises exactly 1x.
            raise InvalidInput(
                "raise_too_large",
                f"box {box.box}: a Raise of {multiple}x needs a pair of aces or better",
            )
    if wagers.get(ALL_SIX, 0) and all_six_card is None:
        raise InvalidInput(
            "missing_all_six_card", f"box {box.box}: an All-Six Bonus Wager needs the All-Six card"
        )


def _versus_dealer(player: int, dealer: int) -> bool:
    """A tie goes to the player: "greater than or equal to the dealer's hand" (§684a.11(c))."""
    return player >= dealer


def settle_main_game(
    hand: BestFour, dealer: BestFour, ante: int, odds: int, raised: int, bad_beat: Paytable
) -> tuple[WagerResult, ...]:
    """Ante, Raise and Odds of one box against the dealer (§684a.11(c)(2)-(4))."""
    if not isinstance(hand, BestFour) or not isinstance(dealer, BestFour):
        raise InvalidInput("bad_hand", "the player's and the dealer's best four are needed")
    if not isinstance(bad_beat, Paytable) or bad_beat.kind is not PaytableKind.BAD_BEAT:
        raise InvalidInput("unknown_paytable", f"not a bad beat paytable: {bad_beat!r}")
    wagers = {ANTE: ante, ODDS: odds}
    if raised:
        wagers[RAISE] = raised
    _validate_wagers(BoxInPlay(1, "player", (*hand.cards, hand.unused), wagers), None, hand.value)
    return _settle_main_game(hand, dealer, ante, odds, raised, bad_beat)


def _settle_main_game(
    hand: BestFour, dealer: BestFour, ante: int, odds: int, raised: int, bad_beat: Paytable
) -> tuple[WagerResult, ...]:
    if raised == 0:
        # §684a.11(b)(2): a fold forfeits the Ante and Odds.
        return (
            WagerResult(ANTE, ante, Outcome.LOSE, -ante),
            WagerResult(ODDS, odds, Outcome.LOSE, -odds),
        )
    wins = _versus_dealer(hand.value, dealer.value)
    results: list[WagerResult] = []
    # §684a.11(c)(2): the Ante is returned unless the dealer has king high or better.
    if not qualifies(dealer.value):
        results.append(WagerResult(ANTE, ante, Outcome.PUSH, 0))
    elif wins:
        results.append(WagerResult(ANTE, ante, Outcome.WIN, ante))  # §684a.12(a)
    else:
        results.append(WagerResult(ANTE, ante, Outcome.LOSE, -ante))
    # §684a.11(c)(3): the Raise is settled whether or not the dealer qualifies.
    if wins:
        results.append(WagerResult(RAISE, raised, Outcome.WIN, raised))
    else:
        results.append(WagerResult(RAISE, raised, Outcome.LOSE, -raised))
    results.append(_settle_odds(hand, wins, odds, bad_beat))
    return tuple(results)


def _odds_hand(hand: BestFour) -> object:
    category = hand.category
    if category is Category.FOUR_OF_A_KIND and hand.value >> 12 & 15 == 12:
        return FOUR_ACES
    return category


def _settle_odds(hand: BestFour, wins: bool, stake: int, bad_beat: Paytable) -> WagerResult:
    if hand.category >= Category.STRAIGHT:
        # §684a.11(c)(4)(i): a straight or better is paid whether it wins or loses.
        table = ODDS_PAYTABLE if wins else bad_beat  # (A) §684a.12(b), (B) §684a.12(c)
        row = table.row_for(_odds_hand(hand))
        assert row is not None  # every straight-or-better class has a row in both tables
        return WagerResult(ODDS, stake, Outcome.WIN, row.payout.pay(stake), row.label)
    # §684a.11(c)(4)(ii): two pair or lower pushes on a win or copy and loses otherwise.
    if wins:
        return WagerResult(ODDS, stake, Outcome.PUSH, 0)
    return WagerResult(ODDS, stake, Outcome.LOSE, -stake)


def _pay_table(wager: str, stake: int, table: Paytable, hand: object) -> WagerResult:
    row = table.row_for(hand)
    if row is None:
        return WagerResult(wager, stake, Outcome.LOSE, -stake)
    return WagerResult(wager, stake, Outcome.WIN, row.payout.pay(stake), row.label)


def settle_optional(
    box: BoxInPlay, hand: BestFour, all_six_card: Card | None, rules: Rules
) -> tuple[WagerResult, ...]:
    """Prime, Four Card Bonus and All-Six, win or fold alike (§684a.11(d))."""
    _validate_layout(box)
    if not isinstance(hand, BestFour) or not isinstance(rules, Rules):
        raise InvalidInput("bad_hand", "the box's best four and the table's Rules are needed")
    check_distinct([*box.cards] + ([] if all_six_card is None else [all_six_card]))
    if hand.value != best_four_value(box.cards):
        raise InvalidInput("bad_hand", f"box {box.box}: that is not the best four of its cards")
    _validate_wagers(box, all_six_card, hand.value)
    return _settle_optional(box, hand, all_six_card, rules)


def _settle_optional(
    box: BoxInPlay, hand: BestFour, all_six_card: Card | None, rules: Rules
) -> tuple[WagerResult, ...]:
    results: list[WagerResult] = []
    if stake := box.wagers.get(PRIME, 0):
        results.append(_pay_table(PRIME, stake, rules.prime, prime_hand_trusted(box.cards)))
    if stake := box.wagers.get(FOUR_CARD_BONUS, 0):
        bonus = four_card_bonus_hand(hand.value)
        results.append(_pay_table(FOUR_CARD_BONUS, stake, rules.four_card_bonus, bonus))
    if stake := box.wagers.get(ALL_SIX, 0):
        assert all_six_card is not None
        six = all_six_hand_trusted((*box.cards, all_six_card))
        results.append(_pay_table(ALL_SIX, stake, rules.all_six, six))
    return tuple(results)


def apply_payout_limit(
    boxes: Sequence[BoxSettlement], payout_limit: int | None
) -> tuple[PlayerTotal, ...]:
    """Each player's round total, the §684a.12(g) limit applied over all their boxes.

    The limit caps the sum of a player's winnings on Ante, Raise and Odds (bad beats
    included) in the round; losses are still collected and optional wagers never capped.
    """
    _check_payout_limit(payout_limit)
    if not isinstance(boxes, list | tuple) or not all(isinstance(b, BoxSettlement) for b in boxes):
        raise InvalidInput("bad_shape", "the payout limit is applied to settled boxes")
    order: list[str] = []
    net: dict[str, int] = {}
    limited_winnings: dict[str, int] = {}
    for box in boxes:
        if box.player not in net:
            order.append(box.player)
            net[box.player] = 0
            limited_winnings[box.player] = 0
        for r in box.results:
            net[box.player] += r.net
            if r.wager in LIMITED_WAGERS and r.net > 0:
                limited_winnings[box.player] += r.net
    totals = []
    for player in order:
        over = 0
        if payout_limit is not None:
            over = max(0, limited_winnings[player] - payout_limit)
        totals.append(PlayerTotal(player, net[player] - over, over > 0, over))
    return tuple(totals)


def settle(
    dealer_cards: Sequence[Card],
    boxes: Sequence[BoxInPlay],
    rules: Rules,
    all_six_card: Card | None = None,
    main_game_void: bool = False,
) -> RoundSettlement:
    """Settle a dealt round. ``boxes`` in any order; the result is in settlement order.

    ``main_game_void``: a dealer card was exposed before every decision was made
    (§684a.13(d)): Ante, Odds and Raise go back, optional wagers are still settled.
    """
    if not isinstance(rules, Rules):
        raise InvalidInput("bad_rules", "settlement needs the table's Rules")
    if not isinstance(dealer_cards, list | tuple) or len(dealer_cards) != 5:
        count = len(dealer_cards) if isinstance(dealer_cards, list | tuple) else dealer_cards
        raise InvalidInput("wrong_card_count", f"the dealer has {count!r} cards, it must have 5")
    if not isinstance(boxes, list | tuple):
        raise InvalidInput("bad_shape", "boxes must be a list of boxes")
    for box in boxes:
        _validate_layout(box)
    numbers = [b.box for b in boxes]
    if len(set(numbers)) != len(numbers):
        raise InvalidInput("duplicate_box", "a box appears twice")
    dealt = [*dealer_cards, *(c for b in boxes for c in b.cards)]
    if all_six_card is not None:
        dealt.append(all_six_card)
    check_distinct(dealt)
    hands = {box.box: best_four(box.cards) for box in boxes}
    for box in boxes:
        _validate_wagers(box, all_six_card, hands[box.box].value)

    dealer = best_four(dealer_cards)
    settled: list[BoxSettlement] = []
    # §684a.11(c): from the player farthest to the dealer's right, counterclockwise.
    for box in sorted(boxes, key=lambda b: b.box, reverse=True):
        hand = hands[box.box]
        ante, odds, raised = box.wagers[ANTE], box.wagers[ODDS], box.wagers.get(RAISE, 0)
        if main_game_void:
            main: tuple[WagerResult, ...] = tuple(
                WagerResult(w, s, Outcome.VOID, 0)
                for w, s in ((ANTE, ante), (ODDS, odds), (RAISE, raised))
                if s
            )
        else:
            main = _settle_main_game(hand, dealer, ante, odds, raised, rules.bad_beat)
        optional = _settle_optional(box, hand, all_six_card, rules)
        settled.append(BoxSettlement(box.box, box.player, hand, box.folded, main + optional))
    return RoundSettlement(
        dealer=dealer,
        dealer_qualifies=qualifies(dealer.value),
        all_six_card=all_six_card,
        boxes=tuple(settled),
        players=apply_payout_limit(settled, rules.payout_limit),
    )
