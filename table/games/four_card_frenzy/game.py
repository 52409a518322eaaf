"""Four Card Frenzy behind the platform's :class:`~table.games.base.Game` interface.

A thin wrapper over the game's engine in this package (ch. 684a): the rules are its
:class:`TableRules`, a round its :class:`Round`. Four Card Frenzy's answers: the decision is a
Raise of 1x, 2x or 3x the Ante (more than 1x only from a pair of aces, §684a.11(b)) or a fold;
the All-Six Bonus adds a shared card's stack to the deal; a payout limit caps a player's
winnings (§684a.12(g)); no shared meters. (Over 500 lines: one method per member of the
interface, each short, and the Rules Submission's fields with their labels and groups; the
game's own rules stay in its modules.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from types import MappingProxyType
from typing import Any, Final

from table.games.adapter import SkeletonGame
from table.games.cards import card_code, codes
from table.games.common import fixed_odds_variance, main_game_spread
from table.games.errors import InvalidInput, RuleViolation
from table.games.events import Step
from table.games.four_card_frenzy import contract, staff
from table.games.four_card_frenzy.hands import best_four, describe, max_raise_multiple
from table.games.four_card_frenzy.paytables import ODDS_PAYTABLE, PAYTABLES, PaytableKind, paytable
from table.games.four_card_frenzy.recheck import recheck
from table.games.four_card_frenzy.round import BoxPlay, Phase, Round
from table.games.four_card_frenzy.rules import (
    JURISDICTION_NAMES,
    OPTIONAL,
    PAYTABLE_FIELDS,
    Jurisdiction,
    TableRules,
    rule_changes,
)
from table.games.four_card_frenzy.settlement import (
    ALL_SIX,
    ANTE,
    FOUR_CARD_BONUS,
    ODDS,
    PRIME,
    RAISE,
)
from table.games.four_card_frenzy.words import FOLD_KEEPS, PRINTED
from table.games.shoe import Fault
from table.games.words import dollars

from ..base import (
    DECIDE,
    Actor,
    Choice,
    FeltParts,
    Figure,
    Game,
    GameStep,
    Line,
    Move,
    Problem,
    Recalled,
    RulesField,
    Sign,
    StaffPart,
    TableSettings,
    WagerSpec,
    lines_of,
)

NAME: Final = "four_card_frenzy"
#: Not a void of the round: the main game's alone (§684a.13(d)); its words for recall.
MAIN_GAME_VOID: Final = "main_game_void"
LABELS: Final = {
    ANTE: "Ante",
    ODDS: "Odds",
    RAISE: "Raise",
    PRIME: "Prime",
    FOUR_CARD_BONUS: "Four Card Bonus",
    ALL_SIX: "All-Six Bonus",
}
#: The Rules Submission's choices in the admin's words, citing the section each implements.
_FIELD_LABELS: Final = {
    "jurisdiction": "Jurisdiction (whose paytables the Submission selects from)",
    "bad_beat_paytable": "Bad beat paytable (§684a.12(c))",
    "offers_prime": "Offer the Prime Wager (§684a.7(d)(2))",
    "prime_paytable": "Prime paytable (§684a.12(d))",
    "offers_four_card_bonus": "Offer the Four Card Bonus Wager (§684a.7(d)(3))",
    "four_card_bonus_paytable": "Four Card Bonus paytable (§684a.12(e))",
    "offers_all_six": "Offer the All-Six Bonus Wager (§684a.7(d)(4))",
    "all_six_paytable": "All-Six Bonus paytable (§684a.12(f))",
    "payout_limit": "Aggregate payout limit per player per round (§684a.12(g))",
    "adjacent_boxes": "Adjacent boxes one player may play (§684a.7(e))",
    "ante_min": "Ante minimum",
    "ante_max": "Ante maximum",
    "prime_min": "Prime minimum",
    "prime_max": "Prime maximum",
    "four_card_bonus_min": "Four Card Bonus minimum",
    "four_card_bonus_max": "Four Card Bonus maximum",
    "all_six_min": "All-Six Bonus minimum",
    "all_six_max": "All-Six Bonus maximum",
    "two_decks": "Two decks alternating in an automated shuffler (§684a.3(b))",
    "decision_seconds": "Time a player has to raise or fold",
    "betting_seconds": "Automatic dealer's betting countdown",
}
_FIELD_HELP: Final = {
    "jurisdiction": (
        "Whose paytables the Submission selects from. Pennsylvania: only the tables "
        "§684a.12(c)-(f) list (bad beat A-D, Prime A-B, Four Card Bonus A-H, All-Six "
        "A-E). Manufacturer's rules: only BB-1 to BB-6, Prime-1 and Prime-2, FC-1 to "
        "FC-12, and no All-Six Bonus."
    ),
    "payout_limit": (
        "Leave empty for no limit. Applies to Ante, Raise and Odds winnings only; it may not "
        "be under the greater of $50,000 and the most one player can win in one round at the "
        "table minimum."
    ),
    "ante_min": "The Odds is always equal to the Ante (§684a.7(d)(1)).",
}
#: The paytables as §684a.12 lists them, each after its offer, then whose tables they are.
_PAYTABLE_CHOICES: Final = (
    "bad_beat_paytable",
    "offers_prime",
    "prime_paytable",
    "offers_four_card_bonus",
    "four_card_bonus_paytable",
    "offers_all_six",
    "all_six_paytable",
    "jurisdiction",
)
_TABLE_PLAY: Final = ("two_decks", "decision_seconds", "betting_seconds")
#: The admin form's parts; a field not named here is among the limits.
_GROUPS: Final = {
    **{
        name: "Paytables (§684a.12) and optional wagers offered (§684a.7(d))"
        for name in _PAYTABLE_CHOICES
    },
    **{name: "Table play" for name in _TABLE_PLAY},
}
_LIMITS_GROUP: Final = "Limits, in dollars"
_PAYTABLE_KINDS: Final = {name: kind for name, _wager, kind in PAYTABLE_FIELDS}
#: The form's order: the paytables, the limits, then how the table plays.
_ORDER: Final = (
    *_PAYTABLE_CHOICES,
    "ante_min",
    "ante_max",
    "prime_min",
    "prime_max",
    "four_card_bonus_min",
    "four_card_bonus_max",
    "all_six_min",
    "all_six_max",
    "payout_limit",
    "adjacent_boxes",
    *_TABLE_PLAY,
)
#: The Ante and Raise pay even money; the dealer's qualifying decides only the Ante.
ANTE_RAISE_POSTED: Final = (
    ("Ante: you beat or tie a dealer with king high or better", "1 to 1"),
    ("Ante: dealer below king high", "push"),
    ("Raise: you beat or tie the dealer (qualifying or not)", "1 to 1"),
)
#: §684a.11(c)(4)(ii): below a straight the Odds only pushes or loses.
ODDS_BELOW_STRAIGHT: Final = ("Two pair or lower", "push")


def _paytable_words(kind: PaytableKind) -> dict[str, str]:
    """Each paytable with whose it is and its source: "B (Pennsylvania, §684a.12(c))"."""
    out = {}
    for name, table in PAYTABLES[kind].items():
        where = "Pennsylvania" if table.source.startswith("§") else "manufacturer"
        out[name] = f"{name} ({where}, {table.source})"
    return out


def _field(name: str, kind: str, default: Any) -> RulesField:
    label, group = _FIELD_LABELS[name], _GROUPS.get(name, _LIMITS_GROUP)
    options: tuple[str, ...] = ()
    words: dict[str, str] = {}
    if name in _PAYTABLE_KINDS:
        kind = "choice"
        words = _paytable_words(_PAYTABLE_KINDS[name])
        options = tuple(words)
    elif name == "jurisdiction":
        kind = "choice"
        words = {j.value: JURISDICTION_NAMES[j] for j in Jurisdiction}
        options = tuple(words)
    return RulesField(
        name,
        label,
        kind,
        default,
        options,
        optional=name == "payout_limit",
        help=_FIELD_HELP.get(name, ""),
        option_words=MappingProxyType(words),
        group=group,
    )


def _kind(name: str, type_name: str) -> str:
    if type_name == "bool":
        return "flag"
    if name.endswith("_seconds"):
        return "seconds"
    if name.endswith(("_min", "_max")) or name == "payout_limit":
        return "cents"
    if type_name == "int":
        return "count"
    return "text"


def _refuse_a_declared_exposure(state: Round) -> None:
    """§684a.13(d) declared by the dealer: refused. In the virtual shoe no dealer card is seen
    before the reveal unless the shoe shows it while dealing (the ``dealer_card_exposed``
    drill, armed before the deal, which then voids the main game itself); a declaration
    after seeing who raised would choose whose Raise stands."""
    if state.phase is not Phase.DECISIONS:
        raise RuleViolation("wrong_phase", f"not allowed now: the round is {state.phase.value}")
    raise RuleViolation(
        "shoe_only",
        "in the virtual shoe a dealer card is exposed only by the shoe, while dealing; "
        "nothing shows one exposed in this round (§684a.13(d))",
    )


class FourCardFrenzy(SkeletonGame[TableRules, Round]):
    """Four Card Frenzy (ch. 684a): see the module docstring."""

    name = NAME
    title = "Four Card Frenzy"
    phases = tuple(p.value for p in Phase)
    regulation = "58 Pa. Code ch. 684a"
    drills = tuple(Fault)  # §684a.13(a), (c), (d), (f) and §684a.5(b)
    stub_miscount_reason = "stub_miscount"
    felt = FeltParts(
        spots=((ANTE, ODDS, RAISE), (PRIME, FOUR_CARD_BONUS, ALL_SIX)),
        labels=LABELS,
        felt_module=None,
        console_module=None,
        # §684a.11(b)(2): a fold loses the Ante and Odds; the optional wagers stay in action.
        fold_keeps=FOLD_KEEPS,
        printed=PRINTED,
        # §684a.7(b): said on the leave dialog.
        leave_rule=(
            "A box you leave before it decides folds on its turn: its Ante and Odds lose, and "
            "its optional wagers stay in action. A box that already raised is settled as "
            "usual. Your seats are freed once the round is over."
        ),
    )
    optional_wagers = OPTIONAL
    ante_label = "Ante and Odds (each)"

    # --- the Rules Submission -------------------------------------------------------------

    def rules_fields(self) -> tuple[RulesField, ...]:
        return _RULES_FIELDS

    def default_rules(self) -> TableRules:
        return TableRules()

    def parse_rules(self, data: Mapping[str, Any]) -> TableRules:
        return TableRules.from_dict(dict(data))

    def rules_problems(self, rules: TableRules) -> list[Problem]:
        return [Problem(f, words) for f, words in rules.problems()]

    def rule_changes(self, old: TableRules, new: TableRules) -> list[str]:
        return rule_changes(old, new)

    def wagers(self, rules: TableRules) -> tuple[WagerSpec, ...]:
        low, high = rules.limits(ANTE)
        out = [
            WagerSpec(ANTE, LABELS[ANTE], "bet", low, high, required=True),
            # §684a.7(d)(1): the Odds equals the Ante.
            WagerSpec(ODDS, LABELS[ODDS], "with", low, high, required=True),
            # §684a.11(b): 1x the Ante, or up to 3x with a pair of aces or better.
            WagerSpec(RAISE, LABELS[RAISE], "decision", low, 3 * high),
        ]
        for wager in OPTIONAL:
            low, high = rules.limits(wager)
            out.append(WagerSpec(wager, LABELS[wager], "bet", low, high, rules.offers(wager)))
        return tuple(out)

    def table_settings(self, rules: TableRules) -> TableSettings:
        return TableSettings(
            rules.two_decks,
            rules.betting_seconds,
            rules.adjacent_boxes,
            rules.payout_limit,
            adjacent_rule="§684a.7(e)",
        )

    def signs(self, rules: TableRules) -> tuple[Sign, ...]:
        """The signs §684a.2(b)(4),(5) require: every wager offered and its payout odds (the
        words the table posts today, ``table/snapshot.py``)."""
        signs = [
            # §684a.12(a), §684a.11(c)(2)-(3): the even-money wagers are posted too.
            Sign("Ante and Raise", "§684a.12(a)", ANTE_RAISE_POSTED),
            Sign(
                "Odds (your hand beats or ties the dealer's)",
                "§684a.12(b)",
                (*ODDS_PAYTABLE.as_posted(), ODDS_BELOW_STRAIGHT),
            ),
            Sign(
                "Odds bad beat (your straight or better loses to the dealer)",
                rules.bad_beat_paytable,
                tuple(paytable(PaytableKind.BAD_BEAT, rules.bad_beat_paytable).as_posted()),
            ),
        ]
        for field_name, wager, kind in PAYTABLE_FIELDS:
            if wager != ANTE and rules.offers(wager):
                name = getattr(rules, field_name)
                signs.append(Sign(LABELS[wager], name, tuple(paytable(kind, name).as_posted())))
        return tuple(signs)

    def math_report(self, rules: TableRules) -> tuple[Figure, ...]:
        """From the committed report (``manage.py paytable_report`` enumerates every deal)."""
        from table.paytable_report import load_report

        wagers = load_report()["wagers"]
        main = wagers["bad_beat"]["paytables"][rules.bad_beat_paytable]
        out = [
            Figure(
                "Ante, Odds and Raise",
                rules.bad_beat_paytable,
                float(main["house_edge"]),
                "per unit of Ante, optimal Raise strategy, over all C(52,5)·C(47,5) deals",
                (ANTE, ODDS, RAISE),
                *main_game_spread(main.get("net_distribution"), main.get("house_edge_exact")),
            )
        ]
        for field_name, wager, _kind in PAYTABLE_FIELDS:
            if wager != ANTE and rules.offers(wager):
                name = getattr(rules, field_name)
                entry = wagers[wager]["paytables"][name]
                edge = float(entry["house_edge"])
                out.append(
                    Figure(
                        LABELS[wager],
                        name,
                        edge,
                        "per unit wagered",
                        (wager,),
                        fixed_odds_variance(entry, edge),
                    )
                )
        return tuple(out)

    def staff_parts(self, rules: TableRules) -> tuple[StaffPart, ...]:
        """The signs as posted with the payout limit's floor (§684a.12(g)), every paytable
        to choose from, and the paytable mathematics with its live preview (:mod:`.staff`)."""
        return staff.staff_parts(rules)

    def staff_page(self, name: str) -> StaffPart | None:
        return staff.staff_page(name)

    # --- a round ----------------------------------------------------------------------------

    def open_round(
        self, number: int, rules: TableRules, deck_back: str, order: Sequence[int], salt: str
    ) -> tuple[Round, GameStep]:
        if not isinstance(rules, TableRules):
            raise InvalidInput("bad_rules", "a round is played under the table's rules")
        problems = rules.problems()
        if problems:
            raise InvalidInput("bad_rules", f"{problems[0][0]}: {problems[0][1]}")
        return SkeletonGame.open_round(self, number, rules, deck_back, order, salt)

    def box_decision(self, box: BoxPlay) -> str | None:
        if box.decision is None:
            return None
        return f"raise {box.decision}x" if box.decision else "fold"

    def box_hand(self, box: BoxPlay) -> str | None:
        return describe(best_four(box.cards).value)

    def box_best(self, box: BoxPlay) -> tuple[str, ...]:
        # §684a.11(a): the best four of the five make the hand.
        return tuple(codes(best_four(box.cards).cards))

    def box_lines(self, settled: Mapping[str, Any]) -> tuple[Line, ...]:
        return lines_of(settled["results"], "row")

    def decide_move(self, state: Round, box: BoxPlay) -> Move | None:
        if len(box.cards) != 5:
            return None
        most = max_raise_multiple(best_four(box.cards).value)
        ante = box.wagers.get(ANTE, 0)
        choices = [Choice("Fold", {"raise": 0})]
        # Each Raise with what it puts on the layout (§684a.11(b): 1x to 3x the Ante).
        choices += [
            Choice(f"Raise {m}x ({dollars(m * ante)})", {"raise": m}) for m in range(1, most + 1)
        ]
        return Move(DECIDE, "Raise or fold", box.box, tuple(choices))

    def decision(self, args: Mapping[str, Any]) -> Any:
        if "raise" not in args:
            raise InvalidInput("bad_raise", "say the Raise: 1, 2 or 3 times the Ante, 0 folds")
        return args["raise"]

    def void(self, state: Round, actor: Actor, args: Mapping[str, Any]) -> Step:
        reason = args.get("reason", "")
        if reason == "dealer_card_exposed":
            _refuse_a_declared_exposure(state)
        evidence = args.get("evidence") or {"declared_by": actor.name or actor.role.value}
        return state.void(reason, dict(evidence))

    def recalled(self, state: Round) -> Recalled:
        """The dealer's hand with its best four and the All-Six card once the table turned them
        face up (or the main game was void, §684a.13(d)); a box's cards once settlement
        showed them (not a hand folded with no optional wager, §684a.11(b)(2))."""
        dealt = bool(state.dealer_cards)
        shown = state.dealer_visible()
        dealer = state.dealer_public() if dealt else None
        all_six = card_code(state.all_six_card) if state.all_six_card is not None else None
        results = state.results or {}
        return Recalled(
            dealer=dealer if shown else None,
            dealer_full=dealer,
            shared_card=all_six if shown else None,
            shared_card_full=all_six,
            main_game_void=state.main_game_void,
            shown_boxes=frozenset(b["box"] for b in results.get("boxes", []) if b["cards"]),
            players=results.get("players"),
            discards=tuple(codes(state.discards)),
            stub=tuple(codes(state.stub)),
        )

    def void_words(self, reason: str) -> str:
        if reason == MAIN_GAME_VOID:  # recall's note on a round whose main game was void
            return (
                "a dealer card was exposed before every decision was made (§684a.13(d)). "
                "Ante, Odds and Raise were returned; optional wagers were settled"
            )
        return SkeletonGame.void_words(self, reason)

    def recheck(self, state: Round, faults: Sequence[Fault]) -> list[str]:
        return recheck(state, faults)

    def contract_round(self, state: Round) -> dict[str, Any] | None:
        from .contract import round_input

        return round_input(state)


_TYPES: Final = {f.name: str(f.type) for f in fields(TableRules)}
#: Every choice of the Rules Submission (its stored form is ``TableRules.to_dict``).
_RULES_FIELDS: Final = tuple(
    _field(name, _kind(name, _TYPES[name]), getattr(TableRules(), name)) for name in _ORDER
)
assert set(_ORDER) == set(_TYPES), "every field of TableRules is a choice of the form"

GAME: Final[Game[TableRules, Round]] = FourCardFrenzy(Round, contract.settle_one)
