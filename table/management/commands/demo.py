"""``python manage.py demo``: what ``make run`` starts.

Migrates the database, creates the demo tables, one of every game (each with its Rules
Submission, and the progressive meters its rules need linked), a dealer, six players with
play money, and serves the site with Daphne on http://127.0.0.1:8000 until interrupted, an automatic
dealer running each demo table as a task in the same process.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand

from table.autodealer import release
from table.demo import CASHIER, COMPLIANCE, DEALER, DEMO_PASSWORD, PLAYERS, STAFF, ensure_demo


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
        # A previous run that was killed may have left its claims on the clocks.
        for table in demo.tables:
            release(table.pk, table.clock_owner)
        url = f"http://{options['host']}:{options['port']}"
        self.stdout.write(
            "\nThe demo tables are up (one of every game).\n"
            f"  Open {url}/  and log in (password for every demo account: {DEMO_PASSWORD})\n"
            f"  players: {', '.join(PLAYERS)}\n"
            + "".join(
                f"  {t.name} ({t.rules.get_game_display()}): {url}/tables/{t.pk}/  "
                f"dealer console: {url}/tables/{t.pk}/dealer/  as '{DEALER}'\n"
                for t in demo.tables
            )
            + f"  admin (Rules Submission, ledger, rounds): {url}/admin/  as '{STAFF}'\n"
            f"  credits to players: {url}/admin/  as '{CASHIER}'; "
            f"audit log: as '{COMPLIANCE}'\n"
            + (
                "  An automatic dealer runs each table: sit at a box and bet.\n"
                if not options["no_autodealer"]
                else ""
            )
            + "  Ctrl-C stops it.\n"
        )
        tables = [t.pk for t in demo.tables]
        self.serve(options["host"], options["port"], tables, not options["no_autodealer"])

    def serve(self, host: str, port: int, tables: list[int], autodealer: bool) -> None:
        """Daphne in this process, with the automatic dealer as a task on its event loop:
        with the in-memory channel layer everything that happens at the table must happen
        in the one process whose sockets are to hear it."""
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server, twisted_loop
        from twisted.internet import reactor

        from frenzy_site.asgi import application
        from table.autodealer import AutoDealer

        if autodealer:
            dealers = [AutoDealer(table_id) for table_id in tables]

            def start_dealers() -> None:
                for dealer in dealers:
                    task = twisted_loop.create_task(dealer.run_async())
                    task.add_done_callback(
                        lambda t, table_id=dealer.table_id: (
                            t.cancelled()
                            or t.exception() is None
                            or self.stderr.write(
                                f"automatic dealer of table {table_id} stopped: {t.exception()}"
                            )
                        )
                    )

            reactor.callWhenRunning(start_dealers)
        Server(
            application=application,
            endpoints=build_endpoint_description_strings(host=host, port=port),
            signal_handlers=True,
        ).run()
