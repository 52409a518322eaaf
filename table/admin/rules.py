"""Rules Submissions: the form in dollars, the posted signs, the paytable mathematics.

One room past 500 lines: the Rules Submission admin is one screen, whichever game (Four Card
Frenzy's column form with its live mathematics, the other games' forms built from their rules
fields), and its parts call each other.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from table.games import FOUR_CARD_FRENZY, GAMES, game
from table.games.errors import InvalidInput
from table.games.four_card_frenzy.paytables import ODDS_PAYTABLE, PAYTABLES, PaytableKind, paytable
from table.games.four_card_frenzy.rules import (
    JURISDICTION_NAMES,
    PAYTABLE_FIELDS,
    Jurisdiction,
    TableRules,
    jurisdiction_paytables,
    parse_jurisdiction,
)

from .. import services
from ..models import (
    RulesSubmission,
    Table,
)
from ..money import DollarField, dollars
from ..paytable_report import flags as paytable_flags
from ..paytable_report import load_report
from .common import (
    _admin_link,
)
from .game_rules import choice_names, game_form, game_mathematics_html, game_signs_html

#: Form labels of the Rules Submission's money fields (stored as cents, typed in dollars).
MONEY_LABELS = {
    "payout_limit": "Aggregate payout limit per player per round, $ (§684a.12(g))",
    "ante_min": "Ante minimum, $ (Odds is always equal to the Ante)",
    "ante_max": "Ante maximum, $",
    "prime_min": "Prime minimum, $",
    "prime_max": "Prime maximum, $",
    "four_card_bonus_min": "Four Card Bonus minimum, $",
    "four_card_bonus_max": "Four Card Bonus maximum, $",
    "all_six_min": "All-Six Bonus minimum, $",
    "all_six_max": "All-Six Bonus maximum, $",
}
#: No single limit on this table is anywhere near ten million dollars: catch typos.
MAX_LIMIT_CENTS = 10_000_000_00

# --- Rules Submission ------------------------------------------------------------------------


def posted_sign_context(rules: TableRules) -> dict[str, Any]:
    """What the posted signs show (§684a.2(b)(4),(5)): each paytable the submission selects,
    the wagers offered and their limits, the payout limit."""
    signs = [
        {
            "title": "Odds Wager (player's hand equal to or better than the dealer's)",
            "name": "Odds",
            "source": ODDS_PAYTABLE.source,
            "rows": ODDS_PAYTABLE.as_posted(),
        }
    ]
    selected = [
        (
            "Odds Wager bad beat (player's straight or better loses)",
            PaytableKind.BAD_BEAT,
            rules.bad_beat_paytable,
            True,
        ),
        ("Prime Wager", PaytableKind.PRIME, rules.prime_paytable, rules.offers_prime),
        (
            "Four Card Bonus Wager",
            PaytableKind.FOUR_CARD_BONUS,
            rules.four_card_bonus_paytable,
            rules.offers_four_card_bonus,
        ),
        ("All-Six Bonus Wager", PaytableKind.ALL_SIX, rules.all_six_paytable, rules.offers_all_six),
    ]
    notes: list[str] = []
    for title, kind, name, offered in selected:
        if not offered:
            notes.append(f"{title}: not offered at this table.")
            continue
        try:
            table = paytable(kind, name)
        except InvalidInput as exc:
            notes.append(f"{title}: {exc.message}")
            continue
        signs.append(
            {
                "title": title,
                "name": f"paytable {table.name}",
                "source": table.source,
                "rows": table.as_posted(),
            }
        )
    limits = [("Ante and Odds (each)", rules.ante_min, rules.ante_max)]
    for wager, label in (
        ("prime", "Prime"),
        ("four_card_bonus", "Four Card Bonus"),
        ("all_six", "All-Six Bonus"),
    ):
        if rules.offers(wager):
            low, high = rules.limits(wager)
            limits.append((label, low, high))
    try:
        floor = dollars(rules.payout_limit_floor())
    except InvalidInput:
        floor = "(choose valid paytables first)"
    try:
        jurisdiction = JURISDICTION_NAMES[parse_jurisdiction(rules.jurisdiction)]
    except InvalidInput:
        jurisdiction = ""
    return {
        "signs": signs,
        "limits": limits,
        "floor": floor,
        "payout_limit": rules.payout_limit,
        "adjacent_boxes": rules.adjacent_boxes,
        "two_decks": rules.two_decks,
        "jurisdiction": jurisdiction,
        "notes": notes,
    }


def posted_sign_html(rules: TableRules) -> SafeString:
    return render_to_string("admin/table/posted_signs.html", posted_sign_context(rules))


_KIND_TITLES = (
    (PaytableKind.BAD_BEAT, "Bad beat (Odds Wager)"),
    (PaytableKind.PRIME, "Prime"),
    (PaytableKind.FOUR_CARD_BONUS, "Four Card Bonus"),
    (PaytableKind.ALL_SIX, "All-Six Bonus"),
)


def paytable_catalogue_html() -> SafeString:
    """Every paytable there is to choose from, by wager and jurisdiction."""
    sections = [
        {
            "title": title,
            "groups": [
                {
                    "jurisdiction": JURISDICTION_NAMES[where],
                    "tables": [
                        {"name": n, "source": t.source, "rows": t.as_posted()}
                        for n, t in PAYTABLES[kind].items()
                        if n in jurisdiction_paytables(where, kind)
                    ],
                }
                for where in Jurisdiction
            ],
        }
        for kind, title in _KIND_TITLES
    ]
    return render_to_string("admin/table/paytable_catalogue.html", {"sections": sections})


# --- paytable mathematics (issue #7), read from table/data/paytable_report.json ----------------

_MATH_KINDS = (
    ("bad_beat", "bad_beat_paytable", None, "Ante, Odds and Raise (bad beat table)"),
    ("prime", "prime_paytable", "offers_prime", "Prime"),
    ("four_card_bonus", "four_card_bonus_paytable", "offers_four_card_bonus", "Four Card Bonus"),
    ("all_six", "all_six_paytable", "offers_all_six", "All-Six Bonus"),
)


def _pct(x: float, places: int = 4) -> str:
    return f"{x * 100:.{places}f}%"


def math_figures(report: dict[str, Any]) -> dict[str, Any]:
    """Every selectable paytable's precomputed figures, for the live preview of the choices
    being edited (static/table/admin_rules.js): no recomputation, only look-ups."""
    flagged = {(f["kind"], f["name"]): f["reason"] for f in paytable_flags(report)}
    figures: dict[str, Any] = {"wagers": [], "jurisdictions": {}}
    for kind, field, offered, title in _MATH_KINDS:
        tables = {}
        for name, entry in report["wagers"][kind]["paytables"].items():
            tables[name] = {
                "house_edge": entry["house_edge"],
                "hit_frequency": entry.get("hit_frequency"),
                "element_of_risk": entry.get("element_of_risk"),
                "house_edge_per_initial_wager": entry.get("house_edge_per_initial_wager"),
                "flag": flagged.get((kind, name), ""),
            }
        figures["wagers"].append(
            {"kind": kind, "field": field, "offered": offered, "title": title, "tables": tables}
        )
    for where in Jurisdiction:
        figures["jurisdictions"][where.value] = {
            "name": JURISDICTION_NAMES[where],
            "tables": {
                field: list(jurisdiction_paytables(where, kind))
                for field, _wager, kind in PAYTABLE_FIELDS
            },
        }
    return figures


def mathematics_html(rules: RulesSubmission) -> SafeString:
    """House edge, hit frequency and row probabilities of the selected paytables, with a
    warning for any table outside the usual range (computed by exhaustive enumeration), and
    the place of the live preview of unsaved choices."""
    report = load_report()
    flagged = {(f["kind"], f["name"]): f["reason"] for f in paytable_flags(report)}
    parts = []
    for kind, field, offered, title in _MATH_KINDS:
        if offered and not getattr(rules, offered):
            continue
        name = getattr(rules, field)
        entry = report["wagers"][kind]["paytables"].get(name)
        if entry is None:
            continue
        rows = [
            {
                "label": r["label"],
                "payout": r["payout"],
                "probability": f"{r['probability']:.8f}",
                "one_in": f"{r.get('one_in', 0):,.1f}",
                "return": f"{r['return']:.6f}",
            }
            for r in entry.get("rows", [])
        ]
        parts.append(
            {
                "kind": kind,
                "title": title,
                "name": name,
                "entry": entry,
                "rows": rows,
                "warning": flagged.get((kind, name)),
            }
        )
    context = {
        "parts": parts,
        "figures_url": reverse("admin:table_rulessubmission_paytable_figures"),
        "report_url": reverse("admin:table_rulessubmission_paytable_report"),
    }
    return render_to_string("admin/table/mathematics.html", context)


class RulesSubmissionForm(forms.ModelForm):
    class Meta:
        model = RulesSubmission
        fields = "__all__"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, label in MONEY_LABELS.items():
            if name in self.fields:
                old = self.fields[name]
                self.fields[name] = DollarField(
                    label=label,
                    required=name != "payout_limit",
                    help_text=(
                        "Leave empty for no limit. Applies to Ante, Raise and Odds winnings "
                        "only; it may not be under the greater of $50,000 and the most one "
                        "player can win in one round at the table minimum."
                        if name == "payout_limit"
                        else old.help_text
                    ),
                    max_cents=MAX_LIMIT_CENTS,
                )
        if "game" in self.fields:
            self.fields["game"].required = False  # a form without it: Four Card Frenzy

    def clean_game(self) -> str:
        return str(self.cleaned_data.get("game") or FOUR_CARD_FRENZY)


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(admin.ModelAdmin):
    form = RulesSubmissionForm
    list_display = (
        "name",
        "game",
        "jurisdiction",
        "bad_beat_paytable",
        "prime_offered",
        "four_card_bonus_offered",
        "all_six_offered",
        "ante_limits",
        "payout_limit_dollars",
        "adjacent_boxes",
        "in_force_at",
    )
    list_filter = ("game", "jurisdiction")
    search_fields = ("name",)
    readonly_fields = (
        "posted_signs",
        "mathematics",
        "game_signs",
        "game_mathematics",
        "paytable_catalogue",
        "in_force_at",
        "created",
        "updated",
    )
    fieldsets = (
        (None, {"fields": ("name", "game", "jurisdiction")}),
        (
            "Paytables (§684a.12) and optional wagers offered (§684a.7(d))",
            {
                "fields": (
                    "bad_beat_paytable",
                    ("offers_prime", "prime_paytable"),
                    ("offers_four_card_bonus", "four_card_bonus_paytable"),
                    ("offers_all_six", "all_six_paytable"),
                )
            },
        ),
        (
            "House edge of the paytables: the choices on this form, and the saved values",
            {"fields": ("mathematics",)},
        ),
        (
            "Limits, in dollars",
            {
                "fields": (
                    ("ante_min", "ante_max"),
                    ("prime_min", "prime_max"),
                    ("four_card_bonus_min", "four_card_bonus_max"),
                    ("all_six_min", "all_six_max"),
                    "payout_limit",
                    "adjacent_boxes",
                )
            },
        ),
        ("Table play", {"fields": ("two_decks", "decision_seconds", "betting_seconds")}),
        (
            "As posted at the table (§684a.2(b)(4),(5)) — saved values",
            {"fields": ("posted_signs", "paytable_catalogue")},
        ),
        ("Use", {"fields": ("in_force_at", "created", "updated")}),
    )

    class Media:
        css = {"all": ("table/admin.css",)}
        js = ("table/admin_rules.js",)

    def game_of(self, request: HttpRequest, obj: RulesSubmission | None) -> str:
        """The game whose choices the page shows: the submission's own; on the add page the
        one chosen (``?game=``, or the form posted), Four Card Frenzy unless another is."""
        if obj is not None:
            return obj.game
        name = request.POST.get("game") or request.GET.get("game") or FOUR_CARD_FRENZY
        return name if name in GAMES else FOUR_CARD_FRENZY

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A submission keeps its game: its tables run that game (a new game, a new one).
        if obj is not None:
            return (*self.readonly_fields, "game")
        return self.readonly_fields

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        name = self.game_of(request, obj)
        if name == FOUR_CARD_FRENZY:
            return self.fieldsets
        g = game(name)
        return (
            (None, {"fields": ("name", "game")}),
            (f"Choices ({g.regulation})", {"fields": choice_names(name)}),
            ("As posted at the table — saved values", {"fields": ("game_signs",)}),
            ("House edge of the wagers offered — saved values", {"fields": ("game_mathematics",)}),
            ("Use", {"fields": ("in_force_at", "created", "updated")}),
        )

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        name = self.game_of(request, obj)
        if name != FOUR_CARD_FRENZY:
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
                notice = services.rules_edited(table_id, staff=request.user).response
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

    @admin.display(description="posted signs")
    def posted_signs(self, obj: RulesSubmission) -> SafeString:
        return posted_sign_html(obj.to_table_rules())

    @admin.display(description="mathematics")
    def mathematics(self, obj: RulesSubmission) -> SafeString:
        return mathematics_html(obj)

    def get_urls(self) -> list[Any]:
        report = path(
            "paytable-report/",
            self.admin_site.admin_view(self.paytable_report_view),
            name="table_rulessubmission_paytable_report",
        )
        figures = path(
            "paytable-figures.json",
            self.admin_site.admin_view(self.paytable_figures_view),
            name="table_rulessubmission_paytable_figures",
        )
        return [report, figures, *super().get_urls()]

    def paytable_figures_view(self, request: HttpRequest) -> JsonResponse:
        """Every option's exact figures and each jurisdiction's tables, for the live preview
        of the choices being edited (static/table/admin_rules.js)."""
        return JsonResponse(math_figures(load_report()))

    def paytable_report_view(self, request: HttpRequest) -> HttpResponse:
        """Every selectable paytable: hit frequency, house edge, flags, computation times."""
        report = load_report()
        sections = []
        flagged = {(f["kind"], f["name"]): f["reason"] for f in paytable_flags(report)}
        for kind, _field, _offered, title in _MATH_KINDS:
            section = report["wagers"][kind]
            rows = []
            for name, entry in section["paytables"].items():
                rows.append(
                    {
                        "name": name,
                        "source": entry.get("source", ""),
                        "hit": _pct(entry["hit_frequency"]),
                        "edge": _pct(entry["house_edge"]),
                        "risk": _pct(entry["element_of_risk"])
                        if "element_of_risk" in entry
                        else "",
                        "flag": flagged.get((kind, name), ""),
                    }
                )
            sections.append(
                {
                    "title": title,
                    "kind": kind,
                    "population": section.get("population", ""),
                    "seconds": section.get("seconds"),
                    "rows": rows,
                    "strategy": next(iter(section["paytables"].values()))
                    .get("strategy", {})
                    .get("words", []),
                }
            )
        context = {
            **self.admin_site.each_context(request),
            "title": "Paytable mathematics",
            "opts": self.model._meta,
            "sections": sections,
            "method": report.get("method", ""),
        }
        return TemplateResponse(request, "admin/table/paytable_report.html", context)

    @admin.display(description="every paytable to choose from")
    def paytable_catalogue(self, obj: RulesSubmission) -> SafeString:
        return paytable_catalogue_html()

    @admin.display(description="Prime")
    def prime_offered(self, obj: RulesSubmission) -> str:
        if obj.game != FOUR_CARD_FRENZY:
            return "—"
        return obj.prime_paytable if obj.offers_prime else "not offered"

    @admin.display(description="Four Card Bonus")
    def four_card_bonus_offered(self, obj: RulesSubmission) -> str:
        if obj.game != FOUR_CARD_FRENZY:
            return "—"
        return obj.four_card_bonus_paytable if obj.offers_four_card_bonus else "not offered"

    @admin.display(description="All-Six")
    def all_six_offered(self, obj: RulesSubmission) -> str:
        if obj.game != FOUR_CARD_FRENZY:
            return "—"
        return obj.all_six_paytable if obj.offers_all_six else "not offered"

    @admin.display(description="Ante")
    def ante_limits(self, obj: RulesSubmission) -> str:
        if obj.game != FOUR_CARD_FRENZY:
            low, high = (obj.choices or {}).get("ante_min"), (obj.choices or {}).get("ante_max")
            return f"{dollars(low)} – {dollars(high)}" if low and high else "—"
        return f"{dollars(obj.ante_min)} – {dollars(obj.ante_max)}"

    @admin.display(description="payout limit", ordering="payout_limit")
    def payout_limit_dollars(self, obj: RulesSubmission) -> str:
        if obj.game != FOUR_CARD_FRENZY:
            return "no limit"  # the chapters after 684a set none
        return dollars(obj.payout_limit, none="no limit")

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
