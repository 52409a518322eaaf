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
from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Prefetch, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render

from table.games import GAME_TITLES, game, game_of_state, unkeyed_game
from table.games.base import FINISHED_PHASES, BoxState, Game, Recalled
from table.games.cards import card_label, codes, parse_card
from table.games.errors import InvalidInput
from table.games.events import PUBLIC, to_player
from table.games.shoe import commitment

from .models import BoxRecord, Round, RoundEvent, SettlementLine, Table
from .money import dollars
from .snapshot import is_dealer

if TYPE_CHECKING:
    from .signed_in import SignedInRequest

#: Game recall shows a player this many of their last rounds.
RECALL_ROUNDS = 10


def round_record(row: Round, viewer: str | None = None, full: bool = True) -> dict[str, Any]:
    """A round as it happened, whatever its game. ``full`` (dealer, staff) shows every box;
    otherwise only what was face up at the table plus the viewer's own boxes."""
    return game_record(row, game_of_state(row.state), viewer, full)


def game_record(
    row: Round, g: Game[Any, Any], viewer: str | None = None, full: bool = True
) -> dict[str, Any]:
    """A round of any game from the interface alone: its status, every box with its
    settlement lines (``Game.boxes``), and what :meth:`Game.recalled` says the table showed."""
    state = g.from_dict(row.state)
    status = g.status(state)
    seen = g.recalled(state)
    boxes = []
    for box in g.boxes(state):
        mine = viewer is not None and box.player == viewer
        visible = full or mine or box.box in seen.shown_boxes
        boxes.append(_box_line(box, mine, visible))
    head = {
        "phase": status.phase,
        "void_reason": status.void_reason or "",
        "void_explanation": status.irregularity or "",
        # A main game void (the optional wagers settled), in the game's words for recall.
        "main_game_void_words": g.void_words("main_game_void") if seen.main_game_void else "",
    }
    rules = row.rules or g.rules_to_dict(g.round_rules(state))
    return _with_boxes(row, g, seen, full, status.finished, head, rules, status.deck_back, boxes)


def _with_boxes(
    row: Round,
    g: Game[Any, Any],
    seen: Recalled,
    full: bool,
    finished: bool,
    head: dict[str, Any],
    rules: dict[str, Any],
    deck_back: str,
    boxes: list[dict[str, Any]],
) -> dict[str, Any]:
    """The record every game's round shares around its ``boxes``: ``head`` (its phase and
    void reason), the dealer and a shared card as the table showed them (``full``: whenever
    dealt), and once the round is over the shoe order and salt that must hash to the
    commitment published at opening (:meth:`Game.to_dict` keeps them as ``order`` and
    ``salt``)."""
    order, salt = row.state.get("order"), row.state.get("salt")
    kept = finished and isinstance(order, list) and isinstance(salt, str)
    return {
        "id": row.pk,
        "game": g.name,
        "game_title": GAME_TITLES.get(g.name, g.title),
        "table": row.table.name,
        "number": row.number,
        **head,
        "main_game_void": seen.main_game_void,
        "opened_at": row.opened_at.isoformat(),
        "dealt_at": row.dealt_at.isoformat() if row.dealt_at else None,
        "revealed_at": row.revealed_at.isoformat() if row.revealed_at else None,
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "rules_name": row.rules_submission.name,
        "rules": rules,
        "deck_back": deck_back,
        "dealer": seen.dealer_full if full else seen.dealer,
        "all_six_card": seen.shared_card_full if full else seen.shared_card,
        "boxes": boxes,
        "players": seen.players,
        "commitment": row.commitment,
        # Commit-reveal: once the round is over the shoe order and salt are public (they went
        # out with round_settled / round_void), so anyone can check the commitment.
        "shoe": codes(order) if kept else None,
        "salt": salt if finished else None,
        "commitment_verified": commitment(order, salt) == row.commitment if kept else None,
        "discards": list(seen.discards) if full and finished else None,
        "stub": list(seen.stub) if full and finished else None,
    }


def _box_line(box: BoxState, mine: bool, visible: bool) -> dict[str, Any]:
    return {
        "box": box.box,
        "player": box.player,
        "mine": mine,
        "cards": list(box.cards) if visible and box.cards else None,
        # The cards that make the hand, where the game names them (BoxState.best_cards).
        "best_four": list(box.best_cards) if visible and box.best_cards else None,
        "hand": box.hand if visible else None,
        "wagers": dict(box.wagers),
        "decision": box.decision,
        "decision_text": box.decision or "",
        "net": box.net,
        "lines": [
            {
                "wager": ln.wager,
                "stake": ln.stake,
                "outcome": ln.outcome,
                "net": ln.net,
                "row": ln.row,
            }
            for ln in box.lines
        ],
    }


