"""Shared builders for the Five Card Hi-Lo round and view tests."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from table.games.cards import DECK, parse_card
from table.games.five_card_hi_lo.round import Phase, Round, Step, Transfer
from table.games.five_card_hi_lo.rules import HiLoRules

RULES = HiLoRules()

# The digest's worked example (docs/games/FIVE_CARD_HI_LO.md): ann on boxes 1 and 2, bob on 4.
ANN_1 = "AS JD TH 9C 2S"  # aces high 31/11, one ace low J-10-9 / A-2 = 29/3
ANN_2 = "AD AH AC 8S 8C"  # three aces: A-A-A / 8-8 = 33/16, or A-A-8 / 8-A = 30/9
BOB_4 = "QH QD 5S 6D 2C"  # a pair of queens
DEALER = "KS 9D 7H 4C 3S"  # the house way: K-9-7 / 4-3 = 26/7


def stacked(*stacks: str) -> list[int]:
    """A shoe whose first stacks are these hands, the rest of the deck after them."""
    top = [parse_card(c) for s in stacks for c in s.split()]
    return top + [c for c in DECK if c not in top]


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def opened(order: list[int] | None = None, rules: HiLoRules = RULES) -> Round:
    rnd, step = Round.open(7, rules, "red", order or list(DECK), "salt")
    assert step.events[0].kind == "round_opened"
    return rnd


class Ledger:
    """Every transfer of a round, per player (positive: the player paid the table), and every
    event, checked JSON-safe."""

    def __init__(self) -> None:
        self.by_player: dict[str, int] = defaultdict(int)
        self.events: list[dict[str, Any]] = []

    def add(self, step: Step) -> Step:
        for t in step.transfers:
            assert isinstance(t, Transfer) and type(t.amount) is int and t.amount != 0
            self.by_player[t.player] += t.amount
        for e in step.events:
            as_dict = e.to_dict()
            assert json.loads(json.dumps(as_dict)) == as_dict, e.kind
            self.events.append(as_dict)
        return step

    def total(self) -> int:
        return sum(self.by_player.values())

    def kinds(self) -> list[str]:
        return [e["kind"] for e in self.events]


def staked_by_player(rnd: Round) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for play in rnd.boxes.values():
        out[play.player] += play.staked()
    return out


def check_money(rnd: Round, ledger: Ledger) -> None:
    """The round never creates or loses money."""
    if rnd.phase is Phase.SETTLED:
        assert rnd.results is not None
        nets = {p: v["net"] for p, v in rnd.results["players"].items()}
        # What each player paid the table is exactly what they lost.
        for player in set(nets) | set(ledger.by_player):
            assert ledger.by_player.get(player, 0) == -nets.get(player, 0), player
        # Each player's net is the sum of their boxes' lines.
        by_box: dict[str, int] = defaultdict(int)
        for b in rnd.results["boxes"]:
            assert b["net"] == sum(line["net"] for line in b["results"])
            by_box[b["player"]] += b["net"]
        assert dict(by_box) == nets
    elif rnd.phase is Phase.VOID:
        assert all(v == 0 for v in ledger.by_player.values()), dict(ledger.by_player)
    else:
        staked = staked_by_player(rnd)
        for player in set(staked) | set(ledger.by_player):
            assert ledger.by_player.get(player, 0) == staked.get(player, 0), player


def check_round_trip(rnd: Round) -> None:
    data = rnd.to_dict()
    assert json.loads(json.dumps(data)) == data
    again = Round.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert again.commitment == rnd.commitment


def example_round(ante_1: int = 1000, ante_2: int = 1000) -> tuple[Round, Ledger]:
    """The digest's example, bets placed and betting still open."""
    rnd = opened(stacked(ANN_1, ANN_2, BOB_4, DEALER))
    ledger = Ledger()
    ledger.add(rnd.bet(1, "ann", {"ante": ante_1, "tie": 500, "poker_bonus": 500}))
    ledger.add(rnd.bet(2, "ann", {"ante": ante_2, "poker_bonus": 500}))
    ledger.add(rnd.bet(4, "bob", {"ante": 2500, "tie": 500, "poker_bonus": 500}))
    return rnd, ledger


PHASES = ("betting", "closed", "decisions", "setting", "set", "revealed", "settled")


def example_at(stop: str) -> tuple[Round, Ledger]:
    """The example round stopped at ``stop``: betting, closed, decisions (box 1 played, box 2
    to act), setting (nobody set yet), set (every box set), revealed or settled."""
    rnd, ledger = example_round()
    if stop == "betting":
        return rnd, ledger
    ledger.add(rnd.close_betting())
    if stop == "closed":
        return rnd, ledger
    ledger.add(rnd.deal())
    ledger.add(rnd.decide(1, "ann", True))
    if stop == "decisions":
        return rnd, ledger
    ledger.add(rnd.decide(2, "ann", True))
    ledger.add(rnd.decide(4, "bob", False))
    if stop == "setting":
        return rnd, ledger
    ledger.add(rnd.set_hands(2, "ann", ["AD", "AH", "AC"], ["8S", "8C"]))
    ledger.add(rnd.set_hands(1, "ann", ["JD", "TH", "9C"], ["AS", "2S"]))
    if stop == "set":
        return rnd, ledger
    ledger.add(rnd.reveal())
    if stop == "revealed":
        return rnd, ledger
    ledger.add(rnd.settle())
    assert stop == "settled"
    return rnd, ledger
