"""The ledger: accounts, transactions and their entries, crediting players; users."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.contrib.auth.models import Group
from django.contrib.auth.models import User as AuthUser
from django.db.models import Model, Prefetch, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString

from .. import duties, integrity, ledger
from ..models import (
    Account,
    Entry,
    LedgerTransaction,
)
from ..money import DollarField, dollars
from .common import (
    WAGER_LABELS,
    AuditedRefusals,
    ReadOnlyAdmin,
    _admin_link,
    staff_of,
)

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
    modeladmin: admin.ModelAdmin[Any],
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
                    ledger.credit(user, amount, memo, by=staff_of(request))
                except (duties.DutyError, ledger.CreditRefused) as refused:
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


def _admin_url(obj: Model) -> str:
    meta = obj._meta
    try:
        return reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    except NoReverseMatch:
        return ""


def account_label(account: Account) -> str:
    """An account in people's words: "bob (player)", "Frenzy 1 bankroll", "the cage"."""
    if account.kind == Account.PLAYER and account.user is not None:
        return f"{account.user.get_username()} (player)"
    if account.kind == Account.TABLE and account.table is not None:
        return f"{account.table.name} bankroll"
    if account.kind == Account.CAGE:
        return "the cage"
    return account.name


def entry_rows(entries: list[Entry]) -> list[dict[str, Any]]:
    return [
        {
            "account": account_label(e.account),
            "url": _admin_url(e.account),
            "debit": dollars(-e.amount) if e.amount < 0 else "",
            "credit": dollars(e.amount) if e.amount > 0 else "",
        }
        for e in entries
    ]


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
        rows = [
            {
                "url": _admin_url(e.transaction),
                "number": e.transaction_id,
                "created": e.transaction.created,
                "memo": e.transaction.memo,
                "amount": e.amount,
            }
            for e in entries
        ]
        return render_to_string("admin/table/account_entries.html", {"rows": rows})

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


class WagerFilter(admin.SimpleListFilter):
    """The wagers by their names ("Four Card Bonus"), not their keys."""

    title = "wager"
    parameter_name = "wager"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return list(WAGER_LABELS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset.filter(wager=self.value()) if self.value() else queryset


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "created",
        "memo",
        "movement",
        "amount",
        "round_link",
        "box",
        "wager_words",
    )
    list_filter = ("memo", WagerFilter, "table")
    search_fields = ("memo", "entries__account__name", "entries__account__user__username")
    list_select_related = ("table", "round", "round__table")
    fields = (
        "created",
        "memo",
        "table",
        "round_link",
        "box",
        "wager_words",
        "amount",
        "entries_table",
    )
    readonly_fields = ("round_link", "wager_words", "amount", "entries_table")

    def get_queryset(self, request: HttpRequest) -> QuerySet[LedgerTransaction]:
        entries = Entry.objects.select_related("account__user", "account__table").order_by("id")
        return super().get_queryset(request).prefetch_related(Prefetch("entries", entries))

    @admin.display(description="round")
    def round_link(self, obj: LedgerTransaction) -> SafeString | str:
        return _admin_link(obj.round) if obj.round_id else "—"

    @admin.display(description="wager", ordering="wager")
    def wager_words(self, obj: LedgerTransaction) -> str:
        return WAGER_LABELS.get(obj.wager, obj.wager.replace("_", " ")) if obj.wager else "—"

    @admin.display(description="from → to")
    def movement(self, obj: LedgerTransaction) -> str:
        entries = list(obj.entries.all())
        paid = ", ".join(account_label(e.account) for e in entries if e.amount < 0)
        got = ", ".join(account_label(e.account) for e in entries if e.amount > 0)
        return f"{paid or '—'} → {got or '—'}"

    @admin.display(description="amount moved")
    def amount(self, obj: LedgerTransaction) -> str:
        return dollars(sum(e.amount for e in obj.entries.all() if e.amount > 0))

    @admin.display(description="entries (double entry: debits equal credits)")
    def entries_table(self, obj: LedgerTransaction) -> SafeString:
        entries = list(obj.entries.all())
        return render_to_string(
            "admin/table/ledger_entries.html",
            {
                "rows": entry_rows(entries),
                "debits": dollars(-sum(e.amount for e in entries if e.amount < 0)),
                "credits": dollars(sum(e.amount for e in entries if e.amount > 0)),
                "balanced": sum(e.amount for e in entries) == 0,
            },
        )


# --- Users: balances and credits next to the logins --------------------------------------------

User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


class DutiesUserChangeForm(UserChangeForm[AuthUser]):
    """A user's groups, permissions and superuser flag: refused if they would let someone
    assigned to deal credit accounts (the duties stay apart, table.duties)."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        data: dict[str, Any] = self.cleaned_data
        if self.instance.pk:
            problem = duties.grant_problem(
                self.instance,
                superuser=bool(data.get("is_superuser")),
                groups=data.get("groups") or (),
                permissions=data.get("user_permissions") or (),
            )
            if problem:
                raise forms.ValidationError(problem, code=duties.REFUSED_CODE)
            # A round in play pays its boxes by username (issue 23).
            renamed = integrity.rename_problem(self.instance, data.get("username") or "")
            if renamed and data.get("username"):
                self.add_error("username", renamed)
        return data


@admin.register(User)
class PlayerUserAdmin(AuditedRefusals, UserAdmin[AuthUser]):
    form = DutiesUserChangeForm
    refused_action = "user_change"
    list_display = (*UserAdmin.list_display, "balance")  # type: ignore[misc]
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


class DutiesGroupForm(forms.ModelForm[Group]):
    """A group's permissions: refused if crediting would reach a member assigned to deal."""

    class Meta:
        model = Group
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data: dict[str, Any] = self.cleaned_data
        permissions = data.get("permissions") or ()
        if self.instance.pk and any(
            f"{p.content_type.app_label}.{p.codename}" == duties.CREDIT_PERMISSION
            for p in permissions
        ):
            members = User.objects.filter(groups=self.instance).values("pk")
            problem = duties.group_problem([], members, gives_credit=True)
            if problem:
                raise forms.ValidationError(problem, code=duties.REFUSED_CODE)
        return data


if admin.site.is_registered(Group):
    admin.site.unregister(Group)


@admin.register(Group)
class DutiesGroupAdmin(AuditedRefusals, GroupAdmin):
    form = DutiesGroupForm
    refused_action = "group_change"
