"""Real servers for end-to-end tests: a fresh database, Daphne processes, an autodealer.

``LiveStack`` makes its own database (a temporary SQLite file, or a new PostgreSQL database
when ``DATABASE_URL`` points at PostgreSQL), migrates it, and starts Daphne processes on free
ports with the same environment, so browser tests and multi-process tests talk to real
servers exactly as production would.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


class LiveStack:
    def __init__(self, use_redis: bool | None = None, use_postgres: bool | None = None) -> None:
        base_db = os.environ.get("DATABASE_URL", "")
        self.postgres = base_db.startswith("postgres") if use_postgres is None else use_postgres
        self.redis = bool(os.environ.get("REDIS_URL")) if use_redis is None else use_redis
        # Not the test worker's name either: the stack's processes use the stack's own channel
        # prefix as it is (frenzy_site/settings.py adds a worker's name to the prefix).
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "PYTEST_XDIST_WORKER")
        }
        self.env.update(
            PYTHONUNBUFFERED="1",
            DJANGO_SETTINGS_MODULE="frenzy_site.settings",
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        )
        self.tmp = tempfile.mkdtemp(prefix="frenzy-live-")
        self.db_name = ""
        if self.postgres:
            url = urlparse(base_db or "postgres://postgres@127.0.0.1:5432/postgres")
            self.admin_url = urlunparse(url._replace(path="/postgres"))
            self.db_name = f"frenzy_live_{os.getpid()}_{secrets.token_hex(3)}"
            self.env["DATABASE_URL"] = urlunparse(url._replace(path=f"/{self.db_name}"))
        else:
            self.env["SQLITE_NAME"] = str(Path(self.tmp) / "live.sqlite3")
        if self.redis:
            self.env["REDIS_URL"] = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
            self.env["CHANNELS_PREFIX"] = f"frenzy-live-{secrets.token_hex(4)}"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []

    # --- database ---------------------------------------------------------------------------

    def _psql(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql)

    def manage(self, *args: str, timeout: float = 120) -> str:
        out = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if out.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{out.stdout}\n{out.stderr}")
        return out.stdout

    def python(self, code: str, timeout: float = 120) -> str:
        """Run Django code in the stack's environment (for seeding and checks)."""
        script = "import django; django.setup()\n" + code
        out = subprocess.run(
            [sys.executable, "-c", script],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if out.returncode != 0:
            raise RuntimeError(f"python failed:\n{out.stdout}\n{out.stderr}")
        return out.stdout

    def start(self) -> LiveStack:
        if self.postgres:
            self._psql(f'CREATE DATABASE "{self.db_name}"')
        self.manage("migrate", "--noinput")
        return self

    # --- processes --------------------------------------------------------------------------

    def daphne(self, port: int | None = None, setup: str = "", **extra_env: str) -> str:
        """A Daphne process on ``port`` (a free one by default). ``setup``: Python run in that
        process once Django is set up and before it serves (a test's seeded shuffle, say:
        ``services.dealing.RANDOM`` can only be swapped inside the server's own process);
        ``extra_env`` adds to its environment only."""
        port = port or free_port()
        log = open(Path(self.tmp) / f"daphne-{port}.log", "wb")
        launch = ["-m", "daphne"]
        if setup:
            launch = [
                "-c",
                "import django\ndjango.setup()\n"
                + setup
                + "\nfrom daphne.cli import CommandLineInterface\n"
                "CommandLineInterface.entrypoint()\n",
            ]
        proc = subprocess.Popen(
            [
                sys.executable,
                *launch,
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "frenzy_site.asgi:application",
            ],
            env={**self.env, **extra_env},
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.processes.append(proc)
        self.ports.append(port)
        wait_for_port(port)
        return f"127.0.0.1:{port}"

    def spawn(self, *args: str) -> subprocess.Popen[bytes]:
        log = open(Path(self.tmp) / f"{args[0]}-{len(self.processes)}.log", "wb")
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), *args],
            env=self.env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.processes.append(proc)
        return proc

    def stop(self) -> None:
        for proc in self.processes:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.processes:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.processes.clear()
        if self.postgres and self.db_name:
            try:
                self._psql(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            except Exception:
                pass

    def logs(self) -> str:
        out = []
        for path in sorted(Path(self.tmp).glob("*.log")):
            out.append(f"--- {path.name}\n{path.read_text(errors='replace')[-4000:]}")
        return "\n".join(out)

    def __enter__(self) -> LiveStack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
