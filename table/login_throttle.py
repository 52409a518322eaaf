"""Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one account,
or from one client address, further attempts are refused for AXES_COOLOFF_TIME without
checking the password (each check costs ~0.5 s of hashing), on the player login and the
admin login alike; the page says why and for how long (registration/locked_out.html)."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginThrottle(AxesStandaloneBackend):
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
