"""Segregation of duties, and the audit log of every privileged action.

- Dealing is a role (permission ``table.deal_table``) *and* an assignment to a table
  (:class:`~table.models.DealerAssignment`): a dealer runs only the tables assigned to them,
  and may not sit or wager at a table they deal.
- Crediting play money is the cashier's duty (permission ``table.credit_account``), apart
  from dealing: a cashier is never assigned to deal, and nobody credits their own account.
- Every privileged action (a credit, a rules change, a void, a deck change, a table opened or
  closed, a drill armed, a dealer assigned, any change made in the admin) is written to the
  append-only :class:`~table.models.AuditEntry` log with who did it and when, in the same
  transaction as the action itself.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from . import fastsql
from .models import AuditEntry, DealerAssignment, Seat, Table

DEAL_PERMISSION = "table.deal_table"
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
    actor: AbstractBaseUser | None,
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
    user: AbstractBaseUser | AnonymousUser | None,
    table_id: int,
    assigned: frozenset[int] | None = None,
) -> bool:
    """May this user run this table from the dealer console: the dealer role, and assigned
    to this very table (a role alone, or a superuser's every permission, is not enough).
    ``assigned``: the table's dealers' ids when the caller read them already (a command reads
    them with its table lock, so no query of its own)."""
    if user is None or not user.is_authenticated or not getattr(user, "is_active", False):
        return False
    if not user.has_perm(DEAL_PERMISSION):
        return False
    if assigned is not None:
        return user.pk in assigned
    return DealerAssignment.objects.filter(table_id=table_id, dealer_id=user.pk).exists()


def dealt_tables(user: AbstractBaseUser | AnonymousUser | None) -> set[int]:
    """The ids of the tables this user may deal (for the lobby's links)."""
    if user is None or not user.is_authenticated or not user.has_perm(DEAL_PERMISSION):
        return set()
    return set(DealerAssignment.objects.filter(dealer_id=user.pk).values_list("table", flat=True))


def deals_table(user: AbstractBaseUser, table_id: int) -> bool:
    """Is this user assigned to deal this table (whatever their role): then they may not play
    at it."""
    return DealerAssignment.objects.filter(table_id=table_id, dealer_id=user.pk).exists()


def assignment_problem(table: Table, dealer: AbstractBaseUser) -> str | None:
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
    table_id: int, dealer: AbstractBaseUser, by: AbstractBaseUser | None
) -> DealerAssignment:
    """Assign a dealer to a table (audited). Holds the table's row lock, like a command, so
    that the dealer cannot sit down at it in between."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        problem = assignment_problem(table, dealer)
        if problem:
            raise DutyError("not_assignable", problem)
        assignment, created = DealerAssignment.objects.get_or_create(table=table, dealer=dealer)
        if created:
            record(by, "dealer_assigned", {"dealer": dealer.get_username()}, table_id=table.pk)
        return assignment


def unassign_dealer(assignment: DealerAssignment, by: AbstractBaseUser | None) -> None:
    with transaction.atomic():
        record(
            by,
            "dealer_unassigned",
            {"dealer": assignment.dealer.get_username()},
            table_id=assignment.table_id,
        )
        assignment.delete()


# --- crediting --------------------------------------------------------------------------------


def credit_problem(cashier: AbstractBaseUser, player: AbstractBaseUser) -> str | None:
    """Why this cashier may not credit this player's account, or None."""
    if not cashier.has_perm(CREDIT_PERMISSION):
        return f"{cashier.get_username()} may not credit accounts (a cashier's duty)"
    if cashier.pk == player.pk:
        return "nobody credits their own account: ask another cashier"
    return None
