"""``manage.py rollup_rebuild``: the back office's roll-up rebuilt from the settlement lines.

Run it once after upgrading to the back office (the rounds settled before it are not in the
roll-up yet) and after changing ``CASINO_GAMING_DAY_START`` or ``CASINO_SHIFTS`` (every round
is filed again under the new gaming days and shifts). Derived data only: the rounds, their
settlement lines and the ledger are read, never changed (docs/backoffice.md).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from table import rollup


class Command(BaseCommand):
    help = "Rebuild the back office's roll-up (per gaming day, shift, table, rules and wager)."

    def handle(self, *args: Any, **options: Any) -> None:
        began = time.perf_counter()
        rounds = rollup.rebuild()
        took = time.perf_counter() - began
        self.stdout.write(f"rebuilt the roll-up from {rounds} settled rounds in {took:.1f} s")
