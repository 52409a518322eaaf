"""What a viewer may see of a table right now, and the recall of finished rounds."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch

from table.games.cards import card_code, codes
from table.games.four_card_frenzy.paytables import ODDS_PAYTABLE, PaytableKind, paytable
from table.games.four_card_frenzy.round import Round as EngineRound
from table.games.four_card_frenzy.rules import OPTIONAL as OPTIONAL_WAGERS
from table.games.four_card_frenzy.rules import TableRules, rule_changes
from table.games.shoe import DECK_LIFETIME_SECONDS, Shuffler, commitment

from .duties import can_deal
from .models import Account, BoxRecord, Round, Seat, SettlementLine, Table
from .presence import is_present


def is_dealer(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    return bool(user and user.is_authenticated and user.has_perm("table.deal_table"))


#: The Ante and Raise pay even money; the dealer's qualifying decides only the Ante.
ANTE_RAISE_POSTED: list[tuple[str, str]] = [
    ("Ante: you beat or tie a dealer with king high or better", "1 to 1"),
    ("Ante: dealer below king high", "push"),
    ("Raise: you beat or tie the dealer (qualifying or not)", "1 to 1"),
]
#: §684a.11(c)(4)(ii): below a straight the Odds only pushes or loses.
ODDS_BELOW_STRAIGHT = ("Two pair or lower", "push")


def posted_paytables(rules: TableRules) -> list[dict[str, Any]]:
    """The signs §684a.2(b)(4),(5) require: every wager offered and its payout odds."""
    signs = [
        # §684a.12(a), §684a.11(c)(2)-(3): the even-money wagers are posted too.
        {"wager": "Ante and Raise", "name": "§684a.12(a)", "rows": ANTE_RAISE_POSTED},
        {
            "wager": "Odds (your hand beats or ties the dealer's)",
            "name": "§684a.12(b)",
            "rows": [*ODDS_PAYTABLE.as_posted(), ODDS_BELOW_STRAIGHT],
        },
        {
            "wager": "Odds bad beat (your straight or better loses to the dealer)",
            "name": rules.bad_beat_paytable,
            "rows": paytable(PaytableKind.BAD_BEAT, rules.bad_beat_paytable).as_posted(),
        },
    ]
    for wager, kind, name in (
        ("prime", PaytableKind.PRIME, rules.prime_paytable),
        ("four_card_bonus", PaytableKind.FOUR_CARD_BONUS, rules.four_card_bonus_paytable),
        ("all_six", PaytableKind.ALL_SIX, rules.all_six_paytable),
    ):
        if rules.offers(wager):
            label = {
                "prime": "Prime",
                "four_card_bonus": "Four Card Bonus",
                "all_six": "All-Six Bonus",
            }[wager]
            signs.append({"wager": label, "name": name, "rows": paytable(kind, name).as_posted()})
    return signs


#: Why the console prompts for no stub count (§684a.10(d) applies only without a counting
#: shuffler); a count can still be made after a deal.
STUB_COUNT_NOTE = (
    "No stub count is due: §684a.10(d) asks for one every 5 rounds only when the shuffler does "
    "not count the deck. This shuffler counts 52 cards after every shuffle and a deck that "
    "counts wrong leaves the table (§684a.5(b))."
)


def shoe_state(table: Table, rnd: EngineRound | None) -> dict[str, Any]:
    now = time.time()
    decks = []
    count: dict[str, Any] | None = None
    if table.shoe:
        shuffler = Shuffler.from_dict(table.shoe)
        for i, deck in enumerate(shuffler.decks):
            decks.append(
                {
                    "back": deck.back,
                    "in_play_since": int(deck.since * 1000),
                    "age_seconds": int(now - deck.since),
                    "change_in_seconds": max(0, int(deck.since + DECK_LIFETIME_SECONDS - now)),
                    "rounds": deck.rounds,
                    "next": i == shuffler.next_deck,
                }
            )
        armed = [f.value for f in shuffler.armed]
        if shuffler.last_count is not None:
            count = {"count": shuffler.last_count, "deck": shuffler.last_counted_back}
    else:
        armed = []
    cards_dealt = 0
    if rnd is not None and rnd.dealer_cards:
        cards_dealt = 52 - len(rnd.stub)
    return {
        "decks": decks,
        "deck_in_play": rnd.deck_back if rnd else None,
        "cards_dealt": cards_dealt,
        "rounds_since_stub_count": table.rounds_since_stub_count,
        "armed_faults": armed,
        # The virtual shuffler counts every deck after every shuffle (§684a.5(b)).
        "shuffler_count": count,
        "stub_count_required": False,
        "stub_count_note": STUB_COUNT_NOTE,
    }


def rules_notice(table: Table, rnd: EngineRound | None) -> dict[str, Any] | None:
    """What changes with the next round's rules ("from the next round: ..."), or, while the
    first round under new rules is in play, what changed with it ("from this round: ...")."""
    if rnd is None:
        return None
    following = table.pending_rules or table.rules
    changes = rule_changes(rnd.rules, following.to_table_rules())
    if changes:
        return {"rules": following.name, "changes": changes, "from_round": rnd.number + 1}
    if rnd.finished or rnd.number <= 1:
        return None
    before = (
        Round.objects.filter(table=table, number=rnd.number - 1).values_list("rules", flat=True)
    ).first()
    if not before:
        return None
    changes = rule_changes(TableRules.from_dict(before), rnd.rules)
    if not changes:
        return None
    return {"rules": table.rules.name, "changes": changes, "from_round": rnd.number}


def dealing_state(table: Table) -> dict[str, Any]:
    """Who moves the rounds on, for the console: an automatic dealer (and whether it is
    alive), a dealer who took over, or nobody in particular."""
    from django.utils import timezone

    from .services import DEALER_STALE

    by = table.dealt_by
    age = None
    if table.clock_heartbeat is not None:
        age = max(0, int((timezone.now() - table.clock_heartbeat).total_seconds()))
    return {
        "by": by,
        "kind": "dealer" if by.startswith("dealer:") else "autodealer" if by else None,
        "name": by.removeprefix("dealer:"),
        "clock_owner": table.clock_owner,
        "heartbeat_age": age,
        "alive": bool(table.clock_owner and age is not None and age < DEALER_STALE.total_seconds()),
    }


def _ms(moment: Any) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def _table_view(rnd: EngineRound, viewer: str | None) -> dict[str, Any]:
    """The round as ``viewer`` sees it, with folded hands that had no optional wager marked
    as gone to the discard rack: the table never sees them again (§684a.11(b)(2))."""
    view = rnd.view(viewer)
    for box in view["boxes"]:
        if box["decision"] == 0 and not any(box["wagers"].get(w) for w in OPTIONAL_WAGERS):
            box["mucked"] = True
    return view


def snapshot(table_id: int, user: AbstractBaseUser | AnonymousUser | None) -> dict[str, Any]:
    table = Table.objects.select_related("rules", "pending_rules").get(pk=table_id)
    rnd = None
    if table.current_round_id:
        row = Round.objects.only("state").get(pk=table.current_round_id)
        rnd = EngineRound.from_dict(row.state)
    # A round in play keeps the rules it opened with: its signs stay posted until it ends.
    live = rnd is not None and not rnd.finished
    rules = rnd.rules if rnd is not None and live else table.rules.to_table_rules()
    authenticated = bool(user and user.is_authenticated)
    viewer = user.get_username() if authenticated and user is not None else None
    dealer = can_deal(user, table.pk)  # the dealer assigned to this table, nobody else
    seats = [
        {"box": s.box, "player": s.player.get_username(), "connected": is_present(s)}
        for s in Seat.objects.filter(table=table).select_related("player")
    ]
    me: dict[str, Any] | None = None
    if authenticated and user is not None:
        balance = Account.objects.filter(user=user).values_list("balance", flat=True).first() or 0
        me = {
            "username": viewer,
            "balance": balance,
            "boxes": [s["box"] for s in seats if s["player"] == viewer],
            "is_dealer": dealer,
            "is_staff": bool(getattr(user, "is_staff", False)),
        }
    return {
        "type": "snapshot",
        "version": table.version,
        "now": int(time.time() * 1000),
        "table": {
            "id": table.pk,
            "name": table.name,
            "is_open": table.is_open,
            "rules_name": table.rules.name,
            "pending_rules": table.pending_rules.name if table.pending_rules else None,
            "rules": rules.to_dict(),
            "paytables": posted_paytables(rules),
            "payout_limit": rules.payout_limit,
            "rules_notice": rules_notice(table, rnd),
        },
        "seats": seats,
        "round": _table_view(rnd, viewer) if rnd else None,
        "betting_deadline": _ms(table.betting_deadline),
        "turn_deadline": _ms(table.turn_deadline),
        "shoe": shoe_state(table, rnd) if dealer else None,
        "dealing": dealing_state(table) if dealer else None,
        "me": me,
    }


# --- recall ---------------------------------------------------------------------------------


def round_record(row: Round, viewer: str | None = None, full: bool = True) -> dict[str, Any]:
    """A finished round as it happened. ``full`` (dealer, staff) shows every box; otherwise
    only what was face up at the table plus the viewer's own boxes."""
    rnd = EngineRound.from_dict(row.state)
    finished = rnd.finished
    boxes = []
    for record in row.box_records.all():
        mine = record.player.get_username() == viewer
        settled = next(
            (b for b in (rnd.results or {}).get("boxes", []) if b["box"] == record.box), None
        )
        shown_publicly = bool(settled and settled["cards"])
        visible = full or mine or shown_publicly
        boxes.append(
            {
                "box": record.box,
                "player": record.player.get_username(),
                "mine": mine,
                "cards": record.cards.split() if visible and record.cards else None,
                "best_four": record.best_four.split() if visible and record.best_four else None,
                "hand": record.hand if visible else None,
                "wagers": record.wagers,
                "decision": record.decision,
                "net": record.net,
                "lines": [
                    {
                        "wager": line.wager,
                        "stake": line.stake,
                        "outcome": line.outcome,
                        "net": line.net,
                        "row": line.row,
                    }
                    for line in row.settlement_lines.all()
                    if line.box == record.box
                ],
            }
        )
    dealer = rnd.dealer_public() if rnd.dealer_cards and (rnd.dealer_visible() or full) else None
    verified = None
    if finished:
        verified = commitment(rnd.order, rnd.salt) == row.commitment
    return {
        "id": row.pk,
        "table": row.table.name,
        "number": row.number,
        "phase": row.phase,
        "void_reason": row.void_reason,
        "main_game_void": rnd.main_game_void,
        "opened_at": row.opened_at.isoformat(),
        "dealt_at": row.dealt_at.isoformat() if row.dealt_at else None,
        "revealed_at": row.revealed_at.isoformat() if row.revealed_at else None,
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "rules_name": row.rules_submission.name,
        "rules": row.rules,
        "deck_back": row.deck_back,
        "dealer": dealer,
        "all_six_card": card_code(rnd.all_six_card)
        if rnd.all_six_card is not None and (full or rnd.dealer_visible())
        else None,
        "boxes": boxes,
        "players": (rnd.results or {}).get("players"),
        "commitment": row.commitment,
        # Commit-reveal: once the round is over the shoe order and salt are public (they went
        # out with round_settled / round_void), so anyone can check the commitment.
        "shoe": codes(rnd.order) if finished else None,
        "salt": rnd.salt if finished else None,
        "commitment_verified": verified,
        "discards": codes(rnd.discards) if full and finished else None,
        "stub": codes(rnd.stub) if full and finished else None,
    }


def recall_rounds(
    user: AbstractBaseUser, limit: int = 10, table: Table | None = None
) -> list[dict[str, Any]]:
    """The last ``limit`` finished rounds this player played (at ``table``, or anywhere),
    with the same detail as the round page: what was face up, plus their own boxes."""
    records = BoxRecord.objects.filter(player=user)
    if table is not None:
        records = records.filter(round__table=table)
    ids = list(records.order_by("-round_id").values_list("round_id", flat=True).distinct()[:limit])
    rows = (
        Round.objects.filter(pk__in=ids)
        .select_related("table", "rules_submission")
        .prefetch_related(
            Prefetch("box_records", queryset=BoxRecord.objects.select_related("player", "round")),
            Prefetch("settlement_lines", queryset=SettlementLine.objects.all()),
        )
        .order_by("-id")
    )
    name = user.get_username()
    return [round_record(row, viewer=name, full=False) for row in rows]
