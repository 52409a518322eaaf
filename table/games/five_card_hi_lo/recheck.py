"""Five Card Hi-Lo's own re-check of a finished round from its record (``Game.recheck``).

- The re-deal: the committed shoe order dealt again with the round's plan (§663a.10(b): a
  stack of five per box with an Ante from the dealer's left, then the dealer's) and the shoe
  faults the deal took; every card must be where the record says, and a deal that ends in an
  irregularity must be the round's void (§663a.13).
- The re-settlement: the stored layout (cards, wagers, each box's setting of its high and
  low hands, the dealer's house way) settled again must give the stored lines, box nets and
  player totals (§663a.11(f)-(j), §663a.12).

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.games.common import compare_resettlement, restack_problems, void_problems
from table.games.errors import EngineError
from table.games.shoe import DealPlan, Fault

from .irregularities import deal_round
from .round import Phase, Round
from .settlement import BoxInPlay, settle_round


def dealt_anything(rnd: Round) -> bool:
    return bool(
        rnd.dealer_cards or rnd.stub or rnd.discards or any(b.cards for b in rnd.boxes.values())
    )


def redeal_problems(rnd: Round, faults: Sequence[Fault]) -> list[str]:
    if not dealt_anything(rnd):
        return []
    in_play = rnd.boxes_in_play()
    stacks = rnd.dealing_plan()
    dealt = deal_round(rnd.order, stacks, DealPlan.for_plan(list(faults), stacks))
    problems = restack_problems(
        [(p.box, p.cards) for p in in_play],
        dealt.box_stacks,
        [
            ("the dealer's stack", list(rnd.dealer_cards), list(dealt.dealer_stack)),
            ("the discards", list(rnd.discards), list(dealt.face_up_discards)),
            ("the stub", list(rnd.stub), list(dealt.stub)),
        ],
        # §663a.10(b): a box without an Ante is dealt nothing.
        idle=[(box, play.cards) for box, play in rnd.boxes.items() if not play.in_play],
    )
    # Only an irregularity that voids the round (§663a.13) must be its void.
    found = dealt.irregularity.value if dealt.irregularity is not None and dealt.void else None
    return problems + void_problems(found, rnd.void_reason, rnd.phase.value)


def resettle_problems(rnd: Round) -> list[str]:
    if rnd.phase is not Phase.SETTLED:
        return []
    results: dict[str, Any] = rnd.results or {}
    try:
        boxes = [
            BoxInPlay(
                b.box,
                b.player,
                tuple(b.cards),
                b.settlement_wagers(),
                b.setting() if b.playing else None,
                b.forfeited,
            )
            for b in rnd.boxes_in_play()
        ]
        again = settle_round(rnd.dealer_cards, boxes, rnd.rules.paytables())
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        return [f"the stored layout does not settle again: {exc}"]
    fresh = [
        (s.box, [(x.wager, x.outcome.value, x.net) for x in s.lines], s.net) for s in again.boxes
    ]
    kept = [
        (b["box"], [(x["wager"], x["outcome"], x["net"]) for x in b["results"]], b["net"])
        for b in results.get("boxes", [])
    ]
    recorded = {name: v["net"] for name, v in (results.get("players") or {}).items()}
    return compare_resettlement(fresh, kept, again.players, recorded)


def recheck(rnd: Round, faults: Sequence[Fault]) -> list[str]:
    """The re-deal's and the re-settlement's disagreements with the record."""
    return redeal_problems(rnd, faults) + resettle_problems(rnd)
