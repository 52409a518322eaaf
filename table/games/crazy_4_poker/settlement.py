"""Settling a dealt round of Crazy 4 Poker (§657a.11(b)-(g), §657a.12).

The platform calls :func:`no_more_bets` when betting closes (the meters are incremented then,
§657a.10(a)(2)) and :func:`settle` once every box has played or folded and the dealer's cards
are revealed; :func:`settle_round` does both for a round given whole (the ``settle_round``
contract). Everything here is pure: inputs are immutable, results are new values.

Settlement goes box by box from the dealer's right, box 6 to box 1 (§657a.11(c)); per box:
Ante, Play, Super Bonus (c)(3); Queens Up (d); the progressive and Envy Bonuses (e); the Five
Card Hand Bonus on the player's hand, then on the dealer's, with Magic Card and Lucky Bonus
(f); the Six Card Bonus (g). The order matters only for the meters: a meter pays what it holds
at that box's turn, so a second winner of one meter gets what the first left.

Past 500 lines: §657a.11(c)-(g) is one ordered procedure in which the meters' amounts carry
from box to box, and :func:`in_words` tells its result as the round's events carry it (each
box's lines and hand, the money back, the meters' payouts in the order they were taken).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Final

from table.games.base import MeterChange
from table.games.cards import Card, card_code, codes
from table.games.errors import InvalidInput
from table.games.events import Transfer
from table.games.four_card_frenzy.hands import describe
from table.games.progressive import (
    Increment,
    Meter,
    apply_increment,
    increment_for,
    pay_out,
    share,
)
from table.games.shoe import CARDS_PER_STACK

from .hands import (
    BestFour,
    FiveCardCategory,
    FourCardHand,
    SixCardHand,
    best_four,
    check_hand,
    dealer_qualifies,
    five_card_category_trusted,
    four_card_category_key,
    four_card_hand,
    six_card_hand_trusted,
)
from .paytables import (
    EVEN_MONEY,
    HAND_BONUS,
    HAND_BONUS_PAYTABLE,
    LUCKY_BONUS,
    MAGIC_CARD,
    SUPER_BONUS,
    ForOne,
    HandClass,
    OfMeter,
    Paytable,
    ProgressiveType,
    Row,
    ToOne,
)
from .rules import ANTE as ANTE
from .rules import HAND_BONUS_DEALER as HAND_BONUS_DEALER
from .rules import HAND_BONUS_PLAYER as HAND_BONUS_PLAYER
from .rules import PLAY as PLAY
from .rules import PROGRESSIVE as PROGRESSIVE
from .rules import QUEENS_UP as QUEENS_UP
from .rules import SIX_CARD_BONUS as SIX_CARD_BONUS
from .rules import SUPER_BONUS_WAGER as SUPER_BONUS_WAGER
from .rules import WAGER_ORDER as WAGER_ORDER
from .rules import Rules, check_play

MAGIC, LUCKY = "magic_card", "lucky_bonus"
DEALER: Final = "dealer"
#: §657a.11(b)(1)-(2), interpretation 3: what a fold forfeits; (b)(3): the Six Card Bonus stays.
FORFEITED_ON_FOLD: Final = (
    ANTE,
    SUPER_BONUS_WAGER,
    QUEENS_UP,
    PROGRESSIVE,
    HAND_BONUS_PLAYER,
    HAND_BONUS_DEALER,
)


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


@dataclass(frozen=True, slots=True)
class Wagers:
    """One box's stakes in cents; 0 is "not placed" and a Play of 0 is a fold."""

    ante: int
    super_bonus: int
    play: int = 0
    queens_up: int = 0
    progressive: int = 0
    hand_bonus_player: int = 0
    hand_bonus_dealer: int = 0
    six_card_bonus: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if type(v) is not int or v < 0:
                raise InvalidInput(
                    "bad_amount", f"{f.name} must be a whole number of cents ≥ 0, not {v!r}"
                )

    def placed(self) -> dict[str, int]:
        """The wagers placed, by name, in settlement order."""
        return {name: getattr(self, name) for name in WAGER_ORDER if getattr(self, name)}

    @property
    def total(self) -> int:
        return sum(getattr(self, name) for name in WAGER_ORDER)


