"""The table's Rules Submission: putting another in force (now, or when the round in play ends),
announcing one edited in the admin, and the notice players get of what changes, in words.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from table.games.four_card_frenzy.round import Round as EngineRound
from table.games.four_card_frenzy.rules import rule_changes

from ..models import RulesSubmission
from .command import _as_dealer, dealer_name, execute
from .context import Context, Result, ServiceError, _audit


def change_rules(
    table_id: int, rules: RulesSubmission, staff: AbstractBaseUser | None = None, **kw: Any
) -> Result:
    """Put a Rules Submission in force now if no round is in play, else when it ends."""

    def body(ctx: Context) -> dict[str, Any]:
        problems = rules.to_table_rules().problems()
        if problems:
            raise ServiceError("bad_rules", "; ".join(m for _, m in problems))
        rnd = ctx.load_round()
        if rnd is not None and not rnd.finished:
            ctx.table.pending_rules = rules
            ctx.note("rules_pending", _rules_notice(rnd, rules))
            _audit(ctx, "rules_change", {"rules": rules.name, "pending": True})
            return {"pending": True}
        _audit(ctx, "rules_change", {"rules": rules.name, "was": ctx.table.rules.name})
        ctx.table.rules = rules
        ctx.table.pending_rules = None
        ctx.note("rules_changed", _rules_notice(rnd, rules))
        return {"pending": False}

    request = {"rules": rules.pk}
    return execute(
        table_id,
        dealer_name(staff),
        "change_rules",
        _as_dealer(staff, body, staff_may=True),
        request=request,
        **kw,
    )


def _rules_notice(rnd: EngineRound | None, rules: RulesSubmission) -> dict[str, Any]:
    """What players are told before the next betting window: the submission, and each thing
    that changes from the rules of the round in play (or the last one), in words."""
    changes = rule_changes(rnd.rules, rules.to_table_rules()) if rnd is not None else []
    return {
        "rules": rules.name,
        "changes": changes,
        "from_round": rnd.number + 1 if rnd is not None else None,
    }


def rules_edited(table_id: int, staff: AbstractBaseUser | None = None, **kw: Any) -> Result:
    """The Rules Submission the table's next round will play under was saved with new
    values (the admin): announce it now, before the next betting window. A round in play
    keeps the rules it opened with (they are frozen in the round)."""

    def body(ctx: Context) -> dict[str, Any]:
        rnd = ctx.load_round()
        rules = RulesSubmission.objects.get(pk=ctx.table.pending_rules_id or ctx.table.rules_id)
        notice = _rules_notice(rnd, rules)
        if rnd is not None and not rnd.finished:
            ctx.note("rules_pending", notice)
        else:
            ctx.note("rules_changed", notice)
        return notice

    return execute(table_id, dealer_name(staff), "rules_edited", body, **kw)
