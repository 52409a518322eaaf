"""``python manage.py settle_round < in.json``: settle dealt rounds by the RULES.md contract.

Reads one round (a JSON object) or many (a JSON array) from standard input, or from
``--input FILE``, and prints the settlement as one line of JSON. Bad input exits with
status 1 and a one-line message naming the problem and the round's index.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table.engine.contract import settle_document
from table.engine.errors import InvalidInput


class Command(BaseCommand):
    help = "Settle one dealt round (JSON object) or many (JSON array) from standard input."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--input", help="read this file instead of standard input")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print the output")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["input"]:
                with open(options["input"], encoding="utf-8") as fh:
                    text = fh.read()
            else:
                text = sys.stdin.read()
        except OSError as exc:
            raise CommandError(f"cannot read input: {exc}") from exc
        try:
            document = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise CommandError(f"input is not valid JSON: {exc}") from exc
        try:
            result = settle_document(document)
        except InvalidInput as exc:
            raise CommandError(exc.message) from exc
        except RecursionError as exc:  # absurdly nested input
            raise CommandError("input is nested too deeply") from exc
        self.stdout.write(json.dumps(result, indent=options["indent"]))
