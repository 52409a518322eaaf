"""What a command writes under the table's lock, after its own changes: the round's state and
phase times (:func:`_save_round`), a finished round's box records and settlement lines and its
void in the audit log, each player's new balance, and the next version of the hash-chained event
log with the table's row (:func:`_write_events`).

Apart from :mod:`table.services.command` because it is the other half of the command path: the
lock and the read there, the writes here (all of them through :mod:`table.fastsql`, batched into
the command's last round trip).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.contrib.auth import get_user_model

from table.games.base import BoxState, Game, RoundStatus, to_player

from .. import fastsql, rollup
from ..models import BoxRecord, Round, RoundEvent, SettlementLine, event_hash
from .context import Context, _audit, _deadline_ms

User = get_user_model()


def _save_round(ctx: Context) -> None:
    """Persist the round's state, stamp phase times, and close the books when it ends."""
    state, row = ctx.state, ctx.round_row
    if state is None or row is None:
        return
    game = ctx.game
    status = ctx.status()
    assert status is not None
    previous = row.phase
    row.phase = status.phase
    stamps = []
    if previous != row.phase:
        now = fastsql.when(ctx.now)
        if status.dealt:
            stamps.append(("dealt_at = COALESCE(dealt_at, %s)", now))
        if status.phase == "revealed":
            stamps.append(("revealed_at = %s", now))
        if status.finished:
            stamps.append(("finished_at = %s", now))
    fastsql.write(
        fastsql.round_update([sql for sql, _ in stamps]),
        [
            fastsql.dumps(game.to_dict(state)),
            row.phase,
            status.void_reason or "",
            *(v for _, v in stamps),
            row.pk,
        ],
    )
    _set_clocks(ctx, game, state, status)
    # A round over before this command kept its phase (settled and void are the last).
    if status.finished and previous != row.phase:
        _record_finished(ctx, game, state, row)
        if status.irregularity is not None:
            # Who caused it (the dealer who dealt, counted, closed; or the house) and its
            # evidence, as the round_void / dealer_card_exposed event has it.
            shown = next(
                (e.data for e in ctx.events if e.kind in ("round_void", "dealer_card_exposed")),
                {},
            )
            _audit(
                ctx,
                "void" if status.phase == "void" else "main_game_void",
                {
                    "round": status.number,
                    "reason": status.void_reason or "dealer_card_exposed",
                    "evidence": shown.get("evidence"),
                    "card": shown.get("card"),
                },
            )


def _set_clocks(ctx: Context, game: Game[Any, Any], state: Any, status: RoundStatus) -> None:
    """The table's clocks from what the round waits for (``game.timer``): the box to act
    gets its decision time from its turn; a setting step (hands set after deciding) one
    setting time from when it starts; betting keeps the countdown open_betting started."""
    table = ctx.table
    timer = None if status.finished else game.timer(state)
    if timer is not None and timer.kind == "decision":
        for event in ctx.events:
            if event.kind == "turn" and event.data.get("box") == timer.boxes[0]:
                table.turn_deadline = ctx.now + dt.timedelta(seconds=timer.seconds)
                event.data["deadline"] = _deadline_ms(table.turn_deadline)
                event.data["seconds"] = timer.seconds
    elif timer is not None and timer.kind == "setting":
        started = [e for e in ctx.events if e.kind == "setting_started"]
        if started or table.turn_deadline is None:
            table.turn_deadline = ctx.now + dt.timedelta(seconds=timer.seconds)
            for event in started:
                event.data["deadline"] = _deadline_ms(table.turn_deadline)
                event.data["seconds"] = timer.seconds
    else:
        table.turn_deadline = None
    if not status.betting:
        table.betting_deadline = None


_RAISE = re.compile(r"raise (\d)x")


def _decision(box: BoxState) -> int | None:
    """The record's decision: a Raise multiple (a game's "raise 2x"), 0 for a
    fold, None otherwise (the game's words stay in the round's state)."""
    if box.decision is None:
        return None
    if box.folded or box.decision == "fold":
        return 0
    found = _RAISE.fullmatch(box.decision)
    return int(found.group(1)) if found else None


