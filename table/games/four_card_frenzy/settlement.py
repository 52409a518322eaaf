"""Settlement of a dealt round (§684a.11(c),(d), §684a.12).

Pure arithmetic in integer cents. The input is what lies on the layout after the decisions:
each box's five cards and wagers, the dealer's five cards and the All-Six card. The output
is one line per wager with its outcome and net, and one total per player after the payout
limit (§684a.12(g)).

One room past 500 lines: §684a.11's settlement is one ordered procedure; its wagers' rules refer
to each other (the Odds to the Ante's hand, the payout limit to all three).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, NamedTuple

from table.games.cards import Card, check_distinct, codes
from table.games.errors import InvalidInput
from table.games.events import Transfer

from .hands import (
    CATEGORY_SHIFT,
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


#: One wager's settlement as plain values, the fields of a :class:`WagerResult` in order:
#: ``(wager, stake, outcome, net, row)``. Settlement works in lines; :func:`settle` makes
#: WagerResults of them, and the ``settle_round`` contract its JSON without that step.
Line = tuple[str, int, Outcome, int, str | None]


def _results(lines: Iterable[Line]) -> tuple[WagerResult, ...]:
    return tuple([WagerResult(*line) for line in lines])


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
    return _results(_main_game_lines(hand, dealer, ante, odds, raised, bad_beat))


def _main_game_lines(
    hand: BestFour, dealer: BestFour, ante: int, odds: int, raised: int, bad_beat: Paytable
) -> tuple[Line, ...]:
    if raised == 0:
        # §684a.11(b)(2): a fold forfeits the Ante and Odds.
        return (ANTE, ante, Outcome.LOSE, -ante, None), (ODDS, odds, Outcome.LOSE, -odds, None)
    wins = _versus_dealer(hand.value, dealer.value)
    # §684a.11(c)(2): the Ante is returned unless the dealer has king high or better.
    if not qualifies(dealer.value):
        ante_line: Line = (ANTE, ante, Outcome.PUSH, 0, None)
    elif wins:
        ante_line = (ANTE, ante, Outcome.WIN, ante, None)  # §684a.12(a)
    else:
        ante_line = (ANTE, ante, Outcome.LOSE, -ante, None)
    # §684a.11(c)(3): the Raise is settled whether or not the dealer qualifies.
    if wins:
        raise_line: Line = (RAISE, raised, Outcome.WIN, raised, None)
    else:
        raise_line = (RAISE, raised, Outcome.LOSE, -raised, None)
    return ante_line, raise_line, _odds_line(hand, wins, odds, bad_beat)


def _odds_hand(hand: BestFour) -> object:
    category = hand.category
    if category is Category.FOUR_OF_A_KIND and hand.value >> 12 & 15 == 12:
        return FOUR_ACES
    return category


#: Every straight or better is worth at least this.
_STRAIGHT_OR_BETTER: Final = Category.STRAIGHT << CATEGORY_SHIFT


def _odds_line(hand: BestFour, wins: bool, stake: int, bad_beat: Paytable) -> Line:
    if hand.value >= _STRAIGHT_OR_BETTER:
        # §684a.11(c)(4)(i): a straight or better is paid whether it wins or loses.
        table = ODDS_PAYTABLE if wins else bad_beat  # (A) §684a.12(b), (B) §684a.12(c)
        row = table.row_for(_odds_hand(hand))
        assert row is not None  # every straight-or-better class has a row in both tables
        return ODDS, stake, Outcome.WIN, row.payout.pay(stake), row.label
    # §684a.11(c)(4)(ii): two pair or lower pushes on a win or copy and loses otherwise.
    if wins:
        return ODDS, stake, Outcome.PUSH, 0, None
    return ODDS, stake, Outcome.LOSE, -stake, None


def _paytable_line(wager: str, stake: int, table: Paytable, hand: object) -> Line:
    row = table.row_for(hand)
    if row is None:
        return wager, stake, Outcome.LOSE, -stake, None
    return wager, stake, Outcome.WIN, row.payout.pay(stake), row.label


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
    return _results(_optional_lines(box, hand, all_six_card, rules))


def _optional_lines(
    box: BoxInPlay, hand: BestFour, all_six_card: Card | None, rules: Rules
) -> list[Line]:
    lines: list[Line] = []
    wagers = box.wagers
    if stake := wagers.get(PRIME, 0):
        lines.append(_paytable_line(PRIME, stake, rules.prime, prime_hand_trusted(box.cards)))
    if stake := wagers.get(FOUR_CARD_BONUS, 0):
        bonus = four_card_bonus_hand(hand.value)
        lines.append(_paytable_line(FOUR_CARD_BONUS, stake, rules.four_card_bonus, bonus))
    if stake := wagers.get(ALL_SIX, 0):
        assert all_six_card is not None
        six = all_six_hand_trusted((*box.cards, all_six_card))
        lines.append(_paytable_line(ALL_SIX, stake, rules.all_six, six))
    return lines


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
    return _player_totals(
        [
            (b.player, [(r.wager, r.stake, r.outcome, r.net, r.row) for r in b.results])
            for b in boxes
        ],
        payout_limit,
    )


def _player_totals(
    boxes: Iterable[tuple[str, Iterable[Line]]], payout_limit: int | None
) -> tuple[PlayerTotal, ...]:
    """:func:`apply_payout_limit` of each box's player and lines, the limit already checked."""
    # Players in the order of their first box (a dict keeps insertion order).
    net: dict[str, int] = {}
    limited_winnings: dict[str, int] = {}
    for player, lines in boxes:
        box_net = box_limited = 0
        for wager, _, _, line_net, _ in lines:
            box_net += line_net
            if wager in LIMITED_WAGERS and line_net > 0:
                box_limited += line_net
        net[player] = net.get(player, 0) + box_net
        limited_winnings[player] = limited_winnings.get(player, 0) + box_limited
    totals = []
    for player, player_net in net.items():
        over = 0
        if payout_limit is not None:
            over = max(0, limited_winnings[player] - payout_limit)
        totals.append(PlayerTotal(player, player_net - over, over > 0, over))
    return tuple(totals)


