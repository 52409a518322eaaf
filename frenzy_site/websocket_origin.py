"""The websocket handshake's Origin check: the page that opens a socket must be our own.

Cookies ride on websocket handshakes, so a page from any other origin could open a socket
with a player's session (cross-site websocket hijacking). Channels'
``AllowedHostsOriginValidator`` compares only the origin's host name with ``ALLOWED_HOSTS``:
``http://127.0.0.1:9999`` (another program on the same machine) and ``https://127.0.0.1:8201``
passed for a site at ``http://127.0.0.1:8201``. Here, as Django's CSRF check does for forms,
an origin passes only if its scheme, host and port are those of the site the socket was
opened on (the handshake's ``Host``, which must be in ``ALLOWED_HOSTS``), or if it is listed
in ``CSRF_TRUSTED_ORIGINS``.

The site's scheme is https when the handshake came over TLS (``scope["scheme"]`` is
``wss``), when a trusted proxy says so (``SECURE_PROXY_SSL_HEADER``, as for HTTP requests),
or when the site serves no page over plain HTTP (``SECURE_SSL_REDIRECT``, production).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}
#: The close code of a refused origin (the table's consumers close a socket they refuse with
#: 4403 too: not allowed here, whoever asks; the ``closing`` frame's code tells them apart).
CLOSE_BAD_ORIGIN = 4403
BAD_ORIGIN = "bad_origin"
BAD_ORIGIN_WORDS = (
    "this page's origin is not the site's own: open the table from the site's own address "
    "(a proxy must pass the Host and scheme the site is served on)"
)


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the scheme's default port filled in; None if malformed."""
    if scheme not in DEFAULT_PORTS or not netloc:
        return None
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.password is not None:
        return None
    return scheme, parts.hostname.rstrip("."), port or DEFAULT_PORTS[scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    values: list[bytes] = [v for key, v in scope.get("headers", []) if key.lower() == name]
    if len(values) != 1:  # missing, or sent twice: no guessing which one counts
        return None
    try:
        return values[0].decode("latin1").strip()
    except (AttributeError, UnicodeDecodeError):
        return None


def _secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") in ("wss", "https") or settings.SECURE_SSL_REDIRECT:
        return True
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy:
        name, value = proxy
        # "HTTP_X_FORWARDED_PROTO" -> b"x-forwarded-proto", as Django reads it from META.
        sent = _header(scope, name.removeprefix("HTTP_").lower().replace("_", "-").encode())
        return sent is not None and sent.split(",", 1)[0].strip() == value
    return False


def site_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """The origin of the site this handshake was addressed to, or None if its Host is
    missing, malformed or not one of ``ALLOWED_HOSTS`` (DNS rebinding)."""
    host = None
    if settings.USE_X_FORWARDED_HOST:
        host = _header(scope, b"x-forwarded-host")
    host = host or _header(scope, b"host")
    if not host:
        return None
    site = _origin("https" if _secure(scope) else "http", host)
    if site is None:
        return None
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    name = f"[{site[1]}]" if ":" in site[1] else site[1]
    return site if validate_host(name, allowed) else None


def trusted(origin: tuple[str, str, int]) -> bool:
    """Listed in ``CSRF_TRUSTED_ORIGINS`` (``https://casino.example``,
    ``https://*.casino.example``), port included."""
    scheme, host, port = origin
    for entry in settings.CSRF_TRUSTED_ORIGINS:
        parts = urlsplit(entry)
        wildcard = parts.netloc.startswith("*.")
        listed = _origin(parts.scheme, parts.netloc[1:] if wildcard else parts.netloc)
        if listed is None or listed[0] != scheme or listed[2] != port:
            continue
        if listed[1] == host or (wildcard and is_same_domain(host, listed[1])):
            return True
    return False


def allowed_origin(scope: dict[str, Any]) -> bool:
    sent = _header(scope, b"origin")
    if not sent:
        return False
    parts = urlsplit(sent)
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return False
    origin = _origin(parts.scheme.lower(), parts.netloc)
    if origin is None:
        return False
    return origin == site_origin(scope) or trusted(origin)


async def refuse_origin(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A socket from another origin, refused so that a browser can tell why: accepted, sent
    one ``closing`` frame (code ``bad_origin``), closed with 4403 and the reason. Nothing is
    read (no session, no table) and nothing else is sent. A socket refused before it opens
    shows a browser only a failed handshake, the same as a server that is down."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    frame = {"type": "closing", "code": BAD_ORIGIN, "message": BAD_ORIGIN_WORDS}
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(frame)})
    await send({"type": "websocket.close", "code": CLOSE_BAD_ORIGIN, "reason": BAD_ORIGIN})


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not this site's is refused at the
    handshake, before any session is read (:func:`refuse_origin`: told why, then closed)."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator guards websockets only")
        if allowed_origin(scope):
            return await self.application(scope, receive, send)
        return await refuse_origin(scope, receive, send)
