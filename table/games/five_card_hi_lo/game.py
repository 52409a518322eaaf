"""Five Card Hi-Lo behind the platform's :class:`~table.games.base.Game` interface.

Wraps :mod:`.round` and :mod:`.view` (ch. 663a). Five Card Hi-Lo's answers: the decision is a
Play Wager exactly equal to the Ante, or a fold (§663a.11(b)); then a phase of its own,
``setting``, where every playing box sets a three-card high and a two-card low hand (the felt
offers the legal settings with their totals, §663a.11(d); a two-box player sets the larger
Ante first, §663a.7(f)); its clock times out a decision as a fold and a setting as aces high;
one deck per round, no shared meters, no payout limit. What every game answers alike is the
default adapter's (:class:`~table.games.adapter.SkeletonGame`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, Final

from table.games.adapter import SkeletonGame
from table.games.common import fixed_odds_variance, main_game_spread
from table.games.errors import InvalidInput
from table.games.events import Step
from table.games.shoe import Fault

from ..base import (
    DECIDE,
    SET_HANDS,
    TIME_OUT,
    Actor,
    Choice,
    Command,
    FeltParts,
    Figure,
    Game,
    Inputs,
    Move,
    Problem,
    RulesField,
    Sign,
    TableSettings,
    Timer,
    WagerSpec,
    command_box,
    dealer_step,
    require_player,
)
from . import contract, words
from .paytables import (
    ANTE_BONUS_PAYTABLES,
    POKER_BONUS_MIN_PAIR,
    POKER_BONUS_PAYTABLES,
    TIE_ODDS,
    AnteBonusHand,
    TieHand,
)
from .poker import poker_rank_trusted
from .recheck import recheck
from .round import GAME as NAME
from .round import BoxPlay, Phase, Round, offered_settings
from .rules import OPTIONAL, HiLoRules
from .settlement import ABANDON_RULE, ANTE, ANTE_BONUS, PLAY, POKER_BONUS, TIE

LABELS: Final = {
    ANTE: "Ante",
    PLAY: "Play",
    ANTE_BONUS: "Ante Bonus",
    TIE: "Tie Wager",
    POKER_BONUS: "Poker Bonus",
}
_FIELD_LABELS: Final = {
    "ante_bonus_paytable": "Ante Bonus paytable (§663a.12(b))",
    "poker_bonus_paytable": "Poker Bonus paytable (§663a.12(d))",
    "offers_tie": "Tie Wager offered (§663a.7(e)(1))",
    "offers_poker_bonus": "Poker Bonus offered (§663a.7(e)(2))",
    "adjacent_boxes": "Adjacent boxes per player (§663a.7(f))",
    "two_decks": "Two decks used alternately (§663a.3(b))",
}
_CHOICES: Final = {
    "ante_bonus_paytable": tuple(ANTE_BONUS_PAYTABLES),
    "poker_bonus_paytable": tuple(POKER_BONUS_PAYTABLES),
}
_RANKS: Final = "23456789TJQKA"


def _kind(name: str, type_name: str) -> str:
    if name in _CHOICES:
        return "choice"
    if type_name == "bool":
        return "flag"
    if name.endswith("_seconds"):
        return "seconds"
    if name.endswith(("_min", "_max")):
        return "cents"
    return "text"


def _setting_label(setting: Mapping[str, Any]) -> str:
    high, low = "-".join(setting["high"]), "-".join(setting["low"])
    return f"High {high} = {setting['high_total']}, low {low} = {setting['low_total']}"


class FiveCardHiLo(SkeletonGame[HiLoRules, Round]):
    """Five Card Hi-Lo (ch. 663a): see the module docstring."""

    name = NAME
    title = "Five Card Hi-Lo"
    phases = tuple(p.value for p in Phase)
    regulation = "58 Pa. Code ch. 663a"
    # §663a.13(a), (c), (e) and §663a.5(b); ch. 663a has no rule for an exposed dealer card.
    drills: tuple[Fault, ...] = (
        Fault.JAM,
        Fault.FACE_UP_CARD,
        Fault.TWO_FACE_UP_CARDS,
        Fault.MISDEAL,
        Fault.MISCOUNT,
    )
    stub_miscount_reason = "stub_miscount"
    felt = FeltParts(
        spots=((ANTE, PLAY), (TIE, POKER_BONUS)),
        labels=LABELS,
        felt_module=None,
        console_module=None,
        leave_rule=ABANDON_RULE,
        fold_keeps=words.FOLD_KEEPS,
        for_one=words.FOR_ONE,
        printed=words.PRINTED,
    )
    optional_wagers = OPTIONAL

    # --- the Rules Submission -------------------------------------------------------------

    def rules_fields(self) -> tuple[RulesField, ...]:
        default = HiLoRules()
        return tuple(
            RulesField(
                f.name,
                _FIELD_LABELS.get(f.name, f.name.replace("_", " ").capitalize()),
                _kind(f.name, str(f.type)),
                getattr(default, f.name),
                _CHOICES.get(f.name, ()),
                # One box, or two adjacent boxes (§663a.7(f)): a number, as at the other games.
                counts=(1, 2) if f.name == "adjacent_boxes" else (),
            )
            for f in fields(HiLoRules)
        )

    def default_rules(self) -> HiLoRules:
        return HiLoRules()

    def parse_rules(self, data: Mapping[str, Any]) -> HiLoRules:
        try:
            return HiLoRules.from_dict(dict(data))
        except TypeError as exc:
            raise InvalidInput("bad_rules", f"not Five Card Hi-Lo rules: {exc}") from None

    def rules_problems(self, rules: HiLoRules) -> list[Problem]:
        return [Problem(f, words) for f, words in rules.problems()]

    def wagers(self, rules: HiLoRules) -> tuple[WagerSpec, ...]:
        low, high = rules.limits(ANTE)
        out = [
            WagerSpec(ANTE, LABELS[ANTE], "bet", low, high, required=True),
            # §663a.11(b): the Play Wager equals the Ante; not making it is a fold.
            WagerSpec(PLAY, LABELS[PLAY], "decision", low, high, fixed=True),
        ]
        for wager in OPTIONAL:
            low, high = rules.limits(wager)
            out.append(WagerSpec(wager, LABELS[wager], "bet", low, high, rules.offers(wager)))
        return tuple(out)

    def table_settings(self, rules: HiLoRules) -> TableSettings:
        return TableSettings(
            rules.two_decks,
            rules.betting_seconds,
            rules.boxes_per_player(),
            adjacent_rule="§663a.7(f)",
        )

    def signs(self, rules: HiLoRules) -> tuple[Sign, ...]:
        """§663a.12's payouts for the wagers offered, in the paytables chosen."""
        bonus = ANTE_BONUS_PAYTABLES[rules.ante_bonus_paytable]
        hand_words = {
            AnteBonusHand.FOUR_ACES_AND_2: "Four aces and a 2",
            AnteBonusHand.FOUR_ACES: "Four aces",
            AnteBonusHand.THREE_ACES: "Three aces",
        }
        signs = [
            Sign(
                "Ante and Play",
                "§663a.12(a)",
                (("High hand higher and low hand lower than the dealer's", "1 to 1"),),
            ),
            Sign(
                "Ante Bonus (on a box that plays)",
                rules.ante_bonus_paytable,
                tuple((hand_words[h], f"{bonus[h]:,} for 1") for h in hand_words),
            ),
        ]
        if rules.offers(TIE):
            tie_words = {
                TieHand.BOTH: "Both hands tie",
                TieHand.HIGH: "High hands tie",
                TieHand.LOW: "Low hands tie",
            }
            signs.append(
                Sign(
                    LABELS[TIE],
                    "§663a.12(c)",
                    tuple((tie_words[h], f"{TIE_ODDS[h]} to 1") for h in tie_words),
                )
            )
        if rules.offers(POKER_BONUS):
            letter = rules.poker_bonus_paytable
            pair_from = _RANKS[POKER_BONUS_MIN_PAIR[letter]]
            rows = []
            for hand, odds in POKER_BONUS_PAYTABLES[letter].items():
                words = hand.value.replace("_", " ").capitalize()
                if hand.value == "pair":
                    words = f"Pair of {pair_from}s or better"
                rows.append((words, f"{odds} to 1"))
            signs.append(Sign(LABELS[POKER_BONUS], letter, tuple(rows)))
        return tuple(signs)

    def math_report(self, rules: HiLoRules) -> tuple[Figure, ...]:
        """From the committed report (``manage.py paytable_report``: exact figures by value
        classes, :mod:`.report`), the figures the admin shows."""
        from table.paytable_report import load_game_report

        report = load_game_report(NAME)
        main = report["main_game"]["paytables"][rules.ante_bonus_paytable]
        out = [
            Figure(
                "Ante and Play",
                rules.ante_bonus_paytable,
                float(main["house_edge"]),
                "per unit of Ante, optimal play and setting, Ante Bonus included",
                (ANTE, PLAY, ANTE_BONUS),
                *main_game_spread(main.get("net_distribution"), main.get("house_edge_exact")),
            )
        ]
        wagers = report["wagers"]
        if rules.offers(TIE):
            tie = wagers["tie"]["paytables"]["posted"]
            edge = float(tie["house_edge"])
            out.append(
                Figure(
                    LABELS[TIE],
                    "§663a.12(c)",
                    edge,
                    "per unit wagered, with the optimal Ante play",
                    (TIE,),
                    fixed_odds_variance(tie, edge),
                )
            )
        if rules.offers(POKER_BONUS):
            letter = rules.poker_bonus_paytable
            bonus = wagers["poker_bonus"]["paytables"][letter]
            edge = float(bonus["house_edge"])
            out.append(
                Figure(
                    LABELS[POKER_BONUS],
                    letter,
                    edge,
                    "per unit wagered",
                    (POKER_BONUS,),
                    fixed_odds_variance(bonus, edge),
                )
            )
        return tuple(out)

    # --- a round ----------------------------------------------------------------------------

    def box_hand(self, box: BoxPlay) -> str | None:
        hand = poker_rank_trusted(box.cards).hand.value.replace("_", " ")
        setting = box.setting()
        if setting is not None:
            hand += f"; set {setting.high_total} / {setting.low_total}"
        return hand

    def timer(self, state: Round) -> Timer | None:
        rules = state.rules
        # A decision that times out is a fold (house rule: no Play Wager was made).
        clock = SkeletonGame.timer(self, state)
        if clock is not None:
            return clock
        if state.phase is Phase.SETTING:
            pending = state.pending_settings()
            if pending:
                # A setting that times out is set aces high (house rule).
                return Timer("setting", tuple(pending), rules.setting_seconds, Command(TIME_OUT))
        return None

    def decide_move(self, state: Round, box: BoxPlay) -> Move | None:
        # §663a.11(b): a Play Wager equal to the Ante, or a fold.
        choices = (
            Choice("Fold", {"play": False}),
            Choice(f"Play ${box.wagers[ANTE] / 100:,.2f} (equal to the Ante)", {"play": True}),
        )
        return Move(DECIDE, "Play or fold", box.box, choices)

    def more_moves(self, state: Round, player: str) -> tuple[Move, ...]:
        number = state.next_to_set(player) if state.phase is Phase.SETTING else None
        if number is None:
            return ()
        settings = tuple(
            Choice(_setting_label(s), {"high": s["high"], "low": s["low"]})
            for s in offered_settings(state.boxes[number].cards)
        )
        return (Move(SET_HANDS, "Set your high and low hands", number, settings),)

    def dealer_step(self, state: Round) -> Move | None:
        if state.phase is Phase.SETTING and state.pending_settings():
            return Move(TIME_OUT, "Setting time is up: the house sets aces high")
        # §663a.11(d): the dealer reveals once every box has set its hands.
        return dealer_step(
            state.phase.value,
            bool(state.boxes_in_play()),
            state.to_act,
            # Every box folded: nothing to set, the reveal is due now.
            Phase.DECISIONS.value if state.all_folded() else Phase.SETTING.value,
            "Reveal and set the dealer's hand",
        )

    def decision(self, args: Mapping[str, Any]) -> Any:
        if "play" not in args:
            raise InvalidInput("bad_decision", "say Play (true) or fold (false)")
        return args["play"]

    def apply_own(
        self, state: Round, actor: Actor, command: Command, inputs: Inputs
    ) -> Step | None:
        if command.name != SET_HANDS:
            return None
        player, args = require_player(actor), command.args
        if "high" not in args or "low" not in args:
            raise InvalidInput("bad_setting", "a setting names its high and low hands")
        return state.set_hands(command_box(command), player, args["high"], args["low"])

    def recheck(self, state: Round, faults: Sequence[Fault]) -> list[str]:
        return recheck(state, faults)

    def contract_round(self, state: Round) -> dict[str, Any] | None:
        from .contract import round_input

        return round_input(state)


GAME: Final[Game[HiLoRules, Round]] = FiveCardHiLo(Round, contract.settle_one)
