"""Rounds, their boxes and settlement lines, the event log, seats and commands (history)."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import Prefetch, QuerySet, Sum
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.safestring import SafeString

from table.games import game
from table.games.base import FINISHED_PHASES, SETTLED_PHASE
from table.games.cards import codes
from table.games.errors import InvalidInput
from table.games.events import PUBLIC

from .. import services
from ..models import (
    BoxRecord,
    CommandRecord,
    Round,
    RoundEvent,
    Seat,
)
from ..money import dollars
from ..recall import decorate, round_record
from .common import (
    ReadOnlyAdmin,
    _link,
    _pretty_json,
    staff_of,
)
from .duties import HASH_HIDDEN, HIDDEN_IN_PLAY, in_play, secret_from
from .game_rules import signs_html
from .secrecy import HIDDEN_ANSWER, command_in_play

# --- Rounds and their events ------------------------------------------------------------------

#: The engine state's card fields (integers 0-51 in the store), shown as card codes.
_CARD_LISTS = ("order", "dealer_cards", "discards", "stub")


def readable_state(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of a round's stored engine state with every card as its code ("AS"), not the
    integer the engine keeps; anything not shaped as expected is left as it is."""
    out = copy.deepcopy(state)

    def as_codes(value: Any) -> Any:
        try:
            return codes(value)
        except InvalidInput:
            return value

    for key in _CARD_LISTS:
        if isinstance(out.get(key), list):
            out[key] = as_codes(out[key])
    if isinstance(out.get("all_six_card"), int):
        out["all_six_card"] = as_codes([out["all_six_card"]])[0]
    for box in out.get("boxes") or []:
        if isinstance(box, dict) and isinstance(box.get("cards"), list):
            box["cards"] = as_codes(box["cards"])
    return out


def _finished(obj: Round) -> bool:
    return obj.phase in FINISHED_PHASES


class VoidForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=500,
        help_text="Why the round cannot be finished at the table (it goes in the audit log).",
    )


def _staked(obj: Round) -> str:
    boxes = (obj.state or {}).get("boxes") or []
    total = sum(v for b in boxes for v in (b.get("wagers") or {}).values() if isinstance(v, int))
    return dollars(total)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    # Its state (the shoe order, every stack) is shown once the round is over, and never
    # searched or filtered on (table.admin.secrecy).

    list_display = (
        "__str__",
        "phase",
        "players",
        "players_net",
        "void_reason_words",
        "opened_at",
        "finished_at",
        "rules_submission",
        "deck_back",
        "recall_link",
    )
    list_filter = ("phase", "table", "rules_submission")
    actions = ["void_in_play"]
    search_fields = ("commitment", "box_records__player__username")
    date_hierarchy = "opened_at"
    list_select_related = ("table", "rules_submission")
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "table",
                    "number",
                    "phase",
                    "void_reason_words",
                    "recall_link",
                    "rules_submission",
                )
            },
        ),
        ("The round as played", {"fields": ("round_played",)}),
        (
            "Shoe and times",
            {
                "fields": (
                    "deck_back",
                    "commitment",
                    "opened_at",
                    "dealt_at",
                    "revealed_at",
                    "finished_at",
                )
            },
        ),
        ("Rules it was played under", {"fields": ("rules_played",), "classes": ("collapse",)}),
        ("As stored", {"fields": ("stored_state",), "classes": ("collapse",)}),
    )
    readonly_fields = (
        "recall_link",
        "void_reason_words",
        "round_played",
        "rules_played",
        "stored_state",
    )

    class Media:
        css = {"all": ("table/admin.css",)}

    def get_queryset(self, request: HttpRequest) -> QuerySet[Round]:
        players = BoxRecord.objects.select_related("player").order_by("box")
        rounds: QuerySet[Round] = (
            super()
            .get_queryset(request)
            .annotate(net_total=Sum("box_records__net"))
            .prefetch_related(Prefetch("box_records", queryset=players))
        )
        return rounds

    def has_void_round_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.has_perm(services.dealing.VOID_PERMISSION))

    @admin.action(
        description="Void the selected rounds in play (every stake returned)",
        permissions=["void_round"],
    )
    def void_in_play(
        self, request: HttpRequest, queryset: QuerySet[Round]
    ) -> TemplateResponse | None:
        """A supervisor voids rounds in play (services.supervisor_void, issue 23), after
        saying why on a second page."""
        rounds = list(queryset.select_related("table"))
        form = VoidForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            for row in rounds:
                if row.phase in FINISHED_PHASES or row.table.current_round_id != row.pk:
                    self.message_user(
                        request, f"{row} is {row.phase}: left as it is.", messages.WARNING
                    )
                    continue
                try:
                    services.supervisor_void(row.table_id, reason, staff_of(request))
                except services.ServiceError as refused:
                    self.message_user(
                        request, f"{row} was not voided: {refused.message}", messages.ERROR
                    )
                    continue
                self.message_user(
                    request,
                    f"{row} is void: every wager returned, the meters' increments taken back.",
                    messages.SUCCESS,
                )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Void rounds in play",
            "form": form,
            "rounds": [
                {
                    "name": str(r),
                    "phase": r.phase,
                    "players": self.players(r),
                    "staked": _staked(r),
                }
                for r in rounds
            ],
            "action": "void_in_play",
            "selected": [r.pk for r in rounds],
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/table/void_rounds.html", context)

    @admin.display(description="players (box)")
    def players(self, obj: Round) -> str:
        records = list(obj.box_records.all())
        if records:
            return ", ".join(f"{r.player.get_username()} ({r.box})" for r in records)
        # In play: the boxes with wagers so far, from the stored round.
        boxes = (obj.state or {}).get("boxes") or []
        return ", ".join(f"{b.get('player')} ({b.get('box')})" for b in boxes) or "—"

    @admin.display(description="players' net", ordering="net_total")
    def players_net(self, obj: Round) -> str:
        if obj.phase != SETTLED_PHASE:
            return "—"
        return dollars(getattr(obj, "net_total", None) or 0, signed=True)

    @admin.display(description="void reason")
    def void_reason_words(self, obj: Round) -> str:
        if not obj.void_reason:
            return "—"
        words = game(obj.game).void_words(obj.void_reason)
        return words or obj.void_reason.replace("_", " ")

    @admin.display(description="recall")
    def recall_link(self, obj: Round) -> SafeString | str:
        return _link("round_detail", [obj.pk], "recall page")

    @admin.display(description="round")
    def round_played(self, obj: Round) -> SafeString:
        """The recall page's account of the round: cards as cards, money in dollars. While
        the round is in play only what the table shows everyone (no hole cards)."""
        full = _finished(obj)
        record = decorate(round_record(obj, viewer=None, full=full), obj, full=full)
        return render_to_string("admin/table/round_played.html", {"r": record})

    @admin.display(description="rules it was played under")
    def rules_played(self, obj: Round) -> SafeString:
        g = game(obj.game)
        signs = signs_html(g, g.parse_rules(obj.rules))
        fingerprint = hashlib.sha256(json.dumps(obj.rules, sort_keys=True).encode()).hexdigest()[
            :12
        ]
        return render_to_string(
            "admin/table/rules_played.html",
            {
                "fingerprint": fingerprint,
                "signs": signs,
                "rules_json": json.dumps(obj.rules, indent=2, sort_keys=True, ensure_ascii=False),
            },
        )

    @admin.display(description="engine state (shoe order, stacks, decisions, settlement)")
    def stored_state(self, obj: Round) -> SafeString | str:
        if not _finished(obj):
            return "Hidden while the round is in play (it holds the shoe order)."
        return render_to_string(
            "admin/table/engine_state.html",
            {
                "state_json": json.dumps(
                    readable_state(obj.state), indent=2, sort_keys=True, ensure_ascii=False
                )
            },
        )


