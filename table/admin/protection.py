"""Player protection for compliance: every limit change, cool-off and reality-check choice
with its time and actor (read only), every exclusion and its lifting, and the player
sessions (§812a.9(a)(5)). Compliance officers view these (``view_*``); staff with the
exclusion permissions record one from the state's list (``add_selfexclusion``) and lift one
whose term has ended (``change_selfexclusion``, the "lift" action), each in the audit log
(table/protection/exclusion.py)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from table.models import LimitChange, PlayerSession, SelfExclusion
from table.protection import exclusion
from table.protection.limits import LimitError


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LimitChange)
class LimitChangeAdmin(ReadOnly):
    """Every limit change (§814a.2): when, whose, by whom, what, from and to, in force when."""

    list_display = (
        "created",
        "player",
        "actor_name",
        "kind",
        "action",
        "before",
        "after",
        "effective",
        "session",
    )
    list_filter = ("action", "kind")
    search_fields = ("player__username", "actor_name", "kind")
    date_hierarchy = "created"
    list_select_related = ("player", "session")


@admin.register(PlayerSession)
class PlayerSessionAdmin(ReadOnly):
    """Player sessions: each login with its unique key (§812a.9(a)(5))."""

    list_display = ("key", "user", "started", "ended", "last_active", "address")
    search_fields = ("user__username", "key")
    date_hierarchy = "started"
    list_select_related = ("user",)


class ExclusionForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = SelfExclusion
        fields = ("player", "term", "note")


@admin.register(SelfExclusion)
class SelfExclusionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Exclusions (ch. 815a). Adding one here records it from the state's list (§815a.5);
    nothing is edited or deleted; "lift" only after the term (§815a.6(a))."""

    form = ExclusionForm
    list_display = (
        "player",
        "term",
        "source",
        "started",
        "ends",
        "recorded_by_name",
        "lifted_at",
        "lifted_by_name",
        "note",
    )
    list_filter = ("term", "source")
    search_fields = ("player__username", "recorded_by_name", "note")
    date_hierarchy = "started"
    list_select_related = ("player",)
    actions = ["lift"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the "lift" action checks its own permission (change_selfexclusion)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        found = super().get_actions(request)
        if not request.user.has_perm("table.change_selfexclusion"):
            found.pop("lift", None)
        return found

    def save_model(self, request: HttpRequest, obj: SelfExclusion, form: Any, change: bool) -> None:
        # Through the service: the player's guard, the tables let go, the audit log.
        row = exclusion.exclude(
            obj.player,
            obj.term,
            by=request.user,  # type: ignore[arg-type]
            source=SelfExclusion.STATE_LIST,
            note=obj.note,
        )
        obj.pk = row.pk
        obj.refresh_from_db()

    @admin.action(description="Lift the selected exclusions (only after their term)")
    def lift(self, request: HttpRequest, queryset: QuerySet[SelfExclusion]) -> None:
        for row in queryset:
            try:
                exclusion.lift(row, request.user)  # type: ignore[arg-type]
            except LimitError as exc:
                self.message_user(request, f"{row}: {exc.message}", level=messages.ERROR)
                continue
            self.message_user(request, f"{row}: lifted.", level=messages.SUCCESS)
