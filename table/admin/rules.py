"""Rules Submissions: the form in dollars, the posted signs, the paytable mathematics."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from table.engine.errors import InvalidInput
from table.engine.paytables import ODDS_PAYTABLE, PAYTABLES, PaytableKind, paytable
from table.engine.rules import TableRules

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


def posted_sign_html(rules: TableRules) -> SafeString:
    """Each paytable the submission selects, in full, as the posted sign shows it
    (§684a.2(b)(4),(5)), with the wagers offered, their limits and the payout limit."""
    signs: list[tuple[str, str, str, list[tuple[str, str]]]] = [
        (
            "Odds Wager (player's hand equal to or better than the dealer's)",
            "Odds",
            ODDS_PAYTABLE.source,
            ODDS_PAYTABLE.as_posted(),
        ),
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
        signs.append((title, f"paytable {table.name}", table.source, table.as_posted()))
    parts = [
        format_html(
            '<table class="posted-sign" style="margin: 0 1.5em 1em 0; display: inline-table; '
            'vertical-align: top"><caption style="text-align: left; font-weight: bold">{}'
            '<br><small>{} — {}</small></caption><thead><tr><th scope="col">Hand</th>'
            '<th scope="col">Pays</th></tr></thead><tbody>{}</tbody></table>',
            title,
            name,
            source,
            format_html_join("", "<tr><td>{}</td><td>{}</td></tr>", rows),
        )
        for title, name, source, rows in signs
    ]
    limits = [("Ante and Odds (each)", rules.ante_min, rules.ante_max)]
    for wager, label in (
        ("prime", "Prime"),
        ("four_card_bonus", "Four Card Bonus"),
        ("all_six", "All-Six Bonus"),
    ):
        if rules.offers(wager):
            low, high = rules.limits(wager)
            limits.append((label, low, high))
    limit_rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
        ((label, dollars(low), dollars(high)) for label, low, high in limits),
    )
    try:
        floor = dollars(rules.payout_limit_floor())
    except InvalidInput:
        floor = "(choose valid paytables first)"
    if rules.payout_limit is None:
        payout = format_html(
            "No payout limit. If one is set it may not be under {}: the greater of $50,000 "
            "and the most one player can win in one round at the table minimum (§684a.12(g)).",
            floor,
        )
    else:
        payout = format_html(
            "A player's aggregate winnings on Ante, Raise and Odds (bad beats included) in one "
            "round, over all the boxes they play, are limited to <strong>{}</strong> "
            "(§684a.12(g)). Prime, Four Card Bonus and All-Six payouts are not limited. "
            "Lowest limit allowed here: {}.",
            dollars(rules.payout_limit),
            floor,
        )
    return format_html(
        '<div class="posted-signs">{}</div>'
        '<table style="margin-bottom: 1em"><caption style="text-align: left; '
        'font-weight: bold">Wager limits</caption><thead><tr><th scope="col">Wager</th>'
        '<th scope="col">Minimum</th><th scope="col">Maximum</th></tr></thead>'
        "<tbody>{}</tbody></table>"
        "<p><strong>Payout limit:</strong> {}</p>"
        "<p>A player may play up to {} adjacent box(es) (§684a.7(e)). {}</p>{}",
        format_html_join("", "{}", ((p,) for p in parts)),
        limit_rows,
        payout,
        rules.adjacent_boxes,
        "Two decks of different back colours alternate in the automated shuffler (§684a.3(b))."
        if rules.two_decks
        else "One deck, reshuffled after every round.",
        format_html_join("", '<p class="help">{}</p>', ((n,) for n in notes)),
    )


def paytable_catalogue_html() -> SafeString:
    """Every paytable there is to choose from, to compare before selecting."""
    sections = []
    for kind, title in (
        (PaytableKind.BAD_BEAT, "Bad beat (Odds Wager)"),
        (PaytableKind.PRIME, "Prime"),
        (PaytableKind.FOUR_CARD_BONUS, "Four Card Bonus"),
        (PaytableKind.ALL_SIX, "All-Six Bonus"),
    ):
        tables = format_html_join(
            "",
            '<table style="display: inline-table; vertical-align: top; margin: 0 1em 1em 0">'
            '<caption style="text-align: left"><strong>{}</strong> <small>{}</small></caption>'
            "<tbody>{}</tbody></table>",
            (
                (
                    t.name,
                    t.source,
                    format_html_join("", "<tr><td>{}</td><td>{}</td></tr>", t.as_posted()),
                )
                for t in PAYTABLES[kind].values()
            ),
        )
        sections.append(format_html("<details><summary>{}</summary>{}</details>", title, tables))
    return format_html_join("", "{}", ((s,) for s in sections))


# --- paytable mathematics (issue #7), read from table/data/paytable_report.json ----------------

_MATH_KINDS = (
    ("bad_beat", "bad_beat_paytable", None, "Ante, Odds and Raise (bad beat table)"),
    ("prime", "prime_paytable", "offers_prime", "Prime"),
    ("four_card_bonus", "four_card_bonus_paytable", "offers_four_card_bonus", "Four Card Bonus"),
    ("all_six", "all_six_paytable", "offers_all_six", "All-Six Bonus"),
)


def _pct(x: float, places: int = 4) -> str:
    return f"{x * 100:.{places}f}%"


def mathematics_html(rules: RulesSubmission) -> SafeString:
    """House edge, hit frequency and row probabilities of the selected paytables, with a
    warning for any table outside the usual range (computed by exhaustive enumeration)."""
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
        if kind == "bad_beat":
            head = format_html(
                "house edge {} of the Ante ({} of Ante + Odds), element of risk {}",
                _pct(entry["house_edge"]),
                _pct(entry["house_edge_per_initial_wager"]),
                _pct(entry["element_of_risk"]),
            )
            detail = format_html(
                "<p>Optimal strategy:</p><ul>{}</ul>",
                format_html_join("", "<li>{}</li>", ((w,) for w in entry["strategy"]["words"])),
            )
        else:
            head = format_html(
                "hit frequency {}, house edge {}",
                _pct(entry["hit_frequency"]),
                _pct(entry["house_edge"]),
            )
            detail = format_html(
                "<table><thead><tr><th>hand</th><th>pays</th><th>probability</th>"
                "<th>one in</th><th>return</th></tr></thead><tbody>{}</tbody></table>",
                format_html_join(
                    "",
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    (
                        (
                            r["label"],
                            r["payout"],
                            f"{r['probability']:.8f}",
                            f"{r.get('one_in', 0):,.1f}",
                            f"{r['return']:.6f}",
                        )
                        for r in entry["rows"]
                    ),
                ),
            )
        warning = flagged.get((kind, name))
        parts.append(
            format_html(
                '<div style="margin-bottom:1em"><strong>{} — table {}</strong>: {}{}{}</div>',
                title,
                name,
                head,
                format_html('<p class="errornote" role="alert">⚠ {}</p>', warning)
                if warning
                else "",
                detail,
            )
        )
    return format_html(
        '{}<p><a href="{}">Every selectable paytable compared</a> (exhaustive enumeration, '
        "not simulation).</p>",
        format_html_join("", "{}", ((p,) for p in parts)),
        reverse("admin:table_rulessubmission_paytable_report"),
    )


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


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(admin.ModelAdmin):
    form = RulesSubmissionForm
    list_display = (
        "name",
        "bad_beat_paytable",
        "prime_offered",
        "four_card_bonus_offered",
        "all_six_offered",
        "ante_limits",
        "payout_limit_dollars",
        "adjacent_boxes",
        "in_force_at",
    )
    search_fields = ("name",)
    readonly_fields = (
        "posted_signs",
        "mathematics",
        "paytable_catalogue",
        "in_force_at",
        "created",
        "updated",
    )
    fieldsets = (
        (None, {"fields": ("name",)}),
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
        ("House edge of the selected paytables — saved values", {"fields": ("mathematics",)}),
        ("Use", {"fields": ("in_force_at", "created", "updated")}),
    )

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
        return [report, *super().get_urls()]

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
        return obj.prime_paytable if obj.offers_prime else "not offered"

    @admin.display(description="Four Card Bonus")
    def four_card_bonus_offered(self, obj: RulesSubmission) -> str:
        return obj.four_card_bonus_paytable if obj.offers_four_card_bonus else "not offered"

    @admin.display(description="All-Six")
    def all_six_offered(self, obj: RulesSubmission) -> str:
        return obj.all_six_paytable if obj.offers_all_six else "not offered"

    @admin.display(description="Ante")
    def ante_limits(self, obj: RulesSubmission) -> str:
        return f"{dollars(obj.ante_min)} – {dollars(obj.ante_max)}"

    @admin.display(description="payout limit", ordering="payout_limit")
    def payout_limit_dollars(self, obj: RulesSubmission) -> str:
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
