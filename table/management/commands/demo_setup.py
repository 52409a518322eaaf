from typing import Any

from django.core.management.base import BaseCommand

from table.demo import (
    CASHIER,
    COMPLIANCE,
    DEALER,
    DEMO_PASSWORD,
    MANAGER,
    PLAYERS,
    STAFF,
    ensure_demo,
)


class Command(BaseCommand):
    help = "Create (once) the demo table, its Rules Submission, a dealer and six demo players."

    def handle(self, *args: Any, **options: Any) -> None:
        demo = ensure_demo()
        self.stdout.write(
            f"Demo table '{demo.table.name}' (id {demo.table.pk}) under Rules Submission "
            f"'{demo.rules.name}'{' created' if demo.created else ''}.\n"
            + "".join(
                f"Demo table '{t.name}' (id {t.pk}): {t.rules.get_game_display()} under "
                f"'{t.rules.name}'.\n"
                for t in demo.tables[1:]
            )
            + f"Logins (password '{DEMO_PASSWORD}'): players {', '.join(PLAYERS)}; "
            f"dealer '{DEALER}' (deals these tables); cashier '{CASHIER}' (credits players); "
            f"compliance officer '{COMPLIANCE}' (reads the audit log and the back office); "
            f"table games manager '{MANAGER}' (reads the back office); superuser '{STAFF}'."
        )
