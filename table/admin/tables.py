"""Tables: Rules Submission and open/closed through the services, the decks in play."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from table.games.base import BETTING_PHASE, FINISHED_PHASES
from table.games.shoe import DECK_LIFETIME_SECONDS, Shuffler

from .. import duties, ledger, services
from ..models import (
    Account,
    Round,
    RulesSubmission,
    Seat,
    Table,
)
from ..money import dollars
from .common import (
    _admin_link,
    staff_of,
)

# --- Tables --------------------------------------------------------------------------------


def _duration(seconds: float) -> str:
    seconds = int(abs(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours} h {rest // 60:02d} min"


def _local(epoch: float) -> str:
    moment = timezone.localtime(dt.datetime.fromtimestamp(epoch, tz=dt.UTC))
    return moment.strftime("%Y-%m-%d %H:%M:%S %Z")


def deck_rows(table: Table, now: float | None = None) -> list[dict[str, Any]]:
    """The decks in the shuffler, when each came into play and when it must be changed."""
    if not table.shoe:
        return []
    now = time.time() if now is None else now
    shuffler = Shuffler.from_dict(table.shoe)
    rows = []
    for i, deck in enumerate(shuffler.decks):
        due = deck.since + DECK_LIFETIME_SECONDS
        rows.append(
            {
                "back": deck.back,
                "since": _local(deck.since),
                "age": _duration(now - deck.since),
                "due": _local(due),
                "left": due - now,
                "rounds": deck.rounds,
                "next": i == shuffler.next_deck % max(1, len(shuffler.decks)),
                "cards": len(deck.cards),
            }
        )
    return rows


class TableAdminForm(forms.ModelForm[Table]):
    class Meta:
        model = Table
        fields = ("name", "is_open", "is_test", "rules")

    def clean_rules(self) -> RulesSubmission:
        rules: RulesSubmission = self.cleaned_data["rules"]
        table = self.instance
        if table.pk and table.rules_id:
            # A table runs one game: its rounds, records, meters and felt are that game's.
            current = RulesSubmission.objects.get(pk=table.rules_id)
            if rules.game != current.game:
                raise forms.ValidationError(
                    f"{table.name} runs {current.get_game_display()}; “{rules}” is a "
                    f"{rules.get_game_display()} Rules Submission. A table runs one game: "
                    f"choose {current.get_game_display()} rules, or add a new table for "
                    f"{rules.get_game_display()}."
                )
        problems = rules.game_problems()
        if problems:
            raise forms.ValidationError(
                [f"This Rules Submission cannot be used: {m}" for _, m in problems]
            )
        return rules

    def clean_is_open(self) -> bool:
        is_open: bool = self.cleaned_data["is_open"]
        table = self.instance
        if table.pk and table.is_open and not is_open and table.current_round_id:
            phase = (
                Round.objects.filter(pk=table.current_round_id)
                .values_list("phase", flat=True)
                .first()
            )
            if phase not in (None, BETTING_PHASE, *FINISHED_PHASES):
                raise forms.ValidationError(
                    f"A round is in play ({phase}): finish it before closing the table."
                )
        return is_open


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    form = TableAdminForm
    list_display = (
        "name",
        "game",
        "is_open",
        "is_test",
        "rules",
        "pending_rules",
        "current_round_link",
        "decks_summary",
        "rounds_since_stub_count",
        "version",
    )
    list_filter = ("is_open", "is_test", "rules__game")
    search_fields = ("name",)
    readonly_fields = (
        "pending_rules",
        "current_round_link",
        "decks",
        "rounds_since_stub_count",
        "version",
        "bankroll_balance",
        "seats_taken",
        "created",
    )
    fieldsets = (
        (None, {"fields": ("name", "is_open", "is_test")}),
        (
            "Rules Submission",
            {
                "fields": ("rules", "pending_rules"),
                "description": (
                    "A table's Rules Submission changes only between rounds: a change made "
                    "while a round is in play waits, as pending, for that round to end. "
                    "Every round keeps the exact rules it was played under."
                ),
            },
        ),
        (
            "Shuffler and shoe (§684a.3, §684a.10)",
            {"fields": ("decks", "rounds_since_stub_count")},
        ),
        (
            "Play",
            {
                "fields": (
                    "current_round_link",
                    "seats_taken",
                    "bankroll_balance",
                    "version",
                    "created",
                )
            },
        ),
    )
    actions = ("bring_new_decks",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a table's rounds and bankroll are history: close it instead

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ()
        return self.readonly_fields

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ((None, {"fields": ("name", "is_open", "rules")}),)
        return self.fieldsets

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        """A new table is saved as it is; on an existing table the Rules Submission and the
        open/closed state go through the table's services (row lock, version, events), so
        a rules change during a round becomes pending. Nothing else on the row is written
        from this (possibly stale) form."""
        if not change:
            super().save_model(request, obj, form, change)
            ledger.table_bankroll(obj)
            if obj.is_test:
                duties.record(
                    staff_of(request), "test_table_set", {"test_table": True}, table_id=obj.pk
                )
            return
        changed = set(form.changed_data)
        if "name" in changed:
            Table.objects.filter(pk=obj.pk).update(name=obj.name)
        if "is_test" in changed:
            # Drills allowed or not: audited on its own line (issue 28), beside the admin's.
            Table.objects.filter(pk=obj.pk).update(is_test=obj.is_test)
            duties.record(
                staff_of(request), "test_table_set", {"test_table": obj.is_test}, table_id=obj.pk
            )
        try:
            if "rules" in changed:
                result = services.change_rules(obj.pk, obj.rules, staff=staff_of(request))
                if result.response.get("pending"):
                    messages.warning(
                        request,
                        f"A round is in play at {obj.name}: “{obj.rules}” takes effect when it "
                        "is over.",
                    )
                else:
                    messages.info(request, f"“{obj.rules}” is now in force at {obj.name}.")
            if "is_open" in changed:
                if obj.is_open:
                    services.open_table(obj.pk, staff_of(request))
                else:
                    services.close_table(obj.pk, staff_of(request))
        except services.ServiceError as exc:
            messages.error(request, f"Not changed: {exc.message}")
        obj.refresh_from_db()

    @admin.display(description="game", ordering="rules__game")
    def game(self, obj: Table) -> str:
        return obj.rules.get_game_display()

    @admin.display(description="current round")
    def current_round_link(self, obj: Table) -> SafeString | str:
        if not obj.current_round_id:
            return "—"
        row = Round.objects.filter(pk=obj.current_round_id).first()
        if row is None:
            return "—"
        return format_html("{} ({})", _admin_link(row, f"round {row.number}"), row.phase)

    @admin.display(description="decks")
    def decks_summary(self, obj: Table) -> str:
        rows = deck_rows(obj)
        if not rows:
            return "none yet"
        return "; ".join(
            f"{r['back']} {r['age']}" + (" — CHANGE NOW" if r["left"] <= 0 else "") for r in rows
        )

    @admin.display(description="decks in use")
    def decks(self, obj: Table) -> SafeString | str:
        rows = deck_rows(obj)
        if not rows:
            return "No deck has come into play yet: fresh decks come in with the first round."
        body = format_html_join(
            "",
            "<tr><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    r["back"],
                    " (next to shuffle)" if r["next"] else "",
                    r["since"],
                    r["age"],
                    r["due"],
                    format_html(
                        "<strong>overdue by {}: change the decks now</strong>", _duration(r["left"])
                    )
                    if r["left"] <= 0
                    else f"in {_duration(r['left'])}",
                    r["rounds"],
                )
                for r in rows
            ),
        )
        return format_html(
            "<table><thead><tr><th>Back colour</th><th>In play since</th><th>Age</th>"
            "<th>Must be changed by (§684a.3(c): every 8 hours)</th><th>Change</th>"
            "<th>Rounds shuffled</th></tr></thead><tbody>{}</tbody></table>",
            body,
        )

    @admin.display(description="table bankroll")
    def bankroll_balance(self, obj: Table) -> str:
        account = Account.objects.filter(table=obj).first()
        return dollars(account.balance) if account else "—"

    @admin.display(description="seats")
    def seats_taken(self, obj: Table) -> str:
        seats = Seat.objects.filter(table=obj).select_related("player")
        return ", ".join(f"box {s.box}: {s.player.get_username()}" for s in seats) or "none"

    @admin.action(description="Bring new decks into play (between rounds)")
    def bring_new_decks(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            try:
                services.change_decks(table.pk, staff_of(request))
                messages.success(request, f"New decks are in play at {table.name}.")
            except services.ServiceError as exc:
                messages.error(request, f"{table.name}: {exc.message}")
