"""``python manage.py paytable_report``: exact house edge and hit frequency of every paytable.

Enumerates every deal of every game and writes each game's JSON report
(:data:`table.paytable_report.REPORT_FILES`, from the games' registry entries: each in its
game's package); ``--markdown`` also writes ``docs/paytables.md`` from all
of them. This command only dispatches: each game's report is built, summed up and written as
Markdown by the game's own report module (:data:`table.games.REPORTS`,
:class:`table.games.base.PaytableReport`). The three games of today take 83 s on the shared
2-core machine under load (41 s, 40 s and 2.5 s, in the docs' order), 1.4 GB at peak.
``--game`` picks games (by name or an alias of its entry); ``--only`` recomputes some parts of
a report that has parts (without ``--game``, only those games') and keeps the others from the
existing file.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table.games import ALIASES, GAME_TITLES, REPORT_FILES, paytable_report
from table.games.errors import InvalidInput
from table.paytable_report import (
    load_game_report,
    markdown,
    report_path,
)


def sectioned() -> list[str]:
    """The games whose report has parts ``--only`` may name."""
    return [g for g in REPORT_FILES if paytable_report(g).parse_sections(None)]


def parse_only(text: str | None, game: str | None = None) -> list[str]:
    """The parts of ``game``'s report (the first with parts) ``--only`` names; all for None."""
    try:
        return paytable_report(game or sectioned()[0]).parse_sections(text)
    except InvalidInput as exc:
        raise CommandError(exc.message) from exc


def parse_games(text: str | None, only: str | None) -> list[str]:
    """The games to compute, in the docs' order; ``--only`` alone means the games whose report
    has parts."""
    with_parts = sectioned()
    if not text:
        return with_parts if only else list(REPORT_FILES)
    wanted: set[str] = set()
    for part in text.split(","):
        name = part.strip().lower().replace("-", "_")
        if name == "all":
            wanted.update(REPORT_FILES)
            continue
        name = ALIASES.get(name, name)
        if name not in REPORT_FILES:
            raise CommandError(
                f"unknown game {part.strip()!r} (choose from {', '.join(REPORT_FILES)} or all)"
            )
        wanted.add(name)
    if only and not wanted & set(with_parts):
        titles = " or ".join(GAME_TITLES[g] for g in with_parts)
        raise CommandError(f"--only names {titles} sections: add {' or '.join(with_parts)}")
    return [g for g in REPORT_FILES if g in wanted]


def write_json(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


class Command(BaseCommand):
    help = "Compute the exact house edge of every paytable by enumeration and write the reports."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        names = ", ".join(
            f"{g} ({', '.join(a for a, n in ALIASES.items() if n == g)})"
            if g in ALIASES.values()
            else g
            for g in REPORT_FILES
        )
        with_parts = sectioned()
        first = with_parts[0] if with_parts else None
        title = GAME_TITLES.get(first or "", "a game")
        parser.add_argument(
            "--game",
            help=f"comma-separated games: {names}, or all (the default; with --only: "
            f"{' and '.join(with_parts) or 'none'})",
        )
        parser.add_argument(
            "--only",
            help=f"comma-separated sections of {title}'s report to "
            f"recompute: {', '.join(paytable_report(first).parse_sections(None)) if first else '-'}"
            "; the others are kept from the existing output file",
        )
        parser.add_argument(
            "--output",
            help=f"{title}'s JSON file (default {report_path(first) if first else '-'})",
        )
        parser.add_argument(
            "--output-dir",
            help="directory for every game's JSON, each under its own name (default: each in its "
            "game's package)",
        )
        parser.add_argument("--quiet", action="store_true", help="no progress lines")
        parser.add_argument(
            "--markdown",
            metavar="PATH",
            help="also write the Markdown page (docs/paytables.md); games not computed now are "
            "read from their JSON file",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = parse_games(options["game"], options["only"])
        directory = Path(options["output_dir"]) if options["output_dir"] else None
        paths = {
            game: directory / report_path(game).name if directory else report_path(game)
            for game in REPORT_FILES
        }
        if options["output"]:
            paths[sectioned()[0]] = Path(options["output"])

        def progress(line: str) -> None:
            if not options["quiet"]:
                self.stderr.write(f"[{time.perf_counter() - started:6.1f} s] {line}")

        started = time.perf_counter()
        reports: dict[str, dict[str, Any]] = {}
        lines: list[str] = []
        for game in games:
            report = paytable_report(game)
            sections = previous = None
            if options["only"] and report.parse_sections(None):
                sections = parse_only(options["only"], game)
                previous = self.previous(paths[game], sections, report.parse_sections(None))
            reports[game] = report.build_report(progress, sections, previous)
            lines += [*report.text_lines(reports[game]), ""]
            write_json(paths[game], reports[game])
        lines.append(f"total time {round(time.perf_counter() - started, 2)} s")
        self.stdout.write("\n".join(lines))

        for game in games:
            self.stdout.write(f"wrote {paths[game]}")
        if options["markdown"]:
            for game in REPORT_FILES:
                if game in reports:
                    continue
                path = paths[game] if paths[game].exists() else report_path(game)
                if not path.exists():
                    raise CommandError(
                        f"no {game} report at {paths[game]} for the Markdown page: "
                        f"add --game {game}"
                    )
                reports[game] = load_game_report(game, path)
            Path(options["markdown"]).write_text(markdown(reports), encoding="utf-8")
            self.stdout.write(f"wrote {options['markdown']}")

    def previous(
        self, output: Path, sections: list[str], every: list[str]
    ) -> dict[str, Any] | None:
        """The report as last written at ``output``, whose parts not in ``sections`` are kept
        (None when every part is computed now, or there is none)."""
        if not output.exists() or len(sections) >= len(every):
            return None
        try:
            found: dict[str, Any] = json.loads(output.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"cannot read the existing report {output}: {exc}") from exc
        return found
