"""Presence is a lease, not a round event: it never enters the hash-chained log or moves
the table's version, it runs out by itself when the socket's process dies (kill -9: no
disconnect handler), and the clock neither deals nor restarts the countdown for nobody."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from table import autodealer, presence, services
from table.autodealer import AutoDealer
from table.demo import ensure_demo, make_user
from table.models import Round, RoundEvent, Seat, Table
from table.services.context import LAG_ALLOWANCE
from table.snapshot import snapshot
from tests.conftest import SeededSource

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


@pytest.fixture
def demo(monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setattr(services.dealing, "RANDOM", SeededSource(7))
    monkeypatch.setattr(autodealer, "RESULT_PAUSE", 0)
    return ensure_demo().table


def chain(table: Table) -> tuple[int, int]:
    row = Table.objects.get(pk=table.pk)
    return row.version, RoundEvent.objects.filter(table=table).count()


def crash(player_seat_filter: dict[str, object], seconds_ago: float = 1) -> None:
    """The socket's process died (kill -9) and its lease ran out ``seconds_ago``."""
    Seat.objects.filter(**player_seat_filter).update(
        presence_until=timezone.now() - dt.timedelta(seconds=seconds_ago)
    )


def test_presence_changes_write_nothing_to_the_chain(demo: Table) -> None:
    alice = make_user("alice")
    services.sit(demo.pk, alice, 2)
    before = chain(demo)
    for _ in range(50):  # a player reconnecting over and over
        services.set_connected(demo.pk, alice, False)
        services.set_connected(demo.pk, alice, True)
    assert chain(demo) == before
    assert Seat.objects.get(table=demo, box=2).connected is True


def test_a_ghost_seat_expires_by_itself_and_is_let_go(demo: Table) -> None:
    alice = make_user("alice")
    services.sit(demo.pk, alice, 4)
    services.set_connected(demo.pk, alice, True, socket="daphne-1!abc")
    clock = AutoDealer(demo.pk)
    crash({"table": demo, "player": alice})  # Daphne killed: nobody runs the disconnect
    seen = snapshot(demo.pk, None)["seats"]
    assert seen == [{"box": 4, "player": "alice", "connected": False}]
    services.claim_dealing(demo.pk, clock.owner)  # the console is told who deals, once
    version = chain(demo)[0]
    # No round opens for a player who is not there.
    assert clock.tick() is None
    assert chain(demo)[0] == version
    seat = Seat.objects.get(table=demo, box=4)
    assert seat.connected is False and seat.disconnected_at is not None
    # The grace period (§684a.7(b)) runs from the lease's end; then the box is freed.
    Seat.objects.filter(pk=seat.pk).update(
        disconnected_at=timezone.now() - dt.timedelta(seconds=services.GRACE_SECONDS + 1)
    )
    assert clock.tick() == "leave:alice"
    assert not Seat.objects.filter(table=demo).exists()


def test_the_countdown_does_not_restart_for_nobody(demo: Table) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    services.sit(demo.pk, alice, 1)
    services.set_connected(demo.pk, alice, True, socket="s1")
    clock = AutoDealer(demo.pk)
    assert clock.tick() == "open_betting"
    past = timezone.now() - dt.timedelta(seconds=1) - LAG_ALLOWANCE
    # alice's Daphne died during the countdown, and the countdown ran out: no restart.
    crash({"table": demo, "player": alice})
    Table.objects.filter(pk=demo.pk).update(betting_deadline=past)
    version = chain(demo)[0]
    for _ in range(5):
        assert clock.tick() is None
    assert chain(demo)[0] == version
    # A player who is here but never bets: one event for the idle spell, not one per countdown.
    services.sit(demo.pk, bob, 3)
    services.set_connected(demo.pk, bob, True, socket="s2")
    assert clock.tick() == "betting_clock"
    waiting = chain(demo)[0]
    for _ in range(5):
        assert clock.tick() is None
    assert chain(demo)[0] == waiting
    assert Table.objects.get(pk=demo.pk).betting_deadline is None
    # bob bets: the countdown starts, and runs out into "no more bets".
    services.place_bets(demo.pk, bob, 3, {"ante": 1000})
    assert clock.tick() == "betting_clock"
    assert Table.objects.get(pk=demo.pk).betting_deadline is not None
    Table.objects.filter(pk=demo.pk).update(betting_deadline=past)
    assert clock.tick() == "no_more_bets"
    row = Round.objects.get(pk=Table.objects.get(pk=demo.pk).current_round_id)
    assert row.phase == "closed"


def test_a_process_renews_its_sockets_leases_in_one_batch(
    demo: Table, django_assert_max_num_queries: Any
) -> None:
    """presence.renew: every seat its sockets hold, in one UPDATE (and one read back), however
    many; a socket whose seats were marked gone, or that holds none, is not renewed (it claims
    on its own, and its return is told)."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    services.sit(demo.pk, alice, 1)
    services.sit(demo.pk, alice, 2)
    services.sit(demo.pk, bob, 3)
    assert presence.claim(demo.pk, alice, "s-alice") is None
    assert presence.claim(demo.pk, bob, "s-bob") is None
    Seat.objects.filter(table=demo, player=bob).update(connected=False)  # the clock let bob go
    before = dict(Seat.objects.filter(table=demo).values_list("box", "presence_until"))
    with django_assert_max_num_queries(2):
        renewed = presence.renew(["s-alice", "s-bob", "s-carol"])
    assert renewed == {"s-alice"}
    after = dict(Seat.objects.filter(table=demo).values_list("box", "presence_until"))
    assert after[1] > before[1] and after[2] > before[2]
    assert after[3] == before[3]
    assert carol is not None and presence.renew([]) == set()
