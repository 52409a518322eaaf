"""Shared fixtures: a seeded randomness source for the shoe, and the real-stack switch."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


class SeededSource:
    """A replayable stand-in for ``secrets`` in tests (the engine never imports ``random``)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self._rng.randrange(n)


@pytest.fixture
def seeded() -> SeededSource:
    return SeededSource(20261121)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Tests close each connection after use: worker threads of database_sync_to_async
    must not hold PostgreSQL sessions open past the test database's teardown."""
    from django.conf import settings as django_settings

    django_settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
    django_settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