@dataclass(frozen=True, slots=True)
class BoxInPlay:
    box: int  # 1 (dealer's left) .. 6 (dealer's right)
    player: str
    cards: tuple[Card, ...]
    wagers: Wagers

    @property
    def folded(self) -> bool:
        return self.wagers.play == 0


@dataclass(frozen=True, slots=True)
class Draws:
    """The table game system's Magic Card and Lucky position for a round (§657a.1), if drawn."""

    magic_card: Card | None = None
    lucky_position: int | str | None = None  # 1..6 or "dealer"


@dataclass(frozen=True, slots=True)
class WagerResult:
    wager: str
    stake: int
    outcome: Outcome
    net: int
    meter: str | None = None  # a meter it was paid from
    meter_paid: int = 0
    #: The posted paytable row that paid it, in words ("Two pair: 2 to 1"); None for the
    #: main game's even money, a push or a loss (the round detail's "Paytable row").
    row: str | None = None

    def __post_init__(self) -> None:
        # The outcome follows the sign of the net (issue 23): a share of a jackpot smaller
        # than its stake is a loss, whatever the hand hit (its row says that).
        if self.outcome is not by_net(self.net):
            raise ValueError(f"{self.wager}: {self.outcome.value} with a net of {self.net}")


def by_net(net: int) -> Outcome:
    """A wager's outcome from its net: won, pushed or lost money."""
    return Outcome.WIN if net > 0 else Outcome.LOSE if net < 0 else Outcome.PUSH


@dataclass(frozen=True, slots=True)
class Envy:
    from_box: int
    hand: str  # four_aces, four_of_a_kind, straight_flush, royal_flush
    amount: int


@dataclass(frozen=True, slots=True)
class BoxSettlement:
    box: int
    player: str
    folded: bool
    hand: BestFour
    five_card: FiveCardCategory
    six_card: SixCardHand | None
    results: tuple[WagerResult, ...]
    bonuses: tuple[tuple[str, int], ...]  # (magic_card | lucky_bonus, amount), only those paid
    envy: tuple[Envy, ...]

    @property
    def net(self) -> int:
        return (
            sum(r.net for r in self.results)
            + sum(a for _, a in self.bonuses)
            + sum(e.amount for e in self.envy)
        )

    def result(self, wager: str) -> WagerResult | None:
        for r in self.results:
            if r.wager == wager:
                return r
        return None


@dataclass(frozen=True, slots=True)
class MeterResult:
    name: str
    before: Meter  # before this round's increments
    increment: Increment
    paid: int
    reseeds: int  # how many 100% payouts reset it (each funded by the house)
    after: Meter


