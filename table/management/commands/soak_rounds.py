"""``python manage.py soak_rounds --rounds N --seed S``: random rounds of every game through
the services, each checked against ``settle_round`` (issue 23; :mod:`table.soak`).

It plays in the configured database and leaves its tables, players and meters there (names
start ``soak<seed>``): run it against a scratch database. Prints rounds per game, settled and
void, the refusals staff met, every mismatch, and the time taken; exits 1 on a mismatch.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table import services
from table.soak import Soak


class Command(BaseCommand):
    help = "Play random rounds of every game at the service layer and check each one."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rounds", type=int, default=600)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--game", action="append", default=[], help="only these games")

    def handle(self, *args: Any, **options: Any) -> None:
        soak = Soak(options["seed"], games=options["game"])
        previous = services.dealing.RANDOM
        services.dealing.RANDOM = soak.source
        try:
            figures = soak.run(options["rounds"])
        finally:
            services.dealing.RANDOM = previous
        for line in figures.lines():
            self.stdout.write(line)
        for problem in figures.problems[:50]:
            self.stdout.write(f"MISMATCH {problem}")
        if figures.problems:
            raise CommandError(f"{len(figures.problems)} mismatches")
