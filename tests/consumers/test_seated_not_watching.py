"""A player who sits down is no longer a watcher: the socket's place under the watcher caps
goes back (and is no longer renewed with every beat), so it neither keeps a watcher out nor
costs a Redis call every few seconds for as long as the player plays."""

from __future__ import annotations

from typing import Any

import pytest

from table import crowd

from .conftest import open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


async def test_sitting_gives_back_the_watchers_place(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(crowd, "WATCHERS_PER_TABLE", 1)
    table = table_setup["table"]
    bob = await open_socket(table.pk, table_setup["bob"])  # the one watcher's place
    assert (await bob.recv())["type"] == "snapshot"
    full = await open_socket(table.pk, table_setup["carol"])
    frame = await full.recv()
    assert frame["type"] == "closing" and frame["code"] == "too_many_connections", frame
    assert (await bob.command(cmd="sit", box=2))["type"] == "ok"
    carol = await open_socket(table.pk, table_setup["carol"])
    assert (await carol.recv())["type"] == "snapshot"
    for sock in (bob, carol):
        await sock.close()
