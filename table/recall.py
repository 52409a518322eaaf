"""Game recall: a round as it happened (§684a.11(e)), and a player's last ten rounds.

Dealers (permission ``table.deal_table``) and staff see a finished round whole: every box, the
dealer's hand, the All-Six card, the shoe order and salt and whether they hash to the
commitment published before the deal. A player may open a round only if they played in it,
and sees their own boxes plus what was face up at the table. Nobody sees the cards of a round
still in play here: the table itself shows those to whom they belong.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from table.games.cards import card_label, parse_card
from table.games.errors import InvalidInput
from table.games.events import PUBLIC, to_player
from table.games.four_card_frenzy.round import VOID_REASONS, Phase
from table.games.four_card_frenzy.rules import TableRules

from .models import BoxRecord, Round, RoundEvent, SettlementLine
from .money import dollars
from .snapshot import is_dealer, posted_paytables, recall_rounds, round_record

#: Game recall shows a player this many of their last rounds.
RECALL_ROUNDS = 10


def sees_everything(user: Any) -> bool:
    return is_dealer(user) or bool(getattr(user, "is_staff", False))


def _rows() -> Any:
    return Round.objects.select_related("table", "rules_submission").prefetch_related(
        Prefetch("box_records", queryset=BoxRecord.objects.select_related("player", "round")),
        Prefetch("settlement_lines", queryset=SettlementLine.objects.all()),
    )


def _when(text: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(text) if text else None


def _text_card(code: object) -> str:
    try:
        return card_label(parse_card(code))
    except InvalidInput:
        return str(code)


def _cards_text(codes: object) -> str:
    return " ".join(_text_card(c) for c in codes) if isinstance(codes, list) else ""


def event_summary(kind: str, data: dict[str, Any]) -> str:
    """One line in plain words for the event log (no secret the viewer may not see)."""
    box = data.get("box")
    if kind == "round_opened":
        return f"betting opened on the {data.get('deck_back')} deck; commitment published"
    if kind in ("wagers_placed", "wagers_withdrawn"):
        wagers = ", ".join(
            f"{k.replace('_', ' ')} {dollars(v)}" for k, v in (data.get("wagers") or {}).items()
        )
        return f"box {box} ({data.get('player')}): " + (wagers or "wagers withdrawn")
    if kind == "betting_closed":
        return "no more bets; boxes in play: " + ", ".join(str(b) for b in data.get("boxes", []))
    if kind == "cards_dealt":
        extra = " and the All-Six stack" if data.get("all_six") else ""
        return f"stacks dealt to boxes {', '.join(map(str, data.get('boxes', [])))}{extra}"
    if kind == "hole_cards":
        return f"box {box}: {_cards_text(data.get('cards'))} — {data.get('hand')}"
    if kind == "face_up_card":
        return f"{_text_card(data.get('card'))} found face up in the shoe, discarded"
    if kind == "turn":
        return f"box {box} ({data.get('player')}) to decide"
    if kind == "decision":
        why = {"timeout": " (decision time ran out)", "abandoned": " (player left)"}.get(
            data.get("why", ""), ""
        )
        if data.get("folded"):
            return f"box {box} folded{why}"
        return f"box {box} raised {data.get('multiple')}x: {dollars(data.get('raise'))}{why}"
    if kind == "dealer_revealed":
        qualifies = "qualifies" if data.get("qualifies") else "does not qualify"
        return f"dealer: {_cards_text(data.get('cards'))} — {data.get('hand')}, {qualifies}"
    if kind == "box_settled":
        return f"box {box} settled: {dollars(data.get('net'), signed=True)}"
    if kind == "round_settled":
        return "round settled; shoe order and salt disclosed for verification"
    if kind == "round_void":
        return f"round void: {data.get('explanation') or data.get('reason')}; every stake returned"
    if kind == "dealer_card_exposed":
        return str(data.get("reason", "a dealer card was exposed"))
    if kind in ("rules_changed", "rules_pending"):
        return f"Rules Submission “{data.get('rules')}”" + (
            " will apply after this round" if kind == "rules_pending" else " in force"
        )
    if kind == "balance":
        return f"balance now {dollars(data.get('balance'))}"
    return ""


def _events(row: Round, viewer: str | None, full: bool) -> list[dict[str, Any]]:
    events = RoundEvent.objects.filter(round=row)
    if not full:
        events = events.filter(Q(audience=PUBLIC) | Q(audience=to_player(viewer or "")))
    return [
        {
            "version": e.version,
            "seq": e.seq,
            "created": e.created,
            "kind": e.kind.replace("_", " "),
            "actor": e.actor,
            "private": e.audience.removeprefix("player:") if e.audience != PUBLIC else "",
            "summary": event_summary(e.kind, e.data),
            "hash": e.hash,
        }
        for e in events.order_by("version", "seq")
    ]


def decorate(
    record: dict[str, Any], row: Round | None = None, full: bool = False
) -> dict[str, Any]:
    """Add what the page shows beside the stored record: times, signs, event log."""
    rules = TableRules.from_dict(record["rules"])
    record["rules_fingerprint"] = hashlib.sha256(
        json.dumps(record["rules"], sort_keys=True).encode()
    ).hexdigest()[:12]
    record["paytables"] = posted_paytables(rules)
    record["payout_limit"] = rules.payout_limit
    record["rules_obj"] = rules
    for key in ("opened_at", "dealt_at", "revealed_at", "finished_at"):
        record[key + "_dt"] = _when(record.get(key))
    record["finished"] = record["phase"] in (Phase.SETTLED.value, Phase.VOID.value)
    record["void_explanation"] = VOID_REASONS.get(record.get("void_reason") or "", "")
    record["full"] = full
    if row is not None:
        viewer = None if full else record.get("viewer")
        record["events"] = _events(row, viewer, full)
    return record


def _record(row: Round, user: AbstractBaseUser, full: bool) -> dict[str, Any]:
    name = user.get_username()
    finished = row.phase in (Phase.SETTLED.value, Phase.VOID.value)
    # While a round is in play its stored record holds hidden cards and the shoe: show only
    # what the table shows everyone.
    record = round_record(row, viewer=name, full=full and finished)
    record["viewer"] = name
    return decorate(record, row, full=full and finished)


@login_required
def round_detail(request: HttpRequest, round_id: int) -> HttpResponse:
    row = get_object_or_404(_rows(), pk=round_id)
    full = sees_everything(request.user)
    if not full and not BoxRecord.objects.filter(round=row, player=request.user).exists():
        # Not theirs (or not over yet): the same answer as a round that does not exist.
        raise Http404("no such round of yours")
    record = _record(row, request.user, full)
    return render(request, "table/round_detail.html", {"round": record, "full": record["full"]})


@login_required
def my_rounds(request: HttpRequest) -> HttpResponse:
    user = request.user
    records = recall_rounds(user, RECALL_ROUNDS)
    rows = {r.pk: r for r in Round.objects.filter(pk__in=[rec["id"] for rec in records])}
    name = user.get_username()
    rounds = []
    for record in records:
        record["viewer"] = name
        rounds.append(decorate(record, rows.get(record["id"]), full=False))
    recent: list[Round] = []
    if sees_everything(user):
        recent = list(Round.objects.select_related("table").order_by("-id")[:20])
    return render(
        request,
        "table/my_rounds.html",
        {"rounds": rounds, "recent": recent, "limit": RECALL_ROUNDS},
    )
