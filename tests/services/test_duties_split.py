"""Dealing and crediting stay apart however they would be combined (issue 23): a group, a
permission, the superuser flag or a group's permissions given to a dealer assigned to a table
are refused (in the admin with a reason, and anywhere else), and the duties are checked again
from the database when either is exercised. Refused privileged attempts, and the console's
take-over and hand-back, are in the audit log."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.test import Client
from django.urls import reverse

from table import duties, ledger, services
from table.demo import duty_group
from table.models import AuditEntry, RulesSubmission, Table

from .conftest import START, Game, balance, make_player

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

User = get_user_model()


def credit_permission() -> Permission:
    return Permission.objects.get(codename="credit_account", content_type__app_label="table")


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def fresh(user: Any) -> Any:
    return User.objects.get(pk=user.pk)


def can_credit(user: Any) -> bool:
    return bool(fresh(user).has_perm(duties.CREDIT_PERMISSION))


def refused(change: Any) -> None:
    """``change()`` is refused, and its transaction (a savepoint here) rolled back."""
    with pytest.raises(duties.DutyError, match="assigned to deal"), transaction.atomic():
        change()


def test_no_way_of_giving_an_assigned_dealer_the_cashiers_duty(dealer: Any) -> None:
    cashiers = duty_group("Cashiers")
    refused(lambda: dealer.groups.add(cashiers))
    refused(lambda: cashiers.user_set.add(dealer))
    refused(lambda: dealer.user_permissions.add(credit_permission()))
    refused(lambda: credit_permission().user_set.add(dealer))
    floor = Group.objects.create(name="Floor")
    floor.user_set.add(dealer)  # a group that credits nothing is fine
    refused(lambda: floor.permissions.add(credit_permission()))
    refused(lambda: credit_permission().group_set.add(floor))
    dealer.is_superuser = True
    refused(dealer.save)
    assert not can_credit(dealer)
    # Someone dealing no table may be given the duty.
    cashier = make_player("cash", 0)
    cashier.groups.add(cashiers)
    assert can_credit(cashier)


def test_the_admin_says_why_and_changes_nothing(staff: Any, dealer: Any, table: Table) -> None:
    cashiers = duty_group("Cashiers")
    admin = logged_in(staff)
    page = admin.get(reverse("admin:auth_user_change", args=[dealer.pk]))
    form = {
        "username": dealer.username,
        "password": page.context["adminform"].form.initial["password"],
        "is_active": "on",
        "groups": [cashiers.pk],
        "user_permissions": [p.pk for p in fresh(dealer).user_permissions.all()],
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "initial-date_joined_0": "2026-01-01",
        "initial-date_joined_1": "00:00:00",
    }
    response = admin.post(reverse("admin:auth_user_change", args=[dealer.pk]), form)
    assert response.status_code == 200  # the form again, with the reason
    assert "assigned to deal (Test table)" in response.content.decode()
    assert not can_credit(dealer)
    # A group of the dealer's given the credit permission in the admin: the same.
    floor = Group.objects.create(name="Floor")
    floor.user_set.add(dealer)
    response = admin.post(
        reverse("admin:auth_group_change", args=[floor.pk]),
        {"name": "Floor", "permissions": [credit_permission().pk]},
    )
    assert response.status_code == 200
    assert "a dealer does not credit" in response.content.decode()
    assert not can_credit(dealer)
    # Each refusal is a refused privileged attempt: in the audit log, with who tried.
    refusals = AuditEntry.objects.filter(actor=staff, action__startswith="refused_")
    assert sorted(refusals.values_list("action", flat=True)) == [
        "refused_group_change",
        "refused_user_change",
    ]
    assert all("assigned to deal" in e.details["why"] for e in refusals)
    # A dealer assignment the admin's form refuses (a cashier): the same.
    cashier = make_player("cash", 0)
    cashier.groups.add(cashiers)
    response = admin.post(
        reverse("admin:table_dealerassignment_add"), {"table": table.pk, "dealer": cashier.pk}
    )
    assert response.status_code == 200
    entry = AuditEntry.objects.get(action="refused_dealer_assigned")
    assert entry.actor == staff and "not a dealer" in entry.details["why"]


def test_combined_duties_are_refused_when_exercised(
    game: Game, dealer: Any, alice: Any, table: Table
) -> None:
    """Past the guards (a row written straight into the table of memberships, as a data
    migration or raw SQL could), the duties are checked again as they are exercised."""
    cashiers = duty_group("Cashiers")
    assert dealer.has_perm(duties.DEAL_PERMISSION)  # a console's user, its permissions cached
    User.groups.through.objects.create(user_id=dealer.pk, group_id=cashiers.pk)
    game.sit(alice, 1)
    # The console's user object was loaded before: its cached permissions do not matter.
    with pytest.raises(services.ServiceError) as refused:
        services.open_betting(table.pk, dealer)
    assert refused.value.code == "duties_combined"
    with pytest.raises(duties.DutyError):
        ledger.credit(alice, 5_00, "while dealing", by=fresh(dealer))
    assert balance(alice) == START
    entries = AuditEntry.objects.filter(actor=dealer).order_by("id")
    assert [e.action for e in entries] == ["refused_open_betting", "refused_credit"]
    assert all("assigned to deal" in e.details["why"] for e in entries)


def test_refused_privileged_attempts_are_audited(
    dealer: Any, alice: Any, table: Table, rules: RulesSubmission, staff: Any
) -> None:
    cashier = make_player("cash", 0)
    cashier.groups.add(duty_group("Cashiers"))
    cashier = fresh(cashier)
    with pytest.raises(duties.DutyError):
        ledger.credit(cashier, 100_00, "my bonus", by=cashier)  # a self-credit
    assert balance(cashier) == 0
    entry = AuditEntry.objects.get(action="refused_credit")
    assert entry.actor == cashier
    assert entry.details["player"] == "cash" and entry.details["amount"] == 100_00
    assert "own account" in entry.details["why"]
    # A dealer's command at a table not theirs.
    other = Table.objects.create(name="Other table", rules=rules)
    ledger.table_bankroll(other)
    with pytest.raises(services.ServiceError):
        services.open_betting(other.pk, dealer)
    entry = AuditEntry.objects.get(action="refused_open_betting")
    assert entry.actor == dealer and entry.table_id == other.pk
    assert entry.details["code"] == "not_your_table"
    # An assignment that would combine the duties.
    with pytest.raises(duties.DutyError):
        duties.assign_dealer(other.pk, cashier, staff)
    entry = AuditEntry.objects.get(action="refused_dealer_assigned")
    assert entry.actor == staff and entry.details["dealer"] == "cash"


def test_take_over_and_hand_back_are_audited(dealer: Any, table: Table) -> None:
    services.take_over(table.pk, dealer)
    services.hand_back(table.pk, dealer)
    log = list(AuditEntry.objects.filter(table=table).order_by("id"))
    assert [(e.action, e.actor_name) for e in log] == [
        ("take_over", "dealer"),
        ("hand_back", "dealer"),
    ]
    # Taking over a table one does not deal is refused, and that is audited too.
    stranger = make_player("stranger", 0)
    with pytest.raises(services.ServiceError):
        services.take_over(table.pk, stranger)
    assert AuditEntry.objects.filter(action="refused_take_over", actor=stranger).exists()


def test_the_plain_credit_check_agrees_with_the_orm_one() -> None:
    """Every dealer command asks :func:`duties.may_credit` (one plain statement); it says
    what the ORM's query says for each way of holding the duty, and for none."""
    cashiers = duty_group("Cashiers")
    floor = Group.objects.create(name="Floor")
    direct, grouped, boss, retired, plain = (make_player(n, 0) for n in "dgbrp")
    direct.user_permissions.add(credit_permission())
    grouped.groups.add(cashiers)
    plain.groups.add(floor)  # a group that credits nothing
    plain.user_permissions.add(Permission.objects.get(codename="deal_table"))
    boss.is_superuser = True
    boss.save()
    retired.is_superuser, retired.is_active = True, False
    retired.save()
    expected = {direct: True, grouped: True, boss: True, retired: False, plain: False}
    for user, credits in expected.items():
        orm = User.objects.filter(duties._credit_query([user.pk])).exists()
        assert duties.may_credit(user.pk) is credits is orm, user.username


