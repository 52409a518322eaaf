"""The ``settle_round`` JSON contract of RULES.md, on top of :mod:`settlement`.

``settle_document`` takes the parsed JSON (one round or an array of rounds) and returns the
JSON-ready answer, or raises :class:`InvalidInput` whose message names the round's index.
"""

from __future__ import annotations

from typing import Any, Final

from table.games.cards import Card, codes, parse_card, parse_cards, trusted_codes
from table.games.common import check_keys
from table.games.common import json_object as _object
from table.games.errors import InvalidInput

from .hands import CATEGORY_KEYS, CATEGORY_SHIFT
from .rules import PAYTABLE_FIELDS, jurisdiction_problems
from .settlement import (
    ALL_SIX,
    ANTE,
    ODDS,
    OPTIONAL_WAGERS,
    RAISE,
    WAGER_ORDER,
    BoxInPlay,
    Outcome,
    RoundSettlement,
    Rules,
    SettledLines,
    settle_lines_trusted,
)

#: Key order of the contract's example: Ante, Odds, Raise, then the optional wagers.
JSON_WAGER_ORDER = (ANTE, ODDS, RAISE, *OPTIONAL_WAGERS)

_OUTCOME_TEXT = {outcome: outcome.value for outcome in Outcome}

_RULE_KEYS = {
    "bad_beat_paytable",
    "prime_paytable",
    "four_card_bonus_paytable",
    "all_six_paytable",
    "payout_limit",
    "jurisdiction",
}


def parse_rules(raw: object) -> Rules:
    rules = _object(raw, "rules")
    unknown = set(rules) - _RULE_KEYS
    if unknown:
        raise InvalidInput("bad_shape", f"unknown rules key {sorted(unknown)[0]!r}")
    return Rules.from_names(
        bad_beat=rules.get("bad_beat_paytable", "A"),
        prime=rules.get("prime_paytable", "A"),
        four_card_bonus=rules.get("four_card_bonus_paytable", "A"),
        all_six=rules.get("all_six_paytable", "A"),
        payout_limit=rules.get("payout_limit"),
    )


_BOX_KEYS: Final = frozenset({"box", "player", "cards", "wagers"})
_ROUND_KEYS: Final = frozenset({"rules", "dealer", "all_six_card", "boxes"})


def parse_box(raw: object, index: int) -> BoxInPlay:
    box = raw if isinstance(raw, dict) else _object(raw, f"boxes[{index}]")
    check_keys(box, _BOX_KEYS, f"boxes[{index}]: ")
    number = box.get("box")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 6:
        raise InvalidInput(
            "bad_box", f"boxes[{index}]: box must be a number 1 to 6, not {number!r}"
        )
    player = box.get("player")
    if not isinstance(player, str) or not player:
        raise InvalidInput("bad_player", f"box {number}: player must be a non-empty string")
    cards = tuple(parse_cards(box.get("cards"), 5, f"box {number}"))
    wagers_raw = box.get("wagers")
    if not isinstance(wagers_raw, dict):
        raise InvalidInput("bad_shape", f"box {number} wagers must be a JSON object")
    wagers: dict[str, int] = {}
    for name, amount in wagers_raw.items():
        if name not in WAGER_ORDER:
            raise InvalidInput("unknown_wager", f"box {number}: unknown wager {name!r}")
        if amount is None:
            continue
        # A JSON whole number passes the first test alone; a bool is not an amount.
        whole = type(amount) is int or (isinstance(amount, int) and not isinstance(amount, bool))
        if not whole or amount < 0:
            raise InvalidInput(
                "bad_amount",
                f"box {number}: {name} must be a whole number of cents ≥ 0, not {amount!r}",
            )
        # An optional wager of 0 is the same as none placed.
        if amount or name in (ANTE, ODDS, RAISE):
            wagers[name] = amount
    for required in (ANTE, ODDS):
        if required not in wagers:
            raise InvalidInput("missing_ante", f"box {number}: {required} is required")
    return BoxInPlay(number, player, cards, wagers)


def parse_round(raw: object) -> tuple[list[Card], list[BoxInPlay], Rules, Card | None]:
    data = _object(raw, "a round")
    if not _ROUND_KEYS.issuperset(data):
        raise InvalidInput("bad_shape", f"unknown key {sorted(set(data) - _ROUND_KEYS)[0]!r}")
    rules = parse_rules(data.get("rules", {}))
    dealer = parse_cards(data.get("dealer"), 5, "the dealer's hand")
    all_six_raw = data.get("all_six_card")
    all_six = None if all_six_raw is None else parse_card(all_six_raw)
    boxes_raw = data.get("boxes")
    if not isinstance(boxes_raw, list):
        raise InvalidInput("bad_shape", "boxes must be a list")
    boxes = [parse_box(b, i) for i, b in enumerate(boxes_raw)]
    raw_rules = data.get("rules", {})
    if "jurisdiction" in raw_rules:
        check_jurisdiction(raw_rules, rules, boxes)
    return dealer, boxes, rules, all_six


def check_jurisdiction(raw_rules: dict[str, Any], rules: Rules, boxes: list[BoxInPlay]) -> None:
    """A round that names its jurisdiction may use only that jurisdiction's paytables: the
    bad beat's, every table the rules name, and the table of every optional wager placed
    (the same refusal as a Rules Submission's). Without the key any table may be named."""
    names = {
        "bad_beat_paytable": rules.bad_beat.name,
        "prime_paytable": rules.prime.name,
        "four_card_bonus_paytable": rules.four_card_bonus.name,
        "all_six_paytable": rules.all_six.name,
    }
    placed = {wager for box in boxes for wager in box.wagers}
    in_use = {
        field_name: names[field_name]
        for field_name, wager, _kind in PAYTABLE_FIELDS
        if wager == ANTE or field_name in raw_rules or wager in placed
    }
    problems = jurisdiction_problems(raw_rules["jurisdiction"], in_use)
    if problems:
        code = "unknown_jurisdiction" if problems[0][0] == "jurisdiction" else "wrong_jurisdiction"
        raise InvalidInput(code, problems[0][1])


