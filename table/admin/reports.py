"""The back office in the admin: the table games report (by table, game, paytable, gaming day
or shift, any range of gaming days) with its charts and CSV export. Read-only: whoever may
view the report (``table.view_wagershift``: compliance, table games managers) reads it and
changes nothing (docs/backoffice.md)."""

from __future__ import annotations

import csv
import datetime as dt
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.template.response import TemplateResponse
from django.utils import timezone

from .. import reports, rollup
from ..games import GAME_TITLES
from ..models import Table, WagerShift
from .common import ReadOnlyAdmin

#: Up to this many rows of a report, each one's wager types are shown under the summary.
DETAIL_MOST = 12


def today() -> dt.date:
    """The casino's current gaming day."""
    return rollup.gaming_day_and_shift(timezone.now())[0]


class RangeForm(forms.Form):
    first = forms.DateField(label="first gaming day", required=False)
    last = forms.DateField(label="last gaming day", required=False)
    by = forms.ChoiceField(
        choices=[(g, g) for g in reports.GROUPS], required=False, initial="table"
    )
    table = forms.ModelChoiceField(Table.objects.all(), required=False, empty_label="every table")
    game = forms.ChoiceField(choices=[("", "every game"), *GAME_TITLES.items()], required=False)

    def range(self) -> tuple[dt.date, dt.date]:
        data = self.cleaned_data if self.is_valid() else {}
        last = data.get("last") or today()
        first = data.get("first") or last - dt.timedelta(days=6)
        return first, last


def csv_response(name: str, rows: Any) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    writer = csv.writer(response)
    for row in rows:
        writer.writerow(row)
    return response


def chart(
    title: str, labels: list[str], series: list[tuple[str, list[Any], str]], unit: str
) -> dict[str, Any]:
    """A chart for static/backoffice/charts.js: x labels, and each series' name, values (None:
    no point) and style ("actual", "theory", "band"); ``unit`` "percent" or "dollars"."""
    return {
        "title": title,
        "labels": labels,
        "unit": unit,
        "series": [{"label": n, "values": v, "style": st} for n, v, st in series],
    }


def report_charts(report: reports.Report) -> list[dict[str, Any]]:
    """Hold and return to player over time (one point per gaming day or shift)."""
    labels = [g.label for g in report.groups]
    bands = [g.band for g in report.groups]
    when = "shift" if report.by == "shift" else "day"
    return [
        chart(
            f"Hold by gaming {when}",
            labels,
            [
                ("actual hold", [g.hold for g in report.groups], "actual"),
                ("theoretical hold", [g.theoretical_hold for g in report.groups], "theory"),
            ],
            "percent",
        ),
        chart(
            f"Return to player by gaming {when}, with its {reports.Z}σ band",
            labels,
            [
                ("actual RTP", [g.rtp for g in report.groups], "actual"),
                ("theoretical RTP", [g.theoretical_rtp for g in report.groups], "theory"),
                ("band low", [b[0] if b else None for b in bands], "band"),
                ("band high", [b[1] if b else None for b in bands], "band"),
            ],
            "percent",
        ),
    ]


@admin.register(WagerShift)
class TableGamesReportAdmin(ReadOnlyAdmin):
    """The table games report in place of a list of roll-up rows; the meters report and the
    player history beside it (same permission: reading the back office)."""

    def get_urls(self) -> list[Any]:
        return _urls(self) + super().get_urls()

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        if not self.has_view_permission(request):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET"])  # the back office only reads
        form = RangeForm(request.GET or None)
        first, last = form.range()
        data = form.cleaned_data if form.is_valid() else {}
        by = data.get("by") or "table"
        table = data.get("table")
        problem = ""
        try:
            report = reports.build(
                first, last, by, [table.pk] if table else None, data.get("game") or None
            )
        except ValueError as exc:
            problem = str(exc)
            report = reports.build(first, first, by, [], None)
        if request.GET.get("format") == "csv":
            return csv_response(f"table-games-{by}-{first}-{last}", reports.csv_rows(report))
        over_time = report
        if by not in ("day", "shift") and not problem:
            over_time = reports.build(
                first, last, "day", [table.pk] if table else None, data.get("game") or None
            )
        query = request.GET.copy()
        query["format"] = "csv"
        context = {
            **self.admin_site.each_context(request),
            "title": "Table games report",
            "opts": self.model._meta,
            "form": form,
            "report": report,
            "rows": [*report.groups, report.total],
            # Each row's wager types while they fit a page; the total's always.
            "details": [*report.groups, report.total]
            if len(report.groups) <= DETAIL_MOST
            else [report.total],
            "detail_most": DETAIL_MOST,
            "problem": problem,
            "first": first,
            "last": last,
            "csv_query": query.urlencode(),
            "charts": report_charts(over_time),
            "casino_zone": settings.TIME_ZONE,
            "z": reports.Z,
        }
        return TemplateResponse(request, "admin/table/backoffice/report.html", context)


class MomentForm(forms.Form):
    first = forms.DateField(label="from gaming day", required=False)
    last = forms.DateField(label="to gaming day (standing at its end)", required=False)

    def bounds(self) -> tuple[dt.datetime, dt.datetime]:
        data = self.cleaned_data if self.is_valid() else {}
        last = data.get("last") or today()
        first = data.get("first") or last - dt.timedelta(days=29)
        begin, end = rollup.day_bounds(min(first, last), last)
        return begin, min(end, timezone.now()) if last >= today() else end


class PlayerForm(MomentForm):
    player = forms.CharField(label="player (username)", required=True)


