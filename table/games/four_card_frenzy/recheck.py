"""Four Card Frenzy's own re-check of a finished round from its record (§684a.11(e): every
hand can be reconstructed), for the platform's audit (``Game.recheck``).

Two recomputations, each compared with what the round stored, every disagreement in words:

- the re-deal: the committed shoe order dealt again with the round's plan (§684a.10(b): a
  stack per box with Ante and Odds from the dealer's left, the dealer's, the All-Six stack)
  and the shoe faults the deal took; every card must be where the record says;
- the re-settlement: the stored layout settled again (§684a.11(c),(d), §684a.12) must give
  the stored results, box by box and line by line, and each player's total (the payout
  limit's withholding included, §684a.12(g)).

Pure: no Django; the platform checks its own rows (events, box records, settlement lines,
the ledger) against the round through the interface.
"""

from __future__ import annotations

from collections.abc import Sequence

from table.games.common import compare_resettlement, restack_problems, void_problems
from table.games.errors import EngineError
from table.games.shoe import DealPlan, Fault, dispense

from .round import Phase, Round
from .settlement import BoxInPlay, settle


def dealt_anything(rnd: Round) -> bool:
    """Whether the shoe dispensed anything for this round (a void deal leaves a stub too)."""
    return bool(
        rnd.dealer_cards
        or rnd.stub
        or rnd.discards
        or rnd.all_six_card is not None
        or any(b.cards for b in rnd.boxes.values())
    )


def redeal_problems(rnd: Round, faults: Sequence[Fault]) -> list[str]:
    """Deal the committed order again (§684a.10(b)) with ``faults`` (the drills the deal
    took); every card must be where the record says, and a deal that ends in an
    irregularity must be the round's void."""
    if not dealt_anything(rnd):
        return []
    in_play = [rnd.boxes[b] for b in sorted(rnd.boxes) if rnd.boxes[b].in_play]
    stacks = rnd.dealing_plan()
    dealt = dispense(rnd.order, stacks, DealPlan.for_plan(list(faults), stacks))
    problems = restack_problems(
        [(p.box, p.cards) for p in in_play],
        dealt.box_stacks,
        [
            ("the dealer's stack", list(rnd.dealer_cards), list(dealt.dealer_stack)),
            ("the All-Six card", rnd.all_six_card, dealt.shared_card),
            (
                "the discards",
                list(rnd.discards),
                [*dealt.face_up_discards, *dealt.shared_discards],
            ),
            ("the stub", list(rnd.stub), list(dealt.stub)),
        ],
        # §684a.10(b): a box without an Ante and Odds is dealt nothing.
        idle=[(box, play.cards) for box, play in rnd.boxes.items() if not play.in_play],
    )
    found = dealt.irregularity or None
    return problems + void_problems(found, rnd.void_reason, rnd.phase.value)


def resettle_problems(rnd: Round) -> list[str]:
    """Settle the stored layout again and compare with the stored results and totals."""
    if rnd.phase is not Phase.SETTLED:
        return []
    in_play = [b for b in rnd.boxes.values() if b.in_play]
    try:
        again = settle(
            rnd.dealer_cards,
            [BoxInPlay(b.box, b.player, tuple(b.cards), dict(b.wagers)) for b in in_play],
            rnd.rules.settlement_rules(),
            rnd.all_six_card,
            main_game_void=rnd.main_game_void,
        )
    except EngineError as exc:
        return [f"the stored layout does not settle again: {exc.message}"]
    stored = (rnd.results or {}).get("boxes", [])
    fresh = [
        (b.box, [(r.wager, r.stake, r.outcome.value, r.net) for r in b.results], b.net)
        for b in again.boxes
    ]
    kept = [
        (
            b["box"],
            [(r["wager"], r["stake"], r["outcome"], r["net"]) for r in b["results"]],
            b["net"],
        )
        for b in stored
    ]
    players = {p.player: {"net": p.net, "withheld": p.withheld} for p in again.players}
    recorded = {
        name: {"net": v["net"], "withheld": v["withheld"]}
        for name, v in ((rnd.results or {}).get("players") or {}).items()
    }
    return compare_resettlement(fresh, kept, players, recorded)


def recheck(rnd: Round, faults: Sequence[Fault]) -> list[str]:
    """The re-deal's and the re-settlement's disagreements with the record."""
    return redeal_problems(rnd, faults) + resettle_problems(rnd)
