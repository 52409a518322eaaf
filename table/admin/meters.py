"""Progressive meters: the list, which tables each serves, and each meter's read-only history.

Amount and reserve change only through :mod:`table.meters` (increments, voids, hits), never
by hand here; a new meter starts at its seed, funded by the house (docs/meters.md).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from table.games import meter_catalogue

from .. import meters
from ..models import MeterEvent, ProgressiveMeter
from ..money import dollars
from .common import ReadOnlyAdmin, _admin_link


def _kind_choices() -> list[tuple[str, str]]:
    """Every meter of the games' catalogues (``Game.meter_catalogue``)."""
    return [
        (f"{kind}|{paytable}", m.label + (f", paytable {paytable}" if paytable else ""))
        for (kind, paytable), m in sorted(meter_catalogue().items(), key=lambda km: km[0])
    ]


class MeterForm(forms.ModelForm[ProgressiveMeter]):
    meter = forms.ChoiceField(
        label="meter", help_text="Which meter of its game's paytables this is (its seed and rates)."
    )

    class Meta:
        model = ProgressiveMeter
        fields = ["name", "wager", "tables"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        meter = self.fields["meter"]
        assert isinstance(meter, forms.ChoiceField)
        meter.choices = _kind_choices()
        if self.instance.pk:
            self.fields["meter"].initial = f"{self.instance.kind}|{self.instance.paytable}"
            for name in ("meter", "wager", "name"):
                self.fields[name].disabled = True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind, _, paytable = str(data.get("meter") or "|").partition("|")
        self.instance.kind, self.instance.paytable = kind, paytable
        tables = data.get("tables") or []
        for problem in meters.link_problems(
            self.instance.pk, kind, paytable, data.get("wager") or self.instance.wager, tables
        ):
            self.add_error("tables", problem)
        before = list(self.instance.tables.values_list("pk", flat=True)) if self.instance.pk else []
        for problem in meters.relink_problems(self.instance.pk, before, [t.pk for t in tables]):
            self.add_error("tables", problem)
        return data


@admin.register(ProgressiveMeter)
class ProgressiveMeterAdmin(admin.ModelAdmin[ProgressiveMeter]):
    form = MeterForm
    list_display = (
        "name",
        "kind",
        "paytable",
        "wager_dollars",
        "amount_dollars",
        "reserve_dollars",
        "linked_tables",
        "version",
    )
    list_filter = ("kind", "wager")
    filter_horizontal = ("tables",)
    readonly_fields = (
        "seed_and_rates",
        "amount_dollars",
        "reserve_dollars",
        "version",
        "account_link",
        "history",
    )

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if obj is None:
            return ("name", "meter", "wager", "tables")
        return ("name", "meter", "wager", "tables", *self.readonly_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return () if obj is None else self.readonly_fields

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its history and its money stay

    def get_queryset(self, request: HttpRequest) -> QuerySet[ProgressiveMeter]:
        return super().get_queryset(request).prefetch_related("tables")

    def save_model(
        self, request: HttpRequest, obj: ProgressiveMeter, form: Any, change: bool
    ) -> None:
        if change:
            return  # only the links change here; save_related stores them
        made = meters.create_meter(obj.name, obj.kind, obj.paytable, obj.wager)
        for f in ProgressiveMeter._meta.concrete_fields:
            setattr(obj, f.attname, getattr(made, f.attname))
        obj._state.adding, obj._state.db = False, made._state.db

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        frame = meters.meter_frame(form.instance, "linked")
        # The linked tables' felts learn the meter once the links are committed.
        transaction.on_commit(lambda: meters.publish(frame))

    @admin.display(description="wager")
    def wager_dollars(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.wager)

    @admin.display(description="amount", ordering="amount")
    def amount_dollars(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.amount)

    @admin.display(description="reserve", ordering="reserve")
    def reserve_dollars(self, obj: ProgressiveMeter) -> str:
        return dollars(obj.reserve)

    @admin.display(description="tables")
    def linked_tables(self, obj: ProgressiveMeter) -> str:
        return ", ".join(t.name for t in obj.tables.all()) or "—"

    @admin.display(description="seed, reseed and rates (§657a.12)")
    def seed_and_rates(self, obj: ProgressiveMeter) -> str:
        return (
            f"seed {dollars(obj.seed * obj.wager)}, reseed {dollars(obj.reseed * obj.wager)}, "
            f"{obj.primary_rate}% of each wager to the meter, {obj.reserve_rate}% to the reserve"
        )

    @admin.display(description="ledger account")
    def account_link(self, obj: ProgressiveMeter) -> SafeString | str:
        return _admin_link(obj.account)

    @admin.display(description="history")
    def history(self, obj: ProgressiveMeter) -> SafeString:
        url = reverse("admin:table_meterevent_changelist") + f"?meter__id__exact={obj.pk}"
        link = format_html('<a href="{}">{} changes</a>', url, obj.events.count())
        if getattr(obj, "may_reset", False):
            reset = reverse("admin:table_progressivemeter_reset", args=[obj.pk])
            return format_html('{} · <a href="{}">Reset to the reseed…</a>', link, reset)
        return link

    def get_object(self, request: HttpRequest, object_id: str, from_field: Any = None) -> Any:
        obj = super().get_object(request, object_id, from_field)
        if obj is not None:  # for the reset link (:meth:`account_link`)
            allowed = request.user.has_perm(meters.RESET_PERMISSION)
            obj.may_reset = allowed  # type: ignore[attr-defined]
        return obj

    def get_urls(self) -> list[Any]:
        from django.urls import path

        return [
            path(
                "<int:meter_id>/reset/",
                self.admin_site.admin_view(self.reset_view),
                name="table_progressivemeter_reset",
            ),
            *super().get_urls(),
        ]

    def reset_view(self, request: HttpRequest, meter_id: int) -> Any:
        """A secured reset (§605a.8): the reset permission, a reason, a confirmation; the
        service does it and writes the audit log (table.meters.reset_meter)."""
        from django.contrib import messages
        from django.core.exceptions import PermissionDenied
        from django.shortcuts import get_object_or_404, redirect
        from django.template.response import TemplateResponse

        if not request.user.has_perm(meters.RESET_PERMISSION):
            raise PermissionDenied
        meter = get_object_or_404(ProgressiveMeter, pk=meter_id)
        problem = ""
        if request.method == "POST":
            try:
                meters.reset_meter(meter.pk, request.user, request.POST.get("reason", ""))
            except meters.MeterError as exc:
                problem = exc.message
            else:
                messages.success(request, f"{meter.name} was reset to its reseed.")
                return redirect("admin:table_progressivemeter_change", meter.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Reset {meter.name}",
            "opts": self.model._meta,
            "meter": meter,
            "reseed": meter.spec().reseed_amount(meter.wager),
            "problem": problem,
            "reason": request.POST.get("reason", ""),
        }
        return TemplateResponse(request, "admin/table/meter_reset.html", context)


@admin.register(MeterEvent)
class MeterEventAdmin(ReadOnlyAdmin):
    list_display = (
        "meter",
        "version",
        "kind",
        "created",
        "table",
        "round_number",
        "box",
        "player",
        "wager",
        "percent",
        "paid_dollars",
        "before",
        "after",
        "reseeded",
        "actor",
        "reason",
    )
    list_filter = ("kind", "meter", "table", "reseeded")
    list_select_related = ("meter", "table", "player", "actor")
    search_fields = ("player__username", "meter__name")

    @admin.display(description="paid")
    def paid_dollars(self, obj: MeterEvent) -> str:
        return dollars(obj.paid) if obj.kind == MeterEvent.HIT else "—"

    @admin.display(description="before (reserve)")
    def before(self, obj: MeterEvent) -> str:
        return f"{dollars(obj.amount_before)} ({dollars(obj.reserve_before)})"

    @admin.display(description="after (reserve)")
    def after(self, obj: MeterEvent) -> str:
        return f"{dollars(obj.amount_after)} ({dollars(obj.reserve_after)})"
