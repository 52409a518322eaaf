"""``python manage.py bench_load``: the load benchmark of issue #4 (see bench/load.py).

Seeds T bench tables, each with six bot players and a dealer, in the configured database,
starts a Daphne process with the same environment (or uses ``--url``), drives the sockets,
measures the bare group_send baseline, and verifies the ledger.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import uvloop
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.test import Client

from bench.load import host_pace, run_baseline, run_tables, summary
from bench.servers import HAPROXY, cpu_seconds, haproxy_config, loop_cpu_seconds
from table import duties, ledger, meters, services
from table.demo import dealer_permission, make_user
from table.games import ENTRIES, GAMES, game
from table.models import DealerAssignment, ProgressiveMeter, RulesSubmission, Seat, Table


def bench_rules(name: str) -> RulesSubmission:
    """The bench tables' Rules Submission of a game: its demo table's (the game's default
    rules with the choices its registry entry's ``demo`` makes; none: the defaults). The
    meters those rules need are linked to every bench table of the game
    (:func:`link_meters`)."""
    played = game(name)
    demo = ENTRIES[name].demo
    choices = dict(demo.choices) if demo is not None else {}
    stored = played.rules_to_dict(
        played.parse_rules({**played.rules_to_dict(played.default_rules()), **choices})
    )
    title = f"Bench rules ({played.title})"
    same = RulesSubmission.objects.filter(game=name, name__startswith=title).order_by("pk")
    for rules in same:
        if rules.choices == stored:
            return rules
    # Made again when the demo's choices changed: a Rules Submission in use stays as it was.
    suffix = f" {same.count() + 1}" if same.exists() else ""
    return RulesSubmission.objects.create(name=title + suffix, game=name, choices=stored)


def link_meters(rules: RulesSubmission, tables: list[Table]) -> None:
    """Every meter the rules need, one per pool, linked to every bench table of the game: a
    game's bench tables share their meters, as a casino's linked tables do."""
    for spec in game(rules.game).meters(rules.game_rules()):
        kind, paytable, wager = spec.pool.split(":")
        meter = ProgressiveMeter.objects.filter(name=f"Bench {spec.pool}").first()
        if meter is None:
            meter = meters.create_meter(f"Bench {spec.pool}", kind, paytable, int(wager))
        meter.tables.add(*tables)


def seed(tables: int, games: list[str] | None = None) -> list[dict[str, Any]]:
    games = games or list(ENTRIES)
    dealer = make_user("bench-dealer")
    dealer.user_permissions.add(dealer_permission())
    dealer_cookie = cookie_for(dealer)
    specs = []
    by_game: dict[str, list[Table]] = {}
    for t in range(1, tables + 1):
        name = games[(t - 1) % len(games)]
        rules = bench_rules(name)
        # A table keeps its game (its rounds are of that game: services.rules never switches
        # it), so each game has its own bench tables: a run with other --games than an earlier
        # one makes new tables instead of dealing one game at another game's table.
        label = f"Bench {t} ({game(name).title})"
        table, _ = Table.objects.get_or_create(name=label, defaults={"rules": rules})
        if table.rules_id != rules.pk:
            table.rules = rules  # the bench rules of the same game, made again
            table.save(update_fields=["rules"])
        by_game.setdefault(name, []).append(table)
        if not DealerAssignment.objects.filter(table=table, dealer=dealer).exists():
            duties.assign_dealer(table.pk, dealer, None)  # a dealer deals its assigned tables
        # A run that was cut short may have left a round open: void it, stakes returned.
        services.fail_unfinished_round(table.pk)
        Seat.objects.filter(table=table).delete()
        cookies = []
        for box in range(1, 7):
            bot = bot_user(f"bench-t{t}-b{box}")
            account = ledger.player_account(bot)
            if account.balance < 1_000_00:
                ledger.credit(bot, 10_000_00, "bench play money")
            cookies.append(cookie_for(bot))
        specs.append(
            {
                "id": table.pk,
                "game": name,
                "dealer_cookie": dealer_cookie,
                "player_cookies": cookies,
            }
        )
    for name, linked in by_game.items():
        link_meters(bench_rules(name), linked)
    return specs


def bot_user(name: str) -> Any:
    """A bot logs in by session only: no password to hash (hashing 300 is minutes)."""
    user, created = get_user_model().objects.get_or_create(username=name)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def cookie_for(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def wait_for_port(
    port: int, server: subprocess.Popen[bytes] | None = None, seconds: float = 60
) -> None:
    """Until something listens on ``port`` (a loaded machine may take more than a few seconds
    to start Daphne); ``server``, the process that should, must not exit meanwhile. Also the
    test suite's (tests/live.py)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server is not None and server.poll() is not None:
            raise CommandError(f"the server for port {port} exited with status {server.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise CommandError(f"nothing listens on port {port} within {seconds:.0f} s")


class Command(BaseCommand):
    help = "Drive T tables of 6 bots + a dealer over websockets and print latency figures."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tables", type=int, default=50)
        parser.add_argument("--rounds", type=int, default=5)
        parser.add_argument(
            "--pause", type=float, default=0.2, help="dealer's pause between steps, s"
        )
        parser.add_argument("--think", type=float, default=2.0, help="bots' most thinking time, s")
        parser.add_argument(
            "--stagger", type=float, default=10.0, help="tables start spread over this many s"
        )
        parser.add_argument(
            "--url", help="host:port of a running Daphne (started with FRENZY_BENCH_ROUTES=1)"
        )
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help="Daphne processes to start; more than one: behind HAProxy (docs/deploy/)",
        )
        parser.add_argument(
            "--proxy",
            action="store_true",
            help="HAProxy in front even of one process (to compare one and two processes "
            "through the same proxy)",
        )
        parser.add_argument(
            "--pids",
            help="with --url: the Daphne processes' ids, comma-separated, to measure their CPU",
        )
        parser.add_argument(
            "--games",
            default=",".join(ENTRIES),
            help="comma-separated games, dealt to the tables in turn (default: every game "
            f"registered, {','.join(ENTRIES)})",
        )

    def handle(self, *args: Any, **o: Any) -> None:
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1]
        self.stdout.write(
            f"database {db}, channel layer {layer}; dealer pauses "
            f"{o['pause']} s between steps, bots think up to {o['think']} s, tables start "
            f"spread over {o['stagger']} s"
        )
        games = [g.strip() for g in o["games"].split(",") if g.strip()]
        unknown = [g for g in games if g not in GAMES]
        if unknown:
            raise CommandError(f"unknown game {unknown[0]!r}: one of {', '.join(GAMES)}")
        self.stdout.write(f"games: {', '.join(games)} (in turn across the tables)")
        specs = seed(o["tables"], games)
        pace_before = host_pace()
        servers: list[subprocess.Popen[bytes]] = []
        pids = [int(p) for p in (o["pids"] or "").split(",") if p.strip()]
        base = o["url"]
        try:
            if not base:
                base, servers = self.start_servers(o["port"], o["processes"], o["proxy"])
                # start_servers gives each its command as a list, the program first
                pids = [s.pid for s in servers if cast(list[str], s.args)[0] != str(HAPROXY)]
                proxies = [s.pid for s in servers if cast(list[str], s.args)[0] == str(HAPROXY)]
            else:
                proxies = []
            self.stdout.write(
                f"serving: {base}"
                + (f" (HAProxy in front of {len(pids)} Daphne processes)" if proxies else "")
            )
            # The load tool's own loop on uvloop: on a two-core host it shares the CPU with the
            # server it measures, so the less it takes the truer the server's figures.
            result = uvloop.run(
                run_tables(
                    base,
                    specs,
                    o["rounds"],
                    o["pause"],
                    o["think"],
                    o["stagger"],
                    cpu=lambda: cpu_seconds(pids),
                    loop_cpu=lambda: loop_cpu_seconds(pids),
                )
            )
            proxy_cpu = cpu_seconds(proxies)
            try:
                baseline = uvloop.run(
                    run_baseline(
                        base,
                        o["tables"],
                        7,
                        o["rounds"] * 5,
                        o["pause"],
                        lambda: cpu_seconds(pids),
                        lambda: loop_cpu_seconds(pids),
                    )
                )
            except Exception as exc:  # past capacity: the tables' figures still stand
                self.stdout.write(f"bare group_send baseline failed: {exc!r}")
                nan = float("nan")
                baseline = {"p50_ms": nan, "p99_ms": nan, "samples": 0, "seconds": 0.0}
                baseline.update(messages=0, server_cpu=0.0, loop_cpu=0.0)
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:  # stuck closing sockets: the figures stand
                    server.kill()
                    server.wait(10)
        self.stdout.write(
            f"host pace             {pace_before:.0f} ms before the run, {host_pace():.0f} ms "
            "after (a 1,000,000-addition Python loop, best of 3: compare runs at a like pace)"
        )
        if proxies:
            self.stdout.write(f"HAProxy CPU           {proxy_cpu:.1f} s over the whole run")
        for line in self.guard_lines():
            self.stdout.write(line)
        for line in summary(result, baseline):
            self.stdout.write(line)
        problems = ledger.verify() + meters.verify()
        self.stdout.write(f"ledger discrepancies  {len(problems)}")
        for p in problems[:10]:
            self.stdout.write(f"  {p}")
        if problems or result["version_faults"]:
            raise CommandError("the load run lost money or events")

    def guard_lines(self) -> list[str]:
        """What the started servers' overload guard said (table.lag): how often they fell
        behind and caught up, and its last words."""
        path = getattr(self, "server_log", None)
        if path is None or not path.exists():
            return []
        lines = path.read_text(errors="replace").splitlines()
        behind = [x for x in lines if x.startswith("behind:")]
        caught = [x for x in lines if x.startswith("caught up")]
        out = [f"overload guard        behind {len(behind)} times, caught up {len(caught)} times"]
        out += [f"  {x}" for x in (behind[:1] + caught[-1:])]
        return out

    def start_servers(
        self, port: int, processes: int, proxy: bool = False
    ) -> tuple[str, list[subprocess.Popen[bytes]]]:
        """``processes`` Daphne processes (on ``port``, ``port + 1``, ...) with this process's
        settings; with more than one (or ``proxy``), HAProxy with the deployment's
        configuration (docs/deploy/haproxy.cfg) in front of them on ``port + processes``. The
        address to drive, and the processes."""
        proxy = proxy or processes > 1
        ports = [port + n for n in range(processes + (1 if proxy else 0))]
        for p in ports:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", p)) == 0:
                    raise CommandError(
                        f"something already listens on port {p} (a Daphne left running?): "
                        "stop it or pass --port"
                    )
        # As in production: DEBUG off (DEBUG keeps a log of every SQL query).
        # The overload guard's lines (table.lag) are warnings: kept, with the errors, in a log
        # the summary reads (:meth:`guard_lines`).
        env = {
            **os.environ,
            "FRENZY_BENCH_ROUTES": "1",
            "LOG_LEVEL": "WARNING",
            "DJANGO_DEBUG": "0",
        }
        self.server_log = Path(tempfile.mkdtemp(prefix="bench-daphne-")) / "daphne.log"
        out = open(self.server_log, "ab")
        servers: list[subprocess.Popen[bytes]] = []
        try:
            for p in ports[:processes]:
                servers.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "frenzy_site.server", "-b", "127.0.0.1"]
                        + ["-p", str(p), "frenzy_site.asgi:application"],
                        env=env,
                        cwd=settings.BASE_DIR,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                    )
                )
            out.close()  # each server has its own copy
            for p, server in zip(ports, servers, strict=False):
                wait_for_port(p, server)
            if not proxy:
                return f"127.0.0.1:{port}", servers
            if not HAPROXY.exists():
                raise CommandError(
                    f"--processes {processes} needs {HAPROXY} (apt-get install haproxy)"
                )
            config = Path(tempfile.mkdtemp(prefix="bench-haproxy-")) / "haproxy.cfg"
            backends = [f"127.0.0.1:{p}" for p in ports[:processes]]
            config.write_text(haproxy_config(ports[-1], backends))
            haproxy = subprocess.Popen(
                [str(HAPROXY), "-db", "-f", str(config)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.STDOUT,
            )
            servers.append(haproxy)
            wait_for_port(ports[-1], haproxy)
            return f"127.0.0.1:{ports[-1]}", servers
        except BaseException:
            for server in servers:
                server.kill()
            raise
