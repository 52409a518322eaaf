"""Crazy 4 Poker behind the platform's :class:`~table.games.base.Game` interface.

Wraps :mod:`.round` and :mod:`.view` (ch. 657a). Crazy 4 Poker's answers: the decision is a
Play Wager of the Ante, or any amount from 1x to 3x the Ante with a pair of aces or better, or
a fold (§657a.11(b)); progressive and hand-bonus wagers feed **meters shared across tables**
at "no more bets" and are paid from them in settlement order (each change is a
:class:`~table.games.base.MeterChange` the platform applies); the Five Card Hand Bonus may be
bet on **the dealer's hand**; a Six Card Bonus adds **a shared card**'s stack to the deal; no
payout limit. What every game answers alike is the default adapter's
(:class:`~table.games.adapter.SkeletonGame`). (Over 500 lines: the Rules Submission's fields,
signs and figures of four side wagers, each short.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final

from table.games.adapter import HOUSE_VOIDS, SkeletonGame
from table.games.common import fixed_odds_variance, main_game_spread
from table.games.errors import EngineError, InvalidInput, RuleViolation
from table.games.events import Step as EngineStep
from table.games.four_card_frenzy.hands import describe
from table.games.progressive import Meter
from table.games.shoe import Fault

from ..base import (
    DECIDE,
    Actor,
    Amount,
    Choice,
    FeltParts,
    Figure,
    Game,
    GameStep,
    Inputs,
    Line,
    MeterKind,
    MeterSpec,
    Move,
    Problem,
    RulesField,
    Sign,
    TableSettings,
    WagerSpec,
    clock_problems,
    dollars,
    field_changes,
    lines_of,
)
from . import contract, words
from .hands import best_four
from .irregularities import Irregularity
from .meters import CATALOGUE, METER_LABELS
from .paytables import (
    FIVE_CARD_PROGRESSIVES,
    FOUR_CARD_PROGRESSIVES,
    HAND_BONUS_PAYTABLE,
    QUEENS_UP_PAYTABLES,
    SIX_CARD_BONUS_PAYTABLES,
    SUPER_BONUS,
)
from .recheck import recheck
from .round import VOID_REASONS, BoxPlay, Phase, Round, Step, TableRules
from .rules import OPTIONAL, Rules, bonus_return
from .settlement import (
    ANTE,
    HAND_BONUS_DEALER,
    HAND_BONUS_PLAYER,
    PLAY,
    PROGRESSIVE,
    QUEENS_UP,
    SIX_CARD_BONUS,
    SUPER_BONUS_WAGER,
)

NAME: Final = "crazy_4_poker"


def _side(
    label: str,
    entry: Mapping[str, Any],
    wagers: str | tuple[str, ...],
    basis: str = "per unit wagered",
    edge_key: str = "house_edge",
    paytable: str | None = None,
) -> Figure:
    """A side wager's figure from its report entry, with its exact variance when the entry's
    rows are the whole distribution (a progressive's: with its meters at their seeds)."""
    edge = float(entry[edge_key])
    keys = (wagers,) if isinstance(wagers, str) else wagers
    name = paytable if paytable is not None else str(entry["name"])
    return Figure(label, name, edge, basis, keys, fixed_odds_variance(entry, edge))


LABELS: Final = {
    ANTE: "Ante",
    SUPER_BONUS_WAGER: "Super Bonus",
    PLAY: "Play",
    QUEENS_UP: "Queens Up",
    PROGRESSIVE: "Progressive",
    HAND_BONUS_PLAYER: "Hand Bonus (your hand)",
    HAND_BONUS_DEALER: "Hand Bonus (the dealer's hand)",
    SIX_CARD_BONUS: "Six Card Bonus",
}
_PROGRESSIVE_OPTIONS: Final = tuple(
    [f"four_card {n}" for n in FOUR_CARD_PROGRESSIVES]
    + [f"five_card {n}" for n in FIVE_CARD_PROGRESSIVES]
)


def _lines(settled: Mapping[str, Any]) -> tuple[Line, ...]:
    """A settled box's lines: its wagers, then the Magic Card and Lucky Bonus paid on top of
    the hand-bonus wagers (§657a.12(f)(3)), then each Envy Bonus (§657a.11(e)(5))."""
    bonuses = tuple(
        Line(name, 0, "win", amount, None) for name, amount in settled["bonuses"].items()
    )
    envy = tuple(
        Line("envy_bonus", 0, "win", e["amount"], f"box {e['from_box']}: {e['hand']}")
        for e in settled["envy"]
    )
    return (*lines_of(settled["results"], "row"), *bonuses, *envy)


def _progressive_values(option: str) -> dict[str, str]:
    """What a progressive option ("five_card A") stores: its type and its paytable."""
    type_, paytable = option.split()
    return {"type": type_, "paytable": paytable}


def _progressive_words(option: str) -> str:
    type_, paytable = option.split()
    return f"{type_.replace('_', '-').capitalize()} progressive, paytable {paytable}"


def _rules_words(data: Mapping[str, Any]) -> dict[str, Any]:
    """The stored rules with the nested choices flattened into words, for comparisons."""
    out = dict(data)
    p = data.get("progressive")
    out["progressive"] = (
        "not offered"
        if p is None
        else f"{p['type'].replace('_', '-')} {p['paytable']}, {dollars(p['wager'])} wager"
    )
    h = data.get("hand_bonus")
    out["hand_bonus"] = "not offered" if h is None else f"{dollars(h['wager'])} wager"
    return out


def _bonus_words(r: Rules, extra: Fraction) -> str:
    """The Magic Card's and Lucky Bonus's trigger probabilities and the return they add."""
    parts = []
    if r.magic_card_probability:
        parts.append(
            f"Magic Card drawn on {float(r.magic_card_probability):.2%} of rounds "
            "(20 for 1 when it matches one of the hand's five cards: 5 in 52)"
        )
    if r.lucky_bonus_probability:
        parts.append(
            f"Lucky Bonus drawn on {float(r.lucky_bonus_probability):.2%} of rounds "
            "(5 for 1 when the hand's position is drawn: 1 in 7)"
        )
    return (
        "; ".join(parts)
        + f": they add a return of {float(extra):.2%} per unit wagered on a live hand "
        "(a folded box's wager gets none); the meter at its seed"
    )


def _refuse_declared_exposure() -> None:
    """§657a.13(d) voids the round for a dealer card exposed before every box has played or
    folded. In the virtual shoe nobody sees a dealer card before the reveal (the console does
    not show them); only the shoe can expose one, while dealing, and the deal then voids the
    round itself (the ``dealer_card_exposed`` drill). A declared exposure is refused: checked
    against the dealer's hand it would answer "not the dealer's" to every wrong guess, and a
    dealer who kept guessing would void any round a player asked him to."""
    raise RuleViolation(
        "shoe_only",
        "only the shoe exposes a dealer card, while dealing (§657a.13(d)): arm the drill "
        "before the deal",
    )


class Crazy4Poker(SkeletonGame[TableRules, Round]):
    """Crazy 4 Poker (ch. 657a): see the module docstring."""

    name = NAME
    title = "Crazy 4 Poker"
    regulation = "58 Pa. Code ch. 657a"
    drills = tuple(Fault)  # §657a.13(a), (c), (d), (f) and §657a.5(b)
    stub_miscount_reason = "stub_count_wrong"
    phases = tuple(p.value for p in Phase)
    felt = FeltParts(
        spots=(
            (ANTE, SUPER_BONUS_WAGER, PLAY),
            (QUEENS_UP, PROGRESSIVE, SIX_CARD_BONUS),
            (HAND_BONUS_PLAYER, HAND_BONUS_DEALER),
        ),
        labels=LABELS,
        felt_module=None,
        console_module=None,
        # One rule for every abandoned box (§657a.7(b), §657a.11(b); Crazy4Poker.abandon).
        leave_rule=(
            "A box you leave before it decides folds on its turn, as any fold: its Ante, Super "
            "Bonus, Queens Up, progressive and hand bonus wagers lose, and a Six Card Bonus "
            "stays in action. A box that already decided is settled as it stands. Your seats "
            "are freed once the round is over."
        ),
        fold_keeps=words.FOLD_KEEPS,
        for_one=words.FOR_ONE,
        printed=words.PRINTED,
    )
    optional_wagers = OPTIONAL
    ante_label = "Ante and Super Bonus (each)"

    # --- the Rules Submission -------------------------------------------------------------

    def rules_fields(self) -> tuple[RulesField, ...]:
        default = self.rules_to_dict(self.default_rules())
        fields = [
            RulesField(
                "queens_up_paytable",
                "Queens Up paytable (§657a.12(c))",
                "choice",
                default["queens_up_paytable"],
                tuple(QUEENS_UP_PAYTABLES),
            ),
            RulesField(
                "progressive",
                "Progressive: type, paytable, $1 or $5 wager (§657a.12(d), (e))",
                "text",
                default["progressive"],
                _PROGRESSIVE_OPTIONS,
                optional=True,
                # Staff choose it in words and dollars; it is stored as {type, paytable, wager}.
                parts=(
                    RulesField(
                        "table",
                        "Progressive (§657a.12(d))",
                        "choice",
                        "{type} {paytable}".format(**default["progressive"]),
                        _PROGRESSIVE_OPTIONS,
                        help="Four-Card or Five-Card progressive and its paytable",
                        option_words=MappingProxyType(
                            {o: _progressive_words(o) for o in _PROGRESSIVE_OPTIONS}
                        ),
                        option_values=MappingProxyType(
                            {o: _progressive_values(o) for o in _PROGRESSIVE_OPTIONS}
                        ),
                    ),
                    RulesField(
                        "wager",
                        "Progressive wager",
                        "cents",
                        default["progressive"]["wager"],
                        help="a fixed $1 or $5 (§657a.12(e))",
                    ),
                ),
            ),
            RulesField(
                "hand_bonus",
                "Five Card Hand Bonus: $1 or $5 wager (§657a.12(f))",
                "text",
                default["hand_bonus"],
                optional=True,
                parts=(
                    RulesField(
                        "wager",
                        "Five Card Hand Bonus wager (§657a.12(f))",
                        "cents",
                        default["hand_bonus"]["wager"],
                        help="a fixed $1 or $5",
                    ),
                ),
            ),
            RulesField(
                "six_card_bonus_paytable",
                "Six Card Bonus paytable (§657a.12(g))",
                "choice",
                default["six_card_bonus_paytable"],
                tuple(SIX_CARD_BONUS_PAYTABLES),
                optional=True,
            ),
            RulesField(
                "magic_card_probability",
                "Magic Card: chance per round (house rule)",
                "text",
                default["magic_card_probability"],
            ),
            RulesField(
                "lucky_bonus_probability",
                "Lucky Bonus: chance per round (house rule)",
                "text",
                default["lucky_bonus_probability"],
            ),
            RulesField(
                "max_boxes_per_player",
                "Adjacent boxes per player (§657a.7(e))",
                "count",
                default["max_boxes_per_player"],
            ),
        ]
        for name in (
            "ante_min",
            "ante_max",
            "queens_up_min",
            "queens_up_max",
            "six_card_bonus_min",
            "six_card_bonus_max",
        ):
            fields.append(
                RulesField(name, name.replace("_", " ").capitalize(), "cents", default[name])
            )
        for name in ("decision_seconds", "betting_seconds"):
            fields.append(
                RulesField(name, name.replace("_", " ").capitalize(), "seconds", default[name])
            )
        return tuple(fields)

    def default_rules(self) -> TableRules:
        return TableRules(Rules.from_names("A", ("five_card", "A", 100), 100, "A"))

    def parse_rules(self, data: Mapping[str, Any]) -> TableRules:
        return TableRules.from_dict(dict(data))

    def rules_problems(self, rules: TableRules) -> list[Problem]:
        # Its rules refuse to exist when unusable: parse_rules names the problem.
        if not isinstance(rules, TableRules):
            return [Problem("rules", "not a Crazy 4 Poker table's rules")]
        # The platform's one minimum for every clock (it dealt at 4 s: issue 23).
        return clock_problems(self.rules_fields(), rules.to_dict())

    def rule_changes(self, old: TableRules, new: TableRules) -> list[str]:
        return field_changes(
            self.rules_fields(), _rules_words(old.to_dict()), _rules_words(new.to_dict())
        )

    def wagers(self, rules: TableRules) -> tuple[WagerSpec, ...]:
        low, high = rules.limits(ANTE)
        out = [
            WagerSpec(ANTE, LABELS[ANTE], "bet", low, high, required=True),
            # §657a.7(d)(1): Ante and Super Bonus in equal amounts.
            WagerSpec(SUPER_BONUS_WAGER, LABELS[SUPER_BONUS_WAGER], "with", low, high, True, True),
            # §657a.11(b): the Ante, or up to 3x it with a pair of aces or better.
            WagerSpec(PLAY, LABELS[PLAY], "decision", low, 3 * high),
        ]
        for wager in OPTIONAL:
            low, high = rules.limits(wager)
            offered = rules.offers(wager)
            out.append(
                WagerSpec(wager, LABELS[wager], "bet", low, high, offered, fixed=low == high)
            )
        return tuple(out)

    def table_settings(self, rules: TableRules) -> TableSettings:
        # CRAZY_4_POKER.md: the shoe, the two alternating decks and their changes as RULES.md.
        return TableSettings(
            True,
            rules.betting_seconds,
            rules.rules.max_boxes_per_player,
            adjacent_rule="§657a.7(e)",
        )

    def meters(self, rules: TableRules) -> tuple[MeterSpec, ...]:
        r = rules.rules
        out = []
        for spec in r.meters:
            wager = r.meter_wager(spec.name)
            # What the meters store links tables by (its catalogue, :meth:`meter_catalogue`):
            # the meter's kind, its progressive paytable letter ("" for the hand bonus) and
            # the table's fixed wager.
            letter = ""
            if r.progressive is not None and spec in r.progressive.table.meters:
                letter = r.progressive.table.name
            pool = f"{spec.name}:{letter}:{wager}"
            out.append(
                MeterSpec(
                    spec.name,
                    METER_LABELS.get(spec.name, spec.name),
                    pool,
                    spec.seed_amount(wager),
                    spec.reseed_amount(wager),
                )
            )
        return tuple(out)

    def meter_catalogue(self) -> tuple[MeterKind, ...]:
        return CATALOGUE

    def signs(self, rules: TableRules) -> tuple[Sign, ...]:
        r = rules.rules
        signs = [
            Sign(
                "Ante and Play",
                "§657a.11(c)",
                (
                    ("Dealer does not qualify (below king high)", "Ante push, Play 1 to 1"),
                    ("Player beats a qualifying dealer", "Ante 1 to 1, Play 1 to 1"),
                ),
            ),
            Sign(LABELS[SUPER_BONUS_WAGER], "§657a.12(b)", tuple(SUPER_BONUS.as_posted())),
            Sign(LABELS[QUEENS_UP], r.queens_up.name, tuple(r.queens_up.as_posted())),
        ]
        if r.progressive is not None:
            table = r.progressive.table
            signs.append(
                Sign(
                    f"{LABELS[PROGRESSIVE]} ({table.type.value.replace('_', '-')}, "
                    f"{dollars(r.progressive.wager)})",
                    table.name,
                    tuple(table.paytable.as_posted()),
                )
            )
        if r.hand_bonus_wager is not None:
            signs.append(
                Sign(
                    f"Five Card Hand Bonus ({dollars(r.hand_bonus_wager)} per hand)",
                    "§657a.12(f)",
                    tuple(HAND_BONUS_PAYTABLE.as_posted()),
                )
            )
        if r.six_card_bonus is not None:
            signs.append(
                Sign(
                    LABELS[SIX_CARD_BONUS],
                    r.six_card_bonus.name,
                    tuple(r.six_card_bonus.as_posted()),
                )
            )
        return tuple(signs)

    def math_report(self, rules: TableRules) -> tuple[Figure, ...]:
        """From the committed report (``manage.py paytable_report``: enumeration, :mod:`.report`),
        the figures the admin shows; a progressive's and the hand bonus's at their seeds."""
        from table.paytable_report import load_game_report

        report = load_game_report(NAME)
        r = rules.rules
        wagers = report["wagers"]
        out = [
            Figure(
                "Ante, Super Bonus and Play",
                "§657a.12(a), (b)",
                float(report["main_game"]["house_edge"]),
                "per unit of Ante, optimal Play strategy",
                (ANTE, SUPER_BONUS_WAGER, PLAY),
                *main_game_spread(
                    report["main_game"].get("net_distribution"),
                    report["main_game"].get("house_edge_exact"),
                ),
            ),
            _side(LABELS[QUEENS_UP], wagers["queens_up"]["paytables"][r.queens_up.name], QUEENS_UP),
        ]
        if r.progressive is not None:
            table = r.progressive.table
            entry = wagers[f"{table.type.value}_progressive"]["paytables"][table.name]
            out.append(
                _side(
                    LABELS[PROGRESSIVE],
                    entry,
                    PROGRESSIVE,
                    "per unit wagered, meters at their seeds",
                    "house_edge_at_seed",
                    table.name,
                )
            )
        if r.hand_bonus_wager is not None:
            entry = wagers["hand_bonus"]["paytables"]["posted"]
            at_seed = float(entry["house_edge_at_seed"])
            out.append(
                _side(
                    "Five Card Hand Bonus",
                    entry,
                    (HAND_BONUS_PLAYER, HAND_BONUS_DEALER),
                    "per unit wagered, the meter at its seed",
                    "house_edge_at_seed",
                    "§657a.12(f)",
                )
            )
            extra = bonus_return(r)
            if extra > 0:
                # §657a.12(f)(3) (CRAZY_4_POKER.md): the draws pay on top of the paytable, on
                # a live wager on the matching hand, as often as the Submission triggers them.
                out.append(
                    Figure(
                        "Five Card Hand Bonus with the Magic Card and Lucky Bonus",
                        "§657a.12(f)(3)",
                        at_seed - float(extra),
                        _bonus_words(r, extra),
                        (HAND_BONUS_PLAYER, HAND_BONUS_DEALER),
                    )
                )
        if r.six_card_bonus is not None:
            name = r.six_card_bonus.name
            entry = wagers["six_card_bonus"]["paytables"][name]
            out.append(_side(LABELS[SIX_CARD_BONUS], entry, SIX_CARD_BONUS, paytable=name))
        return tuple(out)

    # --- a round ----------------------------------------------------------------------------

    def game_step(self, step: EngineStep) -> GameStep:
        meters = step.meters if isinstance(step, Step) else ()
        return GameStep(step.events, step.transfers, meters)

    def box_decision(self, box: BoxPlay) -> str | None:
        if box.decision is None:
            return None
        return f"play {dollars(box.decision)}" if box.decision else "fold"

    def box_hand(self, box: BoxPlay) -> str | None:
        return describe(best_four(box.cards).value)

    def box_lines(self, settled: Mapping[str, Any]) -> tuple[Line, ...]:
        return _lines(settled)

    def decide_move(self, state: Round, box: BoxPlay) -> Move | None:
        if len(box.cards) != 5:
            return None
        # §657a.11(b): the Ante, or with a pair of aces or better up to three times it.
        low, high = state.play_range(box)
        ante = box.wagers[ANTE]
        choices = [Choice("Fold", {"play": 0})]
        choices += [
            Choice(f"Play {m}x ({dollars(m * ante)})", {"play": m * ante})
            for m in (1, 2, 3)
            if low <= m * ante <= high
        ]
        amounts = (Amount("play", "Play", low, high, required=True),) if high > low else ()
        return Move(DECIDE, "Play or fold", box.box, tuple(choices), amounts)

    def dealer_voids(self, state: Round) -> list[str]:
        out = []
        for reason in VOID_REASONS:
            if reason in HOUSE_VOIDS or reason == Irregularity.DEALER_CARD_EXPOSED:
                # A dealer card is exposed only by the shoe, while dealing (its drill):
                # see :func:`_refuse_declared_exposure`.
                continue
            try:
                # Checks only, changes nothing; the dealer's declaration is the evidence.
                state.check_void(reason, {"declared_by": "dealer"})
            except EngineError:
                continue
            out.append(reason)
        return out

    def decision(self, args: Mapping[str, Any]) -> Any:
        if "play" not in args:
            raise InvalidInput("bad_play", "say the Play in cents, or 0 to fold")
        return args["play"]

    def deal(self, state: Round, inputs: Inputs) -> EngineStep:
        return state.deal(list(inputs.faults), inputs.rng)

    def settle(self, state: Round, inputs: Inputs) -> EngineStep:
        meters = {n: Meter(m.amount, m.reserve) for n, m in inputs.meters.items()}
        return state.settle({n: meters[n] for n in state.meter_names if n in meters})

    def void(self, state: Round, actor: Actor, args: Mapping[str, Any]) -> EngineStep:
        reason = args.get("reason", "")
        evidence = args.get("evidence") or {"declared_by": actor.name or actor.role.value}
        if reason == Irregularity.DEALER_CARD_EXPOSED:
            _refuse_declared_exposure()
        return state.void(reason, dict(evidence))

    def recheck(self, state: Round, faults: Sequence[Fault]) -> list[str]:
        return recheck(state, faults)

    def contract_round(self, state: Round) -> dict[str, Any] | None:
        from .contract import round_input

        return round_input(state)


GAME: Final[Game[TableRules, Round]] = Crazy4Poker(Round, contract.settle_one)
