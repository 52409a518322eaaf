"""A Rules Submission's jurisdiction: Pennsylvania (58 Pa. Code ch. 684a) or the manufacturer's
rules of play, each allowing exactly the paytables it lists (read here from the texts)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from table.games.errors import InvalidInput
from table.games.four_card_frenzy.contract import settle_document
from table.games.four_card_frenzy.paytables import PAYTABLES, PaytableKind
from table.games.four_card_frenzy.rules import Jurisdiction, TableRules, jurisdiction_paytables
from tests.examples import rules_md_round

SEEDS = Path("/work/shared/seeds")
KINDS = (
    ("bad_beat_paytable", PaytableKind.BAD_BEAT, "offers_prime"),
    ("prime_paytable", PaytableKind.PRIME, "offers_prime"),
    ("four_card_bonus_paytable", PaytableKind.FOUR_CARD_BONUS, "offers_four_card_bonus"),
    ("all_six_paytable", PaytableKind.ALL_SIX, "offers_all_six"),
)


def _seed(prefix: str) -> str:
    found = sorted(SEEDS.glob(f"{prefix}_*.txt"))
    if not found:
        pytest.skip("the regulation texts are not on this machine")
    return found[0].read_text()


def pennsylvania_tables() -> dict[PaytableKind, set[str]]:
    """§684a.12(c)-(f): the "Paytable X" columns under each subsection."""
    text = _seed("000")
    start = text.index("§ 684a.12. Payout odds")
    section = text[start : text.index("Cross References", start)]
    parts = re.split(r"\n-? ?\(([c-g])\) ", section)
    by_letter = dict(zip(parts[1::2], parts[2::2], strict=True))
    kinds = {
        "c": PaytableKind.BAD_BEAT,
        "d": PaytableKind.PRIME,
        "e": PaytableKind.FOUR_CARD_BONUS,
        "f": PaytableKind.ALL_SIX,
    }
    return {
        kind: set(re.findall(r"Paytable ([A-H])\b", by_letter[letter]))
        for letter, kind in kinds.items()
    }


def manufacturer_tables() -> dict[PaytableKind, set[str]]:
    text = _seed("003")
    return {
        PaytableKind.BAD_BEAT: set(re.findall(r"\bBB-\d+\b", text)),
        PaytableKind.PRIME: set(re.findall(r"\bPrime-\d+\b", text)),
        PaytableKind.FOUR_CARD_BONUS: set(re.findall(r"\bFC-\d+\b", text)),
        PaytableKind.ALL_SIX: set(),  # the rules of play have no All-Six Bonus
    }


#: As §684a.12(c)-(f) and the rules of play's Appendices B-D list them (checked against the
#: texts below when they are on the machine).
PENNSYLVANIA = {
    PaytableKind.BAD_BEAT: set("ABCD"),
    PaytableKind.PRIME: set("AB"),
    PaytableKind.FOUR_CARD_BONUS: set("ABCDEFGH"),
    PaytableKind.ALL_SIX: set("ABCDE"),
}
MANUFACTURER = {
    PaytableKind.BAD_BEAT: {f"BB-{n}" for n in range(1, 7)},
    PaytableKind.PRIME: {"Prime-1", "Prime-2"},
    PaytableKind.FOUR_CARD_BONUS: {f"FC-{n}" for n in range(1, 13)},
    PaytableKind.ALL_SIX: set(),
}


def test_the_lists_are_those_of_the_texts() -> None:
    assert pennsylvania_tables() == PENNSYLVANIA
    assert manufacturer_tables() == MANUFACTURER


def test_each_jurisdiction_allows_exactly_its_own_tables() -> None:
    pa, mf = PENNSYLVANIA, MANUFACTURER
    assert pa[PaytableKind.FOUR_CARD_BONUS] == set("ABCDEFGH")
    assert "FC-5" in mf[PaytableKind.FOUR_CARD_BONUS] and "BB-6" in mf[PaytableKind.BAD_BEAT]
    for kind in pa:
        assert set(jurisdiction_paytables(Jurisdiction.PENNSYLVANIA, kind)) == pa[kind], kind
        assert set(jurisdiction_paytables(Jurisdiction.MANUFACTURER, kind)) == mf[kind], kind
        # every table there is belongs to exactly one of them
        assert pa[kind] | mf[kind] == set(PAYTABLES[kind]) and not pa[kind] & mf[kind]


@pytest.mark.parametrize(
    ("field", "name", "section"),
    [
        ("four_card_bonus_paytable", "FC-5", "§684a.12(e)"),
        ("bad_beat_paytable", "BB-4", "§684a.12(c)"),
        ("bad_beat_paytable", "BB-6", "§684a.12(c)"),
        ("prime_paytable", "Prime-1", "§684a.12(d)"),
    ],
)
def test_pennsylvania_refuses_the_manufacturers_tables(field: str, name: str, section: str) -> None:
    problems = dict(TableRules(**{field: name}).problems())  # type: ignore[arg-type]
    assert list(problems) == [field]
    assert name in problems[field] and section in problems[field]
    assert "manufacturer" in problems[field] and "Pennsylvania" in problems[field]


#: A manufacturer's-rules submission using only its own tables (and so no All-Six Bonus).
OWN_MANUFACTURER: dict[str, object] = {
    "jurisdiction": "manufacturer",
    "bad_beat_paytable": "BB-1",
    "prime_paytable": "Prime-1",
    "four_card_bonus_paytable": "FC-1",
    "offers_all_six": False,
}


def test_every_table_is_allowed_under_its_own_jurisdiction_only() -> None:
    pa, mf = PENNSYLVANIA, MANUFACTURER
    for field, kind, _offers in KINDS:
        for name in pa[kind]:
            assert TableRules(**{field: name}).problems() == [], name  # type: ignore[arg-type]
        for name in mf[kind]:
            manufacturer = TableRules(**{**OWN_MANUFACTURER, field: name})  # type: ignore[arg-type]
            assert manufacturer.problems() == [], name
            as_pennsylvania = TableRules(**{field: name})  # type: ignore[arg-type]
            assert [f for f, _ in as_pennsylvania.problems()] == [field], name
        for name in pa[kind]:
            offered = {"offers_all_six": True} if kind is PaytableKind.ALL_SIX else {}
            mixed = {**OWN_MANUFACTURER, **offered, field: name}
            wrong = dict(TableRules(**mixed).problems())  # type: ignore[arg-type]
            assert list(wrong) == [field], name


def test_the_manufacturers_rules_offer_no_all_six() -> None:
    rules = TableRules(
        jurisdiction="manufacturer",
        bad_beat_paytable="BB-4",
        prime_paytable="Prime-2",
        four_card_bonus_paytable="FC-7",
    )
    problems = dict(rules.problems())
    assert list(problems) == ["all_six_paytable"]
    assert "no All-Six Bonus" in problems["all_six_paytable"]


def test_a_table_of_a_wager_not_offered_is_not_in_use() -> None:
    rules = TableRules(four_card_bonus_paytable="FC-5", offers_four_card_bonus=False)
    assert rules.problems() == []


def test_an_unknown_jurisdiction_is_refused_in_words() -> None:
    for value in ("Pennsylvania ", "nevada", 1, None):
        problems = dict(TableRules(jurisdiction=value).problems())  # type: ignore[arg-type]
        assert problems, value
        assert any("jurisdiction" in m for m in problems.values()), value


def test_a_copy_frozen_before_jurisdictions_keeps_its_meaning() -> None:
    old = TableRules().to_dict()
    del old["jurisdiction"]
    assert TableRules.from_dict(old).jurisdiction == "pennsylvania"
    manufacturer = {**old, "four_card_bonus_paytable": "FC-7"}
    assert TableRules.from_dict(manufacturer).jurisdiction == "manufacturer"
    kept = TableRules(jurisdiction="manufacturer").to_dict()
    assert TableRules.from_dict(kept).jurisdiction == "manufacturer"


def _round(**rules: object) -> dict[str, object]:
    doc = rules_md_round()
    doc["rules"] = {**doc["rules"], **rules}
    return doc


def test_settle_round_refuses_the_same_way_when_the_jurisdiction_is_named() -> None:
    with pytest.raises(InvalidInput) as refused:
        settle_document(_round(jurisdiction="pennsylvania", four_card_bonus_paytable="FC-5"))
    assert refused.value.code == "wrong_jurisdiction"
    assert "FC-5" in refused.value.message and "§684a.12(e)" in refused.value.message
    assert refused.value.message.startswith("round 0:")
    # Under the manufacturer's rules the round's All-Six wager has no table at all.
    with pytest.raises(InvalidInput, match="no All-Six Bonus"):
        settle_document(
            _round(
                jurisdiction="manufacturer",
                bad_beat_paytable="BB-6",
                prime_paytable="Prime-1",
                four_card_bonus_paytable="FC-5",
            )
        )
    with pytest.raises(InvalidInput, match="unknown jurisdiction"):
        settle_document(_round(jurisdiction="nevada"))
    # The same round without the All-Six wager is the manufacturer's own.
    doc = _round(
        jurisdiction="manufacturer",
        bad_beat_paytable="BB-6",
        prime_paytable="Prime-1",
        four_card_bonus_paytable="FC-5",
    )
    del doc["rules"]["all_six_paytable"]  # type: ignore[index]
    del doc["boxes"][0]["wagers"]["all_six"]  # type: ignore[index]
    assert settle_document(doc)["boxes"][0]["wagers"]["four_card_bonus"]["net"] > 0  # type: ignore[call-overload, index]
    # The contract without the key settles any table by its name, as RULES.md says.
    assert settle_document(_round(four_card_bonus_paytable="FC-5"))
    pennsylvania = settle_document(_round(jurisdiction="pennsylvania"))
    assert pennsylvania == settle_document(_round())
