"""The demo table: a Rules Submission, a table, a dealer and six players with play money."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from . import ledger
from .models import Account, RulesSubmission, Table

DEMO_PASSWORD = "frenzy-demo"
DEALER = "dealer"
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")
STAFF = "admin"
PLAY_MONEY = 10_000_00  # $10,000 each


@dataclass
class Demo:
    table: Table
    rules: RulesSubmission
    created: bool


def dealer_permission() -> Permission:
    return Permission.objects.get(codename="deal_table", content_type__app_label="table")


def make_user(
    username: str, password: str = DEMO_PASSWORD, *, dealer: bool = False, staff: bool = False
):  # type: ignore[no-untyped-def]
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        user.is_staff = staff
        user.is_superuser = staff
        user.save()
    if dealer:
        user.user_permissions.add(dealer_permission())
    return user


@transaction.atomic
def ensure_demo(table_name: str = "Frenzy 1") -> Demo:
    rules, _ = RulesSubmission.objects.get_or_create(
        name="Pennsylvania demo",
        defaults=dict(
            jurisdiction="pennsylvania",
            bad_beat_paytable="B",
            prime_paytable="A",
            four_card_bonus_paytable="C",
            all_six_paytable="E",
            payout_limit=100_000_00,
            adjacent_boxes=2,
            ante_min=5_00,
            ante_max=500_00,
            decision_seconds=20,
            betting_seconds=15,
        ),
    )
    table, created = Table.objects.get_or_create(name=table_name, defaults={"rules": rules})
    ledger.table_bankroll(table)
    make_user(STAFF, staff=True, dealer=True)
    make_user(DEALER, dealer=True)
    for name in PLAYERS:
        user = make_user(name)
        account = ledger.player_account(user)
        if (
            account.balance == 0
            and not Account.objects.filter(pk=account.pk, entries__isnull=False).exists()
        ):
            ledger.credit(user, PLAY_MONEY, "demo play money")
    return Demo(table, rules, created)
