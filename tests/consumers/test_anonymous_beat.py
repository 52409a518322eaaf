"""A spectator's socket holds no seat and no presence lease: its beat (every BEAT_SECONDS)
marks nothing and logs nothing. It used to try to renew a lease for ``AnonymousUser`` and log
a traceback ("could not mark AnonymousUser here") every 10 s for every anonymous socket."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from table import consumers, presence

from .conftest import open_socket

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]


async def test_an_anonymous_socket_beats_without_marking_anyone(
    table_setup: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(consumers, "BEAT_SECONDS", 0.05)
    monkeypatch.setattr(presence, "RENEW_SECONDS", 0.0)
    claimed: list[Any] = []
    real_claim = presence.claim

    def claim(table_id: int, user: Any, socket: str) -> Any:
        claimed.append(user)
        return real_claim(table_id, user, socket)

    monkeypatch.setattr(presence, "claim", claim)
    caplog.set_level(logging.WARNING, logger="table.consumers")
    table = table_setup["table"]
    spectator = await open_socket(table.pk)
    assert (await spectator.recv())["type"] == "snapshot"
    alice = await open_socket(table.pk, table_setup["alice"])
    assert (await alice.recv())["type"] == "snapshot"
    await asyncio.sleep(0.5)  # some ten beats
    await spectator.close()
    await alice.close()
    assert [r.getMessage() for r in caplog.records if "could not mark" in r.getMessage()] == []
    # The logged-in watcher's socket still renews (claim finds no seat: nothing to renew).
    assert claimed and all(u.is_authenticated for u in claimed)
