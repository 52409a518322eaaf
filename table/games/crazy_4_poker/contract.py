"""The ``settle_round`` JSON contract for ``"game": "crazy_4_poker"`` (CRAZY_4_POKER.md).

:func:`settle_one` takes one parsed round and returns the JSON-ready answer, or raises
:class:`InvalidInput` naming the problem (``table.games`` adds the round's index).
"""

from __future__ import annotations

from typing import Any, Final

from table.games.cards import Card, parse_card, parse_cards, trusted_codes
from table.games.common import box_number, check_keys
from table.games.common import json_object as _object
from table.games.errors import InvalidInput
from table.games.progressive import Meter

from .hands import four_card_category_key
from .paytables import PROGRESSIVES, ProgressiveType
from .rules import Progressive, Rules
from .settlement import (
    DEALER,
    HAND_BONUS_DEALER,
    HAND_BONUS_PLAYER,
    PLAY,
    BoxInPlay,
    Draws,
    RoundSettlement,
    Wagers,
    settle_round,
)

_ROUND_KEYS: Final = frozenset(
    {
        "game",
        "rules",
        "meters",
        "dealer",
        "six_card_bonus_card",
        "magic_card",
        "lucky_position",
        "boxes",
    }
)
_RULE_KEYS: Final = frozenset(
    {"queens_up_paytable", "progressive", "hand_bonus", "six_card_bonus_paytable"}
)
_BOX_KEYS: Final = frozenset({"box", "player", "cards", "wagers"})
_AMOUNT_KEYS: Final = (
    "ante",
    "super_bonus",
    "play",
    "queens_up",
    "progressive",
    "hand_bonus",
    "six_card_bonus",
)
_HAND_BONUS_ON: Final = ("player", "dealer", "both")


def _amount(value: object, what: str) -> int:
    if type(value) is not int or value < 0:
        raise InvalidInput(
            "bad_amount", f"{what} must be a whole number of cents ≥ 0, not {value!r}"
        )
    return value


def parse_rules(raw: object) -> Rules:
    rules = _object(raw, "rules")
    check_keys(rules, _RULE_KEYS, "rules: ")
    if "queens_up_paytable" not in rules:
        raise InvalidInput("unknown_paytable", "rules: queens_up_paytable is required (A-D)")
    progressive = rules.get("progressive")
    if progressive is not None:
        p = _object(progressive, "rules.progressive")
        check_keys(p, frozenset({"type", "paytable", "wager"}), "rules.progressive: ")
        progressive = (p.get("type"), p.get("paytable"), p.get("wager"))
    hand_bonus = rules.get("hand_bonus")
    if hand_bonus is not None:
        h = _object(hand_bonus, "rules.hand_bonus")
        check_keys(h, frozenset({"wager"}), "rules.hand_bonus: ")
        hand_bonus = h.get("wager")
        if hand_bonus is None:
            raise InvalidInput("bad_wager_size", "rules.hand_bonus needs its wager (100 or 500)")
    return Rules.from_names(
        rules["queens_up_paytable"],
        progressive,
        hand_bonus,
        rules.get("six_card_bonus_paytable"),
    )


def parse_meters(raw: object, rules: Rules) -> dict[str, Meter]:
    data = {} if raw is None else _object(raw, "meters")
    names = sorted(spec.name for spec in rules.meters)
    if sorted(data) != names:
        raise InvalidInput(
            "bad_meters",
            f"meters must be exactly the offered ones {names}, not {sorted(data)}",
        )
    out: dict[str, Meter] = {}
    for name in names:
        m = _object(data[name], f"meters.{name}")
        check_keys(m, frozenset({"amount", "reserve"}), f"meters.{name}: ")
        if "amount" not in m:
            raise InvalidInput("bad_meters", f"meters.{name} needs an amount")
        out[name] = Meter(
            _amount(m["amount"], f"meters.{name}.amount"),
            _amount(m.get("reserve", 0), f"meters.{name}.reserve"),
        )
    return out


def parse_box(raw: object, index: int) -> BoxInPlay:
    box = _object(raw, f"boxes[{index}]")
    check_keys(box, _BOX_KEYS, f"boxes[{index}]: ")
    number = box_number(box, index)
    player = box.get("player")
    if not isinstance(player, str) or not player:
        raise InvalidInput("bad_player", f"box {number}: player must be a non-empty string")
    cards = tuple(parse_cards(box.get("cards"), 5, f"box {number}"))
    w = _object(box.get("wagers"), f"box {number} wagers")
    check_keys(w, frozenset({*_AMOUNT_KEYS, "hand_bonus_on"}), f"box {number} wagers: ")
    # An absent or null wager is not placed (a Play of 0 is a fold).
    amounts = {
        k: 0 if w.get(k) is None else _amount(w[k], f"box {number}: {k}") for k in _AMOUNT_KEYS
    }
    if not amounts["ante"]:
        raise InvalidInput("missing_ante", f"box {number}: ante is required")
    hand_bonus = amounts.pop("hand_bonus")
    on = w.get("hand_bonus_on")
    if hand_bonus and on not in _HAND_BONUS_ON:
        raise InvalidInput(
            "bad_hand_bonus_on",
            f"box {number}: hand_bonus_on must be player, dealer or both, not {on!r}",
        )
    if not hand_bonus and on is not None and on not in _HAND_BONUS_ON:
        raise InvalidInput(
            "bad_hand_bonus_on",
            f"box {number}: hand_bonus_on must be player, dealer or both, not {on!r}",
        )
    player_stake = hand_bonus if on in ("player", "both") else 0
    dealer_stake = hand_bonus if on in ("dealer", "both") else 0
    wagers = Wagers(hand_bonus_player=player_stake, hand_bonus_dealer=dealer_stake, **amounts)
    return BoxInPlay(number, player, cards, wagers)


