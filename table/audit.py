"""Audits of the table's records: the hash-chained event log, and one round from its record.

- :func:`verify_chain` recomputes a table's event chain and names the first broken link.
- :func:`verify_round` checks a round against its published commitment
  (``sha256(" ".join(shoe) + "|" + salt)``), re-deals the committed order with the shoe
  (§684a.10(b)) and compares every stack, re-settles it (§684a.11(e): every hand can be
  reconstructed) and checks the money the ledger moved for it.

Both return plain-words problems (an empty list means all is well); the management commands
``verify_chain`` and ``verify_round`` print them and exit non-zero.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Sum

from table.games import FOUR_CARD_FRENZY
from table.games import game as game_named
from table.games.base import Actor, EngineError, Game
from table.games.cards import DECK, codes, parse_card
from table.games.four_card_frenzy.round import Phase
from table.games.four_card_frenzy.round import Round as EngineRound
from table.games.four_card_frenzy.settlement import BoxInPlay, Outcome, settle
from table.games.shoe import DealPlan, Fault, deal

from .models import BoxRecord, Entry, LedgerTransaction, Round, RoundEvent, SettlementLine, Table

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

#: Void reasons that a deal itself can produce (the shoe's irregularities).
DEAL_VOIDS = frozenset({"shoe_jam", "face_up_cards", "wrong_card_count"})
#: Ledger memos of money going back to a player at settlement or void.
PAYOUT_MEMOS = frozenset({"win", "push", "returned (void)"})


def shoe_text(order: list[int]) -> str:
    return " ".join(codes(order))


def published_commitment(order: list[int], salt: str) -> str:
    """``sha256(" ".join(shoe) + "|" + salt)``, computed here, not with the engine's helper."""
    return hashlib.sha256((shoe_text(order) + "|" + salt).encode()).hexdigest()


def _events(row: Round) -> list[RoundEvent]:
    return list(RoundEvent.objects.filter(round=row).order_by("version", "seq"))


def _dealt_anything(rnd: EngineRound) -> bool:
    return bool(
        rnd.dealer_cards
        or rnd.stub
        or rnd.discards
        or rnd.all_six_card is not None
        or any(b.cards for b in rnd.boxes.values())
    )


def deal_version(row: Round, events: list[RoundEvent] | None = None) -> int | None:
    """The table version of this round's deal, or None if it was never dealt. The round is
    read as its own game's (a round of Crazy 4 Poker or Hi-Lo is no Four Card Frenzy round)."""
    if row.game == FOUR_CARD_FRENZY:
        dealt = _dealt_anything(EngineRound.from_dict(row.state))
    else:
        game = game_named(row.game)
        dealt = game.status(game.from_dict(row.state)).dealt
    if not dealt:
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


