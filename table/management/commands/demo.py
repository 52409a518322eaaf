"""``python manage.py demo``: what ``make run`` starts.

Migrates the database, creates the demo table (a Rules Submission, a dealer, six players with
play money), starts the automatic dealer for it in a child process, and serves the site with
Daphne on http://127.0.0.1:8000 until interrupted.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from table.autodealer import release
from table.demo import DEALER, DEMO_PASSWORD, PLAYERS, STAFF, ensure_demo


class Command(BaseCommand):
    help = "Migrate, create the demo table, start its automatic dealer and serve the site."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-autodealer", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        demo = ensure_demo()
        # A previous run that was killed may have left its claim on the clock.
        release(demo.table.pk, demo.table.clock_owner)
        url = f"http://{options['host']}:{options['port']}"
        self.stdout.write(
            "\nFour Card Frenzy demo table is up.\n"
            f"  Open {url}/  and log in (password for every demo account: {DEMO_PASSWORD})\n"
            f"  players: {', '.join(PLAYERS)}\n"
            f"  dealer console: {url}/tables/{demo.table.pk}/dealer/  as '{DEALER}'\n"
            f"  admin (Rules Submission, ledger, rounds): {url}/admin/  as '{STAFF}'\n"
            + (
                "  The automatic dealer runs the table: sit at a box and bet.\n"
                if not options["no_autodealer"]
                else ""
            )
            + "  Ctrl-C stops it.\n"
        )
        children = []
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        manage = str(settings.BASE_DIR / "manage.py")
        if not options["no_autodealer"]:
            children.append(
                subprocess.Popen(
                    [sys.executable, manage, "autodealer", "--table", str(demo.table.pk)], env=env
                )
            )
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                options["host"],
                "-p",
                str(options["port"]),
                "frenzy_site.asgi:application",
            ],
            env=env,
            cwd=str(settings.BASE_DIR),
        )
        children.append(server)
        try:
            server.wait()
        except KeyboardInterrupt:
            pass
        finally:
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGINT)
            for child in children:
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