def recall_rounds(user: User, limit: int = 10, table: Table | None = None) -> list[dict[str, Any]]:
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


def why_words(data: dict[str, Any]) -> str:
    return {"timeout": " (time ran out)", "abandoned": " (player left)"}.get(
        data.get("why", ""), ""
    )


def _procedure_words(data: dict[str, Any]) -> str:
    """What the dealer does after an irregularity: the chapter's words when the game gives
    them, with its section; else what becomes of the cards."""
    words = str(data.get("words") or "")
    if not words:
        done = ["the cards are reshuffled"] if data.get("reshuffle") else []
        if data.get("remove_deck"):
            done.append("the deck is removed from the table")
        words = "; ".join(done)
    section = data.get("section")
    return f"{words} ({section})" if words and section else words


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
        if data.get("folded") or data.get("decision") == "fold":
            return f"box {box} folded{why}"
        if "multiple" in data:  # a Raise of so many times the Ante
            return f"box {box} raised {data.get('multiple')}x: {dollars(data.get('raise'))}{why}"
        return f"box {box} played {dollars(data.get('play'))}{why}"
    if kind == "dealer_revealed":
        if "qualifies" not in data:  # a game whose dealer does not qualify (ch. 663a)
            return f"dealer: {_cards_text(data.get('cards'))}"
        qualifies = "qualifies" if data.get("qualifies") else "does not qualify"
        return f"dealer: {_cards_text(data.get('cards'))} — {data.get('hand')}, {qualifies}"
    if kind in ("hands_set", "setting"):
        return f"box {box} set its hands{why_words(data)}"
    if kind == "box_settled":
        return f"box {box} settled: {dollars(data.get('net'), signed=True)}"
    if kind == "round_settled":
        return "round settled; shoe order and salt disclosed for verification"
    if kind == "round_void":
        return f"round void: {data.get('explanation') or data.get('reason')}; every stake returned"
    if kind == "dealer_card_exposed":
        return str(data.get("reason", "a dealer card was exposed"))
    if kind == "irregularity_procedure":  # the dealer's alone: a full record shows it
        return _procedure_words(data)
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
    g = game(record.get("game", unkeyed_game()))
    rules = g.parse_rules(record["rules"])
    record["rules_fingerprint"] = hashlib.sha256(
        json.dumps(record["rules"], sort_keys=True).encode()
    ).hexdigest()[:12]
    record["paytables"] = [sign.to_dict() for sign in g.signs(rules)]
    record["payout_limit"] = g.table_settings(rules).payout_limit
    record["rules_obj"] = rules
    for key in ("opened_at", "dealt_at", "revealed_at", "finished_at"):
        record[key + "_dt"] = _when(record.get(key))
    record["finished"] = record["phase"] in FINISHED_PHASES
    if "void_explanation" not in record:
        reason = record.get("void_reason") or ""
        record["void_explanation"] = g.void_words(reason) if reason else ""
    record["full"] = full
    if row is not None:
        viewer = None if full else record.get("viewer")
        record["events"] = _events(row, viewer, full)
    return record


def _record(row: Round, user: User, full: bool) -> dict[str, Any]:
    name = user.get_username()
    finished = row.phase in FINISHED_PHASES
    # While a round is in play its stored record holds hidden cards and the shoe: show only
    # what the table shows everyone.
    record = round_record(row, viewer=name, full=full and finished)
    record["viewer"] = name
    return decorate(record, row, full=full and finished)


@login_required
def round_detail(request: SignedInRequest, round_id: int) -> HttpResponse:
    row = get_object_or_404(_rows(), pk=round_id)
    full = sees_everything(request.user)
    if not full and not BoxRecord.objects.filter(round=row, player=request.user).exists():
        # Not theirs (or not over yet): the same answer as a round that does not exist.
        raise Http404("no such round of yours")
    record = _record(row, request.user, full)
    return render(request, "table/round_detail.html", {"round": record, "full": record["full"]})


@login_required
def my_rounds(request: SignedInRequest) -> HttpResponse:
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