def _record_finished(ctx: Context, game: Game[Any, Any], state: Any, row: Round) -> None:
    boxes = game.boxes(state)
    # The seated players' ids came with the locked read; one who left their seat during the
    # round is looked up by name.
    users = {name: uid for uid, name in ctx.seats.values()}
    names = sorted({b.player for b in boxes} - set(users))
    if names:
        users.update(fastsql.rows(fastsql.user_ids(len(names)), names))
    records, lines = [], []
    for play in boxes:
        player = users[play.player]
        records.append(
            (
                row.pk,
                play.box,
                player,
                " ".join(play.cards),
                " ".join(play.best_cards),
                (play.hand or "")[:60],
                fastsql.dumps(dict(play.wagers)),
                _decision(play),
                play.net or 0,
            )
        )
        for line in play.lines:
            lines.append(
                (
                    row.pk,
                    play.box,
                    player,
                    line.wager,
                    line.stake,
                    line.outcome,
                    line.net,
                    (line.row or "")[:80],
                )
            )
    fastsql.insert_many(
        BoxRecord,
        [
            "round_id",
            "box",
            "player_id",
            "cards",
            "best_four",
            "hand",
            "wagers",
            "decision",
            "net",
        ],
        records,
        returning=False,
    )
    fastsql.insert_many(
        SettlementLine,
        ["round_id", "box", "player_id", "wager", "stake", "outcome", "net", "row"],
        lines,
        returning=False,
    )
    if row.phase != "void":
        # The back office's roll-up, in the same batch of writes (table/rollup.py).
        rollup.record_round(
            ctx.table.pk,
            ctx.table.rules_id,  # the round's: a change waits for the round to end (below)
            game.name,
            game.rules_to_dict(game.round_rules(state)),  # what the round's row keeps
            ctx.now,
            [
                (b, w, stake, net)
                for _r, b, _p, w, stake, outcome, net, _x in lines
                if outcome != "void"
            ],
        )
    table = ctx.table
    # §684a.3(b)/(c) bookkeeping, and a Rules Submission change waiting for the round to end.
    if table.pending_rules_id:
        table.rules_id = table.pending_rules_id
        table.pending_rules = None
        ctx.note("rules_changed", {"rules": table.rules.name})


def _note_balances(ctx: Context) -> None:
    """Tell each player whose money moved their new balance (a private event), with their
    open sessions' net result and amount wagered since login (the player bar shows them
    live, §814a.1(e)(1)-(2); static/table/protection.js)."""
    for player in sorted(ctx.moved):
        balance = ctx.balances[ctx.accounts[player]]
        data: dict[str, Any] = {"balance": balance}
        since = ctx.since_login.get(player)
        if since:
            data["since_login"] = {
                str(s): {"net": net, "wagered": wagered} for s, (net, wagered) in since.items()
            }
        ctx.note("balance", data, to_player(player))


def _write_events(ctx: Context) -> int:
    """Append the command's events to the hash-chained log under the next version."""
    table = ctx.table
    table.version += 1
    version = table.version
    prev = table.last_hash
    values = []
    round_id = ctx.round_row.pk if ctx.round_row else None
    created = fastsql.when(ctx.now)
    for seq, event in enumerate(ctx.events):
        # RoundEvent.compute_hash's, from the values (no model instance per event).
        chained = event_hash(
            table.pk,
            round_id,
            version,
            seq,
            event.kind,
            event.audience,
            event.data,
            ctx.actor,
            ctx.now,
            prev,
            ctx.session,
        )
        values.append(
            (
                table.pk,
                round_id,
                version,
                seq,
                event.kind,
                event.audience,
                fastsql.dumps(event.data),
                ctx.actor,
                created,
                prev,
                chained,
                ctx.session,
            )
        )
        prev = chained
    fastsql.insert_many(
        RoundEvent,
        [
            "table_id",
            "round_id",
            "version",
            "seq",
            "kind",
            "audience",
            "data",
            "actor",
            "created",
            "prev_hash",
            "hash",
            "session_id",
        ],
        values,
        returning=False,
    )
    table.last_hash = prev
    # Every field a command may change; not the clock owner's heartbeat (another writer).
    fastsql.write(
        fastsql.table_update(),
        [
            table.version,
            table.last_hash,
            table.is_open,
            table.rules_id,
            table.pending_rules_id,
            fastsql.dumps(table.shoe),
            table.rounds_since_stub_count,
            table.current_round_id,
            fastsql.when(table.betting_deadline),
            fastsql.when(table.turn_deadline),
            table.pk,
        ],
    )
    return version
