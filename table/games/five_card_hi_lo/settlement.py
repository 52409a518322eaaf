"""Settling a round of Five Card Hi-Lo (§663a.11(b), (f)-(j), §663a.12), and the orders of play.

Money is integer cents. A line's ``net`` is the winnings (positive), 0 for a push, or the lost
stake (negative); a box's result is the sum of its lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Protocol

from table.games.cards import Card, check_distinct, codes
from table.games.errors import InvalidInput
from table.games.events import Transfer

from .hands import Setting, house_way, setting_json
from .paytables import (
    ANTE_PLAY_ODDS,
    TIE_ODDS,
    ante_bonus_hand,
    ante_bonus_letter,
    ante_bonus_odds,
    ante_bonus_payout,
    poker_bonus_letter,
    poker_bonus_odds,
    tie_hand,
)
from .poker import PokerHand, poker_rank_trusted

ANTE: Final = "ante"
PLAY: Final = "play"
ANTE_BONUS: Final = "ante_bonus"
TIE: Final = "tie"
POKER_BONUS: Final = "poker_bonus"
#: §663a.11(f), (h), (j): Ante and Play, then the Ante Bonus, then the Tie, then the Poker Bonus.
LINE_ORDER: Final = (ANTE, PLAY, ANTE_BONUS, TIE, POKER_BONUS)
BOXES: Final = range(1, 7)  # §663a.2(a): no more than six betting positions


class Outcome(StrEnum):
    WIN = "win"
    PUSH = "push"  # the regulation's "tie" of the Ante and Play (§663a.11(g)(3))
    LOSE = "lose"


def ante_play_outcome(
    player_high: int, player_low: int, dealer_high: int, dealer_low: int
) -> Outcome:
    """§663a.11(g). A tie on either hand counts against the player, so it is asymmetric:
    both tied loses; high tied and low higher loses; high higher with low tied pushes."""
    high_wins = player_high > dealer_high
    low_wins = player_low < dealer_low
    if high_wins and low_wins:
        return Outcome.WIN  # (g)(1): high higher and low lower
    if not high_wins and not low_wins:
        return Outcome.LOSE  # (g)(2): high ties or is lower and low ties or is higher
    return Outcome.PUSH  # (g)(3)(i), (ii): one hand better, the other not


@dataclass(frozen=True, slots=True)
class Paytables:
    """The Rules Submission's choices that settlement needs (§663a.12(b), (d))."""

    ante_bonus: str = "A"
    poker_bonus: str = "A"

    def __post_init__(self) -> None:
        ante_bonus_letter(self.ante_bonus)
        poker_bonus_letter(self.poker_bonus)


@dataclass(frozen=True, slots=True)
class Wagers:
    """A box's stakes in cents. ``play`` is 0 (a fold) or equal to ``ante`` (§663a.11(b))."""

    ante: int
    play: int = 0
    tie: int = 0
    poker_bonus: int = 0

    def __post_init__(self) -> None:
        problem = wager_problem(self)
        if problem is not None:
            raise InvalidInput(*problem)

    @property
    def played(self) -> bool:
        return self.play > 0

    @property
    def total(self) -> int:
        return self.ante + self.play + self.tie + self.poker_bonus


def wager_problem(wagers: Wagers) -> tuple[str, str] | None:
    for name in (ANTE, PLAY, TIE, POKER_BONUS):
        amount = getattr(wagers, name)
        if type(amount) is not int or amount < 0:
            return "bad_amount", f"{name} must be a whole number of cents ≥ 0, not {amount!r}"
    if wagers.ante == 0:
        return "missing_ante", "an Ante is required to play (§663a.7(d))"
    if wagers.play not in (0, wagers.ante):
        # §663a.11(b): a Play Wager "in an amount equal to the player's Ante Wager".
        return "bad_play", f"play must be 0 (a fold) or equal to the ante {wagers.ante}"
    return None


def fold(wagers: Wagers) -> Wagers:
    """The wagers left after a fold: no Play (§663a.11(b))."""
    return Wagers(wagers.ante, 0, wagers.tie, wagers.poker_bonus)


def play(wagers: Wagers) -> Wagers:
    """The wagers after a Play decision: a Play Wager equal to the Ante (§663a.11(b))."""
    return Wagers(wagers.ante, wagers.ante, wagers.tie, wagers.poker_bonus)


def forfeited_on_fold(wagers: Wagers) -> int:
    """What a fold loses at once: the Ante and the Tie Wager (§663a.11(b)(1)); the Poker Bonus
    stays in action with the cards until it is settled (§663a.11(b)(2), (c))."""
    return wagers.ante + wagers.tie


@dataclass(frozen=True, slots=True)
class BoxInPlay:
    """A box at settlement: its five cards, stakes and, when it played, its setting."""

    box: int
    player: str
    cards: tuple[Card, ...]
    wagers: Wagers
    setting: Setting | None = None
    #: The player left after Play and before setting it: the box is never set (ABANDON_RULE).
    abandoned: bool = False


