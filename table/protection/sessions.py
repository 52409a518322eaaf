"""A login is a player session (§812a.1, §812a.9(a)(5)), with what the player sees of it.

:func:`start` (on Django's ``user_logged_in``) opens one with a unique key and remembers the
previous login's time to show (§812a.9(a)(4), §812a.3(a)(4), §814a.1(c)); :func:`end` (on
``user_logged_out``) closes it. :func:`status` is what every player page shows: the time since
login, the net result and the amount wagered since login (§814a.1(e)(1)-(2)), whether a
reality check is due, and whether the session is locked after 15 minutes idle
(§812a.3(a)(6)). :func:`answer_reality_check` and :func:`unlock` (the password again) are the
player's answers.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, Sum
from django.utils import timezone

from table.models import Account, Entry

from .guard import _GIVEN_BACK, IDLE
from .limits import guard_of
from .models import PlayerSession

#: The key in the Django session holding the player session's id.
SESSION_KEY = "player_session"
PREVIOUS_KEY = "previous_login"


def start(
    user: User, address: str | None = None
) -> tuple[PlayerSession, dt.datetime | None]:
    """A new session for this login, and when the one before it started (None: the first)."""
    now = timezone.now()
    previous = (
        PlayerSession.objects.filter(user_id=user.pk)
        .order_by("-started")
        .values_list("started", flat=True)
        .first()
    )
    session = PlayerSession.objects.create(
        user_id=user.pk, started=now, last_active=now, reality_answered=now, address=address
    )
    return session, previous


def end(session_id: int | None) -> None:
    if session_id:
        PlayerSession.objects.filter(pk=session_id, ended__isnull=True).update(ended=timezone.now())


def current(request: Any) -> PlayerSession | None:
    """The open session of this request's login (None: none, or it ended)."""
    pk = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if not pk:
        return None
    return PlayerSession.objects.filter(pk=pk, user_id=request.user.pk, ended__isnull=True).first()


@dataclass(frozen=True)
class Status:
    session: PlayerSession
    now: dt.datetime
    net: int  # cents won (> 0) or lost (< 0) since login
    wagered: int
    reality_minutes: int
    reality_due: bool
    next_check: dt.datetime
    locked: bool  # idle 15 minutes: the password again

    def as_json(self) -> dict[str, Any]:
        return {
            "session": str(self.session.key),
            "started": self.session.started.isoformat(),
            "now": self.now.isoformat(),
            "elapsed_seconds": int((self.now - self.session.started).total_seconds()),
            "net": self.net,
            "wagered": self.wagered,
            "reality_minutes": self.reality_minutes,
            "reality_due": self.reality_due,
            "next_check": self.next_check.isoformat(),
            "locked": self.locked,
        }


def since_login(user: User, started: dt.datetime) -> tuple[int, int]:
    """(net, wagered) in cents since ``started``, recounted from the ledger (what a session's
    ``net`` and ``wagered`` hold, tests/protection/test_sessions.py): the net is every table
    posting to the player's account; the amount wagered is the stakes less what was given
    back before it was played (table/protection/guard.py counts the tallies the same way)."""
    account = Account.objects.filter(user_id=user.pk).values_list("pk", flat=True).first()
    if account is None:
        return 0, 0
    rows = Entry.objects.filter(
        account_id=account,
        transaction__created__gte=started,
        transaction__table__isnull=False,
    )
    sums = rows.aggregate(
        net=Sum("amount"),
        staked=Sum("amount", filter=Q(amount__lt=0, transaction__box__isnull=False)),
        back=Sum("amount", filter=Q(transaction__memo__in=_GIVEN_BACK)),
    )
    net = sums["net"] or 0
    wagered = -(sums["staked"] or 0) - (sums["back"] or 0)
    return net, wagered


def status(session: PlayerSession, now: dt.datetime | None = None) -> Status:
    now = now or timezone.now()
    guard = guard_of(session.user)
    # The session's own figures, kept by every command under the player's account lock (the
    # same the table's socket sends with the balance); :func:`since_login` recounts them from
    # the ledger.
    net, wagered = session.net, session.wagered
    next_check = session.reality_answered + dt.timedelta(minutes=guard.reality_minutes)
    return Status(
        session=session,
        now=now,
        net=net,
        wagered=wagered,
        reality_minutes=guard.reality_minutes,
        reality_due=now >= next_check,
        next_check=next_check,
        locked=now - session.last_active > IDLE,
    )


def answer_reality_check(session: PlayerSession, now: dt.datetime | None = None) -> None:
    """The player answered the reality check: the next one is an interval from now."""
    now = now or timezone.now()
    PlayerSession.objects.filter(pk=session.pk).update(reality_answered=now, last_active=now)
    session.reality_answered = session.last_active = now


def touch(session: PlayerSession, now: dt.datetime | None = None) -> bool:
    """The player is here (a page, a status poll with activity): False if the session is
    locked already (idle 15 minutes: only the password opens it again)."""
    now = now or timezone.now()
    if now - session.last_active > IDLE:
        return False
    PlayerSession.objects.filter(pk=session.pk).update(last_active=now)
    session.last_active = now
    return True


def unlock(session: PlayerSession, password: str, now: dt.datetime | None = None) -> bool:
    """The password entered again after the idle lock (§812a.3(a)(6)): the session goes on
    (same key, the seats kept) if it is right."""
    if not session.user.check_password(password):
        return False
    session.last_active = now or timezone.now()
    PlayerSession.objects.filter(pk=session.pk).update(last_active=session.last_active)
    return True
