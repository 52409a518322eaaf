"""Audits of the table's records: the hash-chained event log, and one round from its record.

- :func:`verify_chain` recomputes a table's event chain and names the first broken link.
- :func:`verify_round` checks a round of any game against its published commitment
  (``sha256(" ".join(shoe) + "|" + salt)``), has the game re-deal the committed order and
  re-settle the stored layout (``Game.recheck``: §684a.11(e), every hand can be
  reconstructed), checks the platform's own rows (the events, box records and settlement
  lines) against the round (``Game.boxes``, ``Game.status``) and the money the ledger moved
  for it. The audit knows no game's internals: only the interface and the stored record's
  shoe order and salt (``Game.to_dict`` keeps them as ``order`` and ``salt``).

Both return plain-words problems (an empty list means all is well); the management commands
``verify_chain`` and ``verify_round`` print them and exit non-zero.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Sum

from table.games import game_of_state
from table.games.base import EngineError, Game, RoundStatus
from table.games.cards import DECK, codes
from table.games.shoe import DealPlan, Fault, dispense

from .models import (
    BoxRecord,
    Entry,
    LedgerTransaction,
    MeterEvent,
    Round,
    RoundEvent,
    SettlementLine,
    Table,
)

# --- the event chain ------------------------------------------------------------------------


@dataclass(frozen=True)
class BrokenLink:
    table: int
    version: int
    seq: int
    kind: str
    problem: str

    def __str__(self) -> str:
        return (
            f"table {self.table}, version {self.version}, seq {self.seq}, kind {self.kind}: "
            f"{self.problem}"
        )


@dataclass(frozen=True)
class ChainReport:
    table: int
    events: int
    last_hash: str
    broken: BrokenLink | None


def verify_chain(table_id: int) -> ChainReport:
    """Recompute the table's whole chain in (version, seq) order; stop at the first broken
    link: a row whose content no longer matches its hash, whose ``prev_hash`` is not the
    hash before it (a row removed or inserted), or a chain whose end is not the table's
    ``last_hash`` (rows removed from the end)."""
    table = Table.objects.get(pk=table_id)
    prev = ""
    count = 0
    last: RoundEvent | None = None
    rows = RoundEvent.objects.filter(table_id=table_id).order_by("version", "seq")
    for row in rows.iterator(chunk_size=2000):
        count += 1
        if row.prev_hash != prev:
            problem = (
                "its prev_hash is not the hash of the event before it "
                "(an event was removed, inserted or re-chained before this one)"
            )
            return ChainReport(table_id, count, prev, _link(row, problem))
        if row.compute_hash() != row.hash:
            problem = "its stored hash does not match its content (the row was altered)"
            return ChainReport(table_id, count, prev, _link(row, problem))
        prev = row.hash
        last = row
    if prev != table.last_hash:
        where = (
            BrokenLink(table_id, last.version, last.seq, last.kind, "")
            if last
            else BrokenLink(table_id, 0, 0, "-", "")
        )
        problem = (
            f"the chain ends here but the table's last_hash is {table.last_hash[:12] or 'empty'}"
            f"…, not {prev[:12] or 'empty'}…: events after this one are missing"
        )
        return ChainReport(
            table_id,
            count,
            prev,
            BrokenLink(where.table, where.version, where.seq, where.kind, problem),
        )
    return ChainReport(table_id, count, prev, None)


def _link(row: RoundEvent, problem: str) -> BrokenLink:
    return BrokenLink(row.table_id, row.version, row.seq, row.kind, problem)


# --- one round --------------------------------------------------------------------------------

#: Ledger memos of money going back to a player at settlement or void.
PAYOUT_MEMOS = frozenset({"win", "push", "returned (void)"})


def shoe_text(order: list[int]) -> str:
    return " ".join(codes(order))


def published_commitment(order: list[int], salt: str) -> str:
    """``sha256(" ".join(shoe) + "|" + salt)``, computed here, not with the engine's helper."""
    return hashlib.sha256((shoe_text(order) + "|" + salt).encode()).hexdigest()


def _events(row: Round) -> list[RoundEvent]:
    return list(RoundEvent.objects.filter(round=row).order_by("version", "seq"))


def _status(row: Round) -> tuple[Game[Any, Any], Any, RoundStatus]:
    game = game_of_state(row.state)
    state = game.from_dict(row.state)
    return game, state, game.status(state)


def deal_version_of(events: list[RoundEvent]) -> int | None:
    """The table version of a round's deal, from its events: the first card found face up,
    stacks dealt or void after "no more bets"."""
    closed = [e.version for e in events if e.kind == "betting_closed"]
    candidates = [
        e.version
        for e in events
        if e.kind in ("face_up_card", "cards_dealt", "round_void")
        and (not closed or e.version > closed[0])
    ]
    return min(candidates) if candidates else None


def deal_version(row: Round, events: list[RoundEvent] | None = None) -> int | None:
    """The table version of this round's deal, or None if it was never dealt."""
    try:
        _game, _state, status = _status(row)
    except EngineError:
        return None
    if not (status.dealt or status.cards_dealt):
        return None
    return deal_version_of(_events(row) if events is None else events)


