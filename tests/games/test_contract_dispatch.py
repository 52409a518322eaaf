"""``settle_round`` picks each round's game by its ``"game"`` key (table/games): no key is the
game whose entry is ``unkeyed`` (at most one), an unknown name is refused naming the round, and
a round naming its game is settled by that game's contract."""

from __future__ import annotations

import pytest

from table.games import ENTRIES, contract_settler, settle_document
from table.games.errors import InvalidInput
from tests.examples import rules_md_round


def test_no_game_key_is_the_unkeyed_game() -> None:
    unkeyed = [e.name for e in ENTRIES.values() if e.unkeyed]
    assert len(unkeyed) == 1  # today's: the RULES.md example predates the key
    settled = settle_document(rules_md_round())
    assert settled == contract_settler(unkeyed[0])(rules_md_round())
    assert settle_document({"game": unkeyed[0], **rules_md_round()}) == settled


@pytest.mark.parametrize("game", ["blackjack", "", None, 7, [next(iter(ENTRIES))]])
def test_unknown_game_is_refused_naming_the_round(game: object) -> None:
    document = [rules_md_round(), {**rules_md_round(), "game": game}]
    with pytest.raises(InvalidInput) as refused:
        settle_document(document)
    assert refused.value.code == "unknown_game"
    assert refused.value.message.startswith("round 1: unknown game")


@pytest.mark.parametrize("name", [e.name for e in ENTRIES.values() if not e.unkeyed])
def test_a_keyed_games_round_goes_to_its_own_contract(name: str) -> None:
    """The unkeyed game's round named as another game's is that game's to refuse or settle:
    it never reaches the unkeyed game's contract (which would settle it)."""
    document = {"game": name, **rules_md_round()}
    try:
        own = contract_settler(name)(dict(document))
    except InvalidInput as exc:
        with pytest.raises(InvalidInput) as refused:
            settle_document(document)
        assert refused.value.message == f"round 0: {exc.message}"
    else:
        assert settle_document(document) == own
