"""Settings for the casino table games.

With no environment it runs embedded: SQLite and the in-memory channel layer, DEBUG off
(``DJANGO_DEBUG=1`` turns it on for development: never where players can reach the site,
since a debug page shows every URL pattern and the settings).
``DATABASE_URL`` switches to PostgreSQL (or any database dj-database-url knows) and
``REDIS_URL`` to the Redis channel layer, so that several Daphne processes can serve one table.
Production hardening lives in ``frenzy_site.settings_production``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext

# ModelAdmin[Table], ModelForm[Table]... at run time too (django-stubs types the admin with them).
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me-4c4rdfr3nzy-0123456789abcdef"
)
DEBUG = os.environ.get("DJANGO_DEBUG", "0") == "1"
ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",  # first, so that runserver serves ASGI (websockets included)
    "django.contrib.admin",
    "django.contrib.auth",
    "axes",  # login throttling (table/login_throttle.py)
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "table",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "frenzy_site.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A player's page views are activity; an ended session logs out (table/protection/web.py).
    "table.protection.web.ActivityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "frenzy_site.admin_guard.EmptyToFieldMiddleware",
    # A successful login leaves a known-device cookie (table/login_throttle.py).
    "table.login_throttle.KnownDeviceMiddleware",
    # Last: turns a refused (throttled) login into the "too many attempts" page.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes), for the player login and the admin login, in tiers
# (table/login_throttle.py): after AXES_FAILURE_LIMIT wrong passwords for one account from one
# client address, that account is refused from that address for AXES_COOLOFF_TIME without
# hashing the password; the whole address or the whole account only far later, and never for
# a browser that logged in to the account before. Behind a reverse proxy run Daphne with
# --proxy-headers so that the client address is the visitor's.
AUTHENTICATION_BACKENDS = [
    "table.login_throttle.LoginThrottle",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("FRENZY_LOGIN_FAILURES", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("FRENZY_LOGIN_COOLOFF_MINUTES", "5")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair; wider tiers: the handler
AXES_HANDLER = "table.login_throttle.TieredLockHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429
AXES_DISABLE_ACCESS_LOG = True  # failures only: no row per successful login

ROOT_URLCONF = "frenzy_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        # The project's templates, the apps', then each game's own (in its package: the
        # registry says where, table/game_files.py), cached as Django's default loaders are.
        "OPTIONS": {
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "table.game_files.GameTemplateLoader",
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "table.protection.web.context",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "frenzy_site.asgi.application"

_sqlite = {
    "ENGINE": "django.db.backends.sqlite3",
    "NAME": BASE_DIR / os.environ.get("SQLITE_NAME", "db.sqlite3"),
    # IMMEDIATE: a writer takes the lock at BEGIN, so two commands on one table queue up
    # instead of failing with "database is locked" when a read lock is upgraded.
    "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"},
    # One test database per test process: two suites running at once never share it.
    "TEST": {"NAME": BASE_DIR / f"test-db-{os.getpid()}.sqlite3"},
}
DATABASES: dict[str, Mapping[str, Any]] = {
    "default": dj_database_url.config(conn_max_age=60, conn_health_checks=True)
    if os.environ.get("DATABASE_URL")
    else _sqlite
}

REDIS_URL = os.environ.get("REDIS_URL", "")
#: The channel layer's key prefix in Redis. Two test workers (pytest-xdist) on one Redis each
#: get their own, as each gets its own test database: their tables have the same ids.
CHANNELS_PREFIX = os.environ.get("CHANNELS_PREFIX", "frenzy") + (
    f"-{os.environ['PYTEST_XDIST_WORKER']}" if os.environ.get("PYTEST_XDIST_WORKER") else ""
)
if REDIS_URL:
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
        "default": {
            # Pub/sub: a group message is published once and each process fans it out to its
            # own sockets (the list-based core layer pushes one copy per socket through Redis,
            # several times the CPU for a table of seven). Nothing is queued in Redis: a frame
            # a process misses is recovered by the client's version check and a snapshot.
            # channels_redis's, a group's message unpacked once for all its sockets (table.layer).
            "BACKEND": "table.layer.PubSubLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # After a Redis restart every pooled connection is dead: reconnect and
                        # retry the command instead of failing it (a handshake would fail with
                        # a 500, an event would be lost), once per stale connection.
                        "retry": Retry(ExponentialBackoff(cap=1.0, base=0.05), 6),
                        "retry_on_error": [RedisConnectionError, RedisTimeoutError],
                    }
                ],
                "prefix": CHANNELS_PREFIX,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
# The casino's clock: times in the admin, the gaming day and the shifts (docs/backoffice.md).
TIME_ZONE = os.environ.get("CASINO_TIME_ZONE", "America/New_York")
USE_I18N = True
USE_TZ = True
#: Every date-and-time the staff read names that zone ("6:54 a.m. EST"): frenzy_site/formats.
FORMAT_MODULE_PATH = ["frenzy_site.formats"]
#: The back office's gaming day begins at this local time (HH:MM) and runs 24 hours; its
#: shifts begin at these local times (the first at the gaming day's start). A round counts
#: in the gaming day and shift in which it was settled.
CASINO_GAMING_DAY_START = os.environ.get("CASINO_GAMING_DAY_START", "06:00")
CASINO_SHIFTS = (("day", "06:00"), ("swing", "14:00"), ("graveyard", "22:00"))

# A socket gets at most one frame of meter increments in this many seconds, carrying every
# linked meter that moved (increments and reversals coalesce to the newest; a hit, a reset, a
# seed or a link goes at once), the last one always each meter's newest amount:
# table/meter_relay.py, docs/protocol.md (issue 26). Once a second, as a casino floor's
# progressive signs refresh; Chapter 657a sets no display rate (docs/capacity.md).
METER_FRAME_INTERVAL = float(os.environ.get("METER_FRAME_INTERVAL", "1.0"))
# The publishing process holds a meter's increments this long at most before the channel layer
# (table/meter_outbox.py): short, since the sockets' pace is the relay's; held for the whole
# METER_FRAME_INTERVAL, a change waited up to an interval at each end, ~2 s with one process.
METER_PUBLISH_INTERVAL = float(os.environ.get("METER_PUBLISH_INTERVAL", "0.25"))

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The project's static/, the apps', then each game's own (in its package, table/game_files.py).
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "table.game_files.GameStaticFinder",
]
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves static/ (and the admin's files) straight from the finders, DEBUG off
# included, so the site works without a collectstatic step; files in STATIC_ROOT (after
# collectstatic) are served as well.
WHITENOISE_USE_FINDERS = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "login"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "frenzy_site.log_filters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # HTTP 403 (PermissionDenied): one line, not a traceback (issue 28).
    "loggers": {"django.request": {"filters": ["refusals"]}},
}