#: One rule for every wager of a box its player left before it was settled, whatever the step
#: (§663a.7(b): an abandoned wager may be treated as losing; nothing is paid from a hand the
#: player never set): the Ante, the Play Wager and the Tie Wager lose; the Poker Bonus, on the
#: five cards as dealt, stays in action as after any fold (§663a.11(b)(2), (c)). A box the
#: player set before leaving is settled as set. Said on the leave dialog (FeltParts.leave_rule).
ABANDON_RULE: Final = (
    "A box you leave before it is set loses its Ante, Play and Tie Wagers; a Poker Bonus stays "
    "in action on the five cards as dealt. A box you already set is settled as set. Your seats "
    "are freed once the round is over."
)


@dataclass(frozen=True, slots=True)
class Line:
    wager: str
    outcome: Outcome
    net: int
    hand: str | None = None  # the Ante Bonus row or Tie row that paid


@dataclass(frozen=True, slots=True)
class BoxSettlement:
    box: int
    player: str
    played: bool
    setting: Setting | None
    poker_hand: PokerHand
    lines: tuple[Line, ...]

    @property
    def net(self) -> int:
        return sum(line.net for line in self.lines)

    def line(self, wager: str) -> Line | None:
        return next((line for line in self.lines if line.wager == wager), None)


def _staked(wager: str, stake: int, odds: int | None) -> Line:
    if odds is None:
        return Line(wager, Outcome.LOSE, -stake)
    return Line(wager, Outcome.WIN, stake * odds)


def settle_box(box: BoxInPlay, dealer: Setting, paytables: Paytables) -> BoxSettlement:
    """Every line of one box, in the order the dealer settles them (§663a.11(f)-(j))."""
    wagers = box.wagers
    rank = poker_rank_trusted(box.cards)
    lines: list[Line] = []
    setting = box.setting if wagers.played and not box.abandoned else None
    if setting is None:
        if wagers.played and not box.abandoned:
            raise InvalidInput("missing_setting", f"box {box.box} played but has no setting")
        # §663a.11(b)(1): a fold forfeits the Ante and the Tie; no Ante Bonus on a fold
        # (house interpretation 2). A box abandoned after Play loses its Play too
        # (ABANDON_RULE, §663a.7(b)): it is never set, so nothing of it is paid.
        lines.append(Line(ANTE, Outcome.LOSE, -wagers.ante))
        if wagers.played:
            lines.append(Line(PLAY, Outcome.LOSE, -wagers.play))
        if wagers.tie:
            lines.append(Line(TIE, Outcome.LOSE, -wagers.tie))
    else:
        outcome = ante_play_outcome(*setting.totals, *dealer.totals)
        sign = {Outcome.WIN: ANTE_PLAY_ODDS, Outcome.PUSH: 0, Outcome.LOSE: -1}[outcome]
        lines.append(Line(ANTE, outcome, sign * wagers.ante))  # §663a.12(a): 1 to 1
        lines.append(Line(PLAY, outcome, sign * wagers.play))
        bonus = ante_bonus_hand(box.cards)
        if bonus is not None:
            # §663a.11(h): paid regardless of the Ante/Play outcome.
            x = ante_bonus_odds(paytables.ante_bonus, bonus)
            lines.append(Line(ANTE_BONUS, Outcome.WIN, ante_bonus_payout(wagers.ante, x), bonus))
        if wagers.tie:
            tie = tie_hand(*setting.totals, *dealer.totals)
            line = _staked(TIE, wagers.tie, None if tie is None else TIE_ODDS[tie])
            lines.append(Line(line.wager, line.outcome, line.net, tie))
    if wagers.poker_bonus:
        # §663a.11(j)(2): the five cards as dealt, played or folded (§663a.11(c)).
        odds = poker_bonus_odds(paytables.poker_bonus, rank)
        lines.append(_staked(POKER_BONUS, wagers.poker_bonus, odds))
    return BoxSettlement(box.box, box.player, wagers.played, setting, rank.hand, tuple(lines))


