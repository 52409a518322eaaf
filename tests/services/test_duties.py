"""Segregation of duties: a dealer deals only the tables assigned to them and plays at none
of them; crediting is the cashier's duty, never to oneself; every privileged action is in an
append-only audit log that a compliance officer reads in the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import DatabaseError, connection, transaction
from django.test import Client
from django.urls import reverse

from table import duties, ledger, services
from table.demo import CASHIER, COMPLIANCE, DEALER, STAFF, ensure_demo
from table.models import (
    Account,
    AppendOnlyError,
    AuditEntry,
    DealerAssignment,
    RulesSubmission,
    Seat,
    Table,
)

from .conftest import START, Game, balance, current_row, make_player

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

User = get_user_model()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def with_permission(user: Any, codename: str, app_label: str = "table") -> Any:
    user.user_permissions.add(
        Permission.objects.get(codename=codename, content_type__app_label=app_label)
    )
    return User.objects.get(pk=user.pk)  # a fresh object: no stale permission cache


@pytest.fixture
def other_table(rules: RulesSubmission) -> Table:
    table = Table.objects.create(name="Other table", rules=rules)
    ledger.table_bankroll(table)
    return table


# --- the deal permission is per table ---------------------------------------------------------


def test_a_dealer_deals_only_the_tables_assigned_to_them(
    game: Game, alice: Any, table: Table, other_table: Table, dealer: Any
) -> None:
    assert duties.can_deal(dealer, table.pk)
    assert not duties.can_deal(dealer, other_table.pk)
    with pytest.raises(services.ServiceError) as refused:
        services.open_betting(other_table.pk, dealer)
    assert refused.value.code == "not_your_table"
    assert not other_table.rounds.exists()
    # The console page and its socket say the same (tests/consumers for the socket).
    client = logged_in(dealer)
    assert client.get(reverse("dealer_console", args=[table.pk])).status_code == 200
    assert client.get(reverse("dealer_console", args=[other_table.pk])).status_code == 403
    # Taken off the table, the dealer stops at the next command (checked under its lock).
    game.sit(alice, 1)
    game.open()
    DealerAssignment.objects.filter(table=table, dealer=dealer).delete()
    with pytest.raises(services.ServiceError) as refused:
        services.close_table(table.pk, dealer)
    assert refused.value.code == "not_your_table"


def test_every_permission_of_a_superuser_deals_no_table(table: Table, staff: Any) -> None:
    assert not duties.can_deal(staff, table.pk)
    assert logged_in(staff).get(reverse("dealer_console", args=[table.pk])).status_code == 403
    with pytest.raises(services.ServiceError):
        services.deal(table.pk, staff)


# --- a dealer does not play at the table they deal -------------------------------------------


def test_a_dealer_may_not_sit_at_the_table_they_deal(
    table: Table, other_table: Table, dealer: Any
) -> None:
    ledger.credit(dealer, 100_00, "own money")
    with pytest.raises(services.ServiceError) as refused:
        services.sit(table.pk, dealer, 1)
    assert refused.value.code == "dealer_at_table"
    assert not Seat.objects.filter(table=table).exists()
    services.sit(other_table.pk, dealer, 1)  # a table somebody else deals: a player there


def test_a_seated_player_is_not_assigned_to_deal_that_table(
    game: Game, alice: Any, table: Table, other_table: Table, staff: Any
) -> None:
    """So nobody can sit down first and be given the deal afterwards (and wager at it)."""
    alice = with_permission(alice, "deal_table")
    game.sit(alice, 2)
    with pytest.raises(duties.DutyError) as refused:
        duties.assign_dealer(table.pk, alice, staff)
    assert "seated" in refused.value.message
    assert not DealerAssignment.objects.filter(dealer=alice).exists()
    duties.assign_dealer(other_table.pk, alice, staff)  # elsewhere she may deal
    with pytest.raises(services.ServiceError):
        services.place_bets(other_table.pk, alice, 1, {"ante": 10_00})


def test_a_cashier_is_never_assigned_to_deal(table: Table, staff: Any) -> None:
    cashier = with_permission(make_player("cash", 0), "credit_account")
    cashier = with_permission(cashier, "deal_table")
    with pytest.raises(duties.DutyError):
        duties.assign_dealer(table.pk, cashier, staff)
    with pytest.raises(duties.DutyError):
        duties.assign_dealer(table.pk, staff, staff)  # a superuser credits too


# --- crediting is the cashier's duty ---------------------------------------------------------


def test_crediting_needs_the_cashier_permission_and_never_ones_own_account(
    alice: Any, bob: Any
) -> None:
    clerk = with_permission(make_player("clerk", 0), "change_account")  # no credit duty
    with pytest.raises(duties.DutyError):
        ledger.credit(alice, 10_00, "favour", by=clerk)
    cashier = with_permission(make_player("cash", 0), "credit_account")
    with pytest.raises(duties.DutyError) as refused:
        ledger.credit(cashier, 10_00, "my bonus", by=cashier)
    assert "own account" in refused.value.message
    assert balance(cashier) == 0 and balance(alice) == START
    ledger.credit(alice, 25_00, "welcome", by=cashier)
    assert balance(alice) == START + 25_00
    entry = AuditEntry.objects.filter(action="credit", actor=cashier).get()
    assert entry.actor_name == "cash" and entry.created is not None
    assert entry.details == {"player": "alice", "amount": 25_00, "memo": "welcome"}


def test_the_admin_credit_action_is_the_cashiers_and_refuses_ones_own(
    staff: Any, alice: Any
) -> None:
    accounts = reverse("admin:table_account_changelist")
    form = {"action": "credit", "amount": "50", "memo": "m", "apply": "Credit"}
    # Staff who may change accounts but not credit them: the action is not theirs.
    clerk = make_player("clerk", 0)
    clerk.is_staff = True
    clerk.save()
    for codename in ("view_account", "change_account"):
        clerk = with_permission(clerk, codename)
    mine = Account.objects.get(user=alice).pk
    logged_in(clerk).post(accounts, {**form, "_selected_action": [mine]})
    assert balance(alice) == START
    # The superuser (every permission) credits others, not itself.
    ledger.player_account(staff)
    own = Account.objects.get(user=staff).pk
    page = logged_in(staff).post(accounts, {**form, "_selected_action": [own, mine]}, follow=True)
    text = page.content.decode()
    assert "Not credited to boss" in text and "Credited $50.00 to alice" in text
    assert balance(staff) == 0 and balance(alice) == START + 50_00


# --- the audit log --------------------------------------------------------------------------


def test_every_privileged_action_is_in_the_audit_log(
    game: Game, alice: Any, table: Table, dealer: Any, staff: Any
) -> None:
    game.sit(alice, 1)
    other = RulesSubmission.objects.create(name="Other rules")
    services.change_rules(table.pk, other, staff)
    services.change_decks(table.pk, dealer)
    services.arm_fault(table.pk, "jam", dealer)
    game.open()
    game.bet(alice, 1, ante=10_00)
    game.deal()  # the jam voids the round
    row = current_row(table)
    services.close_table(table.pk, dealer)
    services.open_table(table.pk, staff)
    cashier = with_permission(make_player("cash", 0), "credit_account")
    ledger.credit(alice, 1_00, "tip", by=cashier)
    log = list(AuditEntry.objects.order_by("id").filter(table=table))
    assert [(e.action, e.actor_name) for e in log] == [
        ("rules_change", "boss"),
        ("decks_changed", "dealer"),
        ("drill_armed", "dealer"),
        ("void", "dealer"),
        ("table_closed", "dealer"),
        ("table_opened", "boss"),
    ]
    void = log[3]
    assert void.round_id == row.pk
    assert void.details["reason"] == "shoe_jam" and void.details["evidence"]["faults"] == ["jam"]
    assert all(e.created and e.actor_id for e in log)
    assert AuditEntry.objects.filter(action="credit", actor=cashier).exists()


def test_changes_made_in_the_admin_are_audited(staff: Any, rules: RulesSubmission) -> None:
    from tests.examples import RULES_SUBMISSION_FORM

    url = reverse("admin:table_rulessubmission_change", args=[rules.pk])
    response = logged_in(staff).post(url, {**RULES_SUBMISSION_FORM, "name": "Renamed rules"})
    assert response.status_code == 302
    entry = AuditEntry.objects.get(action="admin_change")
    assert entry.actor == staff and entry.details["object"] == "Renamed rules"


def test_nobody_edits_or_deletes_the_audit_log(alice: Any) -> None:
    entry = AuditEntry.objects.filter(action="credit").first()
    assert entry is not None
    entry.details = {"player": "mallory"}
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        AuditEntry.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        AuditEntry.objects.update(actor_name="nobody")
    # Nor with SQL behind the application's back: the database refuses.
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE table_auditentry SET actor_name = 'nobody'")
    assert AuditEntry.objects.get(pk=entry.pk).details["player"] == "alice"


def test_a_compliance_officer_reads_the_audit_log_and_changes_nothing(
    game: Game, alice: Any, table: Table
) -> None:
    demo = ensure_demo("Frenzy 9")
    officer = User.objects.get(username=COMPLIANCE)
    client = logged_in(officer)
    listing = client.get(reverse("admin:table_auditentry_changelist"))
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "dealer_assigned" in text and demo.table.name in text
    entry = AuditEntry.objects.filter(action="dealer_assigned").first()
    assert entry is not None
    page = client.get(reverse("admin:table_auditentry_change", args=[entry.pk]))
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    for view, args in (("add", []), ("delete", [entry.pk])):
        response = client.get(reverse(f"admin:table_auditentry_{view}", args=args))
        assert response.status_code == 403, view
    staff = User.objects.get(username=STAFF)
    response = logged_in(staff).post(
        reverse("admin:table_auditentry_delete", args=[entry.pk]), {"post": "yes"}
    )
    assert response.status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()
    # A cashier or a dealer does not read it.
    assert logged_in(User.objects.get(username=CASHIER)).get(
        reverse("admin:table_auditentry_changelist")
    ).status_code in (302, 403)


# --- the demo's accounts ---------------------------------------------------------------------


def test_the_demo_gives_each_duty_to_its_own_account() -> None:
    demo = ensure_demo()
    admin, dealer = User.objects.get(username=STAFF), User.objects.get(username=DEALER)
    cashier = User.objects.get(username=CASHIER)
    assert duties.can_deal(dealer, demo.table.pk)
    assert not dealer.has_perm(duties.CREDIT_PERMISSION) and not dealer.is_staff
    assert not duties.can_deal(admin, demo.table.pk)
    assert not duties.can_deal(cashier, demo.table.pk)
    assert cashier.has_perm(duties.CREDIT_PERMISSION) and not cashier.is_superuser
    with pytest.raises(services.ServiceError):
        services.sit(demo.table.pk, dealer, 1)
    ensure_demo()  # again: nothing doubles (the dealer deals each demo table, once)
    assert DealerAssignment.objects.filter(dealer=dealer).count() == len(demo.tables)
    for table in demo.tables:
        assert DealerAssignment.objects.filter(dealer=dealer, table=table).count() == 1
    # The cashier credits a player from the admin's accounts list, and is in the audit log.
    alice = User.objects.get(username="alice")
    before = balance(alice)
    accounts = reverse("admin:table_account_changelist")
    form = {"action": "credit", "amount": "20", "memo": "m", "apply": "Credit"}
    mine = Account.objects.get(user=alice).pk
    logged_in(cashier).post(accounts, {**form, "_selected_action": [mine]})
    assert balance(alice) == before + 20_00
    assert AuditEntry.objects.filter(action="credit", actor=cashier).exists()
    # The dealer reaches no admin page at all.
    assert logged_in(dealer).get(accounts).status_code == 302