def redeal_problems(row: Round, rnd: EngineRound, events: list[RoundEvent]) -> list[str]:
    """Deal the committed order again (§684a.10(b)): boxes with Ante and Odds from box 1,
    then the dealer, then the All-Six stack; every card must be where the record says."""
    version = deal_version(row, events)
    if version is None:
        if _dealt_anything(rnd):
            return ["cards were dealt but the event log shows no deal"]
        return []
    in_play = [rnd.boxes[b] for b in sorted(rnd.boxes) if rnd.boxes[b].in_play]
    all_six = any(b.wagers.get("all_six", 0) for b in in_play)
    faults = deal_faults(row, version)
    plan = DealPlan.from_faults(faults, len(in_play) + 1 + int(all_six))
    dealt = deal(rnd.order, len(in_play), all_six, plan)
    problems = []
    stacks = list(dealt.box_stacks) + [()] * (len(in_play) - len(dealt.box_stacks))
    for play, stack in zip(in_play, stacks, strict=True):
        if list(play.cards) != list(stack):
            problems.append(
                f"box {play.box} holds {' '.join(codes(play.cards)) or 'nothing'} but the "
                f"committed shoe deals it {' '.join(codes(stack)) or 'nothing'}"
            )
    for box, play in rnd.boxes.items():
        if not play.in_play and play.cards:
            problems.append(f"box {box} has cards without an Ante")
    expected: list[tuple[str, Any, Any]] = [
        ("the dealer's stack", list(rnd.dealer_cards), list(dealt.dealer_stack)),
        ("the All-Six card", rnd.all_six_card, dealt.all_six_card),
        (
            "the discards",
            list(rnd.discards),
            [*dealt.face_up_discards, *dealt.all_six_discards],
        ),
        ("the stub", list(rnd.stub), list(dealt.stub)),
    ]
    for what, have, want in expected:
        if have != want:
            problems.append(f"{what} is {_show(have)} but the committed shoe gives {_show(want)}")
    if dealt.irregularity and row.void_reason != dealt.irregularity:
        problems.append(
            f"the re-deal ends in {dealt.irregularity} but the round shows "
            f"{row.void_reason or row.phase}"
        )
    face_up = [e.data["card"] for e in events if e.kind == "face_up_card"]
    if face_up != codes(dealt.face_up_discards):
        problems.append(f"cards announced face up {face_up} are not the re-dealt ones")
    for e in events:
        if e.kind == "hole_cards":
            play = rnd.boxes.get(e.data["box"])
            if play is None or e.data["cards"] != codes(play.cards):
                problems.append(f"box {e.data['box']} was shown other hole cards than it holds")
    return problems


def _show(cards: Any) -> str:
    if cards is None:
        return "none"
    if isinstance(cards, list):
        return " ".join(codes(cards)) or "nothing"
    return codes([cards])[0]


def resettle_problems(row: Round, rnd: EngineRound) -> list[str]:
    """Settle the stored layout again with the engine and compare with what was stored."""
    if rnd.phase is not Phase.SETTLED:
        return []
    in_play = [b for b in rnd.boxes.values() if b.in_play]
    again = settle(
        rnd.dealer_cards,
        [BoxInPlay(b.box, b.player, tuple(b.cards), dict(b.wagers)) for b in in_play],
        rnd.rules.settlement_rules(),
        rnd.all_six_card,
        main_game_void=rnd.main_game_void,
    )
    problems = []
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
    if fresh != kept:
        problems.append(f"re-settling the round gives {fresh}, the record says {kept}")
    lines = sorted(
        (s.box, s.wager, s.stake, s.outcome, s.net)
        for s in SettlementLine.objects.filter(round=row)
    )
    wanted = sorted((box, *r) for box, results, _ in fresh for r in results)
    if lines != wanted:
        problems.append(f"the settlement lines {lines} differ from the re-settlement {wanted}")
    players = {p.player: {"net": p.net, "withheld": p.withheld} for p in again.players}
    recorded = {
        name: {"net": v["net"], "withheld": v["withheld"]}
        for name, v in ((rnd.results or {}).get("players") or {}).items()
    }
    if players != recorded:
        problems.append(f"player totals {recorded} differ from the re-settlement {players}")
    for record in BoxRecord.objects.filter(round=row):
        play = rnd.boxes.get(record.box)
        if play is None or record.cards.split() != codes(play.cards):
            problems.append(f"box {record.box}'s record shows other cards than the round")
    return problems