class SettledLines(NamedTuple):
    """A settled round as plain values, of which :func:`settle` makes its RoundSettlement."""

    dealer: BestFour
    dealer_qualifies: bool
    #: Each box with its best four and its lines, in the order the dealer settles them.
    boxes: list[tuple[BoxInPlay, BestFour, tuple[Line, ...]]]
    players: tuple[PlayerTotal, ...]


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
    settled = _settle_lines(dealer_cards, boxes, rules, all_six_card, main_game_void)
    return RoundSettlement(
        dealer=settled.dealer,
        dealer_qualifies=settled.dealer_qualifies,
        all_six_card=all_six_card,
        boxes=tuple(
            BoxSettlement(box.box, box.player, hand, box.folded, _results(lines))
            for box, hand, lines in settled.boxes
        ),
        players=settled.players,
    )


def settle_lines_trusted(
    dealer_cards: Sequence[Card],
    boxes: Sequence[BoxInPlay],
    rules: Rules,
    all_six_card: Card | None = None,
) -> SettledLines:
    """:func:`settle`, as lines, of a round whose parts the caller has checked one by one.

    For the ``settle_round`` contract, whose parser refuses malformed rules, hands, boxes and
    amounts first: what only the whole round shows (a box or a card twice, wagers the rules
    forbid) is still refused here, exactly as :func:`settle` refuses it.
    """
    return _settle_lines(dealer_cards, boxes, rules, all_six_card, False)