def parse_round(
    raw: object,
) -> tuple[Rules, dict[str, Meter], list[Card], Card | None, Draws, list[BoxInPlay]]:
    data = _object(raw, "a round")
    check_keys(data, _ROUND_KEYS, "round: ")
    rules = parse_rules(data.get("rules"))
    meters = parse_meters(data.get("meters"), rules)
    dealer = parse_cards(data.get("dealer"), 5, "the dealer's hand")
    six_raw = data.get("six_card_bonus_card")
    six = None if six_raw is None else parse_card(six_raw)
    magic_raw = data.get("magic_card")
    magic = None if magic_raw is None else parse_card(magic_raw)
    lucky = data.get("lucky_position")
    boxes_raw = data.get("boxes")
    if not isinstance(boxes_raw, list):
        raise InvalidInput("bad_shape", "boxes must be a list")
    boxes = [parse_box(b, i) for i, b in enumerate(boxes_raw)]
    return rules, meters, dealer, six, Draws(magic, lucky), boxes


def _wager_json(result: RoundSettlement, number: int) -> dict[str, Any]:
    settled = result.box(number)
    wagers = {r.wager: {"outcome": r.outcome.value, "net": r.net} for r in settled.results}
    return wagers


def settlement_json(result: RoundSettlement, boxes: list[BoxInPlay]) -> dict[str, Any]:
    """The contract's output, boxes in the input's order."""
    boxes_out = []
    for b in boxes:
        s = result.box(b.box)
        boxes_out.append(
            {
                "box": b.box,
                "player": b.player,
                "folded": s.folded,
                "hand": trusted_codes(s.hand.cards),
                "category": four_card_category_key(s.hand.value),
                "five_card_category": s.five_card.key,
                "six_card_category": None if s.six_card is None else s.six_card.key,
                "wagers": _wager_json(result, b.box),
                "bonuses": dict(s.bonuses),
                "envy": [
                    {"from_box": e.from_box, "hand": e.hand, "amount": e.amount} for e in s.envy
                ],
                "net": s.net,
            }
        )
    players: dict[str, dict[str, int]] = {}
    for b in boxes:
        entry = players.setdefault(b.player, {"net": 0})
        entry["net"] += result.box(b.box).net
    return {
        "game": "crazy_4_poker",
        "dealer": {
            "hand": trusted_codes(result.dealer.cards),
            "category": four_card_category_key(result.dealer.value),
            "qualifies": result.dealer_qualifies,
            "five_card_category": result.dealer_five_card.key,
        },
        "boxes": boxes_out,
        "meters": {
            m.name: {
                "amount": m.after.amount,
                "reserve": m.after.reserve,
                "increment": m.increment.primary,
                "reserve_increment": m.increment.reserve,
                "paid": m.paid,
            }
            for m in result.meters
        },
        "players": players,
    }


def settle_one(raw: object) -> dict[str, Any]:
    rules, meters, dealer, six, draws, boxes = parse_round(raw)
    result = settle_round(rules, dealer, boxes, meters, six, draws)
    return settlement_json(result, boxes)


__all__ = ["settle_one", "parse_round", "settlement_json", "PROGRESSIVES", "ProgressiveType",
           "Progressive", "DEALER", "PLAY", "HAND_BONUS_PLAYER", "HAND_BONUS_DEALER"]  # fmt: skip


def round_input(rnd: Any) -> dict[str, Any] | None:
    """A settled round as this contract's input (``Game.contract_round``): its rules, the
    meters as they stood before its own increments (what it found at "no more bets", less
    nothing another table added after), the dealt cards, the draws and every box's wagers;
    None for a round not settled."""
    from .round import Phase

    if rnd.phase is not Phase.SETTLED or rnd.results is None:
        return None
    rules = rnd.rules.to_dict()
    meters: dict[str, Any] = {}
    for name, m in (rnd.results.get("meters") or {}).items():
        inc = rnd.increments.get(name)
        meters[name] = {
            "amount": m["before"]["amount"] - (inc.primary if inc else 0),
            "reserve": m["before"]["reserve"] - (inc.reserve if inc else 0),
        }
    boxes = []
    for b in rnd._boxes_for_settlement():
        w = b.wagers
        on = {(True, True): "both", (True, False): "player", (False, True): "dealer"}.get(
            (bool(w.hand_bonus_player), bool(w.hand_bonus_dealer))
        )
        wagers: dict[str, Any] = {
            name: getattr(w, name)
            for name in ("ante", "super_bonus", "play", "queens_up", "progressive")
        }
        wagers["six_card_bonus"] = w.six_card_bonus
        if on is not None:
            wagers["hand_bonus"] = w.hand_bonus_player or w.hand_bonus_dealer
            wagers["hand_bonus_on"] = on
        boxes.append(
            {"box": b.box, "player": b.player, "cards": trusted_codes(b.cards), "wagers": wagers}
        )
    return {
        "game": "crazy_4_poker",
        "rules": {k: rules[k] for k in sorted(_RULE_KEYS) if rules.get(k) is not None},
        "meters": meters,
        "dealer": trusted_codes(rnd.dealer_cards),
        "six_card_bonus_card": None
        if rnd.six_card_bonus_card is None
        else trusted_codes([rnd.six_card_bonus_card])[0],
        "magic_card": None if rnd.magic_card is None else trusted_codes([rnd.magic_card])[0],
        "lucky_position": rnd.lucky_position,
        "boxes": boxes,
    }
