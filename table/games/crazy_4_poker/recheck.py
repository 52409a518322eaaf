"""Crazy 4 Poker's own re-check of a finished round from its record (``Game.recheck``).

- The re-deal: the committed shoe order dealt again with the round's plan (§657a.10(b): a
  stack per box with Ante and Super Bonus from the dealer's left, the dealer's, then the Six
  Card Bonus stack) and the shoe faults the deal took; every card must be where the record
  says, and a deal that ends in an irregularity must be the round's void (§657a.13).
- The re-settlement: the stored layout (cards, wagers, the Play decisions, the Magic Card and
  Lucky draws the table game system made) settled again from the meters as they stood at
  settlement (kept in ``results["meters"]``) must give the stored lines, bonuses, box nets,
  player totals and where each meter ended (§657a.11(c)-(g), §657a.12).

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.games.common import compare_resettlement, restack_problems, void_problems
from table.games.errors import EngineError
from table.games.progressive import Meter
from table.games.shoe import DealPlan, Fault, dispense

from .irregularities import FROM_DEAL
from .round import Phase, Round
from .settlement import Draws, settle


def dealt_anything(rnd: Round) -> bool:
    return bool(
        rnd.dealer_cards
        or rnd.stub
        or rnd.discards
        or rnd.six_card_bonus_card is not None
        or any(b.cards for b in rnd.boxes.values())
    )


def redeal_problems(rnd: Round, faults: Sequence[Fault]) -> list[str]:
    if not dealt_anything(rnd):
        return []
    in_play = rnd.boxes_in_play()
    stacks = rnd.dealing_plan()
    dealt = dispense(rnd.order, stacks, DealPlan.for_plan(list(faults), stacks))
    problems = restack_problems(
        [(p.box, p.cards) for p in in_play],
        dealt.box_stacks,
        [
            ("the dealer's stack", list(rnd.dealer_cards), list(dealt.dealer_stack)),
            ("the Six Card Bonus card", rnd.six_card_bonus_card, dealt.shared_card),
            (
                "the discards",
                list(rnd.discards),
                [*dealt.face_up_discards, *dealt.shared_discards],
            ),
            ("the cards found face up", list(rnd.face_up), list(dealt.face_up_discards)),
            ("the stub", list(rnd.stub), list(dealt.stub)),
        ],
        # §657a.10(b): a box without an Ante and Super Bonus is dealt nothing.
        idle=[(box, play.cards) for box, play in rnd.boxes.items() if not play.in_play],
        dealt_for="an Ante and Super Bonus",
    )
    found = FROM_DEAL[dealt.irregularity].value if dealt.irregularity else None
    return problems + void_problems(found, rnd.void_reason, rnd.phase.value)


def resettle_problems(rnd: Round) -> list[str]:
    if rnd.phase is not Phase.SETTLED:
        return []
    results: dict[str, Any] = rnd.results or {}
    stored_meters = results.get("meters") or {}
    try:
        before = {
            name: Meter(m["before"]["amount"], m["before"]["reserve"])
            for name, m in stored_meters.items()
        }
        settled, after, paid, reseeds, _ = settle(
            rnd.rules.rules,
            rnd.dealer_cards,
            rnd._boxes_for_settlement(),
            before,
            rnd.six_card_bonus_card,
            Draws(rnd.magic_card, rnd.lucky_position),
        )
    except (EngineError, KeyError, TypeError) as exc:
        return [f"the stored layout does not settle again: {exc}"]
    fresh = [
        (
            s.box,
            [(r.wager, r.stake, r.outcome.value, r.net) for r in s.results],
            dict(s.bonuses),
            s.net,
        )
        for s in settled
    ]
    kept = [
        (
            b["box"],
            [(r["wager"], r["stake"], r["outcome"], r["net"]) for r in b["results"]],
            dict(b.get("bonuses") or {}),
            b["net"],
        )
        for b in results.get("boxes", [])
    ]
    players: dict[str, int] = {}
    for s in settled:
        players[s.player] = players.get(s.player, 0) + s.net
    recorded = {name: v["net"] for name, v in (results.get("players") or {}).items()}
    problems = compare_resettlement(fresh, kept, players, recorded)
    meters = {
        name: (paid[name], reseeds[name], after[name].amount, after[name].reserve) for name in after
    }
    kept_meters = {
        name: (m["paid"], m["reseeds"], m["amount"], m["reserve"])
        for name, m in stored_meters.items()
    }
    if meters != kept_meters:
        problems.append(f"the meters after settlement {kept_meters} differ from {meters}")
    return problems


def recheck(rnd: Round, faults: Sequence[Fault]) -> list[str]:
    """The re-deal's and the re-settlement's disagreements with the record."""
    return redeal_problems(rnd, faults) + resettle_problems(rnd)
