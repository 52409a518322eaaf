"""HTML pages: the lobby, a player's table and the dealer console.

The pages are shells: their state arrives over the websocket (docs/protocol.md), starting with
a snapshot, so that a page and a reconnecting client see exactly the same thing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from .duties import can_deal, dealt_tables
from .models import Account, Seat, Table
from .snapshot import posted_paytables, recall_rounds


def _money(cents: int | None) -> str:
    return "no limit" if cents is None else f"${cents / 100:,.2f}"


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    tables = []
    for table in Table.objects.select_related("rules").order_by("name"):
        rules = table.rules.to_table_rules()
        taken = set(Seat.objects.filter(table=table).values_list("box", flat=True))
        offered = [
            label
            for wager, label in (
                ("prime", "Prime"),
                ("four_card_bonus", "Four Card Bonus"),
                ("all_six", "All-Six Bonus"),
            )
            if rules.offers(wager)
        ]
        tables.append(
            {
                "table": table,
                "ante": f"{_money(rules.ante_min)} – {_money(rules.ante_max)}",
                "free_boxes": [b for b in range(1, 7) if b not in taken],
                "optional": offered,
                "payout_limit": _money(rules.payout_limit),
                "adjacent_boxes": rules.adjacent_boxes,
            }
        )
    balance = Account.objects.filter(user=request.user).values_list("balance", flat=True).first()
    dealt = dealt_tables(request.user)
    for entry in tables:
        entry["deals"] = entry["table"].pk in dealt  # the console link, for its dealers only
    context: dict[str, Any] = {
        "tables": tables,
        "balance": _money(balance or 0),
        "is_dealer": bool(dealt),
    }
    return render(request, "table/lobby.html", context)


def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """The felt. Logged-out visitors watch as spectators (public events only)."""
    table = get_object_or_404(Table.objects.select_related("rules"), pk=table_id)
    rules = table.rules.to_table_rules()
    return render(
        request,
        "table/table.html",
        {
            "table": table,
            "rules": rules,
            "paytables": posted_paytables(rules),
            "ante_limits": f"{_money(rules.ante_min)} – {_money(rules.ante_max)}",
            "payout_limit": _money(rules.payout_limit),
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
    table = get_object_or_404(Table, pk=table_id)
    if not can_deal(request.user, table.pk):
        raise PermissionDenied("only the dealers assigned to this table may run it")
    return render(request, "table/dealer.html", {"table": table})
