"""A websocket frame goes to its socket at once when nothing waits before it (issue 26).

Twisted's TCP transport never writes in ``write()``: it queues the bytes and asks the reactor
to watch the socket for writability; on Daphne's asyncio reactor that is an ``epoll`` change
(``loop.add_writer``), one more turn of the event loop to learn the socket is writable (it
almost always is), the write, and a second ``epoll`` change to stop watching, for each frame:
py-spy at 100 tables found ``add_writer`` ~3% of the process and ``doWrite`` with the removal
~3% more, all of it on the event loop, which every socket of the process waits for.

Here ``write()`` first tries the socket itself, as asyncio's own transports do, when:

- nothing is queued on the connection (so bytes never overtake bytes written before them),
- the connection is open, not closing, and not TLS (TLS goes through its own layer),
- the socket has ``TCP_NODELAY`` set (autobahn sets it on every websocket): a socket with
  Nagle's algorithm on would hold a second small write back until the first is
  acknowledged, where Twisted's queue would have sent both together (an HTTP response's
  headers and body, say); those sockets keep Twisted's way.

What the kernel does not take (a full send buffer: a slow client) is queued as before, and
from then on every write queues behind it until Twisted's ``doWrite`` has drained it: the same
back-pressure (a streaming producer is paused past ``bufferSize``), the same order. An error
(the peer gone) queues the bytes as well, so that Twisted's ``doWrite`` meets the error and
closes the connection its own way.

It patches ``twisted.internet.tcp.Connection`` (``write`` and ``setTcpNoDelay``), for the
Twisted version it was read against and tested with (:data:`TWISTED_VERSIONS`); with another
Twisted nothing is patched and a warning says so (tests/platform/test_write_through.py fails
until the new version has been read and added).
"""

from __future__ import annotations

import logging
from typing import Any

import twisted
from twisted.internet import tcp

log = logging.getLogger(__name__)

#: The Twisted versions whose ``FileDescriptor.write``/``doWrite`` and ``tcp.Connection``
#: this was read against (their buffer: ``dataBuffer``/``offset``/``_tempDataBuffer``/
#: ``_tempDataLen``; ``writeSomeData`` returning the bytes sent or an exception).
TWISTED_VERSIONS = ("26.10.0",)

_queued_write: Any = None
_set_no_delay: Any = None


def write(self: Any, data: bytes) -> None:
    """``tcp.Connection.write``: at once when nothing is queued (see the module)."""
    if (
        self._frenzy_no_delay
        and not self.TLS
        and not self._tempDataLen
        and self.offset == len(self.dataBuffer)
        and self.connected
        and not self.disconnecting
        and not self._writeDisconnected
        and type(data) is bytes
        and data
    ):
        sent = self.writeSomeData(data)
        if type(sent) is int:
            if sent == len(data):
                return
            data = data[sent:]
        # The rest, or all of it on an error: queued, for Twisted's doWrite, as before.
    _queued_write(self, data)


def set_tcp_no_delay(self: Any, enabled: bool) -> None:
    """``tcp.Connection.setTcpNoDelay``, noting whether the socket sends small writes at once."""
    _set_no_delay(self, enabled)
    self._frenzy_no_delay = bool(enabled)


def install() -> bool:
    """Patch Twisted's TCP connections (once); False when its version is not one read."""
    global _queued_write, _set_no_delay
    if _queued_write is not None:
        return True
    if twisted.__version__ not in TWISTED_VERSIONS:
        log.warning(
            "Twisted %s: frames are written Twisted's way (frenzy_site.write_through was read "
            "against %s)",
            twisted.__version__,
            ", ".join(TWISTED_VERSIONS),
        )
        return False
    connection: Any = tcp.Connection
    _queued_write = connection.write
    _set_no_delay = connection.setTcpNoDelay
    connection._frenzy_no_delay = False
    connection.write = write
    connection.setTcpNoDelay = set_tcp_no_delay
    return True
