"""The ledger: accounts, transactions and their entries, crediting players; users."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from .. import ledger
from ..models import (
    Account,
    Entry,
    LedgerTransaction,
)
from ..money import DollarField, dollars
from .common import (
    ReadOnlyAdmin,
    ReadOnlyInline,
    _admin_link,
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
            for user in users:
                ledger.credit(user, amount, memo)
            names = ", ".join(u.get_username() for u in users)
            modeladmin.message_user(
                request, f"Credited {dollars(amount)} to {names}.", level=messages.SUCCESS
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
        return request.user.has_perm("table.change_account")

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
        return request.user.has_perm("table.change_account")

    @admin.display(description="balance")
    def balance(self, obj: Any) -> str:
        account = getattr(obj, "account", None)
        return dollars(account.balance) if account else "—"

    @admin.action(description="Credit play money to the selected users", permissions=["credit"])
    def credit(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        users = list(queryset)
        return credit_players(self, request, users, "credit", [str(u.pk) for u in users])
