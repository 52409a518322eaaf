"""Bad input to the engine's public functions is a clear refusal, never a crash.

Each refusal is an :class:`EngineError` (``InvalidInput`` for malformed data, ``RuleViolation``
for a well-formed command the rules forbid now) with a machine-readable code and a message.
The rule-specific refusals (duplicate cards, unequal Ante and Odds, a 3x raise on a pair of
kings ...) are tested where the rule is; here: every entry point, with garbage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.games import cards as cards_mod
from table.games import shoe
from table.games.cards import DECK
from table.games.errors import EngineError, InvalidInput
from table.games.four_card_frenzy import contract, hands, paytables, settlement
from table.games.four_card_frenzy.paytables import BAD_BEAT_PAYTABLES, ODDS_PAYTABLE, PaytableKind
from table.games.four_card_frenzy.round import Round
from table.games.four_card_frenzy.rules import TableRules
from table.games.four_card_frenzy.settlement import BoxInPlay, Rules

from ...conftest import SeededSource
from .helpers import cards

GOOD_BOX = BoxInPlay(1, "p1", tuple(cards("AS AD AH 7C 2S")), {"ante": 100, "odds": 100})


def _round() -> Round:
    rnd, _ = Round.open(1, TableRules(), "red", list(DECK), "salt")
    return rnd


def _dealt_round() -> Round:
    rnd = _round()
    rnd.bet(1, "ann", {"ante": 1000})
    rnd.close_betting()
    rnd.deal()
    return rnd


# (name, function, how many arguments)
PUBLIC: list[tuple[str, Callable[..., Any], int]] = [
    ("parse_card", cards_mod.parse_card, 1),
    ("parse_cards", cards_mod.parse_cards, 2),
    ("rank_of", cards_mod.rank_of, 1),
    ("suit_of", cards_mod.suit_of, 1),
    ("is_red", cards_mod.is_red, 1),
    ("make_card", cards_mod.make_card, 2),
    ("card_code", cards_mod.card_code, 1),
    ("card_label", cards_mod.card_label, 1),
    ("codes", cards_mod.codes, 1),
    ("check_distinct", cards_mod.check_distinct, 1),
    ("evaluate_four", hands.evaluate_four, 1),
    ("four_value", hands.four_value, 1),
    ("best_four_value", hands.best_four_value, 1),
    ("best_four", hands.best_four, 1),
    ("qualifies", hands.qualifies, 1),
    ("max_raise_multiple", hands.max_raise_multiple, 1),
    ("describe", hands.describe, 1),
    ("category_of", hands.category_of, 1),
    ("four_card_bonus_hand", hands.four_card_bonus_hand, 1),
    ("prime_hand", hands.prime_hand, 1),
    ("all_six_hand", hands.all_six_hand, 1),
    ("odds", paytables.odds, 1),
    ("paytable", lambda name: paytables.paytable(PaytableKind.ALL_SIX, name), 1),
    ("Payout.pay", ODDS_PAYTABLE.rows[4].payout.pay, 1),
    ("Paytable.pay", ODDS_PAYTABLE.pay, 2),
    ("Rules.from_names", Rules.from_names, 5),
    ("validate_box", lambda box, six: settlement.validate_box(box, six), 2),
    (
        "validate_box(garbage wagers)",
        lambda w, six: settlement.validate_box(
            BoxInPlay(1, "p", GOOD_BOX.cards, w),
            six,  # type: ignore[arg-type]
        ),
        2,
    ),
    (
        "settle_main_game",
        lambda a, o, r: settlement.settle_main_game(
            hands.best_four(cards("AS AD AH 7C 2S")),
            hands.best_four(cards("KS KD 4H 8C 9S")),
            a,
            o,
            r,
            BAD_BEAT_PAYTABLES["A"],
        ),
        3,
    ),
    ("settle_main_game(garbage)", settlement.settle_main_game, 6),
    ("settle_optional", settlement.settle_optional, 4),
    ("apply_payout_limit", settlement.apply_payout_limit, 2),
    ("settle", settlement.settle, 4),
    (
        "settle(garbage boxes)",
        lambda box, six: settlement.settle(cards("KS KD 4H 8C 9S"), [box], Rules.from_names(), six),
        2,
    ),
    ("settle_document", contract.settle_document, 1),
    ("settle_one", contract.settle_one, 1),
    ("parse_round", contract.parse_round, 1),
    ("parse_box", contract.parse_box, 2),
    ("parse_rules", contract.parse_rules, 1),
    ("settlement_json", contract.settlement_json, 2),
    ("TableRules.from_dict", lambda d: TableRules.from_dict(d).problems(), 1),
    (
        "TableRules(...).problems",
        lambda a, b, c: TableRules(ante_min=a, adjacent_boxes=b, payout_limit=c).problems(),
        3,
    ),
    (
        "TableRules.max_win_at_minimum",
        lambda a, b: TableRules(ante_min=a, bad_beat_paytable=b).max_win_at_minimum(),
        2,
    ),
    ("TableRules.settlement_rules", lambda a: TableRules(payout_limit=a).settlement_rules(), 1),
    ("TableRules.limits", TableRules().limits, 1),
    ("TableRules.offers", TableRules().offers, 1),
    ("shuffle", lambda cards: shoe.shuffle(cards, SeededSource(1)), 1),
    ("commitment", shoe.commitment, 2),
    ("deal", shoe.deal, 3),
    ("Shuffler.from_dict", shoe.Shuffler.from_dict, 1),
    ("Round.from_dict", Round.from_dict, 1),
    ("Round.open", Round.open, 5),
    ("Round.bet", lambda b, p, w: _round().bet(b, p, w), 3),
    ("Round.withdraw", lambda b, p: _round().withdraw(b, p), 2),
    ("Round.abandon", lambda p: _round().abandon(p), 1),
    ("Round.void", lambda r: _round().void(r), 1),
    ("Round.deal", lambda f: _round().deal(f), 1),
    ("Round.decide", lambda b, p, m: _dealt_round().decide(b, p, m), 3),
]

GARBAGE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.integers(-3, 60)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5)
    | st.sampled_from(["AS", "A", "E", "FC-1", "ante", "p1", "jam", "shoe_jam", "", "raise"])
    | st.just(GOOD_BOX)
    | st.just(Rules.from_names()),
    lambda children: (
        st.lists(children, max_size=6)
        | st.tuples(children, children)
        | st.lists(st.integers(-2, 55), min_size=3, max_size=7)
        | st.dictionaries(
            st.sampled_from(["ante", "odds", "raise", "prime", "all_six", "x", "decks", "box"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def call(fn: Callable[..., Any], args: list[Any]) -> None:
    try:
        fn(*args)
    except EngineError as exc:
        assert exc.code and isinstance(exc.code, str)
        assert exc.message and "\n" not in exc.message


@pytest.mark.parametrize("name, fn, arity", PUBLIC, ids=[p[0] for p in PUBLIC])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_garbage_is_refused_cleanly(
    name: str, fn: Callable[..., Any], arity: int, data: st.DataObject
) -> None:
    args = [data.draw(GARBAGE) for _ in range(arity)]
    call(fn, args)


@pytest.mark.parametrize(
    "fn, args",
    [
        (hands.describe, [-1]),
        (hands.category_of, [8 << 16]),
        (hands.qualifies, ["KS"]),
        (hands.max_raise_multiple, [None]),
        (hands.four_card_bonus_hand, [True]),
        (cards_mod.card_code, [52]),
        (cards_mod.card_label, [-1]),
        (cards_mod.make_card, [13, 0]),
        (cards_mod.codes, [[1, -1]]),
        (paytables.odds, ["three to two"]),
        (paytables.odds, ["3 to 0"]),
        (ODDS_PAYTABLE.rows[0].payout.pay, [-1]),
        (ODDS_PAYTABLE.rows[0].payout.pay, [1.5]),
        (Rules.from_names, ["A", "A", "A", "A", 1.5]),
        (settlement.apply_payout_limit, [(), 0]),
        (settlement.settle, [cards("AS KD 7H 7C"), [], Rules.from_names()]),
        (settlement.settle, [cards("AS KD 7H 7C 2S"), [GOOD_BOX, GOOD_BOX], Rules.from_names()]),
        (settlement.settle, [cards("AS KD 7H 7C 2S"), [GOOD_BOX], "rules"]),
        (settlement.settle, [cards("KS KD 7H 7C 2S"), [GOOD_BOX], Rules.from_names(), 52]),
        (shoe.deal, [list(DECK), 7, False]),
        (shoe.deal, [[0, 0, 1], 1, False]),
        (shoe.shuffle, [list(DECK), type("Bad", (), {"randbelow": lambda self, n: n})()]),
        (TableRules.from_dict, [["ante_min"]]),
        (TableRules(ante_min="5").max_win_at_minimum, []),  # type: ignore[arg-type]
        (TableRules().limits, ["odds"]),
        (Round.from_dict, [{"number": 1}]),
        (shoe.Shuffler.from_dict, [{"decks": [{"back": "red"}]}]),
    ],
)
def test_specific_garbage_is_invalid_input(fn: Callable[..., Any], args: list[Any]) -> None:
    with pytest.raises(InvalidInput) as exc:
        fn(*args)
    assert exc.value.code and exc.value.message


def test_table_rules_of_the_wrong_types_are_problems_not_crashes() -> None:
    problems = dict(TableRules(ante_min="5", offers_prime=1).problems())  # type: ignore[arg-type]
    assert set(problems) == {"ante_min", "offers_prime"}
    assert TableRules().problems() == []
