"""Shared fixtures: a seeded randomness source for the shoe, and the real-stack switch."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

#: The browser tests' fixtures (``browser``, ``site``, ``screen``), for the platform's under
#: tests/browser/ and each game's under tests/games/<game>/browser/ alike (pytest reads
#: ``pytest_plugins`` only from this, the top conftest).
pytest_plugins = ["tests.browser.fixtures"]


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` (``make test``) takes the longest files first (tests/xdist_order.py:
    both workers finish together)."""
    if config.getoption("dist") != "loadfile":
        return None
    from tests.xdist_order import make_scheduler

    return make_scheduler(config, log)


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


@pytest.fixture
def every_game() -> Iterator[list[str]]:
    """The names of every game the registry holds: the in-tree games and the tests' own
    (tests/platform/ante_pair), registered for the test."""
    from table.games import GAMES, register, unregister
    from tests.platform.ante_pair import ENTRY

    register(ENTRY)
    yield list(GAMES)
    unregister(ENTRY.name)


@pytest.fixture(autouse=True)
def guard_off_the_host_s_load(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The overload guard (table.lag) measures this process's event loop and service threads;
    on a loaded CI host (two pytest workers, Chromium, Daphne and PostgreSQL on two cores) it
    trips by itself and refuses a test's new seat with ``server_busy`` (seen: the websocket
    fuzz test's sit, 2026-11-27). A test of something else must not depend on the host's
    load, so the limit is out of reach but for tests marked ``overload_guard``, which test
    the guard itself."""
    if request.node.get_closest_marker("overload_guard") is None:
        from table import lag

        monkeypatch.setattr(lag, "LIMIT", 3600.0)


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """Test users need no costly password hashing: PBKDF2 takes ~0.3 s a user, more on a busy
    machine, and the demo makes ten of them (``ensure_demo``) for each test of the sockets.
    (The live stacks' processes, tests/live.py, keep the production hashers.)"""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Tests close each connection after use, so worker threads of database_sync_to_async
    hold no PostgreSQL session between services (one that ends after its test cannot close
    its own: ``django_db_setup`` below closes those)."""
    from django.conf import settings as django_settings

    django_settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
    django_settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] = False


def _close_connections_in(executor: Any, threads: int) -> None:
    """Close the database connection of each of an executor's threads, in that thread.

    One task per thread, each held at a barrier until all have started, so no thread runs
    two of them and none is missed."""
    from django.db import connections

    barrier = threading.Barrier(threads)

    def close() -> None:
        barrier.wait(timeout=10)
        connections.close_all()

    for future in [executor.submit(close) for _ in range(threads)]:
        future.result(timeout=20)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, with the worker threads' connections closed first.

    A service that finishes after its test (a socket's last ping, say) runs Channels'
    connection tidy-up while pytest-django blocks database access, so its connection stays
    open and PostgreSQL then refuses to drop the test database ("being accessed by other
    users"). Closing them here, with access allowed, lets the teardown drop it."""
    yield
    from asgiref.sync import SyncToAsync

    from table.consumers import SERVICE_THREADS, _service_pool
    from table.crowd import READ_THREADS, _read_pool

    with django_db_blocker.unblock():
        _close_connections_in(_service_pool, SERVICE_THREADS)
        _close_connections_in(_read_pool, READ_THREADS)  # snapshots and pongs (table/crowd.py)
        _close_connections_in(SyncToAsync.single_thread_executor, 1)
