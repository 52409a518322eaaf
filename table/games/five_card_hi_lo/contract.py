"""The ``settle_round`` JSON contract of Five Card Hi-Lo (docs/games/FIVE_CARD_HI_LO.md).

``settle_one`` takes one parsed round whose ``"game"`` is ``"five_card_hi_lo"`` and returns
the JSON-ready answer, or raises :class:`InvalidInput` naming the problem (``table.games``
prefixes the round's index).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from table.games.cards import Card, card_code, parse_cards, trusted_codes
from table.games.common import box_number, check_keys
from table.games.common import json_object as _object
from table.games.errors import InvalidInput

from .hands import Setting, setting_problem
from .settlement import (
    ANTE,
    ANTE_BONUS,
    PLAY,
    POKER_BONUS,
    TIE,
    BoxInPlay,
    BoxSettlement,
    Paytables,
    Wagers,
    check_boxes,
    settle_round,
)

GAME: Final = "five_card_hi_lo"
_ROUND_KEYS: Final = frozenset({"game", "rules", "dealer", "boxes"})
_RULE_KEYS: Final = frozenset({"ante_bonus_paytable", "poker_bonus_paytable"})
_BOX_KEYS: Final = frozenset({"box", "player", "cards", "high", "low", "wagers", "abandoned"})
_WAGER_KEYS: Final = (ANTE, PLAY, TIE, POKER_BONUS)


def parse_paytables(raw: object) -> Paytables:
    if raw is None:
        raise InvalidInput(
            "missing_rules", "rules are required (ante_bonus_paytable, poker_bonus_paytable)"
        )
    rules = _object(raw, "rules")
    check_keys(rules, _RULE_KEYS, "rules: ")
    for key in sorted(_RULE_KEYS):
        if key not in rules:
            raise InvalidInput("missing_rules", f"rules: {key} is required")
    return Paytables(rules["ante_bonus_paytable"], rules["poker_bonus_paytable"])


def _wagers(raw: object, number: int) -> Wagers:
    data = _object(raw, f"box {number}: wagers")
    for name in data:
        if name not in _WAGER_KEYS:
            raise InvalidInput("unknown_wager", f"box {number}: unknown wager {name!r}")
    amounts: dict[str, int] = {}
    for name in _WAGER_KEYS:
        amount = data.get(name)
        if amount is None:
            amount = 0
        if type(amount) is not int or amount < 0:
            raise InvalidInput(
                "bad_amount",
                f"box {number}: {name} must be a whole number of cents ≥ 0, not {amount!r}",
            )
        amounts[name] = amount
    if amounts[ANTE] == 0:
        raise InvalidInput("missing_ante", f"box {number}: an ante is required (§663a.7(d))")
    if amounts[PLAY] not in (0, amounts[ANTE]):
        raise InvalidInput(
            "bad_play",
            f"box {number}: play {amounts[PLAY]} must be 0 (a fold) or equal to the "
            f"ante {amounts[ANTE]} (§663a.11(b))",
        )
    return Wagers(amounts[ANTE], amounts[PLAY], amounts[TIE], amounts[POKER_BONUS])


def _setting(
    box: dict[str, Any], number: int, cards: tuple[Card, ...], played: bool
) -> Setting | None:
    has_setting = "high" in box or "low" in box
    if box.get("abandoned", False) not in (True, False):
        raise InvalidInput("bad_abandoned", f"box {number}: abandoned is true or false")
    if box.get("abandoned"):
        # Left before it was set (ABANDON_RULE): it has no setting.
        if has_setting:
            raise InvalidInput("setting_on_abandoned", f"box {number}: an abandoned box is not set")
        return None
    if not played:
        if has_setting:
            raise InvalidInput("setting_on_fold", f"box {number}: a folded box is not set")
        return None
    if "high" not in box or "low" not in box:
        raise InvalidInput(
            "missing_setting", f"box {number}: a playing box needs its setting (high and low)"
        )
    high = parse_cards(box["high"], None, f"box {number}: the high hand")
    low = parse_cards(box["low"], None, f"box {number}: the low hand")
    problem = setting_problem(cards, high, low)
    if problem is not None:
        raise InvalidInput(problem[0], f"box {number}: {problem[1]}")
    return Setting.of(high, low)


def parse_box(raw: object, index: int) -> tuple[BoxInPlay, dict[str, Any]]:
    """A box without its setting (checked once every card of the round is known), and its
    raw object."""
    box = _object(raw, f"boxes[{index}]")
    check_keys(box, _BOX_KEYS, f"boxes[{index}]: ")
    number = box_number(box, index)
    player = box.get("player")
    if not isinstance(player, str) or not player:
        raise InvalidInput("bad_player", f"box {number}: a player id is required")
    cards = tuple(parse_cards(box.get("cards"), 5, f"box {number}"))
    wagers = _wagers(box.get("wagers"), number)
    return BoxInPlay(number, player, cards, wagers), box


def parse_round(raw: object) -> tuple[list[Card], list[BoxInPlay], Paytables]:
    data = _object(raw, "a round")
    check_keys(data, _ROUND_KEYS, "")
    if data.get("game") != GAME:
        raise InvalidInput("unknown_game", f"not a {GAME} round: game {data.get('game')!r}")
    paytables = parse_paytables(data.get("rules"))
    dealer = parse_cards(data.get("dealer"), 5, "the dealer's hand")
    boxes_raw = data.get("boxes")
    if not isinstance(boxes_raw, list):
        raise InvalidInput("bad_shape", "boxes must be a list")
    if not boxes_raw:
        raise InvalidInput("no_boxes", "a round needs at least one box")
    parsed = [parse_box(b, i) for i, b in enumerate(boxes_raw)]
    check_boxes([b for b, _ in parsed])
    seen: dict[Card, str] = {c: "the dealer" for c in dealer}
    for b, _ in parsed:
        for card in b.cards:
            if card in seen:
                raise InvalidInput(
                    "duplicate_card",
                    f"{card_code(card)} is dealt twice (box {b.box} and {seen[card]})",
                )
            seen[card] = f"box {b.box}"
    boxes = [
        replace(
            b,
            setting=_setting(box, b.box, b.cards, b.wagers.played),
            abandoned=bool(box.get("abandoned")) and b.wagers.played,
        )
        for b, box in parsed
    ]
    return dealer, boxes, paytables


def _box_json(settled: BoxSettlement) -> dict[str, Any]:
    wagers: dict[str, Any] = {}
    for line in settled.lines:
        entry: dict[str, Any] = {"outcome": line.outcome.value}
        if line.wager == ANTE_BONUS and line.hand is not None:
            entry["hand"] = str(line.hand)
        entry["net"] = line.net
        wagers[line.wager] = entry
    setting = settled.setting
    return {
        "box": settled.box,
        "player": settled.player,
        "played": settled.played,
        "high_total": None if setting is None else setting.high_total,
        "low_total": None if setting is None else setting.low_total,
        "poker_hand": settled.poker_hand.value,
        "wagers": wagers,
    }


def settle_one(raw: object) -> dict[str, Any]:
    dealer_cards, boxes, paytables = parse_round(raw)
    result = settle_round(dealer_cards, boxes, paytables)
    by_box = {b.box: b for b in result.boxes}
    players: dict[str, dict[str, int]] = {}
    totals = result.players
    for b in boxes:
        players.setdefault(b.player, {"net": totals[b.player]})
    dealer = result.dealer
    return {
        "dealer": {
            "high": trusted_codes(dealer.high),
            "low": trusted_codes(dealer.low),
            "high_total": dealer.high_total,
            "low_total": dealer.low_total,
        },
        "boxes": [_box_json(by_box[b.box]) for b in boxes],
        "players": players,
    }


def round_input(rnd: Any) -> dict[str, Any] | None:
    """A settled round as this contract's input (``Game.contract_round``): its paytables,
    the dealer's cards and every box's cards, wagers and (when it played) its setting; None
    for a round not settled."""
    from .round import Phase

    if rnd.phase is not Phase.SETTLED:
        return None
    paytables = rnd.rules.paytables()
    boxes = []
    for b in rnd.boxes_in_play():
        w = b.settlement_wagers()
        box: dict[str, Any] = {
            "box": b.box,
            "player": b.player,
            "cards": trusted_codes(b.cards),
            "wagers": {ANTE: w.ante, PLAY: w.play, TIE: w.tie, POKER_BONUS: w.poker_bonus},
        }
        setting = b.setting() if b.playing else None
        if setting is not None:
            box["high"] = trusted_codes(setting.high)
            box["low"] = trusted_codes(setting.low)
        boxes.append(box)
    return {
        "game": GAME,
        "rules": {
            "ante_bonus_paytable": paytables.ante_bonus,
            "poker_bonus_paytable": paytables.poker_bonus,
        },
        "dealer": trusted_codes(rnd.dealer_cards),
        "boxes": boxes,
    }
