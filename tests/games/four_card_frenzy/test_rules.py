"""What players are told when the Rules Submission changes (bugs14)."""

from __future__ import annotations

from dataclasses import replace

from table.games.four_card_frenzy.rules import TableRules, rule_changes


def test_a_paytable_change_is_put_in_words() -> None:
    old = TableRules(four_card_bonus_paytable="C")
    new = replace(old, four_card_bonus_paytable="FC-5")
    assert rule_changes(old, new) == ["Four Card Bonus pays by paytable FC-5 (was C)"]
    assert rule_changes(old, old) == []


def test_every_change_a_player_sees_is_named() -> None:
    old = TableRules(offers_prime=True, payout_limit=None, ante_min=5_00)
    new = replace(
        old,
        offers_prime=False,
        offers_all_six=False,
        payout_limit=100_000_00,
        ante_min=10_00,
        bad_beat_paytable="B",
        two_decks=False,
    )
    words = rule_changes(old, new)
    assert "the Prime wager is no longer offered" in words
    assert "the All-Six Bonus wager is no longer offered" in words
    assert "payout limit $100,000.00 (was no limit) (§684a.12(g))" in words
    assert "Ante and Odds $10.00–$500.00 each (was $5.00–$500.00)" in words
    assert "the Odds bad beat pays by paytable B (was A)" in words
    assert "one deck" in words
    back = rule_changes(new, old)
    assert any(w.startswith("the Prime wager is offered, paytable A") for w in back)
