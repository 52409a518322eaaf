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

from django.contrib.auth import get_user_model

from table.games.cards import codes
from table.games.events import to_player
from table.games.four_card_frenzy.hands import best_four, describe
from table.games.four_card_frenzy.round import Phase
from table.games.four_card_frenzy.round import Round as EngineRound

from .. import fastsql
from ..models import BoxRecord, Round, RoundEvent, SettlementLine, Table
from .context import Context, _audit, _deadline_ms

User = get_user_model()


def _save_round(ctx: Context) -> None:
    """Persist the engine round, stamp phase times, and close the books when it ends."""
    rnd, row = ctx.engine, ctx.round_row
    if rnd is None or row is None:
        return
    previous = row.phase
    row.phase = rnd.phase.value
    stamps = []
    if previous != row.phase:
        now = fastsql.when(ctx.now)
        if rnd.dealer_cards:
            stamps.append(("dealt_at = COALESCE(dealt_at, %s)", now))
        if rnd.phase is Phase.REVEALED:
            stamps.append(("revealed_at = %s", now))
        if rnd.finished:
            stamps.append(("finished_at = %s", now))
    fastsql.write(
        f"UPDATE {fastsql.table(Round)} SET state = %s, phase = %s, void_reason = %s"
        + "".join(", " + sql for sql, _ in stamps)
        + " WHERE id = %s",
        [
            fastsql.dumps(rnd.to_dict()),
            row.phase,
            rnd.void_reason or "",
            *(v for _, v in stamps),
            row.pk,
        ],
    )
    table = ctx.table
    # Turn clock: the box to act gets the Rules Submission's decision time.
    if rnd.phase is Phase.DECISIONS and rnd.to_act is not None:
        for event in ctx.events:
            if event.kind == "turn" and event.data.get("box") == rnd.to_act:
                table.turn_deadline = ctx.now + dt.timedelta(seconds=rnd.rules.decision_seconds)
                event.data["deadline"] = _deadline_ms(table.turn_deadline)
                event.data["seconds"] = rnd.rules.decision_seconds
    else:
        table.turn_deadline = None
    if rnd.phase is not Phase.BETTING:
        table.betting_deadline = None
    if rnd.finished and previous not in (Phase.SETTLED.value, Phase.VOID.value):
        _record_finished(ctx, rnd, row)
        if rnd.phase is Phase.VOID or rnd.main_game_void:
            # Who caused it (the dealer who dealt, counted, closed; or the house) and its
            # evidence, as the round_void / dealer_card_exposed event has it.
            shown = next(
                (e.data for e in ctx.events if e.kind in ("round_void", "dealer_card_exposed")),
                {},
            )
            _audit(
                ctx,
                "void" if rnd.phase is Phase.VOID else "main_game_void",
                {
                    "round": rnd.number,
                    "reason": rnd.void_reason or "dealer_card_exposed",
                    "evidence": shown.get("evidence"),
                    "card": shown.get("card"),
                },
            )


def _record_finished(ctx: Context, rnd: EngineRound, row: Round) -> None:
    names = sorted({b.player for b in rnd.boxes.values()})
    users = dict(
        fastsql.rows(
            f"SELECT username, id FROM {fastsql.col(User._meta.db_table)} "
            f"WHERE username IN ({', '.join(['%s'] * len(names)) or 'NULL'})",
            names,
        )
    )
    settled = {b["box"]: b for b in (rnd.results or {}).get("boxes", [])}
    records, lines = [], []
    for play in rnd.boxes.values():
        hand = best_four(play.cards) if len(play.cards) == 5 else None
        info = settled.get(play.box, {})
        player = users[play.player]
        records.append(
            (
                row.pk,
                play.box,
                player,
                " ".join(codes(play.cards)),
                " ".join(codes(hand.cards)) if hand else "",
                describe(hand.value) if hand else "",
                fastsql.dumps(dict(play.wagers)),
                play.decision,
                info.get("net", 0),
            )
        )
        for line in info.get("results", []):
            lines.append(
                (
                    row.pk,
                    play.box,
                    player,
                    line["wager"],
                    line["stake"],
                    line["outcome"],
                    line["net"],
                    line["row"] or "",
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
    table = ctx.table
    # §684a.3(b)/(c) bookkeeping, and a Rules Submission change waiting for the round to end.
    if table.pending_rules_id:
        table.rules_id = table.pending_rules_id
        table.pending_rules = None
        ctx.note("rules_changed", {"rules": table.rules.name})


def _note_balances(ctx: Context) -> None:
    """Tell each player whose money moved their new balance (a private event)."""
    for player in sorted(ctx.moved):
        balance = ctx.balances[ctx.accounts[player]]
        ctx.note("balance", {"balance": balance}, to_player(player))


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
        row = RoundEvent(
            table=table,
            round_id=round_id,
            version=version,
            seq=seq,
            kind=event.kind,
            audience=event.audience,
            data=event.data,
            actor=ctx.actor,
            created=ctx.now,
            prev_hash=prev,
        )
        row.hash = row.compute_hash()
        prev = row.hash
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
                row.prev_hash,
                row.hash,
            )
        )
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
        ],
        values,
        returning=False,
    )
    table.last_hash = prev
    # Every field a command may change; not the clock owner's heartbeat (another writer).
    fastsql.write(
        f"UPDATE {fastsql.table(Table)} SET version = %s, last_hash = %s, is_open = %s, "
        "rules_id = %s, pending_rules_id = %s, shoe = %s, rounds_since_stub_count = %s, "
        "current_round_id = %s, betting_deadline = %s, turn_deadline = %s WHERE id = %s",
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
