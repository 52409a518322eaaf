from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table.autodealer import AutoDealer, ClockTaken


class Command(BaseCommand):
    help = "Run a table unattended (betting countdown, deal, time-outs, reveal, settle)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--table", type=int, required=True)
        parser.add_argument(
            "--clock-only",
            action="store_true",
            help="only run the clocks (decision time-outs, dropped players); a human deals",
        )
        parser.add_argument("--seconds", type=float, default=None, help="stop after this long")

    def handle(self, *args: Any, **options: Any) -> None:
        dealer = AutoDealer(options["table"], full=not options["clock_only"])
        self.stdout.write(f"{dealer.owner} runs table {options['table']}'s clock")
        try:
            dealer.run(stop_after=options["seconds"])
        except ClockTaken as exc:
            raise CommandError(str(exc)) from exc
        except KeyboardInterrupt:
            pass
