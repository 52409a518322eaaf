"""Cards and the deck (§684a.3(a)): one deck of 52 distinct cards, text codes."""

from __future__ import annotations

import pytest

from table.games.cards import (
    DECK,
    card_code,
    card_label,
    check_distinct,
    codes,
    is_red,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from table.games.errors import InvalidInput


def test_deck_is_52_distinct_cards_with_distinct_codes() -> None:
    assert len(DECK) == 52
    assert len({card_code(c) for c in DECK}) == 52
    assert {card_code(c)[0] for c in DECK} == set("23456789TJQKA")
    assert {card_code(c)[1] for c in DECK} == set("CDHS")


@pytest.mark.parametrize("code", [card_code(c) for c in DECK])
def test_codes_round_trip(code: str) -> None:
    card = parse_card(code)
    assert card_code(card) == code
    assert parse_card(code.lower()) == card
    assert parse_card(f" {code} ") == card


def test_ranks_suits_and_colours() -> None:
    ace_spades = parse_card("AS")
    assert rank_of(ace_spades) > rank_of(parse_card("KS")) > rank_of(parse_card("2S"))
    assert suit_of(parse_card("2D")) == suit_of(parse_card("AD"))
    # The Prime Wager's colours: diamonds and hearts red, clubs and spades black.
    assert is_red(parse_card("5D")) and is_red(parse_card("5H"))
    assert not is_red(parse_card("5C")) and not is_red(parse_card("5S"))


def test_labels_are_readable() -> None:
    assert card_label(parse_card("TD")) == "10♦"
    assert card_label(parse_card("AS")) == "A♠"
    assert codes(parse_cards(["AS", "2C"])) == ["AS", "2C"]


@pytest.mark.parametrize(
    "bad", ["", "A", "1S", "AX", "ASS", "10S", "XS", "A S", None, 12, 1.5, True, [], {}, ["AS"]]
)
def test_unknown_card_is_invalid_input(bad: object) -> None:
    with pytest.raises(InvalidInput) as exc:
        parse_card(bad)
    assert exc.value.code == "bad_card"


def test_parse_cards_refuses_duplicates_wrong_counts_and_non_lists() -> None:
    with pytest.raises(InvalidInput) as exc:
        parse_cards(["AS", "as"], what="box 1")
    assert exc.value.code == "duplicate_card" and "AS" in exc.value.message
    with pytest.raises(InvalidInput) as exc:
        parse_cards(["AS", "KS"], 5)
    assert exc.value.code == "wrong_card_count"
    for bad in ("AS KS", None, {"AS": 1}, 5):
        with pytest.raises(InvalidInput) as exc:
            parse_cards(bad)
        assert exc.value.code == "bad_cards"
    with pytest.raises(InvalidInput) as exc:
        parse_cards(["AS", ["KS"]])
    assert exc.value.code == "bad_card"


@pytest.mark.parametrize("bad", [[1, 1], [52], [-1], [0, "AS"], [True], [1.0]])
def test_check_distinct_refuses_duplicates_and_non_cards(bad: list[object]) -> None:
    with pytest.raises(InvalidInput) as exc:
        check_distinct(bad)  # type: ignore[arg-type]
    assert exc.value.code in ("duplicate_card", "bad_card")


def test_check_distinct_accepts_the_whole_deck() -> None:
    check_distinct(list(DECK))
    check_distinct([])
