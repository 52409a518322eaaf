"""HTML pages: the lobby, a player's table and the dealer console.

The pages are shells: their state arrives over the websocket (docs/protocol.md), starting with
a snapshot, so that a page and a reconnecting client see exactly the same thing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from table.games import GAME_TITLES, GAMES, game
from table.games.base import Game, WagerSpec
from table.games.events import PUBLIC

from . import lag
from .duties import can_deal, dealt_tables
from .models import Account, ProgressiveMeter, RoundEvent, Seat, Table
from .recall import recall_rounds

if TYPE_CHECKING:
    from .signed_in import SignedInRequest


def _money(cents: int | None) -> str:
    return "no limit" if cents is None else f"${cents / 100:,.2f}"


def _ante(wagers: tuple[WagerSpec, ...]) -> tuple[str, WagerSpec]:
    """The words and limits of the wagers every box must make ("Ante & Odds": the Odds
    equals the Ante, §684a.7(d)(1); "Ante & Super Bonus", §657a.7(d)(1); the Ante alone)."""
    required = [w for w in wagers if w.required and w.placed in ("bet", "with")]
    return " & ".join(w.label for w in required), required[0]


def table_facts(table: Table) -> dict[str, Any]:
    """What the lobby says of a table under its Rules Submission, in its game's words."""
    g = game(table.rules.game)
    rules = table.rules.game_rules()
    wagers = g.wagers(rules)
    settings = g.table_settings(rules)
    label, ante = _ante(wagers)
    return {
        "table": table,
        "game": g.name,
        "ante_label": label,
        "ante": f"{_money(ante.low)} – {_money(ante.high)}",
        "optional": [w.label for w in wagers if w.placed == "bet" and not w.required and w.offered],
        "payout_limit": _money(settings.payout_limit),
        "adjacent_boxes": settings.boxes_per_player,
    }


METER_LABELS = dict(ProgressiveMeter.KINDS)


def _number_order(table: Table) -> list[Any]:
    """Tables in number order: "Crazy 2" before "Crazy 10" (digits compared as numbers)."""
    parts = re.split(r"(\d+)", table.name)
    return [int(part) if part.isdigit() else part.lower() for part in parts]


@login_required
def lobby(request: SignedInRequest) -> HttpResponse:
    """Every table, under a heading per game (its title and regulation)."""
    taken: dict[int, set[int]] = {}
    for table_id, box in Seat.objects.values_list("table_id", "box"):
        taken.setdefault(table_id, set()).add(box)
    dealt = dealt_tables(request.user)
    # Players choose progressive tables by their jackpots: each linked meter's amount.
    meters: dict[int, list[dict[str, Any]]] = {}
    for table_id, kind, amount in (
        ProgressiveMeter.objects.filter(tables__isnull=False)
        .values_list("tables__id", "kind", "amount")
        .order_by("pk")
    ):
        meters.setdefault(table_id, []).append(
            {"label": METER_LABELS.get(kind, kind), "amount": _money(amount)}
        )
    by_game: dict[str, list[dict[str, Any]]] = {}
    for table in sorted(Table.objects.select_related("rules"), key=_number_order):
        entry = table_facts(table)
        entry["free_boxes"] = [b for b in range(1, 7) if b not in taken.get(table.pk, set())]
        entry["deals"] = table.pk in dealt  # the console link, for its dealers only
        entry["meters"] = meters.get(table.pk, [])
        by_game.setdefault(entry["game"], []).append(entry)
    games = []
    for name in GAMES:
        if name in by_game:
            g: Game[Any, Any] = game(name)
            games.append(
                {
                    "name": name,
                    "title": GAME_TITLES.get(name, g.title),
                    "regulation": g.regulation,
                    "tables": by_game[name],
                }
            )
    balance = Account.objects.filter(user=request.user).values_list("balance", flat=True).first()
    context: dict[str, Any] = {
        "games": games,
        "tables": [t for section in games for t in section["tables"]],
        "balance": _money(balance or 0),
        "is_dealer": bool(dealt),
    }
    return render(request, "table/lobby.html", context)


