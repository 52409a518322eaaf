"""The lean hand-off of a command to a service thread (table.service_pool, issue 26) keeps what
Channels' ``database_sync_to_async`` gave: the result or the very exception, calls started in
order, a call cancelled before it starts never run, one cancelled while it runs let go at
once, the caller's context variables (and none leaking between calls), asgiref's loop for
``async_to_sync`` and the meter outbox, and every connection tidied before and after each call.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection

from table import consumers, crowd, meter_outbox, service_pool
from table.models import Table
from table.service_pool import ServicePool

ASKED: contextvars.ContextVar[str] = contextvars.ContextVar("asked", default="nobody")


class Refused(Exception):
    pass


@pytest.fixture
def make_pool() -> Iterator[Callable[..., ServicePool]]:
    """Pools for one test, shut down after it (their threads close their connections)."""
    made: list[ServicePool] = []

    def make(threads: int = 1) -> ServicePool:
        made.append(ServicePool(threads, "test-pool"))
        return made[-1]

    yield make
    for pool in made:
        pool.shutdown()


def refuse() -> None:
    raise Refused("no")


async def test_the_result_or_the_very_exception_comes_back(
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool(2)
    assert await pool.run(lambda a, b=0: a + b, 2, b=3) == 5
    with pytest.raises(Refused) as raised:
        await pool.bind(refuse)()
    # The traceback reaches into the service, as asgiref's did.
    assert "refuse" in "".join(traceback.format_tb(raised.value.__traceback__))
    assert await pool.run(lambda: threading.current_thread().name) != (
        threading.current_thread().name
    )
    assert (await pool.run(threading.current_thread)).name.startswith("test-pool")


async def test_a_service_that_raises_stop_iteration_fails_rather_than_hangs(
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool()

    def stop() -> None:
        raise StopIteration

    with pytest.raises(RuntimeError):
        await asyncio.wait_for(pool.run(stop), 5)
    assert await pool.run(lambda: 7) == 7  # the thread lives on


async def test_calls_start_in_the_order_they_were_made(
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool()
    started: list[int] = []
    await asyncio.gather(*(pool.run(started.append, n) for n in range(20)))
    assert started == list(range(20))


async def test_a_call_cancelled_before_a_thread_takes_it_never_runs(
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool()
    release = threading.Event()
    ran: list[str] = []
    first = asyncio.ensure_future(pool.run(release.wait, 10))
    second = asyncio.ensure_future(pool.run(ran.append, "second"))
    await asyncio.sleep(0.05)
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await second
    release.set()
    assert await first is True
    await pool.run(ran.append, "third")
    assert ran == ["third"]


async def test_a_call_cancelled_while_it_runs_lets_its_caller_go_at_once(
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool()
    release = threading.Event()
    running = asyncio.ensure_future(pool.run(release.wait, 10))
    await asyncio.sleep(0.05)
    began = time.monotonic()
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert time.monotonic() - began < 1
    release.set()
    assert await asyncio.wait_for(pool.run(lambda: "next"), 5) == "next"


async def test_a_call_sees_the_callers_context_and_leaks_nothing(
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool()

    def read_then_set() -> str:
        seen = ASKED.get()
        ASKED.set("the service")
        return seen

    token = ASKED.set("the socket")
    try:
        assert await pool.run(read_then_set) == "the socket"
        assert ASKED.get() == "the socket"  # not the service's
    finally:
        ASKED.reset(token)
    assert await pool.run(ASKED.get) == "nobody"  # the last call's value stayed with it


async def test_a_service_thread_knows_the_loop_that_called_it(
    make_pool: Callable[..., ServicePool],
) -> None:
    """table.meter_outbox hands a committed meter frame to the loop that ran the command."""
    pool = make_pool()
    assert await pool.run(meter_outbox._loop_of_this_thread) is asyncio.get_running_loop()


def test_a_plain_submit_runs_in_a_pool_thread(make_pool: Callable[..., ServicePool]) -> None:
    pool = make_pool(2)
    assert pool.submit(lambda: threading.current_thread().name).result(5).startswith("test-pool")
    with pytest.raises(Refused):
        pool.submit(refuse).result(5)


def test_the_sockets_and_the_reads_use_the_lean_pools() -> None:
    assert isinstance(consumers._service_pool, ServicePool)
    assert consumers._service_pool.skip_fresh_check
    assert isinstance(crowd._read_pool, ServicePool)
    assert not crowd._read_pool.skip_fresh_check


@pytest.mark.django_db(transaction=True)
async def test_connections_are_tidied_before_and_after_every_call(
    monkeypatch: pytest.MonkeyPatch,
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool()
    tidied: list[str] = []
    real = service_pool.close_old_connections

    def tidy() -> None:
        tidied.append(threading.current_thread().name)
        real()

    monkeypatch.setattr(service_pool, "close_old_connections", tidy)
    assert await pool.run(Table.objects.count) == 0
    assert len(tidied) == 2 and all(name.startswith("test-pool") for name in tidied)
    # The tests' connections live no longer than a call (CONN_MAX_AGE 0, tests/conftest.py):
    # the thread's is closed after the call, not left open until the next one.
    assert connection.settings_dict["CONN_MAX_AGE"] == 0
    assert pool.submit(lambda: connection.connection is None).result(5)


@pytest.mark.django_db(transaction=True)
async def test_a_database_error_leaves_the_thread_a_working_connection(
    make_pool: Callable[..., ServicePool],
) -> None:
    pool = make_pool()

    def broken() -> Any:
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table_here")

    with pytest.raises(Exception, match="no_such_table_here"):
        await pool.run(broken)
    assert await pool.run(Table.objects.count) == 0
