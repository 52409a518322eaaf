"""The casino's side: Rules Submissions, tables, the round store, the ledger.

Money is stored in integer cents and shown and typed here in dollars. History (rounds, their
events, ledger transactions) is read-only. A table's Rules Submission and its open/closed state
change through :mod:`table.services`, like every other table command, so that a change made
while a round is in play waits for the round to end and every round keeps the rules it was
played under.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Model, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from table.engine.errors import InvalidInput
from table.engine.paytables import ODDS_PAYTABLE, PAYTABLES, PaytableKind, paytable
from table.engine.round import PUBLIC, Phase
from table.engine.rules import TableRules
from table.engine.shoe import DECK_LIFETIME_SECONDS, Shuffler

from . import duties, ledger, services
from .admin_duties import HASH_HIDDEN, HIDDEN_IN_PLAY, IN_PLAY, NoSecretLookups, secret_from
from .models import (
    Account,
    BoxRecord,
    CommandRecord,
    Entry,
    LedgerTransaction,
    Round,
    RoundEvent,
    RulesSubmission,
    Seat,
    SettlementLine,
    Table,
)
from .money import DollarField, dollars
from .paytable_report import flags as paytable_flags
from .paytable_report import load_report

admin.site.site_header = "Four Card Frenzy — casino administration"
admin.site.site_title = "Four Card Frenzy admin"
admin.site.index_title = "Rules Submissions, tables, rounds and the ledger"

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

WAGER_LABELS = {
    "ante": "Ante",
    "odds": "Odds",
    "raise": "Raise",
    "prime": "Prime",
    "four_card_bonus": "Four Card Bonus",
    "all_six": "All-Six Bonus",
}


def _link(viewname: str, args: list[Any], text: object) -> SafeString | str:
    try:
        return format_html('<a href="{}">{}</a>', reverse(viewname, args=args), text)
    except NoReverseMatch:
        return str(text)


def _admin_link(obj: Model | None, text: object | None = None) -> SafeString | str:
    if obj is None:
        return "—"
    meta = obj._meta
    return _link(f"admin:{meta.app_label}_{meta.model_name}_change", [obj.pk], text or obj)


def _pretty_json(value: object) -> SafeString:
    return format_html(
        '<pre style="white-space: pre-wrap; max-height: 30em; overflow: auto">{}</pre>',
        json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False),
    )


def _wagers_text(wagers: dict[str, int]) -> str:
    return (
        ", ".join(f"{WAGER_LABELS.get(k, k)} {dollars(v)}" for k, v in wagers.items() if v) or "—"
    )


class ReadOnlyAdmin(admin.ModelAdmin):
    """History: can be looked at, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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


class TableAdminForm(forms.ModelForm):
    class Meta:
        model = Table
        fields = ("name", "is_open", "rules")

    def clean_rules(self) -> RulesSubmission:
        rules: RulesSubmission = self.cleaned_data["rules"]
        problems = rules.to_table_rules().problems()
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
            if phase not in (None, Phase.BETTING.value, Phase.SETTLED.value, Phase.VOID.value):
                raise forms.ValidationError(
                    f"A round is in play ({phase}): finish it before closing the table."
                )
        return is_open


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableAdminForm
    list_display = (
        "name",
        "is_open",
        "rules",
        "pending_rules",
        "current_round_link",
        "decks_summary",
        "rounds_since_stub_count",
        "version",
    )
    list_filter = ("is_open",)
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
        (None, {"fields": ("name", "is_open")}),
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
            return
        changed = set(form.changed_data)
        if "name" in changed:
            Table.objects.filter(pk=obj.pk).update(name=obj.name)
        try:
            if "rules" in changed:
                result = services.change_rules(obj.pk, obj.rules, staff=request.user)
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
                    services.open_table(obj.pk, request.user)
                else:
                    services.close_table(obj.pk, request.user)
        except services.ServiceError as exc:
            messages.error(request, f"Not changed: {exc.message}")
        obj.refresh_from_db()

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
                services.change_decks(table.pk, request.user)
                messages.success(request, f"New decks are in play at {table.name}.")
            except services.ServiceError as exc:
                messages.error(request, f"{table.name}: {exc.message}")


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
class RoundAdmin(NoSecretLookups, ReadOnlyAdmin):
    secret_fields = ("state",)  # the shoe order and every stack, while the round is in play

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
class RoundEventAdmin(NoSecretLookups, ReadOnlyAdmin):
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
    secret_fields = ("data", "hash", "prev_hash")

    @admin.display(description="data")
    def payload(self, obj: RoundEvent) -> SafeString | str:
        in_play = obj.round_id is not None and obj.round.phase in IN_PLAY
        if in_play and obj.audience != PUBLIC:
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
    def answer(self, obj: CommandRecord) -> SafeString:
        return _pretty_json(obj.response)


# --- The ledger ----------------------------------------------------------------------------


class CreditForm(forms.Form):
    amount = DollarField(
        label="Amount to credit to each selected player, $",
        max_cents=1_000_000_00,
        help_text="Moved from the cage to the player's account (double-entry).",
    )
    memo = forms.CharField(max_length=100, initial="credit from the cage")

    def clean_amount(self) -> int:
        amount: int = self.cleaned_data["amount"]
        if amount <= 0:
            raise forms.ValidationError("A credit must be more than $0.00.")
        return amount