@dataclass(frozen=True, slots=True)
class RoundSettlement:
    dealer: Setting
    boxes: tuple[BoxSettlement, ...]  # in settlement order, box 6 to box 1

    @property
    def players(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for box in self.boxes:
            out[box.player] = out.get(box.player, 0) + box.net
        return out

    def box(self, number: int) -> BoxSettlement:
        return next(b for b in self.boxes if b.box == number)


def settle_round(
    dealer_cards: Sequence[Card], boxes: Iterable[BoxInPlay], paytables: Paytables
) -> RoundSettlement:
    """The dealer sets the house way (§663a.11(e)); the boxes are settled from the dealer's
    right counterclockwise, box 6 to box 1 (§663a.11(f))."""
    in_play = list(boxes)
    check_distinct([c for b in in_play for c in b.cards] + list(dealer_cards))
    check_boxes(in_play)
    dealer = house_way(dealer_cards)
    settled = tuple(settle_box(b, dealer, paytables) for b in settlement_order(in_play))
    return RoundSettlement(dealer, settled)


# --- the orders of play ---------------------------------------------------------------------


def settlement_order(boxes: Iterable[BoxInPlay]) -> list[BoxInPlay]:
    """§663a.11(f): from the player farthest to the dealer's right (box 6) counterclockwise."""
    return sorted(boxes, key=lambda b: -b.box)


def deal_order(boxes: Iterable[int]) -> list[int]:
    """§663a.10(b): the first stack to the box with an Ante farthest to the dealer's left
    (box 1 side), then clockwise; the decisions follow the same order (§663a.11(b))."""
    return sorted(boxes)


decision_order = deal_order


def setting_order(boxes: Mapping[int, int]) -> list[int]:
    """The order in which one player sets two adjacent boxes, ``{box: ante}`` (§663a.7(f)):
    the larger wager first (house interpretation 5: the larger Ante, Play being equal to it);
    equal wagers counterclockwise, i.e. the box farther to the dealer's right (the higher
    number) first, each set and locked before the next."""
    return sorted(boxes, key=lambda n: (-boxes[n], -n))


def player_boxes_problem(numbers: Sequence[int], adjacent_allowed: bool = True) -> str | None:
    """Why one player may not hold these boxes, or None (§663a.7(f): if the Rules Submission
    permits, at most two adjacent betting areas)."""
    ordered = sorted(numbers)
    if len(ordered) > (2 if adjacent_allowed else 1):
        if not adjacent_allowed:
            return "this table allows one box per player"
        return f"a player may play at most two adjacent boxes, not {len(ordered)}"
    if len(ordered) == 2 and ordered[1] - ordered[0] != 1:
        return f"boxes {ordered[0]} and {ordered[1]} are not adjacent"
    return None


def check_boxes(boxes: Sequence[BoxInPlay], adjacent_allowed: bool = True) -> None:
    seen: set[int] = set()
    by_player: dict[str, list[int]] = {}
    for b in boxes:
        if b.box not in BOXES:
            raise InvalidInput("bad_box", f"box must be a number 1 to 6, not {b.box!r}")
        if b.box in seen:
            raise InvalidInput("duplicate_box", f"box {b.box} appears twice")
        seen.add(b.box)
        by_player.setdefault(b.player, []).append(b.box)
    for player, numbers in by_player.items():
        problem = player_boxes_problem(numbers, adjacent_allowed)
        if problem is not None:
            raise InvalidInput("bad_boxes", f"player {player!r}: {problem}")


# --- the settlement in words: what the events and the stored round say ---------------------


@dataclass(frozen=True, slots=True)
class SettlementWords:
    """A settled round told as the events and the stored round tell it: each box's lines,
    the money back to each player, each player's net."""

    boxes: list[dict[str, Any]]
    transfers: list[Transfer]
    players: dict[str, dict[str, int]]


class PlayedBox(Protocol):
    """What :func:`in_words` reads of a round's box."""

    @property
    def box(self) -> int: ...
    @property
    def wagers(self) -> dict[str, int]: ...
    @property
    def cards(self) -> list[Card]: ...
    @property
    def folded(self) -> bool: ...


def in_words(result: RoundSettlement, boxes: Mapping[int, PlayedBox]) -> SettlementWords:
    """:func:`settle_round`'s answer in the words the round's events carry (§663a.11(c),
    (f)-(j), §663a.12)."""
    transfers: list[Transfer] = []
    boxes_json = []
    for settled in result.boxes:
        play = boxes[settled.box]
        lines = []
        for line in settled.lines:
            stake = 0 if line.wager == ANTE_BONUS else play.wagers.get(line.wager, 0)
            lines.append(
                {
                    "wager": line.wager,
                    "stake": stake,
                    "outcome": line.outcome.value,
                    "net": line.net,
                    "hand": None if line.hand is None else str(line.hand),
                }
            )
            # What comes back: the stake with its winnings, the stake on a push, nothing
            # on a loss; the Ante Bonus has no stake of its own (house interpretation 1).
            returned = 0 if line.outcome is Outcome.LOSE else stake + line.net
            if returned:
                memo = "ante bonus" if line.wager == ANTE_BONUS else line.outcome.value
                transfers.append(Transfer(settled.player, -returned, memo, settled.box, line.wager))
        # §663a.11(c): a folded box without a Poker Bonus went to the discard rack unseen.
        shown = settled.played or play.wagers.get(POKER_BONUS, 0) > 0
        setting = settled.setting
        boxes_json.append(
            {
                "box": settled.box,
                "player": settled.player,
                "played": settled.played,
                "folded": play.folded,
                "cards": codes(play.cards) if shown else None,
                "poker_hand": settled.poker_hand.value if shown else None,
                "setting": None if setting is None else setting_json(setting),
                "results": lines,
                "net": settled.net,
            }
        )
    players: dict[str, dict[str, int]] = {}
    for name, net in result.players.items():
        players[name] = {"net": net}
    return SettlementWords(boxes_json, transfers, players)
