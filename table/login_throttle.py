"""Login throttling (django-axes), in tiers, so that a wrong password locks as little as it
must (issue 23). Each password check costs ~0.5 s of hashing; a locked login is refused
without one, on the player login and the admin login alike, and the page says why and for
how long (registration/locked_out.html).

1. **The account at the address** (axes' own lock, ``AXES_LOCKOUT_PARAMETERS`` = the pair):
   after AXES_FAILURE_LIMIT wrong passwords for one account from one client address, that
   account is refused *from that address* for AXES_COOLOFF_TIME. Other accounts at the same
   address (a casino's players share addresses) and the same account elsewhere log in.
2. **The whole address** only far later: ADDRESS_FAILURE_LIMIT wrong passwords from one
   address within the cool-off, whatever the accounts (someone trying many accounts).
3. **The whole account** only far later: ACCOUNT_FAILURE_LIMIT wrong passwords for one
   account within the cool-off, whatever the addresses (a guessing botnet).

Neither wide lock can keep out someone who logged in from this browser before: a successful
login leaves a signed *known device* cookie (OWASP's device cookies) naming the account, and
a login for that account carrying it is held only by the lock of its own account-and-address
pair. So a stranger can lock the dealer's account at the stranger's own address, never the
dealer at theirs, and never from their console.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.core import signing
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

#: Wrong passwords from one address, any accounts, within the cool-off: the address locks.
ADDRESS_FAILURE_LIMIT = int(os.environ.get("FRENZY_LOGIN_ADDRESS_FAILURES", "200"))
#: Wrong passwords for one account, any addresses, within the cool-off: the account locks
#: (but not for a browser it logged in from before).
ACCOUNT_FAILURE_LIMIT = int(os.environ.get("FRENZY_LOGIN_ACCOUNT_FAILURES", "100"))

DEVICE_COOKIE = "frenzy_device"
DEVICE_SALT = "table.login_throttle.device"
DEVICE_MAX_AGE = 365 * 24 * 3600
DEVICE_ACCOUNTS = 5  # a shared browser remembers this many accounts


class LoginThrottle(AxesStandaloneBackend):  # type: ignore[misc]  # axes is untyped (Any)
    """Axes' check, for logins over HTTP. A login without a request (scripts, the test
    client's ``login``) has no client address to throttle and is left to the next backend
    (axes' own backend refuses it with an exception)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def known_accounts(request: HttpRequest) -> list[str]:
    """The accounts that logged in from this browser before (its signed device cookie)."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return []
    try:
        names = signing.loads(raw, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def _failures(**where: Any) -> int:
    cool_off = get_cool_off() or timedelta(minutes=5)
    since = timezone.now() - cool_off
    rows = AccessAttempt.objects.filter(attempt_time__gte=since, **where)
    return int(rows.aggregate(n=Sum("failures_since_start"))["n"] or 0)


class TieredLockHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' database handler, locking the account-and-address pair (its lockout parameters)
    and, far later, the address or the account, except for a known device."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True  # the pair: this account from this address
        username = get_client_username(request, credentials)
        if username and username in known_accounts(request):
            return False  # this browser logged in as them before: no wider lock holds it
        ip = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
        if ip and _failures(ip_address=ip) >= ADDRESS_FAILURE_LIMIT:
            return True
        return bool(username) and _failures(username=username) >= ACCOUNT_FAILURE_LIMIT

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        """Axes marks the request locked out (its 429 page) from the pair's count alone: a
        wider lock refused it too."""
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and not getattr(request, "axes_locked_out", False):
            if self.is_locked(request, credentials):
                request.axes_locked_out = True


def remember_device(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: the response will leave (or renew) the known-device cookie."""
    if request is not None and user is not None:
        request._frenzy_device_login = user.get_username()  # type: ignore[attr-defined]


class KnownDeviceMiddleware:
    """Sets the known-device cookie on the response to a successful login."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        name = getattr(request, "_frenzy_device_login", None)
        if name:
            names = [name] + [n for n in known_accounts(request) if n != name]
            response.set_cookie(
                DEVICE_COOKIE,
                signing.dumps(names[:DEVICE_ACCOUNTS], salt=DEVICE_SALT),
                max_age=DEVICE_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
