"""The admin's side of segregation of duties and of secrecy (kept apart from the rest of the
admin so that it drops into any layout of it):

- an event that a player alone sees, or a hash that would pin it down, stays hidden while its
  round is in play (see ``RoundEventAdmin``; no list is searched, filtered or sorted on a
  secret: :mod:`table.admin.secrecy`);
- dealer assignments: who deals which table (adding and removing them is audited);
- the audit log, read only, for compliance officers (``table.view_auditentry``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.safestring import SafeString

from table.games.base import FINISHED_PHASES
from table.games.events import PUBLIC

from .. import duties
from ..models import AuditEntry, DealerAssignment, RoundEvent
from .audit_words import details_words
from .common import AuditedRefusals, staff_of


def in_play(phase: str | None) -> bool:
    """A round's phase says it is in play: any phase but the ones every game ends in (a game
    may have phases of its own, such as a setting of the hands, §663a.11(d))."""
    return phase is not None and phase not in FINISHED_PHASES


HIDDEN_IN_PLAY = "Hidden until the round is over: at the table only {} sees it."
HASH_HIDDEN = "hidden until the round in play is over (it would give away hidden cards)"


def secret_from(table_id: int) -> tuple[int, int] | None:
    """Where the table's event chain starts to pin down a card still hidden at the table: the
    (version, seq) of the first private event of a round in play, or None. From there on a
    hash (and the next event's prev_hash) is a few million candidates away from a player's
    hole cards."""
    first = (
        RoundEvent.objects.filter(table_id=table_id, round__isnull=False)
        .exclude(round__phase__in=FINISHED_PHASES)
        .exclude(audience=PUBLIC)
        .order_by("version", "seq")
        .values_list("version", "seq")
        .first()
    )
    return (first[0], first[1]) if first else None


# --- Segregation of duties: dealer assignments and the audit log -------------------------------


class DealerAssignmentForm(forms.ModelForm[DealerAssignment]):
    class Meta:
        model = DealerAssignment
        fields = ("table", "dealer")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        table, dealer = data.get("table"), data.get("dealer")
        if table is not None and dealer is not None:
            problem = duties.assignment_problem(table, dealer)
            if problem:
                raise forms.ValidationError(problem, code=duties.REFUSED_CODE)
        return data


@admin.register(DealerAssignment)
class DealerAssignmentAdmin(AuditedRefusals, admin.ModelAdmin[DealerAssignment]):
    """Who deals which table. A dealer runs only the tables assigned here, and may not play
    at them; a cashier (or a superuser) is never assigned. Adding and removing are audited."""

    form = DealerAssignmentForm
    refused_action = "dealer_assigned"
    list_display = ("table", "dealer", "assigned_at")
    list_filter = ("table",)
    list_select_related = ("table", "dealer")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # remove one and add another: each is a line in the audit log

    def save_model(
        self, request: HttpRequest, obj: DealerAssignment, form: Any, change: bool
    ) -> None:
        try:
            assigned = duties.assign_dealer(obj.table_id, obj.dealer, staff_of(request))
        except duties.DutyError as refused:
            messages.error(request, f"Not assigned: {refused.message}")
            return
        obj.pk = assigned.pk

    def delete_model(self, request: HttpRequest, obj: DealerAssignment) -> None:
        duties.unassign_dealer(obj, staff_of(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[DealerAssignment]) -> None:
        for assignment in queryset.select_related("dealer"):
            duties.unassign_dealer(assignment, staff_of(request))


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin[AuditEntry]):
    """The audit log, for compliance officers (``table.view_auditentry``): read only here,
    and append-only in the model and the database."""

    list_display = ("created", "actor_name", "action", "table", "round", "summary")
    list_filter = ("action", "table", "actor_name")
    search_fields = ("actor_name", "action")
    date_hierarchy = "created"
    list_select_related = ("table", "round", "round__table")
    fields = ("created", "actor_name", "actor", "action", "table", "round", "details_shown")
    readonly_fields = ("details_shown",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="details")
    def summary(self, obj: AuditEntry) -> SafeString:
        # In words, the object linked (issue 28: "model: table.rulessubmission, object_id: 6").
        return details_words(obj.details, short=True)

    @admin.display(description="details")
    def details_shown(self, obj: AuditEntry) -> SafeString:
        return details_words(obj.details)