def money_problems(row: Round, rnd: EngineRound) -> list[str]:
    """Each player's money moved for this round equals the settlement (nothing for a void
    round), and no wager was paid back twice."""
    if not rnd.finished:
        return []
    problems = []
    moved: dict[str, int] = defaultdict(int)
    for name, amount in (
        Entry.objects.filter(transaction__round=row, account__kind="player")
        .values_list("account__name")
        .annotate(total=Sum("amount"))
    ):
        moved[name.removeprefix("player:")] = amount or 0
    if rnd.phase is Phase.VOID:
        expected = {p: 0 for p in moved}
    else:
        expected = {
            name: v["net"] for name, v in ((rnd.results or {}).get("players") or {}).items()
        }
        for name in moved:
            expected.setdefault(name, 0)
    for name in sorted(set(moved) | set(expected)):
        if moved.get(name, 0) != expected.get(name, 0):
            problems.append(
                f"{name}'s account moved {moved.get(name, 0)} for this round; "
                f"the {'void' if rnd.phase is Phase.VOID else 'settlement'} says "
                f"{expected.get(name, 0)}"
            )
    paid = defaultdict(int)
    for box, wager in LedgerTransaction.objects.filter(
        round=row, memo__in=PAYOUT_MEMOS
    ).values_list("box", "wager"):
        paid[(box, wager)] += 1
    for (box, wager), times in sorted(paid.items(), key=str):
        if times > 1:
            problems.append(f"box {box}'s {wager or 'wagers'} was paid back {times} times")
    if rnd.phase is Phase.SETTLED:
        for b in (rnd.results or {}).get("boxes", []):
            for r in b["results"]:
                want = 0 if r["outcome"] == Outcome.LOSE.value else 1
                if paid.get((b["box"], r["wager"]), 0) != want:
                    problems.append(
                        f"box {b['box']}'s {r['wager']} ({r['outcome']}) was paid "
                        f"{paid.get((b['box'], r['wager']), 0)} times, not {want}"
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
    row = Round.objects.select_related("table").get(pk=round_id)
    if row.game != FOUR_CARD_FRENZY:
        return verify_game_round(row, game_named(row.game))
    rnd = EngineRound.from_dict(row.state)
    events = _events(row)
    checks: list[str] = []
    problems: list[str] = []
    if sorted(rnd.order) != list(DECK):
        problems.append(f"the shoe holds {len(rnd.order)} cards, not the 52 of one deck")
    recomputed = published_commitment(rnd.order, rnd.salt)
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
            if e.data.get("shoe") != codes(rnd.order) or e.data.get("salt") != rnd.salt:
                problems.append(f"the shoe and salt revealed at {e.kind} are not the stored ones")
            elif e.data.get("commitment") != row.commitment:
                problems.append(f"the commitment repeated at {e.kind} is not the stored one")
            else:
                checks.append(f"shoe and salt revealed at {e.kind}")
    dealt = redeal_problems(row, rnd, events)
    problems += dealt
    if not dealt and deal_version(row, events) is not None:
        checks.append("every dealt card is where the committed shoe order puts it (§684a.10(b))")
    settled = resettle_problems(row, rnd)
    problems += settled
    if not settled and rnd.phase is Phase.SETTLED:
        checks.append("re-settling the dealt layout gives the recorded results")
    money = money_problems(row, rnd)
    problems += money
    if not money and rnd.finished:
        checks.append("the ledger moved exactly the settled amounts, each wager paid once")
    return RoundReport(
        row.pk, row.table.name, row.number, row.phase, row.commitment, checks, problems
    )


# --- a round of any game, through the Game interface -----------------------------------------


def verify_game_round(row: Round, game: Game[Any, Any]) -> RoundReport:
    """What :func:`verify_round` checks, for a game other than Four Card Frenzy, through its
    interface only: the stored round loads and saves back unchanged (the game's own state
    round trip), the commitment (sha256 of the shoe and salt revealed when the round ended,
    published at opening, before betting closed: §657a.10, §663a.10), the re-deal of the
    committed order with the game's dealing plan, the records (box records, settlement lines)
    and the settlement adding up, and the ledger moving exactly each player's net.

    Not re-settled from scratch: a game's settlement is reached through its players'
    decisions and settings, which the interface does not replay; the game's own contract
    (``manage.py settle_round``) re-settles a layout."""
    events = _events(row)
    checks: list[str] = []
    problems: list[str] = []
    report = RoundReport(row.pk, row.table.name, row.number, row.phase, row.commitment, checks, [])
    try:
        state = game.from_dict(row.state)
    except EngineError as exc:
        report.problems = [f"the stored round does not load: {exc.message}"]
        return report
    if game.to_dict(state) != row.state:
        problems.append("the stored round does not save back as it was stored")
    else:
        checks.append(f"the stored round loads and saves back unchanged ({game.title})")
    status = game.status(state)
    if status.commitment != row.commitment:
        problems.append("the round's own commitment is not the one stored with it")
    problems += _commitment_problems(row, status, events, checks)
    dealt = _game_redeal_problems(row, game, state, events)
    problems += dealt
    if not dealt and status.dealt:
        checks.append("every dealt card is where the committed shoe order puts it")
    recorded = _game_record_problems(row, game, state)
    problems += recorded
    if not recorded and status.finished:
        checks.append("the box records and settlement lines are the round's, and add up")
    money = _game_money_problems(row, status)
    problems += money
    if not money and status.finished:
        checks.append("the ledger moved exactly each player's net (meter payouts included)")
    report.problems = problems
    return report


def _commitment_problems(
    row: Round, status: Any, events: list[RoundEvent], checks: list[str]
) -> list[str]:
    problems = []
    opened = next((e for e in events if e.kind == "round_opened"), None)
    closed = next((e for e in events if e.kind == "betting_closed"), None)
    if opened is None:
        problems.append("no round_opened event published the commitment")
    elif opened.data.get("commitment") != row.commitment:
        problems.append("the commitment published at round_opened is not the stored one")
    elif closed is not None and closed.version <= opened.version:
        problems.append("the commitment was published after betting closed")
    else:
        checks.append(f"commitment published at version {opened.version}, before betting closed")
    ended = [e for e in events if e.kind in ("round_settled", "round_void")]
    if status.finished and not ended:
        problems.append("the round is over but no event revealed its shoe and salt")
    for e in ended:
        shoe, salt = e.data.get("shoe"), e.data.get("salt")
        if not isinstance(shoe, list) or not isinstance(salt, str):
            problems.append(f"{e.kind} revealed no shoe and salt")
            continue
        try:
            order = [parse_card(c) for c in shoe]
        except EngineError:
            problems.append(f"the shoe revealed at {e.kind} holds something that is no card")
            continue
        if sorted(order) != list(DECK):
            problems.append(f"the shoe revealed at {e.kind} is not the 52 cards of one deck")
        recomputed = published_commitment(order, salt)
        if recomputed != row.commitment:
            problems.append(
                f"sha256(shoe + '|' + salt) revealed at {e.kind} is {recomputed}, "
                f"not the commitment {row.commitment}"
            )
        else:
            checks.append(f"sha256(shoe | salt) revealed at {e.kind} equals the commitment")
    return problems


def _game_redeal_problems(
    row: Round, game: Game[Any, Any], state: Any, events: list[RoundEvent]
) -> list[str]:
    """Deal the committed order again with the game's own plan (§657a.10(b), §663a.10(b)):
    the boxes in play from the dealer's left, the dealer, a shared card's stack."""
    status = game.status(state)
    if not status.dealt:
        return []
    ended = next((e for e in events if e.kind in ("round_settled", "round_void")), None)
    if ended is None:
        return []  # the shoe is still secret: the re-deal waits for the round to end
    order = [parse_card(c) for c in ended.data["shoe"]]
    version = deal_version_of(events)
    faults = deal_faults(row, version) if version is not None else []
    plan = game.dealing_plan(state)
    box_stacks = [s for s in plan.stacks if s.to == "box"]
    shared = any(s.to == "shared" for s in plan.stacks)
    dealt = deal(order, len(box_stacks), shared, DealPlan.from_faults(faults, len(plan.stacks)))
    problems = []
    boxes = {b.box: b for b in game.boxes(state)}
    got = list(dealt.box_stacks) + [()] * (len(box_stacks) - len(dealt.box_stacks))
    for stack, cards in zip(box_stacks, got, strict=True):
        held = list(boxes[stack.box].cards) if stack.box in boxes else []
        if held != codes(list(cards)):
            problems.append(
                f"box {stack.box} holds {' '.join(held) or 'nothing'} but the committed shoe "
                f"deals it {' '.join(codes(list(cards))) or 'nothing'}"
            )
    if status.cards_dealt != len(order) - len(dealt.stub):
        problems.append(
            f"{status.cards_dealt} cards left the shoe but the re-deal dispenses "
            f"{len(order) - len(dealt.stub)}"
        )
    if dealt.irregularity and row.void_reason != dealt.irregularity:
        problems.append(
            f"the re-deal ends in {dealt.irregularity} but the round shows "
            f"{row.void_reason or row.phase}"
        )
    shown = (game.view(state, Actor.dealer()).get("dealer") or {}).get("cards")
    if shown and not dealt.irregularity and list(shown) != codes(list(dealt.dealer_stack)):
        problems.append(
            f"the dealer's hand is {' '.join(shown)} but the committed shoe deals "
            f"{' '.join(codes(list(dealt.dealer_stack)))}"
        )
    return problems


def deal_version_of(events: list[RoundEvent]) -> int | None:
    """The table version of a round's deal, from its events."""
    closed = [e.version for e in events if e.kind == "betting_closed"]
    candidates = [
        e.version
        for e in events
        if e.kind in ("face_up_card", "cards_dealt", "round_void")
        and (not closed or e.version > closed[0])
    ]
    return min(candidates) if candidates else None


def _game_record_problems(row: Round, game: Game[Any, Any], state: Any) -> list[str]:
    """The box records and settlement lines are the round's boxes; each settled box's lines
    add up to its net, and the boxes to each player's net."""
    status = game.status(state)
    if not status.finished:
        return []
    problems = []
    boxes = game.boxes(state)
    records = {r.box: r for r in BoxRecord.objects.filter(round=row)}
    for b in boxes:
        record = records.pop(b.box, None)
        if record is None:
            problems.append(f"box {b.box} has no record")
            continue
        if record.cards.split() != list(b.cards) or record.net != (b.net or 0):
            problems.append(f"box {b.box}'s record shows other cards or another net")
    problems += [f"box {box} has a record but no wagers in the round" for box in records]
    lines = sorted(
        (s.box, s.wager, s.stake, s.outcome, s.net)
        for s in SettlementLine.objects.filter(round=row)
    )
    wanted = sorted((b.box, x.wager, x.stake, x.outcome, x.net) for b in boxes for x in b.lines)
    if lines != wanted:
        problems.append(f"the settlement lines {lines} are not the round's {wanted}")
    totals: dict[str, int] = defaultdict(int)
    for b in boxes:
        if b.lines and sum(x.net for x in b.lines) != b.net:
            problems.append(f"box {b.box}'s lines add up to {sum(x.net for x in b.lines)}")
        totals[b.player] += b.net or 0
    if status.players is not None and {p: n for p, n in totals.items()} != dict(status.players):
        problems.append(f"the boxes add up to {dict(totals)}, the round says {status.players}")
    return problems


def _game_money_problems(row: Round, status: Any) -> list[str]:
    """Each player's money moved for this round equals their net (nothing for a void)."""
    if not status.finished:
        return []
    moved: dict[str, int] = defaultdict(int)
    for name, amount in (
        Entry.objects.filter(transaction__round=row, account__kind="player")
        .values_list("account__name")
        .annotate(total=Sum("amount"))
    ):
        moved[name.removeprefix("player:")] = amount or 0
    expected = dict(status.players or {})
    problems = []
    for name in sorted(set(moved) | set(expected)):
        if moved.get(name, 0) != expected.get(name, 0):
            problems.append(
                f"{name}'s account moved {moved.get(name, 0)} for this round; the round says "
                f"{expected.get(name, 0)}"
            )
    return problems
