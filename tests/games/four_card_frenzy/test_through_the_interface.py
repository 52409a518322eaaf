"""Four Card Frenzy through the game interface (the interface for every game:
tests/games/test_interface.py): its decisions, best cards, adjacent boxes rule, felt and signs."""

from __future__ import annotations

import json
from typing import Any

from table.games import game
from table.games.base import DECIDE, SET_HANDS
from table.games.driver import TableDriver, play_round
from tests.conftest import SeededSource

PLAYERS = ("ann", "bob", "cat")
SEEDS = range(24)
NAME = "four_card_frenzy"


def decisions() -> list[tuple[dict[str, Any], int]]:
    """Each decision the players took, with its box's Ante, over a round of each seed in which
    players pick among the moves offered."""
    seen: list[tuple[dict[str, Any], int]] = []
    for seed in SEEDS:
        g = game(NAME)
        rng = SeededSource(seed)
        driver = TableDriver(g, g.default_rules(), rng)
        play_round(driver, PLAYERS, rng, time_outs=False)
        antes = {b.box: b.wagers.get("ante", 0) for b in g.boxes(driver.state())}
        seen += [
            (dict(c.args), antes.get(c.box or 0, 0))
            for _, c, _ in driver.log
            if c.name in (DECIDE, SET_HANDS)
        ]
    return seen


def best_cards() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each box's cards and best cards after a round."""
    g = game(NAME)
    rng = SeededSource(2)
    driver = TableDriver(g, g.default_rules(), rng)
    play_round(driver, PLAYERS, rng)
    return [(tuple(b.cards), tuple(b.best_cards)) for b in g.boxes(driver.state()) if b.cards]


def test_its_adjacent_boxes_rule_and_felt() -> None:
    g = game(NAME)
    assert g.table_settings(g.default_rules()).adjacent_rule == "§684a.7(e)"
    # Drawn by the generic felt and console, from its round views, as every game is.
    assert g.felt.felt_module is None and g.felt.console_module is None


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
