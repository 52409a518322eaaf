"""``settle_round`` picks each round's game by its ``"game"`` key (table/games): no key is Four
Card Frenzy, an unknown name is refused naming the round, and an array may mix games."""

from __future__ import annotations

import pytest

from table.games import settle_document
from table.games.errors import InvalidInput
from table.games.four_card_frenzy.contract import settle_document as settle_four_card_frenzy
from tests.examples import rules_md_round


def test_no_game_key_is_four_card_frenzy() -> None:
    assert settle_document(rules_md_round()) == settle_four_card_frenzy(rules_md_round())


def test_naming_four_card_frenzy_settles_the_same() -> None:
    named = {"game": "four_card_frenzy", **rules_md_round()}
    assert settle_document(named) == settle_four_card_frenzy(rules_md_round())


@pytest.mark.parametrize("game", ["blackjack", "", None, 7, ["crazy_4_poker"]])
def test_unknown_game_is_refused_naming_the_round(game: object) -> None:
    document = [rules_md_round(), {**rules_md_round(), "game": game}]
    with pytest.raises(InvalidInput) as refused:
        settle_document(document)
    assert refused.value.code == "unknown_game"
    assert refused.value.message.startswith("round 1: unknown game")


def test_four_card_frenzy_refusals_keep_their_round_index() -> None:
    bad = rules_md_round()
    bad["dealer"] = bad["dealer"][:4]
    with pytest.raises(InvalidInput) as refused:
        settle_document([rules_md_round(), {"game": "four_card_frenzy", **bad}])
    assert refused.value.message.startswith("round 1: ")
