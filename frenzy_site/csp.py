"""The Content-Security-Policy header (Django 5.2 has none built in; 6.0 will).

Every page runs only scripts and styles served by this site from ``static/`` (no inline
script, style, ``style=`` attribute or event handler anywhere in the templates), connects
only back to this site (its own websocket included), may not be framed, and posts forms
only to itself. A script injected into a page would not run.

The admin (staff only) also allows ``style=`` attributes (``style-src-attr``): its
paytable signs and records are drawn with them (``table/admin.py``). Scripts stay
``'self'`` there too. Moving those styles into a stylesheet would let this exception go.
"""

from __future__ import annotations

from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin

DIRECTIVES = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
HEADER = "Content-Security-Policy"
ADMIN_STYLE_ATTRIBUTES = "style-src-attr 'unsafe-inline'"


@lru_cache(maxsize=1)
def admin_prefix() -> str:
    return reverse("admin:index")


def policy(request: HttpRequest) -> str:
    """The policy for a response to ``request``. ``connect-src`` names the page's own
    websocket origin too: browsers before CSP Level 3 do not count ws: as 'self'."""
    connect = "connect-src 'self'"
    try:
        host = request.get_host()
    except Exception:  # a Host not allowed: the response is an error page anyway
        host = ""
    if host:
        connect += f" {'wss' if request.is_secure() else 'ws'}://{host}"
    directives = [*DIRECTIVES, connect]
    if request.path.startswith(admin_prefix()):
        directives.append(ADMIN_STYLE_ATTRIBUTES)
    return "; ".join(directives)


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    """Adds the policy to every response that does not set its own (sync and async)."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if HEADER not in response.headers:
            response.headers[HEADER] = policy(request)
        return response
