"""The demo tables, one of every game the platform hosts that names one (``GameEntry.demo``:
each with its Rules Submission, the game's defaults but the choices its entry makes; the
progressive meters its rules need linked), their dealer, six players with play money, and the
house's staff, each with one duty (segregation of duties):

- ``dealer`` deals the demo tables (the dealer role, assigned to each table) and plays nowhere
  there;
- ``cashier`` credits play money to players (never to themselves) and sees accounts;
- ``compliance`` reads the audit log, the rounds, their events and the ledger, and the back
  office's reports (docs/backoffice.md), and changes nothing;
- ``manager``, a table games manager, reads the back office's reports and changes nothing;
- ``admin`` is the superuser: Rules Submissions, tables, users and dealer assignments. It is
  assigned to no table, so it deals none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission, User
from django.db import transaction

from table.games import ENTRIES, default_game, game

from . import duties, ledger, meters
from .models import Account, DealerAssignment, ProgressiveMeter, RulesSubmission, Table

DEMO_PASSWORD = "frenzy-demo"
DEALER = "dealer"
PLAYERS = ("alice", "bob", "carol", "dave", "erin", "frank")
STAFF = "admin"
CASHIER = "cashier"
COMPLIANCE = "compliance"
MANAGER = "manager"  # a table games manager: reads the back office's reports
PLAY_MONEY = 10_000_00  # $10,000 each

#: Group -> the permissions of its duty (app_label.codename).
GROUPS = {
    "Cashiers": ("table.credit_account", "table.view_account", "auth.view_user"),
    "Compliance officers": (
        "table.view_auditentry",
        # Player protection: every limit change and exclusion, the sessions (read only).
        "table.view_limitchange",
        "table.view_selfexclusion",
        "table.view_playersession",
        "table.view_round",
        "table.view_roundevent",
        "table.view_ledgertransaction",
        "table.view_account",
        "table.view_commandrecord",
        "table.view_dealerassignment",
        "table.view_wagershift",
        "table.view_progressivemeter",
        # The meters' append-only history is a core record too (issue 28: "Not allowed").
        "table.view_meterevent",
    ),
    # The back office (docs/backoffice.md): the reports, meters and player history, read only.
    "Table games managers": (
        "table.view_wagershift",
        "table.view_progressivemeter",
        "table.view_round",
        "table.view_table",
    ),
}


def other_tables() -> list[tuple[str, str, str, dict[str, Any]]]:
    """The demo tables of the games besides the default one: (game, table, Rules Submission,
    choices), from the games' entries, in the docs' order (``GameEntry.report_order``: the
    order the games came to the platform, so a demo made again keeps its tables' ids)."""
    first = default_game()
    return [
        (e.name, e.demo.table, e.demo.rules, dict(e.demo.choices))
        for e in sorted(ENTRIES.values(), key=lambda e: e.report_sort_key)
        if e.demo is not None and e.name != first
    ]


@dataclass
class Demo:
    table: Table  # the default game's, the first demo table
    rules: RulesSubmission
    created: bool
    #: Every demo table, the default game's first, one per game.
    tables: tuple[Table, ...] = ()


def dealer_permission() -> Permission:
    return Permission.objects.get(codename="deal_table", content_type__app_label="table")


def make_user(
    username: str,
    password: str = DEMO_PASSWORD,
    *,
    dealer: bool = False,
    staff: bool = False,
    superuser: bool | None = None,
) -> User:
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        user.is_staff = staff
        user.is_superuser = staff if superuser is None else superuser
        user.save()
    if dealer:
        user.user_permissions.add(dealer_permission())
    return user


def duty_group(name: str) -> Group:
    group, _ = Group.objects.get_or_create(name=name)
    for permission in GROUPS[name]:
        app_label, codename = permission.split(".")
        group.permissions.add(
            Permission.objects.get(codename=codename, content_type__app_label=app_label)
        )
    return group


def game_rules_submission(name: str, title: str, **choices: Any) -> RulesSubmission:
    """A game's Rules Submission: its default choices but ``choices`` (the game's own names),
    as the game stores them (``rules_to_dict``)."""
    g = game(name)
    stored = {**g.rules_to_dict(g.default_rules()), **choices}
    rules, _ = RulesSubmission.objects.get_or_create(
        name=title, defaults={"game": name, "choices": g.rules_to_dict(g.parse_rules(stored))}
    )
    return rules


def link_meters(table: Table, rules: RulesSubmission) -> None:
    """Each progressive meter the table's rules need (``Game.meters``), created at its seed
    and linked once; a table already linked to a meter of that kind keeps it."""
    linked = set(ProgressiveMeter.objects.filter(tables=table).values_list("kind", flat=True))
    for spec in game(rules.game).meters(rules.game_rules()):
        if spec.name in linked:
            continue
        kind, letter, wager = spec.pool.split(":")
        meters.create_meter(f"{table.name} {spec.label}", kind, letter, int(wager), [table])


@transaction.atomic
def ensure_demo(table_name: str | None = None) -> Demo:
    """The demo: the default game's table (named ``table_name``, else as its entry says) and
    every other game's, with their rules, staff and players; idempotent."""
    first = ENTRIES[default_game()]
    assert first.demo is not None, f"{first.name}: the default game names its demo table"
    rules = game_rules_submission(first.name, first.demo.rules, **first.demo.choices)
    table, created = Table.objects.get_or_create(
        name=table_name or first.demo.table, defaults={"rules": rules}
    )
    ledger.table_bankroll(table)
    tables = [table]
    for name, title, rules_name, choices in other_tables():
        submission = game_rules_submission(name, rules_name, **choices)
        other, _ = Table.objects.get_or_create(name=title, defaults={"rules": submission})
        ledger.table_bankroll(other)
        link_meters(other, submission)
        tables.append(other)
    admin = make_user(STAFF, staff=True)  # the superuser: assigned to no table, deals none
    admin.user_permissions.remove(dealer_permission())  # as an earlier demo made it
    cashier = make_user(CASHIER, staff=True, superuser=False)
    cashier.groups.add(duty_group("Cashiers"))
    compliance = make_user(COMPLIANCE, staff=True, superuser=False)
    compliance.groups.add(duty_group("Compliance officers"))
    manager = make_user(MANAGER, staff=True, superuser=False)
    manager.groups.add(duty_group("Table games managers"))
    dealer = make_user(DEALER, dealer=True)
    for each in tables:
        if not DealerAssignment.objects.filter(table=each, dealer=dealer).exists():
            duties.assign_dealer(each.pk, dealer, None)
    for name in PLAYERS:
        user = make_user(name)
        account = ledger.player_account(user)
        if (
            account.balance == 0
            and not Account.objects.filter(pk=account.pk, entries__isnull=False).exists()
        ):
            ledger.credit(user, PLAY_MONEY, "demo play money")
    return Demo(table, rules, created, tuple(tables))
