"""``manage.py verify_chain [--table N]``: recompute a table's hash-chained event log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table.audit import verify_chain
from table.models import Table


class Command(BaseCommand):
    help = (
        "Recompute the hash chain of a table's event log (every table without --table) and "
        "name the first broken link (table, version, seq, kind); exit non-zero if one is."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--table", type=int, help="the table's id (default: every table)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["table"] is not None:
            if not Table.objects.filter(pk=options["table"]).exists():
                raise CommandError(f"there is no table {options['table']}")
            ids = [options["table"]]
        else:
            ids = list(Table.objects.order_by("pk").values_list("pk", flat=True))
        broken = []
        for table_id in ids:
            report = verify_chain(table_id)
            if report.broken is not None:
                broken.append(report.broken)
                self.stderr.write(f"BROKEN: {report.broken}")
            else:
                self.stdout.write(
                    f"table {table_id}: chain OK, {report.events} events, "
                    f"last hash {report.last_hash[:16] or '(empty)'}"
                )
        if broken:
            first = broken[0]
            raise CommandError(
                f"the event chain is broken at table {first.table}, version {first.version}, "
                f"seq {first.seq}, kind {first.kind}"
            )