@admin.register(RoundEvent)
class RoundEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "version", "seq", "kind", "audience", "actor", "round", "created")
    list_filter = ("kind", "table", "audience")
    search_fields = ("kind", "actor")
    list_select_related = ("table", "round", "round__table")
    fields = (
        "table",
        "round",
        "version",
        "seq",
        "kind",
        "audience",
        "actor",
        "created",
        "payload",
        "prev_hash_shown",
        "hash_shown",
        "chain_ok",
    )
    readonly_fields = ("payload", "prev_hash_shown", "hash_shown", "chain_ok")

    @admin.display(description="data")
    def payload(self, obj: RoundEvent) -> SafeString | str:
        playing = obj.round is not None and in_play(obj.round.phase)
        if playing and obj.audience != PUBLIC:
            # What a player alone sees (hole cards) stays theirs until the round is over.
            return HIDDEN_IN_PLAY.format(obj.audience.removeprefix("player:"))
        return _pretty_json(obj.data)

    @admin.display(description="prev hash")
    def prev_hash_shown(self, obj: RoundEvent) -> str:
        start = secret_from(obj.table_id)
        if start is not None and (obj.version, obj.seq) > start:
            return HASH_HIDDEN
        return obj.prev_hash

    @admin.display(description="hash")
    def hash_shown(self, obj: RoundEvent) -> str:
        start = secret_from(obj.table_id)
        if start is not None and (obj.version, obj.seq) >= start:
            return HASH_HIDDEN
        return obj.hash

    @admin.display(description="hash matches its contents", boolean=True)
    def chain_ok(self, obj: RoundEvent) -> bool:
        return obj.compute_hash() == obj.hash


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "box", "player", "connected", "sat_at", "disconnected_at")
    list_filter = ("table", "connected")


@admin.register(CommandRecord)
class CommandRecordAdmin(ReadOnlyAdmin):
    list_display = ("table", "actor", "command", "key", "created")
    list_filter = ("command", "table")
    search_fields = ("actor", "key")
    readonly_fields = ("answer",)
    fields = ("table", "actor", "command", "key", "created", "answer")

    @admin.display(description="first answer")
    def answer(self, obj: CommandRecord) -> SafeString | str:
        if command_in_play(obj):  # a set_hands answer holds the box's hands
            return HIDDEN_ANSWER
        return _pretty_json(obj.response)
