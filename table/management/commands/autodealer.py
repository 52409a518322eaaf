import signal
import threading
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
        # A supervisor stops us with SIGTERM (systemd, docker, supervisord): finish the tick
        # in hand and release the clock, so a restart takes it at once.
        main = threading.current_thread() is threading.main_thread()
        if main:
            previous = signal.signal(signal.SIGTERM, lambda signum, frame: dealer.stopping.set())
        try:
            dealer.run(stop_after=options["seconds"])
        except ClockTaken as exc:
            raise CommandError(str(exc)) from exc
        except KeyboardInterrupt:
            pass
        finally:
            if main:
                signal.signal(signal.SIGTERM, previous)
