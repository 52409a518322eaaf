"""``settle_round`` and Four Card Frenzy: its contract predates the ``"game"`` key (its entry is
``unkeyed``), so a round without one is its, and naming it settles the same; its refusals
name the round (the dispatch for every game: tests/games/test_contract_dispatch.py)."""

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


def test_four_card_frenzy_refusals_keep_their_round_index() -> None:
    bad = rules_md_round()
    bad["dealer"] = bad["dealer"][:4]
    with pytest.raises(InvalidInput) as refused:
        settle_document([rules_md_round(), {"game": "four_card_frenzy", **bad}])
    assert refused.value.message.startswith("round 1: ")
