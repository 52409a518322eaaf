"""Production settings: ``manage.py check --deploy`` is clean, and a missing secret key stops
the start."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    base.pop("DATABASE_URL", None)
    base.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "frenzy_site.settings_production", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings() -> None:
    out = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="casino.example",
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "System check identified no issues" in out.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    for key in ("", "short", "dev-only-insecure-key-change-me-4c4rdfr3nzy-0123456789abcdef"):
        out = manage("check", DJANGO_SECRET_KEY=key, DJANGO_ALLOWED_HOSTS="casino.example")
        assert out.returncode != 0
        assert "DJANGO_SECRET_KEY" in out.stderr


def test_production_settings_values() -> None:
    out = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; print(s.DEBUG, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS >= 31536000, "
        "s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD, s.SECURE_PROXY_SSL_HEADER)",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="casino.example",
        DJANGO_SECURE_PROXY="1",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1].split() == [
        "False",
        "True",
        "True",
        "True",
        "True",
        "True",
        "True",
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
    ]
