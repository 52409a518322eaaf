"""Production settings: the base settings, hardened. ``manage.py check --deploy`` is clean.

Use with ``DJANGO_SETTINGS_MODULE=frenzy_site.settings_production``. Required environment:

- ``DJANGO_SECRET_KEY``: a long random string (50+ characters), never the development key.
  Startup fails without it.
- ``DJANGO_ALLOWED_HOSTS``: the public host names, comma-separated.
- ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (several Daphne processes), as in the base.

Optional: ``DJANGO_CSRF_TRUSTED_ORIGINS`` (``https://casino.example``), ``DJANGO_SECURE_PROXY``
(see below), ``DJANGO_HSTS_SECONDS``.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from .settings import *  # noqa: F403
from .settings import ALLOWED_HOSTS

DEBUG = False

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if len(SECRET_KEY) < 50 or SECRET_KEY.startswith("dev-only"):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set to a random string of at least 50 characters "
        "(python -c 'import secrets; print(secrets.token_urlsafe(64))')"
    )

if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must name the public host(s)")

# Cookies only over HTTPS; the session cookie never readable from JavaScript.
SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SECURE = True

# Every plain-HTTP request is redirected to HTTPS, and browsers are told to stay on HTTPS
# (HSTS) for a year, subdomains included, and may preload the rule.
SECURE_SSL_REDIRECT = True
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# SECURE_PROXY_SSL_HEADER: set it ONLY when Daphne runs behind a reverse proxy (nginx, a load
# balancer) that terminates TLS, talks plain HTTP to Daphne, and always sets (overwriting
# anything a client sent) ``X-Forwarded-Proto: https`` on the requests it forwards. Then Django
# knows a request came in over HTTPS (secure cookies, no redirect loop). If Daphne is reachable
# directly, a client could forge the header: leave it unset (DJANGO_SECURE_PROXY unset).
if os.environ.get("DJANGO_SECURE_PROXY") == "1":
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
