"""Segregation of duties, and the audit log of every privileged action.

- Dealing is a role (permission ``table.deal_table``) *and* an assignment to a table
  (:class:`~table.models.DealerAssignment`): a dealer runs only the tables assigned to them,
  and may not sit or wager at a table they deal.
- Crediting play money is the cashier's duty (permission ``table.credit_account``), apart
  from dealing: a cashier is never assigned to deal, and nobody credits their own account.
  The two duties stay apart however they would be combined: an assignment of someone who may
  credit, a group, a permission or the superuser flag given to someone assigned to deal (each
  refused where it is made: :func:`install_guards`, and the admin's forms say why), and again
  when either duty is exercised (:func:`clash`, read fresh from the database).
- A privileged attempt that is refused (a self-credit, a dealer's command at a table not
  theirs, an assignment or a grant that would combine the duties) is in the audit log too
  (:func:`refused`), in a transaction of its own: the refusal undoes nothing else.
- Every privileged action (a credit, a rules change, a void, a deck change, a table opened or
  closed, a drill armed, a dealer assigned, any change made in the admin) is written to the
  append-only :class:`~table.models.AuditEntry` log with who did it and when, in the same
  transaction as the action itself.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, Group, Permission, User
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from . import fastsql
from .models import AuditEntry, DealerAssignment, Seat, Table

DEAL_PERMISSION = "table.deal_table"
#: A form's ValidationError code for a change refused on duty grounds (audited by the admin).
REFUSED_CODE = "duties"
CREDIT_PERMISSION = "table.credit_account"
#: The actor's name for the house's own actions (the automatic dealer's clock, set-up).
HOUSE = "house"


class DutyError(Exception):
    """A privileged action refused: ``code`` for programs, ``message`` in plain words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- the audit log ----------------------------------------------------------------------------


def record(
    actor: User | None,
    action: str,
    details: dict[str, Any] | None = None,
    *,
    table_id: int | None = None,
    round_id: int | None = None,
    when: dt.datetime | None = None,
) -> None:
    """Append one entry to the audit log, in the caller's transaction (with a table command's
    other writes, when it runs inside one: it stands or falls with the action)."""
    fastsql.insert_many(
        AuditEntry,
        ["created", "actor_id", "actor_name", "action", "table_id", "round_id", "details"],
        [
            (
                fastsql.when(when or timezone.now()),
                actor.pk if actor is not None else None,
                actor.get_username() if actor is not None else HOUSE,
                action,
                table_id,
                round_id,
                fastsql.dumps(details or {}),
            )
        ],
        returning=False,
    )


def refused(
    actor: User | None,
    action: str,
    why: str,
    details: dict[str, Any] | None = None,
    *,
    table_id: int | None = None,
) -> None:
    """A refused privileged attempt into the audit log (``refused_<action>``), committed on
    its own: called after the attempt's own transaction was rolled back, or outside any."""
    with transaction.atomic():
        record(actor, f"refused_{action}", {**(details or {}), "why": why}, table_id=table_id)


