"""Every finished round against ``settle_round`` (issue 23: no round can be stuck, and a
round the table settles, it settles to the cent of ``manage.py settle_round``).

:func:`round_problems` takes one stored round that is over and answers, in words, where the
money the platform moved for it differs from what the game's ``settle_round`` contract answers
for the stored round (:meth:`~table.games.base.Game.contract_round`): each player's ledger
movement against the contract's ``players``, and each shared meter's history (its increment
at "no more bets", what left it, where it ended) against the contract's ``meters``. A void
round moves nobody's money, and every increment it made is taken back out. The game's own
re-check and the platform's records are :func:`table.audit.verify_round`'s; this adds the
outside settlement. Used by the property test and ``manage.py soak_rounds``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Sum

from table.games import game as game_named
from table.games import settle_one
from table.games.base import SETTLED_PHASE, VOID_PHASE

from .models import Entry, MeterEvent, Round


def rounds_played_by(username: str) -> list[str]:
    """The rounds in play (not settled or void) where ``username`` holds a box, in words: a
    round pays its players by username, so the name is fixed while one is in play."""
    from django.db.models import F

    out = []
    rows = (
        Round.objects.filter(table__current_round_id=F("pk"))
        .exclude(phase__in=(SETTLED_PHASE, VOID_PHASE))
        .select_related("table")
    )
    for row in rows:
        found = game_named(row.game)
        if any(b.player == username for b in found.boxes(found.from_dict(row.state))):
            out.append(f"{row.table.name}'s round {row.number}")
    return out


def rename_problem(user: Any, new_username: str) -> str | None:
    """Why ``user`` may not be renamed now (None: it may): a round in play pays its boxes by
    the player's username (issue 23: what a round depends on is fixed for that round)."""
    if not user.pk or user.get_username() == new_username:
        return None
    rounds = rounds_played_by(user.get_username())
    if not rounds:
        return None
    return (
        f"{user.get_username()} has wagers in {', '.join(rounds)}, which pays them by this "
        "name: rename the player once the round is settled or void"
    )


class RoundInPlay(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = "round_in_play"
        self.message = message


def refuse_rename_in_play(sender: Any, instance: Any, **_: Any) -> None:
    """``pre_save`` of a user, whatever saves it: a player with wagers in a round in play
    keeps the username the round pays."""
    if not instance.pk:
        return
    was = sender.objects.filter(pk=instance.pk).values_list("username", flat=True).first()
    if was is None or was == instance.get_username():
        return
    before = sender(pk=instance.pk, username=was)
    problem = rename_problem(before, instance.get_username())
    if problem:
        raise RoundInPlay(problem)


def ledger_nets(row: Round) -> dict[str, int]:
    """What each player's account moved for this round (username -> cents, 0s left out)."""
    moved: dict[str, int] = {}
    for name, amount in (
        Entry.objects.filter(transaction__round=row, account__kind="player")
        .values_list("account__name")
        .annotate(total=Sum("amount"))
    ):
        if amount:
            moved[name.removeprefix("player:")] = amount
    return moved


_SIGN = {"win": 1, "lose": -1, "push": 0}


def outcome_problems(answer: Any, path: str = "") -> list[str]:
    """Every line of a ``settle_round`` answer whose outcome does not follow the sign of its
    net (a jackpot share smaller than its stake is ``lose``: issue 23)."""
    out: list[str] = []
    if isinstance(answer, dict):
        outcome, net = answer.get("outcome"), answer.get("net")
        if outcome in _SIGN and isinstance(net, int) and _SIGN[outcome] != (net > 0) - (net < 0):
            out.append(f"{path or 'a line'} is {outcome} with a net of {net}")
        for key, value in answer.items():
            out += outcome_problems(value, f"{path}.{key}" if path else str(key))
    elif isinstance(answer, list):
        for i, value in enumerate(answer):
            out += outcome_problems(value, f"{path}[{i}]")
    return out


def round_problems(row: Round) -> list[str]:
    """Where this finished round's money differs from ``settle_round`` for the stored round
    (empty: it agrees to the cent). A round not finished is a problem in itself."""
    game = game_named(row.game)
    state = game.from_dict(row.state)
    status = game.status(state)
    where = f"{row.table.name} round {row.number}"
    if not status.finished:
        return [f"{where} is stuck in {status.phase}"]
    moved = ledger_nets(row)
    events = list(MeterEvent.objects.filter(round=row).select_related("meter").order_by("pk"))
    if status.phase == VOID_PHASE:
        problems = [f"{where} (void) moved {moved}"] if moved else []
        increments = {e.meter_id for e in events if e.kind == MeterEvent.INCREMENT}
        reversed_ = {e.meter_id for e in events if e.kind == MeterEvent.REVERSAL}
        if increments != reversed_:
            problems.append(f"{where} (void) left increments on meters {increments - reversed_}")
        if any(e.kind == MeterEvent.HIT for e in events):
            problems.append(f"{where} (void) paid from a meter")
        return problems
    assert status.phase == SETTLED_PHASE
    document = game.contract_round(state)
    if document is None:
        return []  # a round the contract cannot express; the game's re-check covers it
    answer: dict[str, Any] = settle_one(document)
    wanted = {p: v["net"] for p, v in answer["players"].items() if v["net"]}
    problems = [f"{where}: {p}" for p in outcome_problems(answer)]
    if moved != wanted:
        problems.append(f"{where}: the ledger moved {moved}, settle_round says {wanted}")
    by_kind: dict[str, list[MeterEvent]] = defaultdict(list)
    for e in events:
        by_kind[e.meter.kind].append(e)
    for name, m in (answer.get("meters") or {}).items():
        mine = by_kind.get(name, [])
        inc = [e for e in mine if e.kind == MeterEvent.INCREMENT]
        grew = sum(e.amount_after - e.amount_before for e in inc)
        grew_reserve = sum(e.reserve_after - e.reserve_before for e in inc)
        if (grew, grew_reserve) != (m["increment"], m["reserve_increment"]):
            problems.append(
                f"{where}: {name} grew by {(grew, grew_reserve)}, settle_round says "
                f"{(m['increment'], m['reserve_increment'])}"
            )
        hits = [e for e in mine if e.kind == MeterEvent.HIT]
        paid = sum(e.paid for e in hits)
        if paid != m["paid"]:
            problems.append(f"{where}: {name} paid {paid}, settle_round says {m['paid']}")
        if hits and (hits[-1].amount_after, hits[-1].reserve_after) != (m["amount"], m["reserve"]):
            problems.append(
                f"{where}: {name} ended at {(hits[-1].amount_after, hits[-1].reserve_after)}, "
                f"settle_round says {(m['amount'], m['reserve'])}"
            )
    return problems