def settlement_json(result: RoundSettlement, boxes_in_order: list[BoxInPlay]) -> dict[str, Any]:
    """The contract's output for one settled round, boxes in the input's order."""
    if not isinstance(result, RoundSettlement) or not isinstance(boxes_in_order, list):
        raise InvalidInput("bad_shape", "a settled round and its boxes in input order are needed")
    by_box = {b.box: b for b in result.boxes}
    boxes_out = []
    for box in boxes_in_order:
        settled = by_box.get(box.box) if isinstance(box, BoxInPlay) else None
        if settled is None:
            raise InvalidInput("bad_shape", f"{box!r} is not one of the settled boxes")
        lines = {r.wager: r for r in settled.results}
        wagers = {}
        for wager in JSON_WAGER_ORDER:
            r = lines.get(wager)
            if r is not None:
                wagers[wager] = {"outcome": _OUTCOME_TEXT[r.outcome], "net": r.net}
        boxes_out.append(
            {
                "box": box.box,
                "player": box.player,
                "hand": codes(settled.hand.cards),
                "category": CATEGORY_KEYS[settled.hand.value >> CATEGORY_SHIFT],
                "wagers": wagers,
            }
        )
    return {
        "dealer": {
            "hand": codes(result.dealer.cards),
            "category": CATEGORY_KEYS[result.dealer.value >> CATEGORY_SHIFT],
            "qualifies": result.dealer_qualifies,
        },
        "boxes": boxes_out,
        "players": {
            p.player: {"net": p.net, "payout_limit_applied": p.payout_limit_applied}
            for p in result.players
        },
    }


def _round_json(settled: SettledLines, boxes_in_order: list[BoxInPlay]) -> dict[str, Any]:
    """:func:`settlement_json` of the RoundSettlement that :func:`settle` makes of ``settled``.

    Built straight from the lines, without a WagerResult per wager (a test holds the two
    equal); every card and box was checked by :func:`parse_round`.
    """
    by_box = {box.box: (hand, lines) for box, hand, lines in settled.boxes}
    boxes_out = []
    for box in boxes_in_order:
        hand, lines = by_box[box.box]
        by_wager = {line[0]: line for line in lines}
        wagers = {}
        for wager in JSON_WAGER_ORDER:
            line = by_wager.get(wager)
            if line is not None:
                wagers[wager] = {"outcome": _OUTCOME_TEXT[line[2]], "net": line[3]}
        boxes_out.append(
            {
                "box": box.box,
                "player": box.player,
                "hand": trusted_codes(hand.cards),
                "category": CATEGORY_KEYS[hand.value >> CATEGORY_SHIFT],
                "wagers": wagers,
            }
        )
    dealer = settled.dealer
    return {
        "dealer": {
            "hand": trusted_codes(dealer.cards),
            "category": CATEGORY_KEYS[dealer.value >> CATEGORY_SHIFT],
            "qualifies": settled.dealer_qualifies,
        },
        "boxes": boxes_out,
        "players": {
            p.player: {"net": p.net, "payout_limit_applied": p.payout_limit_applied}
            for p in settled.players
        },
    }


def settle_one(raw: object) -> dict[str, Any]:
    dealer, boxes, rules, all_six = parse_round(raw)
    # parse_round has checked each part; settle_lines_trusted checks the round as a whole.
    return _round_json(settle_lines_trusted(dealer, boxes, rules, all_six), boxes)


def settle_document(document: object) -> dict[str, Any] | list[dict[str, Any]]:
    """Settle one round, or an array of rounds in order. Errors name the round's index."""
    if isinstance(document, list):
        out = []
        for index, raw in enumerate(document):
            try:
                out.append(settle_one(raw))
            except InvalidInput as exc:
                raise InvalidInput(exc.code, f"round {index}: {exc.message}") from exc
        return out
    try:
        return settle_one(document)
    except InvalidInput as exc:
        raise InvalidInput(exc.code, f"round 0: {exc.message}") from exc


__all__ = ["settle_document", "settle_one", "OPTIONAL_WAGERS", "ALL_SIX"]


def round_input(rnd: Any) -> dict[str, Any] | None:
    """A settled round as this contract's input (``Game.contract_round``): its paytables and
    payout limit, the dealer's cards, the All-Six card and every box's cards and wagers; None
    for a round not settled, or one whose main game was void (a dealer card exposed,
    §684a.13(d): the contract has no such round)."""
    from .round import Phase

    if rnd.phase is not Phase.SETTLED or rnd.main_game_void:
        return None
    r = rnd.rules
    rules: dict[str, Any] = {
        "bad_beat_paytable": r.bad_beat_paytable,
        "prime_paytable": r.prime_paytable,
        "four_card_bonus_paytable": r.four_card_bonus_paytable,
        "all_six_paytable": r.all_six_paytable,
    }
    if r.payout_limit is not None:
        rules["payout_limit"] = r.payout_limit
    out: dict[str, Any] = {
        "rules": rules,
        "dealer": trusted_codes(rnd.dealer_cards),
        "boxes": [
            {
                "box": b.box,
                "player": b.player,
                "cards": trusted_codes(b.cards),
                "wagers": dict(b.wagers),
            }
            for b in rnd.boxes_in_play()
        ],
    }
    if rnd.all_six_card is not None:
        out["all_six_card"] = trusted_codes([rnd.all_six_card])[0]
    return out