def deal_faults(row: Round, version: int) -> list[Fault]:
    """The shoe faults taken by this round's deal: those armed (``shoe_fault_armed`` events)
    since the table's previous deal, in the order they were armed; a miscount is a shuffle
    fault and stays armed for the next shuffle."""
    previous = None
    for earlier in Round.objects.filter(table=row.table, number__lt=row.number).order_by("-number"):
        previous = deal_version(earlier)
        if previous is not None:
            break
    armed = RoundEvent.objects.filter(table=row.table, kind="shoe_fault_armed", version__lt=version)
    if previous is not None:
        armed = armed.filter(version__gt=previous)
    faults = [Fault(e.data["fault"]) for e in armed.order_by("version", "seq")]
    return [f for f in faults if f is not Fault.MISCOUNT]


def _stored_shoe(row: Round) -> tuple[list[int], str]:
    order, salt = row.state.get("order"), row.state.get("salt")
    if not isinstance(order, list) or not all(type(c) is int for c in order):
        order = []
    return order, salt if isinstance(salt, str) else ""


def shoe_problems(row: Round, events: list[RoundEvent], checks: list[str]) -> list[str]:
    """The stored shoe is one deck and hashes with the salt to the commitment, published at
    opening before betting closed and revealed (shoe and salt) when the round ended."""
    order, salt = _stored_shoe(row)
    problems = []
    if sorted(order) != list(DECK):
        problems.append(f"the shoe holds {len(order)} cards, not the 52 of one deck")
    recomputed = published_commitment(order, salt)
    if recomputed != row.commitment:
        problems.append(
            f"sha256(shoe + '|' + salt) is {recomputed}, not the commitment {row.commitment}"
        )
    else:
        checks.append("sha256(shoe | salt) equals the commitment")
    opened = next((e for e in events if e.kind == "round_opened"), None)
    closed = next((e for e in events if e.kind == "betting_closed"), None)
    if opened is None:
        problems.append("no round_opened event published the commitment")
    else:
        if opened.data.get("commitment") != row.commitment:
            problems.append("the commitment published at round_opened is not the stored one")
        if closed is not None and closed.version <= opened.version:
            problems.append("the commitment was published after betting closed")
        else:
            checks.append(
                f"commitment published at version {opened.version}, before betting closed"
            )
    for e in events:
        if e.kind in ("round_settled", "round_void"):
            if e.data.get("shoe") != codes(order) or e.data.get("salt") != salt:
                problems.append(f"the shoe and salt revealed at {e.kind} are not the stored ones")
            elif e.data.get("commitment") != row.commitment:
                problems.append(f"the commitment repeated at {e.kind} is not the stored one")
            else:
                checks.append(f"shoe and salt revealed at {e.kind}")
    return problems


def announced_problems(
    row: Round, game: Game[Any, Any], state: Any, events: list[RoundEvent], faults: list[Fault]
) -> list[str]:
    """What the table announced of the deal is the re-deal's: the cards found face up (the
    shoe re-dealt with the game's plan) and each box's hole cards."""
    order, _salt = _stored_shoe(row)
    plan = game.dealing_plan(state)
    problems = []
    if len(order) == len(DECK):
        # The shoe dispenses what the game's plan says, as at the table (any cards per
        # stack, a shared stack's kept cards): the same function, the same faults.
        dealt = dispense(order, plan, DealPlan.for_plan(faults, plan))
        face_up = [e.data["card"] for e in events if e.kind == "face_up_card"]
        if face_up != codes(list(dealt.face_up_discards)):
            problems.append(f"cards announced face up {face_up} are not the re-dealt ones")
    held = {b.box: list(b.cards) for b in game.boxes(state)}
    for e in events:
        if e.kind == "hole_cards" and e.data["cards"] != held.get(e.data["box"]):
            problems.append(f"box {e.data['box']} was shown other hole cards than it holds")
    return problems


def record_problems(row: Round, game: Game[Any, Any], state: Any) -> list[str]:
    """The box records and settlement lines are the round's boxes (``Game.boxes``); each
    settled box's lines add up to its net, and without a payout limit (whose withholding
    the game's re-settlement checks) the boxes add up to each player's net."""
    status = game.status(state)
    if not status.finished:
        return []
    problems = []
    boxes = game.boxes(state)
    lines = sorted(
        (s.box, s.wager, s.stake, s.outcome, s.net)
        for s in SettlementLine.objects.filter(round=row)
    )
    wanted = sorted((b.box, x.wager, x.stake, x.outcome, x.net) for b in boxes for x in b.lines)
    if lines != wanted:
        problems.append(f"the settlement lines {lines} differ from the round's {wanted}")
    records = {r.box: r for r in BoxRecord.objects.filter(round=row)}
    for b in boxes:
        record = records.pop(b.box, None)
        if record is None:
            problems.append(f"box {b.box} has no record")
        elif record.cards.split() != list(b.cards):
            problems.append(f"box {b.box}'s record shows other cards than the round")
        elif record.net != (b.net or 0):
            problems.append(f"box {b.box}'s record shows another net than the round")
    problems += [f"box {box} has a record but no wagers in the round" for box in records]
    totals: dict[str, int] = defaultdict(int)
    for b in boxes:
        if b.lines and sum(x.net for x in b.lines) != b.net:
            problems.append(f"box {b.box}'s lines add up to {sum(x.net for x in b.lines)}")
        totals[b.player] += b.net or 0
    limited = game.table_settings(game.round_rules(state)).payout_limit is not None
    if status.players is not None and not limited and dict(totals) != dict(status.players):
        problems.append(f"the boxes add up to {dict(totals)}, the round says {status.players}")
    return problems


