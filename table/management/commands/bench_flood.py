"""``python manage.py bench_flood``: a seated player's command latency, quiet and while
anonymous sockets flood the server with snapshot requests, and with slow sockets that
never read (see bench/flood.py). Starts its own Daphne (or uses ``--url``)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.flood import run, summary
from table import duties, ledger, services
from table.demo import dealer_permission, make_user
from table.games import GAMES, default_game
from table.management.commands.bench_load import bench_rules, bot_user, cookie_for, link_meters
from table.models import DealerAssignment, Seat, Table


def seed(tables: int, name: str | None = None) -> list[dict[str, Any]]:
    """``tables`` tables of the game (by default the default game's), bench_load's rules."""
    rules = bench_rules(name or default_game())
    dealer = make_user("bench-dealer")
    dealer.user_permissions.add(dealer_permission())
    dealer_cookie = cookie_for(dealer)
    specs = []
    made = []
    for t in range(1, tables + 1):
        label = f"Flood {t}" if rules.game == default_game() else f"Flood {t} ({rules.game})"
        table, _ = Table.objects.get_or_create(name=label, defaults={"rules": rules})
        made.append(table)
        if not DealerAssignment.objects.filter(table=table, dealer=dealer).exists():
            # Since the split of duties a dealer deals only the tables assigned to them: an
            # unassigned console is refused at the handshake (403).
            duties.assign_dealer(table.pk, dealer, None)
        services.fail_unfinished_round(table.pk)
        Seat.objects.filter(table=table).delete()
        bot = bot_user(f"flood-t{t}")
        if ledger.player_account(bot).balance < 1_000_00:
            ledger.credit(bot, 10_000_00, "bench play money")
        specs.append(
            {"id": table.pk, "dealer_cookie": dealer_cookie, "player_cookie": cookie_for(bot)}
        )
    link_meters(rules, made)  # the meters its rules need, as bench_load's tables
    return specs


class Command(BaseCommand):
    help = (
        "A seated player's command p50, quiet vs during a snapshot flood and a slow-socket flood."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tables", type=int, default=4)
        parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase")
        parser.add_argument("--snapshot-sockets", type=int, default=30)
        parser.add_argument("--slow-sockets", type=int, default=40)
        parser.add_argument(
            "--addresses", type=int, default=10, help="client addresses 127.0.0.2.. to flood from"
        )
        parser.add_argument(
            "--gap", type=float, default=0.2, help="player's pause between commands"
        )
        parser.add_argument(
            "--game", choices=list(GAMES), help="the tables' game (default: the default game)"
        )
        parser.add_argument("--url", help="host:port of a running Daphne")
        parser.add_argument("--port", type=int, default=8766)

    def handle(self, *args: Any, **o: Any) -> None:
        specs = seed(o["tables"], o["game"])
        server = None
        base = o["url"]
        if not base:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", o["port"])) == 0:
                    raise CommandError(f"something already listens on port {o['port']}")
            env = {**os.environ, "LOG_LEVEL": "ERROR", "DJANGO_DEBUG": "0"}
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "frenzy_site.server",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(o["port"]),
                    "frenzy_site.asgi:application",
                ],
                env=env,
                cwd=settings.BASE_DIR,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
            )
            base = f"127.0.0.1:{o['port']}"
            deadline = time.monotonic() + 60
            while True:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", o["port"])) == 0:
                        break
                if server.poll() is not None or time.monotonic() > deadline:
                    raise CommandError("Daphne did not start")
                time.sleep(0.2)
        self.stdout.write(
            f"{o['tables']} tables, one seated player each (a command every {o['gap']} s, a ping "
            f"every 0.5 s); floods: {o['snapshot_sockets']} reading / {o['slow_sockets']} "
            f"never-reading anonymous sockets, 10 snapshot requests/s each, from "
            f"{o['addresses']} addresses, {o['seconds']:.0f} s per phase"
        )
        try:
            phases = asyncio.run(
                run(
                    base,
                    specs,
                    o["seconds"],
                    o["snapshot_sockets"],
                    o["slow_sockets"],
                    o["addresses"],
                    o["gap"],
                )
            )
        finally:
            if server is not None:
                server.terminate()
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait(10)
        for line in summary(phases):
            self.stdout.write(line)
        problems = ledger.verify()
        self.stdout.write(f"ledger discrepancies  {len(problems)}")
        for p in problems[:10]:
            self.stdout.write(f"  {p}")
