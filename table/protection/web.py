"""Player protection in the browser: login and logout (a session each, the previous login
shown, an excluded player refused), the page-view activity and the context every page gets
(the player bar: clock, time since login, figures since login, the helpline), and the
player's pages (status, reality check answer, the password after the idle lock, limits,
responsible gaming).

The bar and its dialogs are drawn by ``static/table/protection.js`` from ``status.json``;
the server enforces what they show (table/protection/guard.py).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from . import exclusion, limits, periods, sessions
from .models import LimitChange, SelfExclusion

HELPLINE = "1-800-GAMBLER"

if TYPE_CHECKING:
    from table.signed_in import SignedInRequest


def is_player(user: Any) -> bool:
    """A player (not staff, no dealer role): whom the bar, the reality check and the idle
    lock are for."""
    return bool(
        user.is_authenticated and not user.is_staff and not user.has_perm("table.deal_table")
    )


class LoginForm(AuthenticationForm):
    """The login form; an excluded player is refused (ch. 815a)."""

    def confirm_login_allowed(self, user: User) -> None:
        super().confirm_login_allowed(user)
        row = exclusion.active(user)
        if row is not None:
            self.excluded_message = (
                "This account is excluded from play. If you or someone you know has a "
                f"gambling problem, help is available: call {HELPLINE}."
            )
            raise ValidationError(self.excluded_message, code="excluded")

    excluded_message = ""


def logged_in(sender: Any, request: HttpRequest, user: User, **kw: Any) -> None:
    """``user_logged_in``: a new session; the previous login's time for the next page
    (§812a.9(a)(4))."""
    if request is None or not hasattr(request, "session"):
        return
    address = request.META.get("REMOTE_ADDR") or None
    session, previous = sessions.start(user, address)
    request.session[sessions.SESSION_KEY] = session.pk
    request.session[sessions.PREVIOUS_KEY] = previous.isoformat() if previous else ""
    if is_player(user):
        # The time itself is in the bar, in the player's own time zone (the browser's).
        said = "is shown above, in your time zone" if previous else "none: this is your first"
        messages.info(request, f"Welcome. Your previous login {said}.", fail_silently=True)


def logged_out(sender: Any, request: HttpRequest, user: Any, **kw: Any) -> None:
    if request is not None and hasattr(request, "session"):
        sessions.end(request.session.get(sessions.SESSION_KEY))


class ActivityMiddleware:
    """A page a logged-in player opens is activity (not the bar's status poll); a player
    whose session ended (excluded, logged in elsewhere) is logged out here."""

    QUIET = ("/protection/status.json", "/static/", "/admin/")

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and sessions.SESSION_KEY in request.session
            and not request.path.startswith(self.QUIET)
        ):
            session = sessions.current(request)
            if session is None or exclusion.active(user) is not None:
                logout(request)
                messages.info(request, "Your session has ended: log in again.")
                return redirect("login")
            sessions.touch(session)
        response: HttpResponse = self.get_response(request)
        return response


def context(request: HttpRequest) -> dict[str, Any]:
    """For every page: the player bar's facts (``protection``), or nothing."""
    user = getattr(request, "user", None)
    if user is None or not is_player(user):
        return {"helpline": HELPLINE}
    session = sessions.current(request)
    if session is None:
        return {"helpline": HELPLINE}
    previous = request.session.get(sessions.PREVIOUS_KEY) or ""
    return {
        "helpline": HELPLINE,
        "protection": {
            "started": session.started.isoformat(),
            "id": session.pk,  # the figures a table's socket sends are by session id
            "previous": previous,
            "key": str(session.key),
        },
    }


@login_required
def status(request: HttpRequest) -> JsonResponse:
    session = sessions.current(request)
    if session is None:
        return JsonResponse({"ended": True}, status=410)
    return JsonResponse(sessions.status(session).as_json())


@login_required
@require_POST
def reality_check(request: HttpRequest) -> HttpResponse:
    """The player's answer: keep playing, log out, or set a limit (the limits page)."""
    session = sessions.current(request)
    if session is None:
        return JsonResponse({"ended": True}, status=410)
    answer = request.POST.get("answer", "")
    if answer not in ("keep", "logout", "limit"):
        return JsonResponse({"error": "answer keep, logout or limit"}, status=400)
    sessions.answer_reality_check(session)
    if answer == "logout":
        logout(request)
        return JsonResponse({"next": "/login/"})
    if answer == "limit":
        return JsonResponse({"next": "/protection/limits/"})
    return JsonResponse(sessions.status(session).as_json())


@login_required
@require_POST
def unlock(request: HttpRequest) -> JsonResponse:
    """The password again after 15 minutes idle (§812a.3(a)(6)): same session, seats kept."""
    session = sessions.current(request)
    if session is None:
        return JsonResponse({"ended": True}, status=410)
    if not sessions.unlock(session, request.POST.get("password", "")):
        return JsonResponse({"error": "that password is not right"}, status=403)
    return JsonResponse(sessions.status(session).as_json())


def _cents(text: str) -> int | None:
    text = text.strip().replace(",", "").removeprefix("$")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation as exc:
        raise limits.LimitError(
            "bad_amount", "write an amount in dollars, e.g. 50 or 50.00"
        ) from exc
    if value != value.quantize(Decimal("0.01")):
        raise limits.LimitError("bad_amount", "an amount is dollars and cents")
    return int(value * 100)


def _rows(user: User, now: dt.datetime) -> list[dict[str, Any]]:
    guard = limits.guard_of(user)
    out = []
    for kind, (words, unit) in periods.KINDS.items():
        current = guard.limits.get(kind)
        asked = guard.pending.get(kind)
        after = None
        if asked:
            after = dt.datetime.fromisoformat(asked["after"])
        out.append(
            {
                "kind": kind,
                "words": words,
                "unit": "minutes" if unit == "minutes" else "dollars",
                "current": periods.amount_words(kind, current),
                "value": ""
                if current is None
                else (str(current) if unit == "minutes" else f"{current / 100:.2f}"),
                "asked": None
                if not asked
                else {
                    "amount": periods.amount_words(kind, asked["amount"]),
                    "after": after,
                    "due": after is not None and now >= after,
                },
            }
        )
    return out


class CoolOffForm(forms.Form):
    hours = forms.IntegerField(min_value=24, max_value=30 * 24)


@login_required
def limits_page(request: SignedInRequest) -> HttpResponse:
    """The player's limits (§814a.2), the reality check's interval (§814a.1(e)(3)), a
    cool-off and self-exclusion (ch. 815a), each change on the spot with what it does."""
    user = request.user
    session = sessions.current(request)
    sid = session.pk if session else None
    if request.method == "POST":
        action = request.POST.get("action", "")
        kind = request.POST.get("kind", "")
        try:
            if action == "set":
                unit = periods.KINDS.get(kind, ("", "cents"))[1]
                text = request.POST.get("amount", "")
                if unit == "minutes":
                    amount: int | None = int(text) if text.strip() else None
                else:
                    amount = _cents(text)
                outcome = limits.set_limit(user, kind, amount, session=sid)
                if outcome.effective is None:
                    messages.info(
                        request,
                        f"Your {periods.words(kind)} change is noted: it can take effect once "
                        "the current period has ended, when you confirm it here again.",
                    )
                else:
                    messages.success(request, f"Your {periods.words(kind)} limit is in force now.")
            elif action == "confirm":
                limits.confirm(user, kind, session=sid)
                messages.success(request, f"Your {periods.words(kind)} change is in force now.")
            elif action == "withdraw":
                limits.withdraw(user, kind, session=sid)
                messages.success(request, "The change you asked for is withdrawn.")
            elif action == "reality":
                limits.set_reality_minutes(user, int(request.POST.get("minutes", "0")), session=sid)
                messages.success(request, "Your reality check interval is saved.")
            elif action == "cooloff":
                form = CoolOffForm(request.POST)
                if not form.is_valid():
                    raise limits.LimitError("bad_length", "a break lasts 24 to 720 hours")
                until = limits.cool_off(
                    user, dt.timedelta(hours=form.cleaned_data["hours"]), session=sid
                )
                messages.success(
                    request,
                    f"Your break from play runs until {timezone.localtime(until):%Y-%m-%d %H:%M}.",
                )
            elif action == "exclude":
                term = request.POST.get("term", "")
                if request.POST.get("sure") != "yes":
                    raise limits.LimitError("not_sure", "tick the box to confirm the exclusion")
                exclusion.exclude(user, term, by=user)
                logout(request)
                return render(request, "protection/excluded.html", {"helpline": HELPLINE})
            else:
                raise limits.LimitError("bad_action", "unknown action")
        except (limits.LimitError, ValueError) as exc:
            messages.error(request, getattr(exc, "message", "that is not a number"))
        return redirect("protection_limits")
    now = timezone.now()
    guard = limits.guard_of(user)
    history = LimitChange.objects.filter(player=user).order_by("-created", "-id")[:20]
    return render(
        request,
        "protection/limits.html",
        {
            "rows": _rows(user, now),
            "guard": guard,
            "cooling": guard.cooloff_until
            if guard.cooloff_until and guard.cooloff_until > now
            else None,
            "reality_choices": periods.REALITY_CHOICES,
            "terms": SelfExclusion.TERMS,
            "history": history,
        },
    )


def responsible(request: HttpRequest) -> HttpResponse:
    """Responsible-gaming information and the helpline (§814a.1(b)), for anyone."""
    return render(request, "protection/responsible.html", {"helpline": HELPLINE})
