"""Four Card Frenzy through the game interface (the interface for every game:
tests/games/test_interface.py): its decisions, best cards, adjacent boxes rule, felt and signs."""

from __future__ import annotations

import json
from typing import Any

from table.games import game
from table.snapshot import felt_parts
from tests.games import through_the_interface as played

NAME = "four_card_frenzy"


def decisions() -> list[tuple[dict[str, Any], int]]:
    return played.decisions(NAME)


def best_cards() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return played.best_cards(NAME)


def test_its_adjacent_boxes_rule_and_felt() -> None:
    g = game(NAME)
    assert g.table_settings(g.default_rules()).adjacent_rule == "§684a.7(e)"
    # Drawn by the generic felt and console, from its round views, as every game is.
    assert g.felt.felt_module is None and g.felt.console_module is None


def test_its_layout_prints_that_the_dealer_qualifies_with_king_high() -> None:
    """§684a.11(c)(2)(i): printed under the game's name, as the table printed it before the
    generic felt; the snapshot's table.felt carries it, the felt draws it as it is."""
    assert felt_parts(game(NAME).felt)["printed"] == ["Dealer qualifies with king high or better"]


def test_the_decisions_it_really_has() -> None:
    """A Raise multiple above 1x and a fold come up when players pick among the moves."""
    frenzy = [d for d, _ in decisions()]
    assert any(d.get("raise", 0) >= 2 for d in frenzy)
    assert any(d.get("raise") == 0 for d in frenzy)


def test_the_best_cards_are_the_four_that_make_its_hand() -> None:
    """§684a.11(a): the best four of the five (the box record's column)."""
    boxes = best_cards()
    assert any(len(cards) == 5 for cards, _ in boxes)
    for cards, best in boxes:
        if len(cards) == 5:
            assert len(best) == 4 and set(best) < set(cards)
        else:
            assert best == ()


def _posted_before_the_platform(rules: Any) -> list[dict[str, Any]]:
    """What the table posted before the platform called the game through its interface (the
    snapshot's own code at c2ed4ba, kept here as the reference the signs must still equal)."""
    from table.games.four_card_frenzy.paytables import ODDS_PAYTABLE, PaytableKind, paytable

    signs: list[dict[str, Any]] = [
        {
            "wager": "Ante and Raise",
            "name": "§684a.12(a)",
            "rows": [
                ("Ante: you beat or tie a dealer with king high or better", "1 to 1"),
                ("Ante: dealer below king high", "push"),
                ("Raise: you beat or tie the dealer (qualifying or not)", "1 to 1"),
            ],
        },
        {
            "wager": "Odds (your hand beats or ties the dealer's)",
            "name": "§684a.12(b)",
            "rows": [*ODDS_PAYTABLE.as_posted(), ("Two pair or lower", "push")],
        },
        {
            "wager": "Odds bad beat (your straight or better loses to the dealer)",
            "name": rules.bad_beat_paytable,
            "rows": paytable(PaytableKind.BAD_BEAT, rules.bad_beat_paytable).as_posted(),
        },
    ]
    for wager, kind, name, label in (
        ("prime", PaytableKind.PRIME, rules.prime_paytable, "Prime"),
        (
            "four_card_bonus",
            PaytableKind.FOUR_CARD_BONUS,
            rules.four_card_bonus_paytable,
            "Four Card Bonus",
        ),
        ("all_six", PaytableKind.ALL_SIX, rules.all_six_paytable, "All-Six Bonus"),
    ):
        if rules.offers(wager):
            signs.append({"wager": label, "name": name, "rows": paytable(kind, name).as_posted()})
    return signs


def test_four_card_frenzys_signs_are_those_the_table_posts_today() -> None:
    """Wiring the platform through the interface changes nothing a player sees: Four Card
    Frenzy's signs (what the snapshot posts) are exactly what the table posted before
    (§684a.2(b)(4), (5)), for every paytable choice."""
    from table.snapshot import posted_paytables

    g = game("four_card_frenzy")
    default = g.rules_to_dict(g.default_rules())
    for offered, bad_beat, prime in ((True, "A", "A"), (False, "D", "B"), (True, "C", "B")):
        rules = g.parse_rules(
            {
                **default,
                "bad_beat_paytable": bad_beat,
                "prime_paytable": prime,
                "offers_prime": offered,
                "offers_all_six": offered,
            }
        )
        expected = json.loads(json.dumps(_posted_before_the_platform(rules)))
        assert [s.to_dict() for s in g.signs(rules)] == expected
        assert json.loads(json.dumps(posted_paytables(rules))) == expected