def _felt(table: Table) -> dict[str, Any]:
    """The table's game and the browser modules that draw its felt and console."""
    g = game(table.rules.game)
    return {
        "game": g.name,
        "game_title": GAME_TITLES.get(g.name, g.title),
        "felt_module": g.felt.felt_module or "",
        "console_module": g.felt.console_module or "",
    }


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The felt. Logged-out visitors watch as spectators (public events only)."""
    table = get_object_or_404(Table.objects.select_related("rules"), pk=table_id)
    g = game(table.rules.game)
    rules = table.rules.game_rules()
    label, ante = _ante(g.wagers(rules))
    felt = _felt(table)
    return render(
        request,
        "table/table.html",
        {
            "table": table,
            "ante_label": label,
            "ante_limits": f"{_money(ante.low)} – {_money(ante.high)}",
            "adjacent_boxes": g.table_settings(rules).boxes_per_player,
            "payout_limit": _money(g.table_settings(rules).payout_limit),
            # "<title> 1 · <title>" says the game twice: the table's name is enough.
            "name_says_game": felt["game_title"].lower() in table.name.lower(),
            **felt,
        },
    )


#: Game recall shown beside the felt: this many of the player's last finished rounds.
RECALL_ROUNDS = 10


def recall_json(request: HttpRequest, table_id: int) -> JsonResponse:
    """The player's last finished rounds at this table, for the recall panel beside the felt
    (the same detail as /rounds/mine/: what was face up, plus the player's own boxes)."""
    table = get_object_or_404(Table, pk=table_id)
    if not request.user.is_authenticated:
        return JsonResponse({"rounds": [], "login_required": True}, status=403)
    rounds = recall_rounds(request.user, RECALL_ROUNDS, table)
    for record in rounds:
        record["url"] = reverse("round_detail", args=[record["id"]])
    return JsonResponse({"rounds": rounds})


@login_required
def dealer_console(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("rules"), pk=table_id)
    if not can_deal(request.user, table.pk):
        raise PermissionDenied("only the dealers assigned to this table may run it")
    # The dealer is staff: the console's times are the casino's (one zone, named), not the
    # browser's, as the admin and the staff's recall show them.
    context = {"table": table, "casino_zone": settings.TIME_ZONE, **_felt(table)}
    return render(request, "table/dealer.html", context)


#: How many of the table's last public events the console's round log starts with.
CONSOLE_BACKLOG = 60


@login_required
def dealer_log_json(request: HttpRequest, table_id: int) -> JsonResponse:
    """The table's last public events, for the dealer console's round log when it opens while
    players play (issue 28: it stayed empty while their logs were full). Only events up to
    ``upto``, the version of the console's first snapshot: the live frames after it log
    themselves. The public audience only: what every log at the table is told."""
    table = get_object_or_404(Table, pk=table_id)
    if not can_deal(request.user, table.pk):
        raise PermissionDenied("only the dealers assigned to this table may run it")
    try:
        upto = int(request.GET.get("upto", ""))
    except ValueError:
        return JsonResponse(
            {"error": "upto must be the table's version, a whole number"}, status=400
        )
    rows = RoundEvent.objects.filter(table=table, audience=PUBLIC, version__lte=upto).order_by(
        "-version", "-seq"
    )[:CONSOLE_BACKLOG]
    events = [
        {"kind": e.kind, "data": e.data, "created": e.created.isoformat()} for e in reversed(rows)
    ]
    return JsonResponse({"events": events})


def lag_status(request: HttpRequest) -> JsonResponse:
    """This process's overload measure (table.lag): its lag, whether the guard is on, and
    how many watchers and seats it refused. 503 while it is behind, so that a proxy's health
    check may send new visitors to another process (docs/deploy.md)."""
    reading = lag.reading()
    return JsonResponse(reading, status=503 if reading["behind"] else 200)
