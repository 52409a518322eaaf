"""Rounds, their boxes and settlement lines, the event log, seats and commands (history)."""

from __future__ import annotations

import hashlib
import json

from django.contrib import admin
from django.utils.html import format_html
from django.utils.safestring import SafeString

from table.engine.round import Phase
from table.engine.rules import TableRules

from ..models import (
    BoxRecord,
    CommandRecord,
    Round,
    RoundEvent,
    Seat,
    SettlementLine,
)
from ..money import dollars
from .common import (
    ReadOnlyAdmin,
    ReadOnlyInline,
    _link,
    _pretty_json,
    _wagers_text,
)
from .rules import posted_sign_html

# --- Rounds and their events ------------------------------------------------------------------


class BoxRecordInline(ReadOnlyInline):
    model = BoxRecord
    fields = ("box", "player", "cards", "hand", "wager_list", "decision_text", "net_dollars")
    readonly_fields = fields

    @admin.display(description="wagers")
    def wager_list(self, obj: BoxRecord) -> str:
        return _wagers_text(obj.wagers)

    @admin.display(description="decision")
    def decision_text(self, obj: BoxRecord) -> str:
        if obj.decision is None:
            return "—"
        return "fold" if obj.decision == 0 else f"raise {obj.decision}x"

    @admin.display(description="net")
    def net_dollars(self, obj: BoxRecord) -> str:
        return dollars(obj.net, signed=True)


class SettlementLineInline(ReadOnlyInline):
    model = SettlementLine
    fields = ("box", "player", "wager", "stake_dollars", "outcome", "net_dollars", "row")
    readonly_fields = fields

    @admin.display(description="stake")
    def stake_dollars(self, obj: SettlementLine) -> str:
        return dollars(obj.stake)

    @admin.display(description="net")
    def net_dollars(self, obj: SettlementLine) -> str:
        return dollars(obj.net, signed=True)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "phase",
        "rules_submission",
        "deck_back",
        "opened_at",
        "finished_at",
        "recall_link",
    )
    list_filter = ("phase", "table", "rules_submission")
    search_fields = ("commitment",)
    date_hierarchy = "opened_at"
    list_select_related = ("table", "rules_submission")
    fields = (
        "table",
        "number",
        "phase",
        "void_reason",
        "recall_link",
        "rules_submission",
        "rules_played",
        "deck_back",
        "commitment",
        "opened_at",
        "dealt_at",
        "revealed_at",
        "finished_at",
        "stored_state",
    )
    readonly_fields = ("recall_link", "rules_played", "stored_state")
    inlines = (BoxRecordInline, SettlementLineInline)

    @admin.display(description="recall")
    def recall_link(self, obj: Round) -> SafeString | str:
        return _link("round_detail", [obj.pk], "recall page")

    @admin.display(description="rules it was played under")
    def rules_played(self, obj: Round) -> SafeString:
        rules = TableRules.from_dict(obj.rules)
        fingerprint = hashlib.sha256(json.dumps(obj.rules, sort_keys=True).encode()).hexdigest()[
            :12
        ]
        return format_html(
            "<p>Frozen copy when the round opened (fingerprint {}).</p>{}{}",
            fingerprint,
            posted_sign_html(rules),
            _pretty_json(obj.rules),
        )

    @admin.display(description="engine state (shoe order, stacks, decisions, settlement)")
    def stored_state(self, obj: Round) -> SafeString | str:
        if obj.phase not in (Phase.SETTLED.value, Phase.VOID.value):
            return "Hidden while the round is in play (it holds the shoe order)."
        return _pretty_json(obj.state)


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
        "prev_hash",
        "hash",
        "chain_ok",
    )
    readonly_fields = ("payload", "chain_ok")

    @admin.display(description="data")
    def payload(self, obj: RoundEvent) -> SafeString:
        return _pretty_json(obj.data)

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
    def answer(self, obj: CommandRecord) -> SafeString:
        return _pretty_json(obj.response)