def mirror_admin_log(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    """Django's own admin history (``LogEntry``) can be edited and deleted; every entry of it
    is copied here as it is written: a change to a Rules Submission, a user's permissions..."""
    if not created:
        return
    record(
        instance.user,
        "admin_" + {1: "add", 2: "change", 3: "delete"}.get(instance.action_flag, "action"),
        {
            "model": f"{instance.content_type.app_label}.{instance.content_type.model}"
            if instance.content_type_id
            else "",
            "object_id": instance.object_id,
            "object": instance.object_repr,
            "change": instance.get_change_message(),
        },
        when=instance.action_time,
    )


# --- dealing ----------------------------------------------------------------------------------


def can_deal(
    user: User | AnonymousUser | None,
    table_id: int,
    assigned: frozenset[int] | None = None,
) -> bool:
    """May this user run this table from the dealer console: the dealer role, and assigned
    to this very table (a role alone, or a superuser's every permission, is not enough).
    ``assigned``: the table's dealers' ids when the caller read them already (a command reads
    them with its table lock, so no query of its own)."""
    if user is None or not user.is_authenticated or not getattr(user, "is_active", False):
        return False
    if not user.has_perm(DEAL_PERMISSION) or user.has_perm(CREDIT_PERMISSION):
        return False  # a dealer who may credit deals nothing (the duties stay apart)
    if assigned is not None:
        return user.pk in assigned
    return DealerAssignment.objects.filter(table_id=table_id, dealer_id=user.pk).exists()


def dealt_tables(user: User | AnonymousUser | None) -> set[int]:
    """The ids of the tables this user may deal (for the lobby's links)."""
    if user is None or not user.is_authenticated or not user.has_perm(DEAL_PERMISSION):
        return set()
    return set(DealerAssignment.objects.filter(dealer_id=user.pk).values_list("table", flat=True))


def deals_table(user: User, table_id: int) -> bool:
    """Is this user assigned to deal this table (whatever their role): then they may not play
    at it."""
    return DealerAssignment.objects.filter(table_id=table_id, dealer_id=user.pk).exists()


def assignment_problem(table: Table, dealer: User) -> str | None:
    """Why this user may not be assigned to deal this table, or None."""
    if not dealer.has_perm(DEAL_PERMISSION):
        return f"{dealer.get_username()} is not a dealer (no permission to deal tables)"
    if dealer.has_perm(CREDIT_PERMISSION):
        return (
            f"{dealer.get_username()} may credit accounts (a cashier's or a superuser's duty): "
            "a cashier does not deal"
        )
    if Seat.objects.filter(table=table, player=dealer).exists():
        return f"{dealer.get_username()} is seated at {table.name}: a dealer may not play there"
    return None


def assign_dealer(
    table_id: int, dealer: User, by: User | None
) -> DealerAssignment:
    """Assign a dealer to a table (audited). Holds the table's row lock, like a command, so
    that the dealer cannot sit down at it in between. A refusal is audited too."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        problem = assignment_problem(table, dealer)
        if problem is None:
            assignment, created = DealerAssignment.objects.get_or_create(table=table, dealer=dealer)
            if created:
                record(by, "dealer_assigned", {"dealer": dealer.get_username()}, table_id=table.pk)
            return assignment
    refused(by, "dealer_assigned", problem, {"dealer": dealer.get_username()}, table_id=table_id)
    raise DutyError("not_assignable", problem)


def unassign_dealer(assignment: DealerAssignment, by: User | None) -> None:
    with transaction.atomic():
        record(
            by,
            "dealer_unassigned",
            {"dealer": assignment.dealer.get_username()},
            table_id=assignment.table_id,
        )
        assignment.delete()


# --- crediting --------------------------------------------------------------------------------


def credit_problem(cashier: User, player: User) -> str | None:
    """Why this cashier may not credit this player's account, or None."""
    if not cashier.has_perm(CREDIT_PERMISSION):
        return f"{cashier.get_username()} may not credit accounts (a cashier's duty)"
    if cashier.pk == player.pk:
        return "nobody credits their own account: ask another cashier"
    return clash(cashier)


# --- the two duties stay apart, however they would be combined ---------------------------------

CLASH = (
    "{name} is assigned to deal ({tables}) and may credit accounts: a dealer does not credit "
    "and a cashier does not deal. Remove the dealer assignments first."
)


def _credit_permission() -> Permission | None:
    app_label, codename = CREDIT_PERMISSION.split(".")
    return Permission.objects.filter(codename=codename, content_type__app_label=app_label).first()


def _credit_query(user_ids: Any) -> Q:
    """Users among ``user_ids`` who may credit: superusers, or the permission held directly or
    through a group."""
    app_label, codename = CREDIT_PERMISSION.split(".")
    held = Q(
        user_permissions__codename=codename, user_permissions__content_type__app_label=app_label
    )
    grouped = Q(
        groups__permissions__codename=codename,
        groups__permissions__content_type__app_label=app_label,
    )
    return Q(pk__in=user_ids) & Q(is_active=True) & (Q(is_superuser=True) | held | grouped)


def may_credit(user_id: int) -> bool:
    """:func:`_credit_query` for one user, as one plain statement (table.fastsql): the ORM's
    query building cost more than the query on every dealer command."""
    app_label, codename = CREDIT_PERMISSION.split(".")
    sql = fastsql.may_credit(connection.vendor)
    return fastsql.one(sql, [user_id, codename, app_label, codename, app_label]) is not None


def _assigned_tables(user_ids: Any) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for uid, name in DealerAssignment.objects.filter(dealer_id__in=user_ids).values_list(
        "dealer_id", "table__name"
    ):
        found.setdefault(uid, []).append(name)
    return found


def clash(user: User, credits: bool | None = None) -> str | None:
    """Why this user's duties clash right now (assigned to deal and able to credit), read
    from the database, not from permissions cached on ``user``: what a superuser changed a
    moment ago counts at the next action. None when they do not. ``credits``: whether
    they may credit, as the caller just read it from the database (a dealer command's
    locked read); None: asked here."""
    # Whether they may credit first: one EXISTS, False for every dealer whose duties are
    # apart (this runs with each dealer command), where their assignments are many rows.
    if not (may_credit(user.pk) if credits is None else credits):
        return None
    tables = _assigned_tables([user.pk]).get(user.pk)
    if not tables:
        return None
    return CLASH.format(name=user.get_username(), tables=", ".join(sorted(tables)))


def grant_problem(
    user: User, *, superuser: bool = False, groups: Any = (), permissions: Any = ()
) -> str | None:
    """Why giving ``user`` the superuser flag, these groups or these permissions would combine
    dealing and crediting (they are assigned to deal, and one of them credits), or None."""
    tables = _assigned_tables([user.pk]).get(user.pk)
    if not tables:
        return None
    credit = _credit_permission()
    gives_credit = superuser or (credit is not None and credit in list(permissions))
    if not gives_credit and credit is not None:
        gives_credit = credit.group_set.filter(pk__in=[g.pk for g in groups]).exists()
    if not gives_credit:
        return None
    return CLASH.format(name=user.get_username(), tables=", ".join(sorted(tables)))


def group_problem(
    group_ids: Any, user_ids: Any | None = None, *, gives_credit: bool = False
) -> str | None:
    """Why these groups giving crediting to these users (by default: their members) would
    combine the duties, or None. ``gives_credit``: the groups are about to credit (their
    permissions being changed), whatever they hold now."""
    credit = _credit_permission()
    if not gives_credit and (
        credit is None or not credit.group_set.filter(pk__in=list(group_ids)).exists()
    ):
        return None
    if user_ids is None:
        user_ids = get_user_model().objects.filter(groups__in=list(group_ids)).values("pk")
    assigned = _assigned_tables(user_ids)
    return clash_for(min(assigned), assigned) if assigned else None


def _guard_m2m(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: Any, **kw: Any
) -> None:
    """Before a group, a permission or a membership is added: refuse one that would let
    someone assigned to deal credit accounts (the admin's forms say so first; this catches
    every other way: the shell, a script, a data migration)."""
    if action != "pre_add" or not pk_set:
        return
    User = get_user_model()
    problem: str | None = None
    credit = _credit_permission()
    if sender is User.groups.through:
        if reverse:  # group.user_set.add(users)
            problem = group_problem([instance.pk], list(pk_set))
        else:  # user.groups.add(groups)
            problem = group_problem(list(pk_set), [instance.pk])
    elif sender is User.user_permissions.through and credit is not None:
        if reverse:  # permission.user_set.add(users)
            assigned = _assigned_tables(list(pk_set)) if instance.pk == credit.pk else {}
            problem = clash_for(min(assigned), assigned) if assigned else None
        elif credit.pk in pk_set:
            problem = grant_problem(instance, permissions=[credit])
    elif sender is Group.permissions.through and credit is not None:
        if reverse:  # permission.group_set.add(groups)
            if instance.pk == credit.pk:
                problem = _groups_gain_credit(list(pk_set))
        elif credit.pk in pk_set:
            problem = _groups_gain_credit([instance.pk])
    if problem:
        raise DutyError("duties_combined", problem)


def _groups_gain_credit(group_ids: list[int]) -> str | None:
    """Why these groups gaining the credit permission would combine their members' duties."""
    members = get_user_model().objects.filter(groups__in=group_ids).values("pk")
    assigned = _assigned_tables(members)
    return clash_for(min(assigned), assigned) if assigned else None


def clash_for(uid: int, assigned: dict[int, list[str]] | None = None) -> str:
    tables = (assigned or _assigned_tables([uid]))[uid]
    name = get_user_model().objects.filter(pk=uid).values_list("username", flat=True).first()
    return CLASH.format(name=name or uid, tables=", ".join(sorted(tables)))


def _guard_superuser(sender: Any, instance: Any, **kw: Any) -> None:
    """Before a user is saved a superuser (every permission, crediting included)."""
    if not instance.pk or not instance.is_superuser:
        return
    was = sender.objects.filter(pk=instance.pk).values_list("is_superuser", flat=True).first()
    if was is False:
        problem = grant_problem(instance, superuser=True)
        if problem:
            raise DutyError("duties_combined", problem)


def install_guards() -> None:
    """Connect the guards (from the app's ``ready``)."""
    from django.db.models.signals import m2m_changed, pre_save

    User = get_user_model()
    for through in (User.groups.through, User.user_permissions.through, Group.permissions.through):
        m2m_changed.connect(_guard_m2m, sender=through, dispatch_uid=f"duties_{through.__name__}")
    pre_save.connect(_guard_superuser, sender=User, dispatch_uid="duties_superuser")