def credit_players(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    users: list[Any],
    action: str,
    selected: list[str],
) -> HttpResponse | None:
    """The "credit a player" action: a form in dollars, then ledger.credit in cents."""
    if not users:
        modeladmin.message_user(
            request, "Only player accounts can be credited.", level=messages.WARNING
        )
        return None
    if "apply" in request.POST:
        form = CreditForm(request.POST)
        if form.is_valid():
            amount, memo = form.cleaned_data["amount"], form.cleaned_data["memo"]
            credited = []
            for user in users:
                # The cashier's duty: checked (never one's own account) and audited.
                try:
                    ledger.credit(user, amount, memo, by=request.user)
                except duties.DutyError as refused:
                    modeladmin.message_user(
                        request,
                        f"Not credited to {user.get_username()}: {refused.message}",
                        level=messages.ERROR,
                    )
                    continue
                credited.append(user.get_username())
            if credited:
                modeladmin.message_user(
                    request,
                    f"Credited {dollars(amount)} to {', '.join(credited)}.",
                    level=messages.SUCCESS,
                )
            return None
    else:
        form = CreditForm()
    balances = {a.user_id: a.balance for a in Account.objects.filter(user__in=users)}
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": "Credit play money",
        "form": form,
        "players": [(u.get_username(), dollars(balances.get(u.pk, 0))) for u in users],
        "action": action,
        "selected": selected,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/table/credit.html", context)


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = ("account_link", "amount_dollars")
    readonly_fields = fields

    @admin.display(description="account")
    def account_link(self, obj: Entry) -> SafeString | str:
        return _admin_link(obj.account, obj.account.name)

    @admin.display(description="amount")
    def amount_dollars(self, obj: Entry) -> str:
        return dollars(obj.amount, signed=True)


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("name", "kind", "user", "table", "balance_dollars")
    list_filter = ("kind",)
    search_fields = ("name", "user__username")
    fields = ("name", "kind", "user", "table", "balance_dollars", "entries_total", "recent_entries")
    readonly_fields = ("balance_dollars", "entries_total", "recent_entries")
    actions = ("credit",)

    def has_credit_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(duties.CREDIT_PERMISSION)  # the cashier's duty

    @admin.display(description="balance", ordering="balance")
    def balance_dollars(self, obj: Account) -> str:
        return dollars(obj.balance)

    @admin.display(description="sum of its ledger entries")
    def entries_total(self, obj: Account) -> str:
        total = obj.entries.aggregate(t=Sum("amount"))["t"] or 0
        flag = "" if total == obj.balance else " — DOES NOT MATCH THE BALANCE"
        return dollars(total) + flag

    @admin.display(description="last 20 entries")
    def recent_entries(self, obj: Account) -> SafeString | str:
        entries = obj.entries.select_related("transaction").order_by("-id")[:20]
        if not entries:
            return "none"
        return format_html(
            "<table><tbody>{}</tbody></table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                (
                    (
                        _admin_link(e.transaction, f"#{e.transaction_id}"),
                        e.transaction.memo,
                        dollars(e.amount, signed=True),
                    )
                    for e in entries
                ),
            ),
        )

    @admin.action(description="Credit play money to the selected players", permissions=["credit"])
    def credit(self, request: HttpRequest, queryset: QuerySet[Account]) -> HttpResponse | None:
        accounts = list(
            queryset.filter(kind=Account.PLAYER, user__isnull=False).select_related("user")
        )
        return credit_players(
            self,
            request,
            [a.user for a in accounts],
            "credit",
            [str(pk) for pk in queryset.values_list("pk", flat=True)],
        )


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("id", "created", "memo", "table", "round_link", "box", "wager", "amount")
    list_filter = ("memo", "wager", "table")
    search_fields = ("memo",)
    list_select_related = ("table", "round", "round__table")
    fields = ("created", "memo", "table", "round_link", "box", "wager", "amount")
    readonly_fields = ("round_link", "amount")
    inlines = (EntryInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[LedgerTransaction]:
        return super().get_queryset(request).prefetch_related("entries")

    @admin.display(description="round")
    def round_link(self, obj: LedgerTransaction) -> SafeString | str:
        return _admin_link(obj.round) if obj.round_id else "—"

    @admin.display(description="amount moved")
    def amount(self, obj: LedgerTransaction) -> str:
        return dollars(sum(e.amount for e in obj.entries.all() if e.amount > 0))


# --- Users: balances and credits next to the logins --------------------------------------------

User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class PlayerUserAdmin(UserAdmin):
    list_display = (*UserAdmin.list_display, "balance")
    actions = ("credit",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).select_related("account")

    def has_credit_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(duties.CREDIT_PERMISSION)  # the cashier's duty

    @admin.display(description="balance")
    def balance(self, obj: Any) -> str:
        account = getattr(obj, "account", None)
        return dollars(account.balance) if account else "—"

    @admin.action(description="Credit play money to the selected users", permissions=["credit"])
    def credit(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        users = list(queryset)
        return credit_players(self, request, users, "credit", [str(u.pk) for u in users])