def _meters_view(admin_: TableGamesReportAdmin, request: HttpRequest) -> HttpResponse:
    from .. import backoffice

    form = MomentForm(request.GET or None)
    first, last = form.bounds()
    lines = backoffice.meter_report(first, last)
    if request.GET.get("format") == "csv":
        rows: list[list[Any]] = [
            [
                "meter",
                "kind",
                "paytable",
                "wager",
                "amount",
                "reserve",
                "liability",
                "increments",
                "increment rounds",
                "hits",
                "paid",
                "seed and reseeds funded",
                "resets by staff",
            ]
        ]
        for m in lines:
            rows.append(
                [
                    m.meter.name,
                    m.meter.kind,
                    m.meter.paytable,
                    f"{m.meter.wager / 100:.2f}",
                    f"{m.amount / 100:.2f}",
                    f"{m.reserve / 100:.2f}",
                    f"{m.liability / 100:.2f}",
                    f"{m.increments / 100:.2f}",
                    m.increment_count,
                    len(m.hits),
                    f"{m.paid / 100:.2f}",
                    f"{m.funded / 100:.2f}",
                    m.resets,
                ]
            )
        rows.append([])
        rows.append(
            [
                "seed or reset: meter",
                "when",
                "what",
                "by",
                "reason",
                "amount before",
                "amount after",
                "funded by the house",
            ]
        )
        for m in lines:
            for e in m.funding:
                rows.append(
                    [
                        m.meter.name,
                        timezone.localtime(e.created).isoformat(),
                        e.get_kind_display(),
                        e.actor.get_username() if e.actor else "",
                        e.reason,
                        f"{e.amount_before / 100:.2f}",
                        f"{e.amount_after / 100:.2f}",
                        f"{e.funded / 100:.2f}",
                    ]
                )
        rows.append([])
        rows.append(
            [
                "hit: meter",
                "when",
                "table",
                "round",
                "box",
                "player",
                "wager",
                "percent",
                "paid",
                "amount before",
                "amount after",
                "reset to reseed",
            ]
        )
        for m in lines:
            for h in m.hits:
                rows.append(
                    [
                        m.meter.name,
                        timezone.localtime(h.created).isoformat(),
                        h.table.name if h.table else "",
                        h.round_number,
                        h.box,
                        h.player.get_username() if h.player else "",
                        h.wager,
                        h.percent,
                        f"{h.paid / 100:.2f}",
                        f"{h.amount_before / 100:.2f}",
                        f"{h.amount_after / 100:.2f}",
                        "yes" if h.reseeded else "no",
                    ]
                )
        return csv_response(f"progressive-meters-{first.date()}-{last.date()}", rows)
    series = backoffice.meter_series(first, last)
    query = request.GET.copy()
    query["format"] = "csv"
    context = {
        **admin_.admin_site.each_context(request),
        "title": "Progressive meters",
        "opts": admin_.model._meta,
        "form": form,
        "lines": lines,
        "first": first,
        "last": last,
        "liability": sum(m.liability for m in lines),
        "csv_query": query.urlencode(),
        "casino_zone": settings.TIME_ZONE,
        "charts": [
            chart(
                "Meter amounts over the period",
                series["labels"],
                [(name, values, "actual") for name, values in series["series"]],
                "dollars",
            )
        ]
        if series["series"]
        else [],
    }
    return TemplateResponse(request, "admin/table/backoffice/meters.html", context)


def _player_view(admin_: TableGamesReportAdmin, request: HttpRequest) -> HttpResponse:
    from django.contrib.auth import get_user_model

    from .. import backoffice

    form = PlayerForm(request.GET or None)
    context: dict[str, Any] = {
        **admin_.admin_site.each_context(request),
        "title": "Player history",
        "opts": admin_.model._meta,
        "form": form,
        "casino_zone": settings.TIME_ZONE,
    }
    if form.is_valid():
        name = form.cleaned_data["player"].strip()
        first, last = form.bounds()
        context.update(first=first, last=last, player=name)
        if not get_user_model().objects.filter(username=name).exists():
            context["problem"] = f"There is no player {name!r}."
        else:
            user, sessions, rounds, entries = backoffice.player_history(name, first, last)
            if request.GET.get("format") == "csv":
                rows: list[list[Any]] = [
                    ["when", "memo", "table", "round", "box", "wager", "amount"]
                ]
                for e in entries:
                    rows.append(
                        [
                            timezone.localtime(e["when"]).isoformat(),
                            e["memo"],
                            e["table"],
                            e["round"] or "",
                            e["box"] or "",
                            e["wager"],
                            f"{e['amount'] / 100:.2f}",
                        ]
                    )
                return csv_response(f"player-{name}-{first.date()}-{last.date()}", rows)
            query = request.GET.copy()
            query["format"] = "csv"
            query.pop("session", None)
            context.update(
                sessions=sessions,
                rounds=rounds,
                entries=entries,
                ledger_total=sum(e["amount"] for e in entries),
                csv_query=query.urlencode(),
            )
            chosen = request.GET.get("session", "")
            if chosen:
                try:
                    ids = [int(x) for x in chosen.split(",") if x]
                except ValueError:
                    ids = []
                context["recreated"] = backoffice.recreate_session(name, ids)
    return TemplateResponse(request, "admin/table/backoffice/player.html", context)


def _urls(admin_: TableGamesReportAdmin) -> list[Any]:
    from django.urls import path

    def guarded(view: Any) -> Any:
        def run(request: HttpRequest) -> HttpResponse:
            if not admin_.has_view_permission(request):
                from django.core.exceptions import PermissionDenied

                raise PermissionDenied
            if request.method not in ("GET", "HEAD"):
                return HttpResponseNotAllowed(["GET"])
            response: HttpResponse = view(admin_, request)
            return response

        return admin_.admin_site.admin_view(run)

    return [
        path("meters/", guarded(_meters_view), name="backoffice_meters"),
        path("player/", guarded(_player_view), name="backoffice_player"),
    ]
