"""``manage.py bench_backoffice``: the back office at a casino's scale (docs/backoffice.md).

``--generate``: writes ``--rounds`` settled rounds (default 1,000,000: a month of 100 tables)
of every game under its default rules straight into the configured database (PostgreSQL COPY:
rounds, their settlement lines with random stakes and results, and the roll-up rows the
settlements would have kept), into tables named "Bench NNN". Run it against a database of its
own (``DATABASE_URL=postgres://.../h25_bench``).

Then (always): the time to build and render each report for the whole month (by table, game,
paytable, day, shift), the meters report and a CSV, median of ``--repeat`` runs; and with
``--commands N``, ``bench_commands``' settle with and without the roll-up, side by side in one
run (what the roll-up adds to the command path).
"""

# ruff: noqa: E501  (the COPY statements and the generator read best on one line each)
from __future__ import annotations

import datetime as dt
import random
import statistics
import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from table import reports, rollup
from table.games import GAMES
from table.games import game as game_named
from table.models import Round, RulesSubmission, SettlementLine, Table, WagerShift


def _generate(rounds: int, tables: int, days: int, out: Any) -> None:
    if connection.vendor != "postgresql":
        raise CommandError("--generate writes with PostgreSQL COPY: set DATABASE_URL")
    rng = random.Random(25)
    player = get_user_model().objects.get_or_create(username="bench-bo-player")[0]
    games = sorted(GAMES)
    subs = {}
    for name in games:
        g = game_named(name)
        subs[name] = RulesSubmission.objects.get_or_create(
            name=f"Bench {name}",
            defaults={"game": name, "choices": g.rules_to_dict(g.default_rules())},
        )[0]
    made = []
    for n in range(tables):
        name = games[n % len(games)]
        made.append(
            Table.objects.get_or_create(name=f"Bench {n:03d}", defaults={"rules": subs[name]})[0]
        )
    specs = {}
    for name in games:
        g = game_named(name)
        rules = g.rules_to_dict(g.default_rules())
        offered = [w for w in g.wagers(g.default_rules()) if w.offered]
        specs[name] = (rules, rollup.rules_key(rules), offered)
    per_table = rounds // tables
    start = dt.datetime.now(dt.UTC) - dt.timedelta(days=days)
    step = dt.timedelta(days=days) / per_table
    began = time.perf_counter()
    next_round = (Round.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    sums: dict[tuple[Any, ...], rollup.Sums] = {}
    with transaction.atomic(), connection.cursor() as cursor:
        raw = cursor.cursor
        for table in made:
            name = table.rules.game
            rules, key, offered = specs[name]
            round_rows, line_rows = [], []
            for i in range(per_table):
                when = start + step * i + dt.timedelta(seconds=rng.random())
                pk = next_round
                next_round += 1
                round_rows.append((pk, table.pk, i + 1, subs[name].pk, name, "settled", when, when))
                lines = []
                ante = 100 * rng.choice((5, 10, 10, 25, 50, 100))
                for box in rng.sample(range(1, 7), rng.randint(1, 6)):
                    for w in offered:
                        if w.required or w.placed == "with":
                            stake = ante
                        elif w.placed == "decision":
                            if rng.random() < 0.3:
                                continue
                            stake = ante * rng.choice((1, 1, 2, 3))
                        elif rng.random() < 0.3:
                            stake = w.low if w.fixed else 100 * rng.choice((1, 5, 10))
                        else:
                            continue
                        roll = rng.random()
                        net = stake * (
                            rng.choice((1, 2, 5, 40)) if roll < 0.42 else 0 if roll < 0.47 else -1
                        )
                        lines.append((box, w.key, stake, net))
                        line_rows.append(
                            (
                                pk,
                                box,
                                player.pk,
                                w.key,
                                stake,
                                "win" if net > 0 else "push" if net == 0 else "lose",
                                net,
                                "",
                            )
                        )
                day, shift = rollup.gaming_day_and_shift(when)
                for wager, s in rollup.sums_of_round(name, rules, key, lines).items():
                    k = (day, shift, table.pk, key, wager, name, subs[name].pk)
                    kept = sums.setdefault(k, rollup.Sums())
                    for f in (
                        "lines",
                        "handle",
                        "handle_sq",
                        "net",
                        "net_sq",
                        "net_handle",
                        "paid",
                        "wins",
                    ):
                        setattr(kept, f, getattr(kept, f) + getattr(s, f))
            with raw.copy(
                "COPY table_round (id, table_id, number, rules_submission_id, game, phase, opened_at, finished_at, rules, state, commitment, deck_back, void_reason) FROM STDIN"
            ) as copy:
                for pk, t, number, sub, game, phase, opened, finished in round_rows:
                    copy.write_row(
                        (
                            pk,
                            t,
                            number,
                            sub,
                            game,
                            phase,
                            opened,
                            finished,
                            '{"bench": true}',
                            f'{{"game": "{game}"}}',
                            "",
                            "red",
                            "",
                        )
                    )
            with raw.copy(
                "COPY table_settlementline (round_id, box, player_id, wager, stake, outcome, net, row) FROM STDIN"
            ) as copy:
                for row in line_rows:
                    copy.write_row(row)
            out.write(
                f"  {table.name}: {per_table} rounds, {len(line_rows)} lines ({time.perf_counter() - began:.0f} s)"
            )
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence('table_round', 'id'), %s)", [next_round]
        )
        with raw.copy(
            "COPY table_wagershift (gaming_day, shift, table_id, rules_key, wager, game, rules_submission_id, rules, lines, handle, handle_sq, net, net_sq, net_handle, paid, wins) FROM STDIN"
        ) as copy:
            import json

            for (day, shift, t, key, wager, g, sub), s in sums.items():
                copy.write_row(
                    (day, shift, t, key, wager, g, sub, json.dumps(specs[g][0]), *s.values())
                )
    out.write(
        f"generated {per_table * tables} rounds, {len(sums)} roll-up rows in {time.perf_counter() - began:.0f} s"
    )


