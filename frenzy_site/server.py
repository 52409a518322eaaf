"""Daphne on uvloop: ``python -m frenzy_site.server`` takes Daphne's own command line
(``-b``, ``-p``, ``--proxy-headers``, the application).

Daphne runs Twisted on an asyncio event loop that it makes when ``daphne.server`` is first
imported (``asyncio.new_event_loop()``, then Twisted's asyncio reactor on it). With uvloop's
policy set before that import the loop is uvloop's (libuv, in C), which Twisted's reactor
accepts (since Twisted 21.7); Daphne, Channels and the consumers are unchanged. What it
saves is the event loop's own work per frame (each socket write's readiness callbacks, the
handles, the timers): 4-10% of the server's CPU a round at 40 tables of the game mix, side
by side with plain Daphne (docs/capacity.md, issue 26). ``python -m daphne`` still serves
the same application on asyncio's own loop.
"""

from __future__ import annotations

import asyncio
import sys

import uvloop


def install() -> None:
    """uvloop's policy for the loop Daphne is about to make: before ``daphne.server`` is
    imported, or it has already made its loop (then said plainly, not silently ignored)."""
    if "daphne.server" in sys.modules:
        raise RuntimeError(
            "daphne.server was imported before frenzy_site.server.install(): its event loop "
            "is already asyncio's own"
        )
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def main() -> None:
    install()
    from daphne.cli import CommandLineInterface

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
