"""The hand-off of a socket's command to a service thread, made lean (issue 26).

Every command a socket receives runs in one of this process's service threads (each holds
its own database connection). Channels' ``database_sync_to_async`` did the hand-off: asgiref's
``SyncToAsync`` (a ``functools.partial`` and two closures a call, every context variable of
the loop's context walked twice to re-home asgiref's ``Local`` storage, ``sys.exc_info()``),
``loop.run_in_executor`` (a ``concurrent.futures.Future`` chained to an asyncio one by two
callbacks) and ``ThreadPoolExecutor.submit`` (two locks and a semaphore a call): some 5% of a
busy table server's CPU, most of it on the event loop, which every socket of the process
waits for.

:class:`ServicePool` keeps what those gave, and nothing else:

- **connections**: each thread keeps its own (Django's are thread-local); before and after
  every call, ``close_old_connections()`` closes one past ``CONN_MAX_AGE``, in error or left
  out of autocommit, as Channels' ``DatabaseSyncToAsync`` does; with ``skip_fresh_check``, a
  connection that answered within :data:`HEALTHY_FOR` goes without Django's health check
  (``CONN_HEALTH_CHECKS``: a ``SELECT 1`` round trip before the call's first query);
- **results and errors**: the call's result, or its exception (the same object, its
  traceback from the thread), is the awaiting coroutine's;
- **cancellation**: a call cancelled before a thread takes it never runs; one cancelled
  while it runs raises ``CancelledError`` in its caller at once and its outcome is dropped
  (asgiref's behaviour: a thread cannot be stopped);
- **order**: calls start in the order they were made (one queue, first in first out);
- **context**: the call runs in a copy of the caller's ``contextvars`` context (a copy is
  O(1)): it sees the caller's context variables, and what it sets stays with that call;
- **the loop**: asgiref's thread-local ``main_event_loop`` is set in the thread, as
  ``SyncToAsync`` sets it, so ``async_to_sync`` inside a service and
  :func:`table.meter_outbox.offer` find the loop that called it;
- **exit**: at interpreter exit (or :meth:`ServicePool.shutdown`) the threads finish the
  calls already queued (as ``ThreadPoolExecutor``'s do), then close their connections;
  outcomes that have no loop to go to any more are dropped.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import os
import queue
import threading
import time
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections

_P = ParamSpec("_P")
_R = TypeVar("_R")

#: A service thread's database connection that answered within this long goes without
#: Django's health check (``CONN_HEALTH_CHECKS``: a ``SELECT 1`` round trip before the first
#: query of every call) into the next call. Should the database have gone meanwhile, that
#: call fails as a database error ("nothing changed") and the connection is replaced for the
#: next one.
HEALTHY_FOR = 2.0

#: One queued call: where its outcome goes (None: a plain submit's concurrent future), the
#: loop, the caller's context, the function and its arguments.
_Job = tuple[Any, asyncio.AbstractEventLoop | None, contextvars.Context | None, Callable[[], Any]]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """On the loop: the call's outcome to its awaiting caller (none if it was cancelled)."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class ServicePool:
    """``threads`` threads running calls handed over from an event loop (see the module)."""

    def __init__(self, threads: int, name: str, skip_fresh_check: bool = False) -> None:
        self.size = threads
        self.name = name
        self.skip_fresh_check = skip_fresh_check
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._start_lock = threading.Lock()

    # --- the loop's side ------------------------------------------------------------------

    async def run(self, fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
        """``fn(*args, **kwargs)`` in one of the pool's threads, awaited."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_R] = loop.create_future()
        if not self._threads:
            self._start()
        call = partial(fn, *args, **kwargs) if kwargs else partial(fn, *args)
        self._queue.put((future, loop, contextvars.copy_context(), call))
        return await future

    def bind(self, fn: Callable[_P, _R]) -> Callable[_P, Coroutine[Any, Any, _R]]:
        """``fn`` as a coroutine function that runs it in the pool."""
        return partial(self.run, fn)

    def submit(self, fn: Callable[..., _R], *args: Any) -> concurrent.futures.Future[_R]:
        """``fn(*args)`` in one of the pool's threads, as ``ThreadPoolExecutor.submit`` runs
        it (no connection tidying, no loop): for synchronous callers (the tests' fixtures)."""
        future: concurrent.futures.Future[_R] = concurrent.futures.Future()
        if not self._threads:
            self._start()
        self._queue.put((future, None, None, partial(fn, *args)))
        return future

    # --- the threads' side ----------------------------------------------------------------

    def _start(self) -> None:
        with self._start_lock:
            if self._threads:
                return
            for n in range(self.size):
                thread = threading.Thread(target=self._work, name=f"{self.name}_{n}", daemon=True)
                thread.start()
                self._threads.append(thread)
            # Before the interpreter joins its threads: the queued calls are finished first.
            register = getattr(threading, "_register_atexit", None)
            if register is not None:
                register(self._stop)

    def _stop(self) -> None:
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join()

    def shutdown(self) -> None:
        """Finish the calls queued, then end the threads (each closes its connections)."""
        with self._start_lock:
            self._stop()
            self._threads = []

    def _work(self) -> None:
        local = SyncToAsync.threadlocal
        local.main_event_loop_pid = os.getpid()
        while (job := self._queue.get()) is not None:
            target, loop, context, call = job
            if loop is None:  # a plain submit
                if target.set_running_or_notify_cancel():
                    try:
                        target.set_result(call())
                    except BaseException as exc:
                        target.set_exception(exc)
                continue
            if target.cancelled():  # its caller was cancelled before the call started
                continue
            local.main_event_loop = loop
            local.task_context = []
            result: Any = None
            error: BaseException | None = None
            try:
                assert context is not None
                result = context.run(self._call, call)
            except BaseException as exc:
                error = exc
                if isinstance(exc, StopIteration):  # an asyncio future refuses it
                    error = RuntimeError("the service raised StopIteration")
                    error.__cause__ = exc
            del call, job
            try:
                loop.call_soon_threadsafe(_settle, target, result, error)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                pass
            del target, result, error
        connections.close_all()  # the thread's own

    def _call(self, call: Callable[[], _R]) -> _R:
        close_old_connections()
        conn = connections[DEFAULT_DB_ALIAS]  # the thread's own wrapper, not the proxy
        if self.skip_fresh_check:
            answered = getattr(conn, "frenzy_answered", None)
            if (
                conn.connection is not None
                and not conn.errors_occurred
                and answered is not None
                and time.monotonic() - answered < HEALTHY_FOR
            ):
                # Django's own flag (4.1+), not in django-stubs' BaseDatabaseWrapper.
                conn.health_check_done = True  # type: ignore[attr-defined]
        try:
            return call()
        finally:
            if self.skip_fresh_check and conn.connection is not None and not conn.errors_occurred:
                conn.frenzy_answered = time.monotonic()  # type: ignore[attr-defined]  # ours
            close_old_connections()