def _timed(run: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


class Command(BaseCommand):
    help = "Generate a month of a casino's play and time the back office's reports."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--generate", action="store_true")
        parser.add_argument("--rounds", type=int, default=1_000_000)
        parser.add_argument("--tables", type=int, default=100)
        parser.add_argument("--days", type=int, default=30)
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--commands", type=int, default=0, help="rounds of bench_commands")

    def handle(self, *args: Any, **o: Any) -> None:
        if o["generate"]:
            _generate(o["rounds"], o["tables"], o["days"], self.stdout)
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        rounds = Round.objects.filter(phase="settled").count()
        self.stdout.write(
            f"database {db}: {rounds} settled rounds, {SettlementLine.objects.count()} lines, "
            f"{WagerShift.objects.count()} roll-up rows; medians of {o['repeat']} runs"
        )
        last = rollup.gaming_day_and_shift(dt.datetime.now(dt.UTC))[0]
        first = last - dt.timedelta(days=o["days"])
        for by in reports.GROUPS:
            ms = _timed(lambda by=by: reports.build(first, last, by), o["repeat"])
            self.stdout.write(f"  report by {by:<9} built in {ms:8.1f} ms")
        staff = get_user_model().objects.filter(is_superuser=True).first()
        if staff is None:
            staff = get_user_model().objects.create_superuser("bench-bo-admin", "", None)
        client = Client()
        client.force_login(staff)
        url = reverse("admin:table_wagershift_changelist")
        for by in reports.GROUPS:
            params: dict[str, Any] = {"first": first, "last": last, "by": by}
            ms = _timed(lambda p=params: client.get(url, p), o["repeat"])
            self.stdout.write(f"  page by {by:<9} rendered in {ms:8.1f} ms")
        csv: dict[str, Any] = {"first": first, "last": last, "format": "csv"}
        ms = _timed(lambda: client.get(url, csv), o["repeat"])
        self.stdout.write(f"  CSV by table     in {ms:8.1f} ms")
        ms = _timed(lambda: client.get(reverse("admin:backoffice_meters")), o["repeat"])
        self.stdout.write(f"  meters page      in {ms:8.1f} ms")
        if o["commands"]:
            self._commands(o["commands"])

    def _commands(self, n: int) -> None:
        """bench_commands' rounds with the roll-up and without it, alternating in one run."""
        from unittest import mock

        from bench.commands import Costs
        from table.management.commands.bench_commands import play_rounds

        with_, without = Costs(), Costs()
        for _ in range(n):
            for name in sorted(GAMES):
                for kind, target in (("with", with_), ("without", without)):
                    if kind == "without":
                        with mock.patch.object(rollup, "record_round", lambda *a, **k: None):
                            got = play_rounds(name, 1)
                    else:
                        got = play_rounds(name, 1)
                    for k in ("settle",):
                        target.cpu[k] += got.cpu[k]
                        target.wall[k] += got.wall[k]
                        target.statements[k] += got.statements[k]
        for label, c in (("with the roll-up", with_), ("without", without)):
            self.stdout.write(
                f"  settle {label:<17} CPU {statistics.median(c.cpu['settle']):6.2f} ms, wall "
                f"{statistics.median(c.wall['settle']):6.2f} ms, statements "
                f"{sorted(set(c.statements['settle']))} ({len(c.cpu['settle'])} rounds)"
            )
