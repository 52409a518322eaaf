"""Real servers for end-to-end tests: a fresh database, Daphne processes, an autodealer.

``LiveStack`` makes its own database (a temporary SQLite file, or a new PostgreSQL database
when ``DATABASE_URL`` points at PostgreSQL), migrates it, and starts Daphne processes on free
ports with the same environment, so browser tests and multi-process tests talk to real
servers exactly as production would.
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

from bench.servers import HAPROXY, haproxy_config
from table.management.commands.bench_load import wait_for_port

ROOT = Path(__file__).resolve().parent.parent

#: A database migrated once in this test process, by kind (SQLite or PostgreSQL, and the
#: settings module): each further stack's database is a copy of it. ``migrate`` is some 4 s of
#: CPU (more on PostgreSQL) and its outcome the same every time; the first stack of each
#: process still migrates, as pytest-django's test database does.
_MIGRATED: dict[str, str] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def shoe_setup(source: str, *args: object) -> str:
    """Python for ``LiveStack.daphne(setup=...)`` or ``LiveStack.spawn(setup=...)``: every
    shuffle of that process comes from ``source`` (``"module:Class"``, made with ``args``).

    ``services.dealing.RANDOM`` can only be swapped inside the server's own process, and the
    production code keeps no switch that makes the shuffle predictable."""
    module, name = source.split(":")
    return (
        f"from {module} import {name}\n"
        "from table.services import dealing\n"
        f"dealing.RANDOM = {name}(*{args!r})\n"
    )


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
        # The overload guard out of the host's reach (tests/conftest.py says why), unless the
        # test's environment sets its limit.
        self.env.setdefault("FRENZY_LAG_LIMIT_MS", "3600000")
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

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows from the stack's database, read directly: a Django process per check costs a
        second or more (seconds on a busy machine). Placeholders are ``?``."""
        if self.postgres:
            import psycopg

            with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as conn:
                return list(conn.execute(sql.replace("?", "%s"), params).fetchall())
        with closing(sqlite3.connect(self.env["SQLITE_NAME"], timeout=30)) as conn:
            return list(conn.execute(sql, params).fetchall())

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

    def demo(self, *names: str) -> dict[str, str]:
        """The demo in the stack's database (``ensure_demo``, what ``manage.py demo_setup``
        makes), and session cookies of the people ``names`` (``bench.client``'s login script),
        in one Django process. Its people's passwords are hashed the quick way: the tests that
        use this log in by session cookie, and PBKDF2 costs ~0.5 s for each of ten people (the
        browser tests, which log in through the form, run ``demo_setup`` under
        tests/browser/live_settings.py, quick hashes too)."""
        from bench.client import SESSION_SCRIPT

        out = self.python(
            "from django.conf import settings\n"
            'settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]\n'
            "from table.demo import ensure_demo\n"
            "ensure_demo()\n"
            f"NAMES = {list(names)!r}\n" + SESSION_SCRIPT
        )
        return dict(json.loads(out.strip().splitlines()[-1]))

    def start(self) -> LiveStack:
        kind = f"{'postgres' if self.postgres else 'sqlite'} {self.env['DJANGO_SETTINGS_MODULE']}"
        migrated = _MIGRATED.get(kind)
        if self.postgres:
            if migrated:
                self._psql(f'CREATE DATABASE "{self.db_name}" TEMPLATE "{migrated}"')
                return self
            self._psql(f'CREATE DATABASE "{self.db_name}"')
            self.manage("migrate", "--noinput")
            # The migrate process has closed its connection: the database can be copied.
            migrated = f"{self.db_name}_migrated"
            self._psql(f'CREATE DATABASE "{migrated}" TEMPLATE "{self.db_name}"')
            atexit.register(self._psql, f'DROP DATABASE IF EXISTS "{migrated}" WITH (FORCE)')
        else:
            if migrated:
                shutil.copyfile(migrated, self.env["SQLITE_NAME"])
                return self
            self.manage("migrate", "--noinput")
            migrated = str(Path(tempfile.mkdtemp(prefix="frenzy-migrated-")) / "db.sqlite3")
            shutil.copyfile(self.env["SQLITE_NAME"], migrated)
        _MIGRATED[kind] = migrated
        return self

    # --- processes --------------------------------------------------------------------------

    def _launch(
        self, argv: list[str], setup: str, log: str, extra_env: dict[str, str]
    ) -> subprocess.Popen[bytes]:
        """A process of the stack, its output appended to ``log`` in the stack's directory.
        ``argv`` is Daphne's command line (``["daphne", ...]``) or manage.py's; with ``setup``,
        that Python runs in the process once Django is set up and before it starts. Daphne
        runs as deployed: on uvloop (:mod:`frenzy_site.server`), whose policy is set before
        Django's setup imports ``daphne.server`` (which makes the loop)."""
        if setup:
            daphne = argv[0] == "daphne"
            command = [
                "-c",
                ("from frenzy_site.server import install\ninstall()\n" if daphne else "")
                + "import sys\nimport django\ndjango.setup()\n"
                + setup
                + f"\nsys.argv = {argv!r}\n"
                "if sys.argv[0] == 'daphne':\n"
                "    from daphne.cli import CommandLineInterface\n"
                "    CommandLineInterface.entrypoint()\n"
                "else:\n"
                "    from django.core.management import execute_from_command_line\n"
                "    execute_from_command_line(sys.argv)\n",
            ]
        elif argv[0] == "daphne":
            command = ["-m", "frenzy_site.server", *argv[1:]]
        else:
            command = [str(ROOT / "manage.py"), *argv[1:]]
        out = open(Path(self.tmp) / f"{log}.log", "ab")
        proc = subprocess.Popen(
            [sys.executable, *command],
            env={**self.env, **extra_env},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()  # the child has its own copy
        self.processes.append(proc)
        return proc

    def daphne(
        self,
        port: int | None = None,
        setup: str = "",
        proxy_headers: bool = False,
        **extra_env: str,
    ) -> str:
        """A Daphne process on ``port`` (a free one by default), once it listens. ``setup``:
        Python run in that process once Django is set up and before it serves (a test's
        seeded shuffle: :func:`shoe_setup`); ``proxy_headers``: the client's address from
        X-Forwarded-For, as behind the deployment's proxy; ``extra_env`` adds to its
        environment only."""
        port = port or free_port()
        argv = ["daphne", "-b", "127.0.0.1", "-p", str(port)]
        argv += ["--proxy-headers"] if proxy_headers else []
        argv += ["frenzy_site.asgi:application"]
        proc = self._launch(argv, setup, f"daphne-{port}", extra_env)
        self.ports.append(port)
        wait_for_port(port, proc)
        return f"127.0.0.1:{port}"

    def haproxy(self, backends: list[str]) -> str:
        """HAProxy (Debian's) with the deployment's own configuration in front of ``backends``
        (``host:port`` of Daphne processes), in the foreground on a free port
        (:func:`bench.servers.haproxy_config`)."""
        port = free_port()
        config = Path(self.tmp) / "haproxy.cfg"
        config.write_text(haproxy_config(port, backends))
        out = open(Path(self.tmp) / "haproxy.log", "ab")
        proc = subprocess.Popen(
            [str(HAPROXY), "-db", "-f", str(config)],
            cwd=self.tmp,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()
        self.processes.append(proc)
        wait_for_port(port, proc)
        return f"127.0.0.1:{port}"

    def spawn(self, *args: str, setup: str = "", **extra_env: str) -> subprocess.Popen[bytes]:
        """``manage.py *args`` in the background (``setup`` and ``extra_env`` as for
        :meth:`daphne`)."""
        log = f"{args[0]}-{len(self.processes)}"
        return self._launch(["manage.py", *args], setup, log, extra_env)

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