@dataclass(frozen=True, slots=True)
class RoundSettlement:
    dealer: BestFour
    dealer_qualifies: bool
    dealer_five_card: FiveCardCategory
    boxes: tuple[BoxSettlement, ...]  # in settlement order: box 6 first
    meters: tuple[MeterResult, ...]  # by name

    def box(self, number: int) -> BoxSettlement:
        for b in self.boxes:
            if b.box == number:
                return b
        raise KeyError(number)

    def player_nets(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for b in sorted(self.boxes, key=lambda b: b.box):
            out[b.player] = out.get(b.player, 0) + b.net
        return out


# --- validation -----------------------------------------------------------------------------


def validate(
    rules: Rules,
    dealer: Sequence[Card],
    boxes: Sequence[BoxInPlay],
    six_card_bonus_card: Card | None,
    draws: Draws = Draws(),
) -> None:
    """Refuse a round the rules do not allow, with :class:`InvalidInput` naming the problem."""
    check_hand(dealer, 5, "the dealer's hand")
    seen_boxes: set[int] = set()
    dealt: list[Card] = list(dealer)
    any_six = False
    for b in boxes:
        if type(b.box) is not int or not 1 <= b.box <= 6:
            raise InvalidInput("bad_box", f"box must be a number 1 to 6, not {b.box!r}")
        if b.box in seen_boxes:
            raise InvalidInput("duplicate_box", f"box {b.box} appears twice")
        seen_boxes.add(b.box)
        check_hand(b.cards, 5, f"box {b.box}")
        dealt += b.cards
        _validate_wagers(rules, b)
        any_six = any_six or b.wagers.six_card_bonus > 0
    if any_six and six_card_bonus_card is None:
        raise InvalidInput(
            "missing_six_card_bonus_card", "a box has a Six Card Bonus but no Six Card Bonus card"
        )
    if six_card_bonus_card is not None:
        if not any_six:
            raise InvalidInput(
                "unexpected_six_card_bonus_card",
                "a Six Card Bonus card is dealt only when a box has a Six Card Bonus (§657a.10(b))",
            )
        dealt.append(six_card_bonus_card)
    if len(set(dealt)) != len(dealt):
        seen: set[Card] = set()
        for c in dealt:
            if c in seen:
                raise InvalidInput("duplicate_card", f"duplicate card {card_code(c)}")
            seen.add(c)
    if (draws.magic_card is not None or draws.lucky_position is not None) and (
        rules.hand_bonus_wager is None
    ):
        raise InvalidInput(
            "not_offered", "a Magic Card or Lucky Bonus needs the Five Card Hand Bonus offered"
        )
    if draws.magic_card is not None and (
        type(draws.magic_card) is not int or not 0 <= draws.magic_card < 52
    ):
        raise InvalidInput("bad_card", f"no such magic card {draws.magic_card!r}")
    lucky = draws.lucky_position
    if lucky is not None and lucky != DEALER and (type(lucky) is not int or not 1 <= lucky <= 6):
        raise InvalidInput(
            "bad_lucky_position", f"lucky_position must be 1 to 6 or 'dealer', not {lucky!r}"
        )


def _validate_wagers(rules: Rules, b: BoxInPlay) -> None:
    w = b.wagers
    if w.ante <= 0:
        raise InvalidInput("missing_ante", f"box {b.box}: an Ante is required (§657a.7(d)(1))")
    if w.super_bonus != w.ante:
        raise InvalidInput(
            "unequal_ante_super_bonus",
            f"box {b.box}: the Super Bonus ({w.super_bonus}) must equal the Ante ({w.ante})"
            " (§657a.7(d)(1))",
        )
    offered = {
        QUEENS_UP: True,
        PROGRESSIVE: rules.progressive is not None,
        HAND_BONUS_PLAYER: rules.hand_bonus_wager is not None,
        HAND_BONUS_DEALER: rules.hand_bonus_wager is not None,
        SIX_CARD_BONUS: rules.six_card_bonus is not None,
    }
    size = {
        PROGRESSIVE: rules.progressive.wager if rules.progressive else None,
        HAND_BONUS_PLAYER: rules.hand_bonus_wager,
        HAND_BONUS_DEALER: rules.hand_bonus_wager,
    }
    for name, is_offered in offered.items():
        stake = getattr(w, name)
        if not stake:
            continue
        if not is_offered:
            raise InvalidInput(
                "not_offered", f"box {b.box}: this table does not offer the {name} wager"
            )
        fixed = size.get(name)
        if fixed is not None and stake != fixed:
            raise InvalidInput(
                "bad_wager_size",
                f"box {b.box}: the {name} wager is {fixed} cents at this table, not {stake}",
            )
    try:
        check_play(best_four(b.cards).value, w.ante, w.play)
    except InvalidInput:
        raise
    except Exception as exc:  # RuleViolation: in a whole round it is bad input
        raise InvalidInput("bad_play", f"box {b.box}: {exc}") from exc


# --- no more bets: the meter increments ----------------------------------------------------


def no_more_bets(
    rules: Rules, boxes: Sequence[BoxInPlay], meters: Mapping[str, Meter]
) -> tuple[dict[str, Meter], dict[str, Increment]]:
    """The meters after this round's wagers are locked in, and each meter's increment.

    ``meters`` must be exactly the table's meters. Folded boxes count: nobody has folded yet.
    """
    names = [spec.name for spec in rules.meters]
    if set(meters) != set(names):
        raise InvalidInput(
            "bad_meters",
            f"meters must be exactly {sorted(names)}, not {sorted(meters)}",
        )
    progressive_stakes = [b.wagers.progressive for b in boxes if b.wagers.progressive]
    hand_bonus_stakes = [
        s for b in boxes for s in (b.wagers.hand_bonus_player, b.wagers.hand_bonus_dealer) if s
    ]
    after: dict[str, Meter] = {}
    increments: dict[str, Increment] = {}
    for spec in rules.meters:
        stakes = hand_bonus_stakes if spec.name == HAND_BONUS else progressive_stakes
        inc = increment_for(spec, stakes)
        increments[spec.name] = inc
        after[spec.name] = apply_increment(meters[spec.name], inc)
    return after, increments


# --- the main game (§657a.11(c)(3), §657a.12(a)-(b)) -----------------------------------------


def _line(wager: str, stake: int, outcome: Outcome, net: int) -> WagerResult:
    return WagerResult(wager, stake, outcome, net)


def _lost(wager: str, stake: int) -> WagerResult:
    return WagerResult(wager, stake, Outcome.LOSE, -stake)


def _to_one(wager: str, stake: int, table: Paytable, hand: HandClass) -> WagerResult | None:
    row = table.row_for(hand)
    if row is None:
        return None
    assert isinstance(row.payout, ToOne)
    return WagerResult(wager, stake, Outcome.WIN, row.payout.net(stake), row=_row_words(row))


def _row_words(row: Row) -> str:
    """A paying row as posted: its hand and its payout."""
    return f"{row.label}: {row.payout.posted}"


def main_game(
    hand: BestFour, dealer: BestFour, qualifies: bool, wagers: Wagers
) -> tuple[WagerResult, WagerResult, WagerResult]:
    """Ante, Play and Super Bonus of a box that played (§657a.11(c)(3)).

    Dealer below king high: Ante pushes, Play wins whatever the hands (interpretation 2).
    Otherwise the higher four-card hand wins Ante and Play; a tie pushes both. The Super Bonus
    pays a straight or better in every case, even when the hand loses ((c)(3)(ii)(A)); below a
    straight it pushes unless the hand loses to a qualifying dealer.
    """
    ante, play, sb = wagers.ante, wagers.play, wagers.super_bonus
    bonus = _to_one(SUPER_BONUS_WAGER, sb, SUPER_BONUS, four_card_hand(hand.value))
    if not qualifies:  # (c)(3)(i)
        return (
            _line(ANTE, ante, Outcome.PUSH, 0),
            _line(PLAY, play, Outcome.WIN, EVEN_MONEY.net(play)),
            bonus or _line(SUPER_BONUS_WAGER, sb, Outcome.PUSH, 0),
        )
    if hand.value > dealer.value:  # (c)(3)(ii)(B)
        return (
            _line(ANTE, ante, Outcome.WIN, EVEN_MONEY.net(ante)),
            _line(PLAY, play, Outcome.WIN, EVEN_MONEY.net(play)),
            bonus or _line(SUPER_BONUS_WAGER, sb, Outcome.PUSH, 0),
        )
    if hand.value == dealer.value:  # (c)(3)(ii)(C)
        return (
            _line(ANTE, ante, Outcome.PUSH, 0),
            _line(PLAY, play, Outcome.PUSH, 0),
            bonus or _line(SUPER_BONUS_WAGER, sb, Outcome.PUSH, 0),
        )
    return (  # (c)(3)(ii)(A)
        _lost(ANTE, ante),
        _lost(PLAY, play),
        bonus or _lost(SUPER_BONUS_WAGER, sb),
    )


# --- the round --------------------------------------------------------------------------------

# Four-card and five-card classes are distinct IntEnums whose numbers overlap: keyed apart.
_FOUR_CARD_ENVY_KEYS: Final[dict[FourCardHand, str]] = {
    FourCardHand.FOUR_ACES: "four_aces",
    FourCardHand.FOUR_OF_A_KIND: "four_of_a_kind",
    FourCardHand.STRAIGHT_FLUSH: "straight_flush",
}
_FIVE_CARD_ENVY_KEYS: Final[dict[FiveCardCategory, str]] = {
    FiveCardCategory.ROYAL_FLUSH: "royal_flush",
    FiveCardCategory.STRAIGHT_FLUSH: "straight_flush",
}


def envy_key(hand: HandClass) -> str:
    """The contract's name of an Envy Bonus qualifying hand (§657a.1)."""
    if isinstance(hand, FourCardHand):
        return _FOUR_CARD_ENVY_KEYS[hand]
    if isinstance(hand, FiveCardCategory):
        return _FIVE_CARD_ENVY_KEYS[hand]
    raise InvalidInput("bad_hand", f"{hand!r} never earns an Envy Bonus")


@dataclass(frozen=True, slots=True)
class MeterPayment:
    """One payment out of a meter, in the order the meters moved during settlement: the
    platform's meters store books exactly these, one after the other, so the live table and
    ``settle_round`` pay the same cents (issue 23). A dealer-hand jackpot is one payment per
    share, all taken at the first such box's turn (§657a.12(f)(2)); only the last share of a
    100% payout carries ``reset`` (the meter resets once, to its reseed plus its reserve)."""

    meter: str
    box: int
    wager: str
    paid: int
    percent: int
    reset: bool
    split: int = 1


@dataclass
class _MeterBook:
    """The meters during settlement: what each holds now, what left it, how often it reset,
    and every payment in the order it left (:class:`MeterPayment`)."""

    rules: Rules
    now: dict[str, Meter]
    paid: dict[str, int]
    reseeds: dict[str, int]
    journal: list[MeterPayment] = field(default_factory=list)

    def pay(
        self, name: str, percent: int, boxes: Sequence[int], wager: str, each: int | None = None
    ) -> int:
        """Pay ``percent``% of the meter to ``boxes``' ``wager`` (more than one box: a split,
        each box ``each`` of it) and book it; what each box is paid."""
        meter = self.now[name]
        paid = share(meter, percent) if each is None else each
        spec = self.rules.meter_spec(name)
        total = paid * len(boxes)
        self.now[name] = pay_out(meter, spec, self.rules.meter_wager(name), percent, total)
        self.paid[name] += total
        if percent == 100:
            self.reseeds[name] += 1
        for i, box in enumerate(boxes):
            last = i == len(boxes) - 1
            self.journal.append(
                MeterPayment(name, box, wager, paid, percent, last and percent == 100, len(boxes))
            )
        return paid


def _paytable_result(
    wager: str, stake: int, table: Paytable, hand: HandClass, book: _MeterBook, box: int
) -> WagerResult:
    """A "for 1" or meter wager (progressive, hand bonus on the player's hand)."""
    row = table.row_for(hand)
    if row is None:
        return _lost(wager, stake)
    payout = row.payout
    words = _row_words(row)
    if isinstance(payout, OfMeter):
        paid = book.pay(payout.meter, payout.percent, (box,), wager)
        net = paid - stake
        return WagerResult(wager, stake, by_net(net), net, payout.meter, paid, words)
    if isinstance(payout, ForOne):
        net = payout.paid(stake) - stake
        return WagerResult(wager, stake, by_net(net), net, row=words)
    return WagerResult(wager, stake, Outcome.WIN, payout.net(stake), row=words)


def settle(
    rules: Rules,
    dealer_cards: Sequence[Card],
    boxes: Sequence[BoxInPlay],
    meters: Mapping[str, Meter],
    six_card_bonus_card: Card | None = None,
    draws: Draws = Draws(),
) -> tuple[
    list[BoxSettlement], dict[str, Meter], dict[str, int], dict[str, int], list[MeterPayment]
]:
    """Settle every box, box 6 first, from ``meters`` as they stand after "no more bets".

    Returns the box settlements in settlement order, the meters after, per meter what was
    paid out of it and how many times it was reset to its reseed, and every payment out of a
    meter in the order the meters moved (what the platform's meters store books).
    """
    validate(rules, dealer_cards, boxes, six_card_bonus_card, draws)
    dealer = best_four(list(dealer_cards))
    qualifies = dealer_qualifies(dealer.value)
    dealer_five = five_card_category_trusted(dealer_cards)
    book = _MeterBook(rules, dict(meters), dict.fromkeys(meters, 0), dict.fromkeys(meters, 0))
    progressive = rules.progressive.table if rules.progressive else None

    order = sorted(boxes, key=lambda b: -b.box)  # §657a.11(c): from the dealer's right
    hands = {b.box: best_four(list(b.cards)) for b in boxes}
    fives = {b.box: five_card_category_trusted(b.cards) for b in boxes}

    # §657a.11(e)(5), §657a.1: live hands that earn the other players an Envy Bonus.
    envy_hands: list[tuple[BoxInPlay, HandClass]] = []
    if progressive is not None:
        for b in boxes:
            if b.folded:  # §657a.11(c): a folded hand is forfeited
                continue
            envy_hand: HandClass = (
                four_card_hand(hands[b.box].value)
                if progressive.type is ProgressiveType.FOUR_CARD
                else fives[b.box]
            )
            if envy_hand in progressive.envy_hands:
                envy_hands.append((b, envy_hand))

    # §657a.12(f)(2): a dealer-hand jackpot is split among the live dealer-hand wagers.
    dealer_hand_wagers = [b for b in order if b.wagers.hand_bonus_dealer and not b.folded]
    dealer_row = HAND_BONUS_PAYTABLE.row_for(dealer_five)
    dealer_share: int | None = None

    out: list[BoxSettlement] = []
    for b in order:
        w = b.wagers
        hand = hands[b.box]
        five = fives[b.box]
        results: list[WagerResult] = []
        bonuses: list[tuple[str, int]] = []
        if b.folded:
            # §657a.11(b)(1)-(2) and interpretation 3: everything but the Six Card Bonus.
            results += [
                _lost(name, getattr(w, name)) for name in FORFEITED_ON_FOLD if getattr(w, name)
            ]
        else:
            results += main_game(hand, dealer, qualifies, w)
            if w.queens_up:  # §657a.11(d), §657a.12(c)
                qu = _to_one(QUEENS_UP, w.queens_up, rules.queens_up, four_card_hand(hand.value))
                results.append(qu or _lost(QUEENS_UP, w.queens_up))
            if w.progressive and progressive is not None:  # §657a.11(e)
                cls: HandClass = (
                    four_card_hand(hand.value)
                    if progressive.type is ProgressiveType.FOUR_CARD
                    else five
                )
                results.append(
                    _paytable_result(
                        PROGRESSIVE, w.progressive, progressive.paytable, cls, book, b.box
                    )
                )
            if w.hand_bonus_player:  # §657a.11(f), §657a.12(f)
                results.append(
                    _paytable_result(
                        HAND_BONUS_PLAYER,
                        w.hand_bonus_player,
                        HAND_BONUS_PAYTABLE,
                        five,
                        book,
                        b.box,
                    )
                )
            if w.hand_bonus_dealer:
                stake = w.hand_bonus_dealer
                if dealer_row is not None and isinstance(dealer_row.payout, OfMeter):
                    if dealer_share is None:  # taken once, at the first such box in order
                        percent = dealer_row.payout.percent
                        ways = len(dealer_hand_wagers)
                        dealer_share = book.pay(
                            HAND_BONUS,
                            percent,
                            [x.box for x in dealer_hand_wagers],
                            HAND_BONUS_DEALER,
                            share(book.now[HAND_BONUS], percent, ways),
                        )
                    results.append(
                        WagerResult(
                            HAND_BONUS_DEALER,
                            stake,
                            by_net(dealer_share - stake),
                            dealer_share - stake,
                            HAND_BONUS,
                            dealer_share,
                            _row_words(dealer_row),
                        )
                    )
                else:
                    results.append(
                        _paytable_result(
                            HAND_BONUS_DEALER, stake, HAND_BONUS_PAYTABLE, dealer_five, book, b.box
                        )
                    )
            bonuses = _magic_and_lucky(b, dealer_cards, draws)
        if w.six_card_bonus and rules.six_card_bonus is not None:  # §657a.11(g), (b)(3)
            assert six_card_bonus_card is not None
            six = six_card_hand_trusted((*b.cards, six_card_bonus_card))
            sc = _to_one(SIX_CARD_BONUS, w.six_card_bonus, rules.six_card_bonus, six)
            results.append(sc or _lost(SIX_CARD_BONUS, w.six_card_bonus))
        else:
            six = None
        envy: list[Envy] = []
        if w.progressive and progressive is not None:  # a folded box still receives them
            for holder, cls in envy_hands:
                if holder.box != b.box and holder.player != b.player:
                    amount = progressive.envy_for(w.progressive, cls)
                    envy.append(Envy(holder.box, envy_key(cls), amount))
            envy.sort(key=lambda e: e.from_box)
        results.sort(key=lambda r: WAGER_ORDER.index(r.wager))
        out.append(
            BoxSettlement(
                b.box,
                b.player,
                b.folded,
                hand,
                five,
                six,
                tuple(results),
                tuple(bonuses),
                tuple(envy),
            )
        )
    return out, book.now, book.paid, book.reseeds, book.journal


def _magic_and_lucky(
    b: BoxInPlay, dealer_cards: Sequence[Card], draws: Draws
) -> list[tuple[str, int]]:
    """§657a.1, §657a.12(f)(3): additional payouts to a live box's hand-bonus wagers."""
    w = b.wagers
    magic = lucky = 0
    if draws.magic_card is not None:
        if w.hand_bonus_player and draws.magic_card in b.cards:
            magic += MAGIC_CARD.paid(w.hand_bonus_player)
        if w.hand_bonus_dealer and draws.magic_card in dealer_cards:
            magic += MAGIC_CARD.paid(w.hand_bonus_dealer)
    if draws.lucky_position is not None:
        if w.hand_bonus_player and draws.lucky_position == b.box:
            lucky += LUCKY_BONUS.paid(w.hand_bonus_player)
        if w.hand_bonus_dealer and draws.lucky_position == DEALER:
            lucky += LUCKY_BONUS.paid(w.hand_bonus_dealer)
    out: list[tuple[str, int]] = []
    if magic:
        out.append((MAGIC, magic))
    if lucky:
        out.append((LUCKY, lucky))
    return out


def hand_json(cards: Sequence[Card]) -> dict[str, Any]:
    """A five-card hand in words: the best four (§657a.6(b)) and the five-card category.

    A stack of other than five cards (a misdeal, §657a.13(c), or a jammed shoe, §657a.13(f):
    the round is void) is shown as dealt, with no hand."""
    if len(cards) != CARDS_PER_STACK:
        return {
            "cards": codes(cards),
            "best_four": None,
            "hand": None,
            "category": None,
            "five_card_category": None,
        }
    hand = best_four(list(cards))
    return {
        "cards": codes(cards),
        "best_four": codes(hand.cards),
        "hand": describe(hand.value),
        "category": four_card_category_key(hand.value),
        "five_card_category": five_card_category_trusted(cards).key,
    }


# --- the settlement in words: what the events and the stored round say ---------------------


@dataclass(frozen=True, slots=True)
class SettlementWords:
    """A settled round told as the events and the stored round tell it: each box's lines,
    the money back to each player, the meter payouts in the order they were taken, each
    player's net and each meter before and after."""

    boxes: list[dict[str, Any]]
    transfers: list[Transfer]
    changes: list[MeterChange]
    players: dict[str, dict[str, int]]
    meters: dict[str, dict[str, Any]]


def in_words(
    boxes: Sequence[BoxInPlay],
    settled: Sequence[BoxSettlement],
    before: Mapping[str, Meter],
    after: Mapping[str, Meter],
    paid: Mapping[str, int],
    reseeds: Mapping[str, int],
    journal: Sequence[MeterPayment],
) -> SettlementWords:
    """:func:`settle`'s answer in the words the round's events carry."""
    by_box = {b.box: b for b in boxes}
    transfers: list[Transfer] = []
    # Every payment out of a meter in the order the settlement took it (a dealer-hand
    # jackpot's shares together, at the first such box's turn: §657a.12(f)(2)): the
    # platform books exactly these, so the table pays what settle_round says (issue 23).
    changes = [
        MeterChange(
            p.meter,
            "payout",
            paid=p.paid,
            box=p.box,
            wager=p.wager,
            reset=p.reset,
            percent=p.percent,
            split=p.split,
        )
        for p in journal
    ]
    boxes_json: list[dict[str, Any]] = []
    for s in settled:
        current = by_box[s.box]
        # §657a.11(c): folded cards go to the discard rack unseen, unless a Six Card Bonus
        # kept them on the layout (§657a.11(b)(3)); the others are turned face up.
        shown = not s.folded or bool(current.wagers.six_card_bonus)
        lines = []
        for r in s.results:
            line: dict[str, Any] = {
                "wager": r.wager,
                "stake": r.stake,
                "outcome": r.outcome.value,
                "net": r.net,
            }
            if r.row:
                line["row"] = r.row  # the paytable row that paid, as posted
            lines.append(line)
            returned = r.stake + r.net
            if returned > 0:
                memo = "win" if r.outcome is Outcome.WIN else "push"
                transfers.append(Transfer(s.player, -returned, memo, s.box, r.wager))
        for name, amount in s.bonuses:
            # §657a.12(f)(3): paid on top of the hand-bonus wagers' own results.
            transfers.append(Transfer(s.player, -amount, name.replace("_", " "), s.box, name))
        for envy in s.envy:
            transfers.append(Transfer(s.player, -envy.amount, "envy bonus", s.box, PROGRESSIVE))
        boxes_json.append(
            {
                "box": s.box,
                "player": s.player,
                "folded": s.folded,
                "shown": shown,
                **(hand_json(current.cards) if shown else {"cards": None}),
                "six_card_category": None if s.six_card is None else s.six_card.key,
                "results": lines,
                "bonuses": dict(s.bonuses),
                "envy": [
                    {"from_box": e.from_box, "hand": e.hand, "amount": e.amount} for e in s.envy
                ],
                "net": s.net,
            }
        )
    players: dict[str, dict[str, int]] = {}
    for s in sorted(settled, key=lambda s: s.box):
        players.setdefault(s.player, {"net": 0})["net"] += s.net
    meters_json = {
        name: {
            "before": {"amount": before[name].amount, "reserve": before[name].reserve},
            "paid": paid[name],
            "reseeds": reseeds[name],
            "amount": after[name].amount,
            "reserve": after[name].reserve,
        }
        for name in sorted(after)
    }
    return SettlementWords(boxes_json, transfers, changes, players, meters_json)


def settle_round(
    rules: Rules,
    dealer_cards: Sequence[Card],
    boxes: Sequence[BoxInPlay],
    meters_before: Mapping[str, Meter],
    six_card_bonus_card: Card | None = None,
    draws: Draws = Draws(),
) -> RoundSettlement:
    """A whole round: the increments at "no more bets", then settlement."""
    validate(rules, dealer_cards, boxes, six_card_bonus_card, draws)
    locked, increments = no_more_bets(rules, boxes, meters_before)
    settled, after, paid, reseeds, _ = settle(
        rules, dealer_cards, boxes, locked, six_card_bonus_card, draws
    )
    dealer = best_four(list(dealer_cards))
    return RoundSettlement(
        dealer,
        dealer_qualifies(dealer.value),
        five_card_category_trusted(dealer_cards),
        tuple(settled),
        tuple(
            MeterResult(
                name, meters_before[name], increments[name], paid[name], reseeds[name], after[name]
            )
            for name in sorted(after)
        ),
    )
