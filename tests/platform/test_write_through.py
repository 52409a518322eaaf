"""A frame goes to its socket at once when nothing waits before it (frenzy_site.write_through):
the same bytes in the same order as Twisted's queue gave, the same back-pressure on a slow
client, the same end for a connection whose peer is gone, and Twisted's own way kept for the
sockets it is not for (no TCP_NODELAY, TLS, closing). Real TCP sockets; a reactor that only
notes what it is asked to watch."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
import twisted
from twisted.internet import tcp
from twisted.internet.protocol import Protocol

from frenzy_site import write_through


class Reactor:
    """What a connection asks of its reactor: watch it for writability, or stop."""

    def __init__(self) -> None:
        self.writers: list[Any] = []
        self.asked = 0

    def addWriter(self, writer: Any) -> None:  # noqa: N802  (Twisted's name)
        self.asked += 1
        if writer not in self.writers:
            self.writers.append(writer)

    def removeWriter(self, writer: Any) -> None:  # noqa: N802
        if writer in self.writers:
            self.writers.remove(writer)

    def addReader(self, reader: Any) -> None:  # noqa: N802
        pass

    def removeReader(self, reader: Any) -> None:  # noqa: N802
        pass


class Producer:
    def __init__(self) -> None:
        self.paused = 0
        self.resumed = 0

    def pauseProducing(self) -> None:  # noqa: N802
        self.paused += 1

    def resumeProducing(self) -> None:  # noqa: N802
        self.resumed += 1

    def stopProducing(self) -> None:  # noqa: N802
        pass


@pytest.fixture
def pair() -> Iterator[tuple[Any, socket.socket, Reactor]]:
    """A connected server-side Twisted connection (no delay set, as autobahn sets it on a
    websocket) and the client's plain socket."""
    assert write_through.install()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = socket.create_connection(listener.getsockname())
    server_side, _ = listener.accept()
    listener.close()
    reactor = Reactor()
    conn = tcp.Connection(server_side, Protocol(), reactor)  # type: ignore[arg-type]
    conn.connected = True
    conn.setTcpNoDelay(True)
    client.settimeout(5)
    yield conn, client, reactor
    client.close()
    server_side.close()


def received(client: socket.socket, size: int) -> bytes:
    got = b""
    while len(got) < size:
        chunk = client.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def test_the_patch_is_for_the_twisted_installed() -> None:
    """A Twisted upgrade fails here until its write path has been read again and its version
    added to write_through.TWISTED_VERSIONS."""
    assert twisted.__version__ in write_through.TWISTED_VERSIONS
    assert write_through.install()
    assert tcp.Connection.write is write_through.write


def test_a_frame_goes_out_at_once_without_asking_the_reactor(pair: Any) -> None:
    conn, client, reactor = pair
    conn.write(b"first frame")
    conn.write(b", second frame")
    assert received(client, 25) == b"first frame, second frame"
    assert reactor.asked == 0 and not reactor.writers
    assert conn._tempDataLen == 0 and conn.dataBuffer == b""


def test_a_socket_without_no_delay_keeps_twisteds_queue(pair: Any) -> None:
    conn, client, reactor = pair
    conn.setTcpNoDelay(False)
    conn.write(b"queued")
    assert reactor.writers == [conn]
    client.settimeout(0.1)
    with pytest.raises(TimeoutError):
        client.recv(10)
    conn.doWrite()
    client.settimeout(5)
    assert received(client, 6) == b"queued"


@pytest.mark.parametrize("state", ["tls", "closing"])
def test_tls_and_a_closing_connection_keep_twisteds_queue(pair: Any, state: str) -> None:
    conn, client, reactor = pair
    if state == "closing":
        conn.disconnecting = True
    else:
        conn.TLS = True
        conn.protocol = type("TLS", (), {"write": lambda self, data: reactor.addWriter(conn)})()
    conn.write(b"queued")
    assert reactor.writers == [conn]


def test_a_slow_client_gets_every_byte_in_order_and_pauses_its_producer(pair: Any) -> None:
    conn, client, reactor = pair
    # Small kernel buffers at both ends: a client that reads slower than the server writes.
    conn.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    producer = Producer()
    conn.registerProducer(producer, True)
    chunks = [bytes([65 + n % 26]) * 50_000 for n in range(60)]  # 3 MB: more than the kernel holds
    for chunk in chunks:
        conn.write(chunk)
    # The kernel's buffers filled: the rest waits in Twisted's queue, the reactor watches the
    # socket, and the producer (the websocket) was paused past bufferSize.
    assert reactor.writers == [conn]
    assert conn._tempDataLen > conn.bufferSize and producer.paused >= 1
    conn.write(b"the last frame")  # behind the queue, never ahead of it
    expected = b"".join(chunks) + b"the last frame"
    got = b""
    client.setblocking(False)
    deadline = time.monotonic() + 20
    while len(got) < len(expected) and time.monotonic() < deadline:
        try:
            got += client.recv(1 << 20)
        except BlockingIOError:
            pass
        if reactor.writers:
            assert not conn.doWrite()
    assert got == expected
    assert not reactor.writers and producer.resumed >= 1


def test_a_connection_whose_peer_is_gone_ends_twisteds_way(pair: Any) -> None:
    conn, client, reactor = pair
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    client.close()  # a reset
    time.sleep(0.05)
    for _ in range(3):
        conn.write(b"into the void")
        if reactor.writers:
            break
        time.sleep(0.05)
    # The write failed: the bytes wait in the queue and Twisted's doWrite meets the error.
    assert reactor.writers == [conn]
    assert isinstance(conn.doWrite(), Exception)
