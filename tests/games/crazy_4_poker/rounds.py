"""Builders for the Crazy 4 Poker round tests: stacked shoes, tables, the platform's books.

:class:`Books` stands in for the platform: it keeps every player's money moved by the round's
transfers and the shared meters, and applies each step's meter changes the way the platform
will (increments at "no more bets", reversals on a void, the settled standing at settlement).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from table.games.cards import DECK, parse_card
from table.games.crazy_4_poker.round import (
    MeterChange,
    Phase,
    Round,
    Step,
    TableRules,
)
from table.games.crazy_4_poker.rules import Rules
from table.games.progressive import Meter, seeded

FULL = Rules.from_names("A", ("five_card", "C", 100), 100, "E")
FOUR_CARD = Rules.from_names("B", ("four_card", "A", 500), None, "A")
PLAIN = Rules.from_names("A")


def table(rules: Rules = FULL, **limits: int) -> TableRules:
    return TableRules(rules, **limits)


def stacked(*stacks: str) -> list[int]:
    """A shoe whose first stacks are these hands (box 1's first), the rest of the deck after."""
    top = [parse_card(c) for s in stacks for c in s.split()]
    return top + [c for c in DECK if c not in top]


def codes_of(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def opened(order: list[int] | None = None, rules: TableRules | None = None) -> Round:
    rnd, step = Round.open(7, rules or table(), "red", order or list(DECK), "salt")
    assert step.events[0].kind == "round_opened"
    return rnd


class Books:
    """Players' money and the shared meters, as the platform keeps them."""

    def __init__(self, rules: TableRules) -> None:
        r = rules.rules
        self.rules = rules
        self.start = {s.name: seeded(s, r.meter_wager(s.name)) for s in r.meters}
        self.meters: dict[str, Meter] = dict(self.start)
        self.by_player: dict[str, int] = defaultdict(int)
        self.events: list[dict[str, Any]] = []
        self.changes: list[MeterChange] = []

    def add(self, step: Step) -> Step:
        assert isinstance(step, Step)
        for t in step.transfers:
            assert type(t.amount) is int
            self.by_player[t.player] += t.amount
        for e in step.events:
            as_dict = e.to_dict()
            assert json.loads(json.dumps(as_dict)) == as_dict, e.kind
            self.events.append(as_dict)
        for c in step.meters:
            assert MeterChange.from_dict(json.loads(json.dumps(c.to_dict()))) == c
            self.changes.append(c)
            if c.kind in ("increment", "reverse"):
                m = self.meters[c.meter]
                self.meters[c.meter] = Meter(m.amount + c.amount, m.reserve + c.reserve)
        return step

    def settle(self, rnd: Round) -> Step:
        step = self.add(rnd.settle(dict(self.meters)))
        assert rnd.results is not None
        for name, m in rnd.results["meters"].items():
            self.meters[name] = Meter(m["amount"], m["reserve"])
        return step

    def kinds(self) -> list[str]:
        return [e["kind"] for e in self.events]


def staked_by_player(rnd: Round) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for play in rnd.boxes.values():
        out[play.player] += play.staked()
    return out


def check_money(rnd: Round, books: Books) -> None:
    """The round never creates or loses money, and the meters add up."""
    increments = {c.meter: c for c in books.changes if c.kind == "increment"}
    if rnd.phase is Phase.SETTLED:
        assert rnd.results is not None
        nets = {p: v["net"] for p, v in rnd.results["players"].items()}
        for player in set(nets) | set(books.by_player):
            assert books.by_player.get(player, 0) == -nets.get(player, 0), player
        # The box nets are the sum of their lines, bonuses and envy.
        for b in rnd.results["boxes"]:
            lines = sum(r["net"] for r in b["results"])
            extra = sum(b["bonuses"].values()) + sum(e["amount"] for e in b["envy"])
            assert b["net"] == lines + extra
        payouts = [c for c in books.changes if c.kind == "payout"]
        for name, m in rnd.results["meters"].items():
            spec = rnd.rules.rules.meter_spec(name)
            reseed = spec.reseed_amount(rnd.rules.rules.meter_wager(name))
            before = books.start[name]
            inc = increments[name]
            # Meter money: what it held + this round's increments - payouts + house reseeds.
            assert (
                m["amount"] + m["reserve"]
                == (before.amount + before.reserve + inc.amount + inc.reserve)
                - m["paid"]
                + m["reseeds"] * reseed
            )
            assert m["paid"] == sum(c.paid for c in payouts if c.meter == name)
            assert m["reseeds"] <= sum(1 for c in payouts if c.meter == name and c.reset)
    elif rnd.phase is Phase.VOID:
        assert all(v == 0 for v in books.by_player.values()), dict(books.by_player)
        assert books.meters == books.start
    else:
        staked = staked_by_player(rnd)
        for player in set(staked) | set(books.by_player):
            assert books.by_player.get(player, 0) == staked.get(player, 0), player
        if rnd.phase is not Phase.BETTING:
            for name, m in books.meters.items():
                s, inc = books.start[name], increments[name]
                assert m == Meter(s.amount + inc.amount, s.reserve + inc.reserve)


def check_round_trip(rnd: Round) -> None:
    saved = json.loads(json.dumps(rnd.to_dict()))
    again = Round.from_dict(saved)
    assert again.to_dict() == rnd.to_dict()
    for viewer in [None, *{b.player for b in rnd.boxes.values()}]:
        assert again.view(viewer) == rnd.view(viewer)
        assert json.loads(json.dumps(rnd.view(viewer))) == rnd.view(viewer)
    assert again.view(None, dealer=True) == rnd.view(None, dealer=True)
