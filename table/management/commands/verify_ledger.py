from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table import ledger, meters
from table.models import Account, Entry, LedgerTransaction


class Command(BaseCommand):
    help = "Verify the whole ledger; exit non-zero on any discrepancy."

    def handle(self, *args: Any, **options: Any) -> None:
        # Each progressive meter must also hold exactly what its ledger account holds.
        problems = ledger.verify() + meters.verify()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"ledger has {len(problems)} discrepancies")
        self.stdout.write(
            f"ledger OK: {LedgerTransaction.objects.count()} transactions, "
            f"{Entry.objects.count()} entries, {Account.objects.count()} accounts, "
            "every transaction sums to zero and every balance equals its entries"
        )