def test_the_locked_read_says_whether_the_dealer_may_credit(table: Table) -> None:
    """A dealer command's duties check reads whether its dealer may credit with the table row
    (``_lock_table``, one round trip): it says what :func:`duties.may_credit` says for each
    way of holding the duty, and for none; a player's command asks nothing."""
    from table.services.command import _lock_table

    cashiers = duty_group("Cashiers")
    direct, grouped, boss, retired, plain = (make_player(n, 0) for n in "dgbrp")
    direct.user_permissions.add(credit_permission())
    grouped.groups.add(cashiers)
    boss.is_superuser = True
    boss.save()
    retired.is_superuser, retired.is_active = True, False
    retired.save()
    expected = {direct: True, grouped: True, boss: True, retired: False, plain: False}
    for user, credits in expected.items():
        with transaction.atomic():
            locked = _lock_table(table.pk, f"dealer:{user.username}")
        assert locked.dealer_credits is credits is duties.may_credit(user.pk), user.username
    with transaction.atomic():
        assert _lock_table(table.pk, direct.username).dealer_credits is None  # a player's


def test_a_dealer_command_asks_no_statement_of_its_own_for_its_duties(
    game: Game, dealer: Any, alice: Any, table: Table
) -> None:
    """The duties check of every dealer command rides the locked read (issue 26: it was a
    statement of its own on every dealer command); a dealer who may credit is still refused
    at once (test_combined_duties_are_refused_when_exercised)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game.sit(alice, 1)
    credit_check = duties.fastsql.may_credit(connection.vendor).split(" WHERE ")[0]
    with CaptureQueriesContext(connection) as queries:
        services.open_betting(table.pk, dealer)
    assert queries.captured_queries
    sent = [duties.fastsql.readable(q["sql"]) for q in queries.captured_queries]
    assert not [sql for sql in sent if credit_check in sql]
