"""``manage.py verify_round <round id>``: check a round against its commitment and records."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table.audit import verify_round
from table.models import Round


class Command(BaseCommand):
    help = (
        "Check sha256(shoe + '|' + salt) against the round's published commitment, re-deal the "
        "committed shoe order (§684a.10(b)) and compare every stack, re-settle the round and "
        "check its ledger money; exit non-zero on any mismatch."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("round_id", type=int, help="the round's id (as in /rounds/<id>/)")

    def handle(self, *args: Any, **options: Any) -> None:
        round_id = options["round_id"]
        if not Round.objects.filter(pk=round_id).exists():
            raise CommandError(f"there is no round {round_id}")
        report = verify_round(round_id)
        self.stdout.write(
            f"round {report.round_id} ({report.table} #{report.number}, {report.phase}), "
            f"commitment {report.commitment}"
        )
        for check in report.checks:
            self.stdout.write(f"  ok: {check}")
        for problem in report.problems:
            self.stderr.write(f"  MISMATCH: {problem}")
        if report.problems:
            raise CommandError(f"round {round_id} does not verify: {report.problems[0]}")
        self.stdout.write("round verifies")
