"""The processes a benchmark measures: Daphne's CPU time, and HAProxy with the deployment's
configuration in front of several Daphne processes (bench_load ``--processes``, and
tests/e2e/test_haproxy.py through tests/live.py)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAPROXY = Path("/usr/sbin/haproxy")
HAPROXY_CONFIG = ROOT / "docs" / "deploy" / "haproxy.cfg"
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes ``pids`` (every thread of each) have used so
    far (Linux /proc; a process gone counts 0). Load on the machine slows a process but
    hardly changes the CPU it needs, so this figure compares across runs far better than
    latency on a shared host."""
    return sum(_ticks(f"/proc/{pid}/stat") for pid in pids) / _TICKS


def loop_cpu_seconds(pids: list[int]) -> float:
    """As :func:`cpu_seconds`, for each process's main thread alone: Daphne's event loop
    (the services run in other threads)."""
    return sum(_ticks(f"/proc/{pid}/task/{pid}/stat") for pid in pids) / _TICKS


def _ticks(stat: str) -> int:
    """User + system clock ticks of one /proc stat file (fields 14 and 15); 0 when the process
    or thread is gone."""
    try:
        fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def haproxy_config(port: int, backends: list[str]) -> str:
    """docs/deploy/haproxy.cfg listening on 127.0.0.1:``port`` in front of ``backends``
    (``host:port``), for an unprivileged foreground run: only the addresses and what needs
    root are changed (the chroot, the user, the syslog socket, the daemon mode, a connection
    limit above the default file limit); the proxying itself is the deployment's."""
    kept = []
    for line in HAPROXY_CONFIG.read_text().splitlines():
        words = line.split()
        if words[:1] in (["chroot"], ["user"], ["group"], ["daemon"], ["maxconn"]):
            continue
        if words[:2] == ["log", "/dev/log"]:
            continue
        if words[:1] == ["server"]:
            continue  # the given servers come below
        if words[:1] == ["bind"]:
            line = f"    bind 127.0.0.1:{port}"
        kept.append(line)
    kept += [f"    server daphne{n} {address}" for n, address in enumerate(backends, 1)]
    return "\n".join(kept) + "\n"
