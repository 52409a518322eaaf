"""A command's service thread does not check its database connection with a ``SELECT 1``
round trip before every command (Django's ``CONN_HEALTH_CHECKS``) when that connection has
just answered (service_pool.HEALTHY_FOR); one idle for longer is checked as before."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from table import consumers, service_pool
from table.models import Table

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


def read() -> int:
    return Table.objects.count()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="health checks: PostgreSQL only")
async def test_a_connection_that_just_answered_is_not_checked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import connections

    wrapper = type(connections["default"])
    checks: list[Any] = []
    real = wrapper.is_usable

    def is_usable(self: Any) -> bool:
        checks.append(self)
        return bool(real(self))

    monkeypatch.setattr(wrapper, "is_usable", is_usable)
    pool = service_pool.ServicePool(1, "test", skip_fresh_check=True)
    monkeypatch.setattr(consumers, "_service_pool", pool)
    monkeypatch.setitem(connection.settings_dict, "CONN_HEALTH_CHECKS", True)
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    for _ in range(5):
        await consumers.in_worker(read)()
    assert len(checks) == 0  # the first call opened it; the others found it fresh
    monkeypatch.setattr(service_pool, "HEALTHY_FOR", 0.0)
    await consumers.in_worker(read)()
    assert len(checks) == 1  # not fresh: checked as Django does
    pool.shutdown()  # its thread closes its connection (kept open: CONN_MAX_AGE 60)
