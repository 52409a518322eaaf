"""The automatic dealer under a supervisor: SIGTERM gives the clock back, and a restart after
a crash (``kill -9``) takes the clock over at once when the old owner's process is gone."""

from __future__ import annotations

import datetime as dt
import signal
import subprocess
import sys
import time

import pytest
from django.utils import timezone

from table import autodealer
from table.autodealer import ClockTaken
from table.demo import ensure_demo
from table.models import Table
from tests.live import LiveStack


def owner_of(stack: LiveStack, pk: int) -> str:
    """The table's clock owner as committed (read from the stack's database directly)."""
    [(owner,)] = stack.query("SELECT clock_owner FROM table_table WHERE id = ?", (pk,))
    return str(owner or "")


def wait_for_owner(stack: LiveStack, pk: int, proc: subprocess.Popen[bytes]) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        owner = owner_of(stack, pk)
        if owner:
            return owner
        assert proc.poll() is None, stack.logs()
        time.sleep(0.1)
    raise AssertionError(f"the autodealer never took the clock\n{stack.logs()}")


@pytest.mark.slow
def test_sigterm_releases_the_clock_and_a_restart_after_kill_9_takes_over_at_once() -> None:
    with LiveStack(use_redis=False) as stack:
        stack.demo()
        [(pk,)] = stack.query("SELECT id FROM table_table WHERE name = ?", ("Frenzy 1",))
        first = stack.spawn("autodealer", "--table", str(pk))
        wait_for_owner(stack, pk, first)
        first.send_signal(signal.SIGTERM)
        assert first.wait(15) == 0, stack.logs()
        assert owner_of(stack, pk) == ""  # released: the next one needs no wait

        second = stack.spawn("autodealer", "--table", str(pk))
        dead = wait_for_owner(stack, pk, second)
        second.send_signal(signal.SIGKILL)  # a crash: no handler runs, the claim stays
        second.wait(15)
        assert owner_of(stack, pk) == dead
        started = time.monotonic()
        third = stack.manage("autodealer", "--table", str(pk), "--seconds", "0.5")
        # Took over at once (not after STALE_AFTER), and released again on the way out.
        assert time.monotonic() - started < autodealer.STALE_AFTER.total_seconds()
        assert "runs table" in third and owner_of(stack, pk) == ""


@pytest.mark.django_db
def test_a_live_or_foreign_owner_is_not_taken_over() -> None:
    pk = ensure_demo().table.pk
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        here = autodealer.owner_name().split("@", 1)[1].rsplit("-", 1)[0]
        live = f"autodealer-{sleeper.pid}@{here}-abcd1234"
        for owner in (live, "autodealer-1@some-other-host-abcd1234", "first"):
            Table.objects.filter(pk=pk).update(clock_owner=owner, clock_heartbeat=timezone.now())
            with pytest.raises(ClockTaken, match="already run by"):
                autodealer.acquire(pk, autodealer.owner_name())
        # The same live process dies: now provably gone, taken at once.
        Table.objects.filter(pk=pk).update(clock_owner=live, clock_heartbeat=timezone.now())
        sleeper.kill()
        sleeper.wait(10)
        mine = autodealer.owner_name()
        autodealer.acquire(pk, mine)
        assert Table.objects.get(pk=pk).clock_owner == mine
        # A stale claim is still taken over as before, whoever made it.
        Table.objects.filter(pk=pk).update(
            clock_owner="autodealer-1@elsewhere-abcd1234",
            clock_heartbeat=timezone.now() - autodealer.STALE_AFTER - dt.timedelta(seconds=1),
        )
        autodealer.acquire(pk, mine)
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