def _settle_lines(
    dealer_cards: Sequence[Card],
    boxes: Sequence[BoxInPlay],
    rules: Rules,
    all_six_card: Card | None,
    main_game_void: bool,
) -> SettledLines:
    """:func:`settle` once the rules, the dealer's hand and each box's layout are checked."""
    numbers = [b.box for b in boxes]
    if len(set(numbers)) != len(numbers):
        raise InvalidInput("duplicate_box", "a box appears twice")
    dealt = [*dealer_cards]
    for box in boxes:
        dealt += box.cards
    if all_six_card is not None:
        dealt.append(all_six_card)
    check_distinct(dealt)
    hands = [best_four(box.cards) for box in boxes]
    for box, hand in zip(boxes, hands, strict=True):
        _validate_wagers(box, all_six_card, hand.value)

    dealer = best_four(dealer_cards)
    settled: list[tuple[BoxInPlay, BestFour, tuple[Line, ...]]] = []
    # §684a.11(c): from the player farthest to the dealer's right, counterclockwise.
    in_order = sorted(zip(boxes, hands, strict=True), key=lambda pair: pair[0].box, reverse=True)
    for box, hand in in_order:
        wagers = box.wagers
        ante, odds, raised = wagers[ANTE], wagers[ODDS], wagers.get(RAISE, 0)
        if main_game_void:
            main: tuple[Line, ...] = tuple(
                (w, s, Outcome.VOID, 0, None)
                for w, s in ((ANTE, ante), (ODDS, odds), (RAISE, raised))
                if s
            )
        else:
            main = _main_game_lines(hand, dealer, ante, odds, raised, rules.bad_beat)
        settled.append((box, hand, (*main, *_optional_lines(box, hand, all_six_card, rules))))
    _check_payout_limit(rules.payout_limit)  # a Rules made without from_names may hold anything
    players = _player_totals([(box.player, lines) for box, _, lines in settled], rules.payout_limit)
    return SettledLines(dealer, qualifies(dealer.value), settled, players)


#: What a wager's returned money is called on the ledger, by its outcome.
_MEMOS: Final = {
    Outcome.WIN: "win",
    Outcome.PUSH: "push",
    Outcome.VOID: "returned (void)",
    Outcome.LOSE: "lose",
}


class SaidSettlement(NamedTuple):
    """A round's settlement told as the table stores and sends it: each box's lines, each
    player's totals, and the money it moves."""

    boxes: list[dict[str, Any]]
    players: dict[str, dict[str, Any]]
    transfers: list[Transfer]


def in_words(
    result: RoundSettlement, cards: Mapping[int, Sequence[Card]], optional: Mapping[int, bool]
) -> SaidSettlement:
    """The settlement of boxes holding ``cards``, ``optional``: whether each has an optional
    wager (a box folded without one goes to the discard rack unseen, §684a.11(b)(2))."""
    boxes: list[dict[str, Any]] = []
    transfers: list[Transfer] = []
    for settled in result.boxes:
        lines = [
            {
                "wager": r.wager,
                "stake": r.stake,
                "outcome": r.outcome.value,
                "net": r.net,
                "row": r.row,
            }
            for r in settled.results
        ]
        shown = not (settled.folded and not optional[settled.box])
        boxes.append(
            {
                "box": settled.box,
                "player": settled.player,
                "cards": codes(cards[settled.box]) if shown else None,
                "best_four": codes(settled.hand.cards) if shown else None,
                "hand": settled.hand.name if shown else None,
                "category": settled.hand.category.key if shown else None,
                "folded": settled.folded,
                "results": lines,
                "net": settled.net,
            }
        )
        transfers += [
            Transfer(settled.player, -r.returned, _MEMOS[r.outcome], settled.box, r.wager)
            for r in settled.results
            if r.returned
        ]
    players = {}
    for total in result.players:
        players[total.player] = {
            "net": total.net,
            "payout_limit_applied": total.payout_limit_applied,
            "withheld": total.withheld,
        }
        if total.withheld:
            # §684a.12(g): winnings above the payout limit are not paid.
            transfers.append(Transfer(total.player, total.withheld, "payout limit"))
    return SaidSettlement(boxes, players, transfers)
