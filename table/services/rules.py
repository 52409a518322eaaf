"""The table's Rules Submission: putting another in force (now, or when the round in play ends),
announcing one edited in the admin, and the notice players get of what changes, in words.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from table.games import GAME_TITLES
from table.games import game as game_named

from ..models import RulesSubmission
from .command import _as_dealer, dealer_name, execute
from .context import Context, Result, ServiceError, _audit


def change_rules(
    table_id: int, rules: RulesSubmission, staff: User | None = None, **kw: Any
) -> Result:
    """Put a Rules Submission in force now if no round is in play, else when it ends."""

    def body(ctx: Context) -> dict[str, Any]:
        playing = ctx.table.rules.game
        if rules.game != playing:
            # A table runs one game: its rounds, records, meters and felt are that game's.
            offered = GAME_TITLES.get(rules.game, rules.game)
            raise ServiceError(
                "wrong_game",
                f"“{rules.name}” is a Rules Submission for {offered} and this table plays "
                f"{GAME_TITLES.get(playing, playing)}: choose a submission for this table's game",
            )
        problems = rules.game_problems()
        if problems:
            raise ServiceError("bad_rules", "; ".join(m for _, m in problems))
        status = ctx.status()
        if status is not None and not status.finished:
            ctx.table.pending_rules = rules
            ctx.note("rules_pending", _rules_notice(ctx, rules))
            _audit(ctx, "rules_change", {"rules": rules.name, "pending": True})
            return {"pending": True}
        _audit(ctx, "rules_change", {"rules": rules.name, "was": ctx.table.rules.name})
        ctx.table.rules = rules
        ctx.table.pending_rules = None
        ctx.note("rules_changed", _rules_notice(ctx, rules))
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


def _rules_notice(ctx: Context, rules: RulesSubmission) -> dict[str, Any]:
    """What players are told before the next betting window: the submission, and each thing
    that changes from the rules of the round in play (or the last one), in words."""
    state = ctx.load_round()
    if state is None:
        return {"rules": rules.name, "changes": [], "from_round": None}
    game = ctx.game
    changes: list[str] = []
    if rules.game == game.name:
        changes = game.rule_changes(game.round_rules(state), rules.game_rules())
    else:
        changes = [f"the game: {game_named(rules.game).title} (was {game.title})"]
    return {
        "rules": rules.name,
        "changes": changes,
        "from_round": (ctx.status() or game.status(state)).number + 1,
    }


def rules_edited(table_id: int, staff: User | None = None, **kw: Any) -> Result:
    """The Rules Submission the table's next round will play under was saved with new
    values (the admin): announce it now, before the next betting window. A round in play
    keeps the rules it opened with (they are frozen in the round)."""

    def body(ctx: Context) -> dict[str, Any]:
        status = ctx.status()
        rules = RulesSubmission.objects.get(pk=ctx.table.pending_rules_id or ctx.table.rules_id)
        notice = _rules_notice(ctx, rules)
        if status is not None and not status.finished:
            ctx.note("rules_pending", notice)
        else:
            ctx.note("rules_changed", notice)
        return notice

    return execute(table_id, dealer_name(staff), "rules_edited", body, **kw)
