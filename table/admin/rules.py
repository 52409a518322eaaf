"""Rules Submissions: one form for every game, built from the game's ``rules_fields``
(:mod:`.game_rules`), with its posted signs and mathematics as the game draws them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from table.games import GAMES, default_game, game
from table.games.errors import InvalidInput

from .. import services
from ..models import (
    RulesSubmission,
    Table,
)
from ..money import dollars
from .common import (
    _admin_link,
    staff_of,
)
from .game_rules import choice_fieldsets, game_form, game_mathematics_html, game_signs_html

# --- Rules Submission ------------------------------------------------------------------------


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(admin.ModelAdmin[RulesSubmission]):
    list_display = (
        "name",
        "game",
        "wagers_offered",
        "ante_limits",
        "payout_limit_dollars",
        "boxes_per_player",
        "in_force_at",
    )
    list_filter = ("game",)
    search_fields = ("name",)
    readonly_fields = (
        "game_signs",
        "game_mathematics",
        "in_force_at",
        "created",
        "updated",
    )

    class Media:
        css = {"all": ("table/admin.css",)}
        js = ("table/admin_rules.js",)

    def game_of(self, request: HttpRequest, obj: RulesSubmission | None) -> str:
        """The game whose choices the page shows: the submission's own; on the add page the
        one chosen (``?game=``, or the form posted), the default game unless another is."""
        if obj is not None:
            return obj.game
        name = request.POST.get("game") or request.GET.get("game") or default_game()
        return name if name in GAMES else default_game()

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A submission keeps its game: its tables run that game (a new game, a new one).
        if obj is not None:
            return (*self.readonly_fields, "game")
        return self.readonly_fields

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        name = self.game_of(request, obj)
        # Before the first save the page shows the game's default choices, and says so.
        shown = "saved values" if obj is not None else f"{game(name).title}'s defaults, until saved"
        return (
            (None, {"fields": ("name", "game", "betting_unit")}),
            *((title, {"fields": names}) for title, names in choice_fieldsets(name)),
            (f"As posted at the table — {shown}", {"fields": ("game_signs",)}),
            (f"House edge of the wagers offered — {shown}", {"fields": ("game_mathematics",)}),
            ("Use", {"fields": ("in_force_at", "created", "updated")}),
        )

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        name = self.game_of(request, obj)
        kwargs["form"] = game_form(name)
        form = super().get_form(request, obj, change=change, **kwargs)
        if "game" in form.base_fields:
            form.base_fields["game"].initial = name
            form.base_fields["game"].help_text = (
                "The game this Rules Submission is for; its choices follow once it is chosen "
                "(a table runs the game of its rules)."
            )
        return form

    def save_model(
        self, request: HttpRequest, obj: RulesSubmission, form: Any, change: bool
    ) -> None:
        """Saving the submission a table's next round plays under tells that table's players
        now (a paytable change used to apply silently); a round in play keeps the rules it
        opened with."""
        super().save_model(request, obj, form, change)
        if not change:
            return
        tables = Table.objects.filter(
            Q(pending_rules=obj) | Q(pending_rules__isnull=True, rules=obj)
        ).values_list("pk", "name")
        for table_id, name in tables:
            try:
                notice = services.rules_edited(table_id, staff=staff_of(request)).response
            except services.ServiceError as exc:
                messages.error(request, f"{name}: players were not told: {exc.message}")
                continue
            if notice["changes"]:
                messages.info(
                    request,
                    f"{name}: players are told now — from round {notice['from_round']}: "
                    + "; ".join(notice["changes"])
                    + ".",
                )

    @admin.display(description="posted signs")
    def game_signs(self, obj: RulesSubmission) -> SafeString:
        return game_signs_html(obj)

    @admin.display(description="mathematics")
    def game_mathematics(self, obj: RulesSubmission) -> SafeString:
        return game_mathematics_html(obj)

    def get_urls(self) -> list[Any]:
        page = path(
            "game-pages/<str:game_name>/<str:page>/",
            self.admin_site.admin_view(self.game_page_view),
            name="table_rulessubmission_game_page",
        )
        return [page, *super().get_urls()]

    def game_page_view(self, request: HttpRequest, game_name: str, page: str) -> HttpResponse:
        """A page of a game's own beside its Rules Submissions (``Game.staff_page``): such as
        a comparison of every paytable, or the figures of every option a live preview of
        unsaved choices reads (static/table/admin_rules.js)."""
        if game_name not in GAMES:
            raise Http404("no such game")
        part = game(game_name).staff_page(page)
        if part is None:
            raise Http404("no such page")
        if not part.template:
            return JsonResponse(dict(part.context))
        context = {
            **self.admin_site.each_context(request),
            **part.context,
            "title": part.title,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, part.template, context)

    def _rules(self, obj: RulesSubmission) -> Any:
        try:
            return obj.game_rules()
        except InvalidInput:
            return None

    @admin.display(description="wagers offered")
    def wagers_offered(self, obj: RulesSubmission) -> str:
        rules = self._rules(obj)
        if rules is None:
            return "—"
        offered = [
            w.label
            for w in game(obj.game).wagers(rules)
            if w.offered and w.placed == "bet" and not w.required
        ]
        return ", ".join(offered) or "none"

    @admin.display(description="Ante")
    def ante_limits(self, obj: RulesSubmission) -> str:
        rules = self._rules(obj)
        if rules is None:
            return "—"
        ante = next((w for w in game(obj.game).wagers(rules) if w.required), None)
        return f"{dollars(ante.low)} – {dollars(ante.high)}" if ante else "—"

    @admin.display(description="payout limit")
    def payout_limit_dollars(self, obj: RulesSubmission) -> str:
        rules = self._rules(obj)
        if rules is None:
            return "—"
        return dollars(game(obj.game).table_settings(rules).payout_limit, none="no limit")

    @admin.display(description="boxes per player")
    def boxes_per_player(self, obj: RulesSubmission) -> str:
        rules = self._rules(obj)
        if rules is None:
            return "—"
        return str(game(obj.game).table_settings(rules).boxes_per_player)

    @admin.display(description="in force at")
    def in_force_at(self, obj: RulesSubmission) -> SafeString | str:
        if obj.pk is None:
            return "—"
        now = list(Table.objects.filter(rules=obj))
        waiting = list(Table.objects.filter(pending_rules=obj))
        items = [(_admin_link(t), "") for t in now] + [
            (_admin_link(t), " (pending: after the round in play)") for t in waiting
        ]
        if not items:
            return "no table"
        return format_html_join(", ", "{}{}", items)