def money_problems(row: Round, game: Game[Any, Any], state: Any) -> list[str]:
    """Each player's money moved for this round equals the settlement (nothing for a void
    round), and no wager was paid back twice."""
    status = game.status(state)
    if not status.finished:
        return []
    void = status.phase == "void"
    problems = []
    moved: dict[str, int] = defaultdict(int)
    for name, amount in (
        Entry.objects.filter(transaction__round=row, account__kind="player")
        .values_list("account__name")
        .annotate(total=Sum("amount"))
    ):
        moved[name.removeprefix("player:")] = amount or 0
    if void:
        expected = {p: 0 for p in moved}
    else:
        expected = dict(status.players or {})
        for name in moved:
            expected.setdefault(name, 0)
    for name in sorted(set(moved) | set(expected)):
        if moved.get(name, 0) != expected.get(name, 0):
            problems.append(
                f"{name}'s account moved {moved.get(name, 0)} for this round; "
                f"the {'void' if void else 'settlement'} says "
                f"{expected.get(name, 0)}"
            )
    paid: defaultdict[tuple[int | None, str], int] = defaultdict(int)
    for box, wager in LedgerTransaction.objects.filter(
        round=row, memo__in=PAYOUT_MEMOS
    ).values_list("box", "wager"):
        paid[(box, wager)] += 1
    for (box, wager), times in sorted(paid.items(), key=str):
        if times > 1:
            problems.append(f"box {box}'s {wager or 'wagers'} was paid back {times} times")
    if status.phase == "settled":
        # A wager a shared meter paid (docs/meters.md, "hit") comes from the meter's account,
        # the table paying only the rest, if any.
        hits = set(
            MeterEvent.objects.filter(round=row, kind=MeterEvent.HIT).values_list("box", "wager")
        )
        for b in game.boxes(state):
            for x in b.lines:
                # A line without a stake of its own is a bonus paid on top of a wager (the game
                # names its own memo for that money).
                if not x.stake or (b.box, x.wager) in hits or (None, x.wager) in hits:
                    continue
                want = 0 if x.outcome == "lose" else 1
                if paid.get((b.box, x.wager), 0) != want:
                    problems.append(
                        f"box {b.box}'s {x.wager} ({x.outcome}) was paid "
                        f"{paid.get((b.box, x.wager), 0)} times, not {want}"
                    )
    return problems


@dataclass
class RoundReport:
    round_id: int
    table: str
    number: int
    phase: str
    commitment: str
    checks: list[str]
    problems: list[str]


def verify_round(round_id: int) -> RoundReport:
    """Check one round of any game: its shoe against the commitment, the game's own re-deal
    and re-settlement (``Game.recheck``), the announcements, records and ledger against it."""
    row = Round.objects.select_related("table").get(pk=round_id)
    events = _events(row)
    checks: list[str] = []
    problems: list[str] = []
    report = RoundReport(
        row.pk, row.table.name, row.number, row.phase, row.commitment, checks, problems
    )
    try:
        game, state, status = _status(row)
    except EngineError as exc:
        problems.append(f"the stored round does not load: {exc.message}")
        return report
    if game.to_dict(state) != row.state:
        problems.append("the stored round does not save back as it was stored")
    problems += shoe_problems(row, events, checks)
    if status.finished and not any(e.kind in ("round_settled", "round_void") for e in events):
        problems.append("the round is over but no event revealed its shoe and salt")
    version = deal_version_of(events) if status.dealt or status.cards_dealt else None
    if version is None:
        if status.dealt:
            problems.append("cards were dealt but the event log shows no deal")
    else:
        faults = deal_faults(row, version)
        redone = game.recheck(state, faults)
        redone += announced_problems(row, game, state, events, faults)
        problems += redone
        if not redone:
            checks.append("every dealt card is where the committed shoe order puts it")
            if status.phase == "settled":
                checks.append("re-settling the dealt layout gives the recorded results")
    recorded = record_problems(row, game, state)
    problems += recorded
    if not recorded and status.finished:
        checks.append("the box records and settlement lines are the round's, and add up")
    money = money_problems(row, game, state)
    problems += money
    if not money and status.finished:
        checks.append("the ledger moved exactly the settled amounts, each wager paid once")
    return report
