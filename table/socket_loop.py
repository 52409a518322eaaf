"""A socket's consumer waits for its next message cheaply (issue 26).

A consumer takes messages from two sources: its websocket (Daphne's queue) and its channel
on the layer (the table's frames). Channels' ``await_many_dispatch`` waits for both with
``asyncio.wait`` and, after each message, makes a new task for the source that gave it:
per frame a socket is sent, a task made and started, ``asyncio.wait``'s callbacks added to
and removed from both tasks, and three or four turns of the event loop (about 2% of a busy
table server's CPU, all on the loop, before the frame's own work).

:func:`dispatch_loop` gives each source one task for the consumer's whole life, which hands
what it receives to one queue; the consumer takes the queue's messages one at a time, as
before, and dispatches each before taking the next. The same guarantees: each source's
messages in the order it gave them, one message dispatched at a time, a source that fails
(or is cancelled) ends the consumer with its error, and when the consumer ends (its
disconnect handler raises ``StopConsumer``, or anything else) the sources' waits are
cancelled and awaited, as Channels does (the Redis layer unsubscribes the channel then).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

Source = Callable[[], Awaitable[Any]]


async def _pump(source: Source, put: Callable[[tuple[Any, Any]], None]) -> None:
    while True:
        put((await source(), None))


async def dispatch_loop(
    sources: Sequence[Source], dispatch: Callable[[Any], Awaitable[Any]]
) -> None:
    """Dispatch the sources' messages, one at a time, until dispatch or a source raises."""
    inbox: asyncio.Queue[tuple[Any, asyncio.Task[None] | None]] = asyncio.Queue()
    put = inbox.put_nowait

    def ended(task: asyncio.Task[None]) -> None:
        put((None, task))  # a source failed or was cancelled: its error ends the consumer

    pumps = [asyncio.ensure_future(_pump(source, put)) for source in sources]
    for task in pumps:
        task.add_done_callback(ended)
    try:
        while True:
            message, failed = await inbox.get()
            if failed is not None:
                failed.result()  # raises the source's error (or CancelledError)
                raise RuntimeError("a consumer's message source stopped")
            await dispatch(message)
    finally:
        waiting = []
        for task in pumps:
            task.remove_done_callback(ended)
            if task.done():
                if not task.cancelled():
                    task.exception()  # retrieved: it is the error raised, or one after it
                continue
            task.cancel()
            waiting.append(task)
        for task in waiting:
            try:
                await task
            except asyncio.CancelledError:
                pass
