"""``python manage.py paytable_report``: exact house edge and hit frequency of every paytable.

Enumerates every deal of every game and writes each game's JSON report in ``table/data/``
(:data:`table.paytable_report.REPORT_FILES`): Four Card Frenzy's ``paytable_report.json``
(:mod:`table.games.four_card_frenzy.analysis`, read by the admin through
:mod:`table.paytable_report`),
``crazy_4_poker_report.json`` (:mod:`table.games.crazy_4_poker.report`) and
``five_card_hi_lo_report.json`` (:mod:`table.games.five_card_hi_lo.report`); ``--markdown``
also writes ``docs/paytables.md`` from all three. This command only dispatches: each game's
report is built by its own package. All three take 83 s on the shared 2-core machine under
load (Four Card Frenzy 41 s, Crazy 4 Poker 40 s, Five Card Hi-Lo 2.5 s), 1.4 GB at peak.
``--game`` picks games; ``--only prime,four_card_bonus`` recomputes some Four Card Frenzy
sections (and, without ``--game``, only that game) and keeps the others from the existing file.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table.games.crazy_4_poker import report as crazy_4_poker
from table.games.five_card_hi_lo import report as five_card_hi_lo
from table.games.four_card_frenzy import analysis
from table.paytable_report import (
    CRAZY_4_POKER,
    DATA_DIR,
    FIVE_CARD_HI_LO,
    FOUR_CARD_FRENZY,
    REPORT_FILES,
    REPORT_PATH,
    four_card_frenzy_text,
    load_game_report,
    markdown,
)

ALIASES = {
    "main": "bad_beat",
    "main_game": "bad_beat",
    "allsix": "all_six",
    "fcf": "four_card_bonus",
}
GAME_ALIASES = {
    "fcf": FOUR_CARD_FRENZY,
    "frenzy": FOUR_CARD_FRENZY,
    "c4p": CRAZY_4_POKER,
    "crazy4": CRAZY_4_POKER,
    "hilo": FIVE_CARD_HI_LO,
    "hi_lo": FIVE_CARD_HI_LO,
}
Progress = Callable[[str], None]
#: The other games: each package's ``build_report(progress)`` and ``text_lines(report)``.
GAME_REPORTS: dict[str, Any] = {
    CRAZY_4_POKER: crazy_4_poker,
    FIVE_CARD_HI_LO: five_card_hi_lo,
}


def parse_only(text: str | None) -> list[str]:
    if not text:
        return list(analysis.SECTIONS)
    names = []
    for part in text.split(","):
        name = ALIASES.get(part.strip(), part.strip())
        if name not in analysis.SECTIONS:
            raise CommandError(
                f"unknown section {part.strip()!r} (choose from "
                f"{', '.join(analysis.SECTIONS)}; 'main' means bad_beat)"
            )
        if name not in names:
            names.append(name)
    return names


def parse_games(text: str | None, only: str | None) -> list[str]:
    """The games to compute, in the docs' order; ``--only`` alone means Four Card Frenzy."""
    if not text:
        return [FOUR_CARD_FRENZY] if only else list(REPORT_FILES)
    wanted = set()
    for part in text.split(","):
        name = part.strip().lower().replace("-", "_")
        if name == "all":
            wanted.update(REPORT_FILES)
            continue
        name = GAME_ALIASES.get(name, name)
        if name not in REPORT_FILES:
            raise CommandError(
                f"unknown game {part.strip()!r} (choose from {', '.join(REPORT_FILES)} or all)"
            )
        wanted.add(name)
    if only and FOUR_CARD_FRENZY not in wanted:
        raise CommandError("--only names Four Card Frenzy sections: add four_card_frenzy")
    return [g for g in REPORT_FILES if g in wanted]


def write_json(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


class Command(BaseCommand):
    help = "Compute the exact house edge of every paytable by enumeration and write the reports."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--game",
            help="comma-separated games: four_card_frenzy (fcf), crazy_4_poker (c4p), "
            "five_card_hi_lo (hilo), or all (the default; with --only: four_card_frenzy)",
        )
        parser.add_argument(
            "--only",
            help="comma-separated Four Card Frenzy sections to recompute: prime, "
            "four_card_bonus, all_six, bad_beat (alias main); the others are kept from the "
            "existing output file",
        )
        parser.add_argument(
            "--output", help=f"Four Card Frenzy's JSON file (default {REPORT_PATH})"
        )
        parser.add_argument(
            "--output-dir",
            help=f"directory for every game's JSON, each under its own name (default {DATA_DIR})",
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
        directory = Path(options["output_dir"]) if options["output_dir"] else DATA_DIR
        paths = {game: directory / name for game, name in REPORT_FILES.items()}
        if options["output"]:
            paths[FOUR_CARD_FRENZY] = Path(options["output"])

        def progress(line: str) -> None:
            if not options["quiet"]:
                self.stderr.write(f"[{time.perf_counter() - started:6.1f} s] {line}")

        started = time.perf_counter()
        reports: dict[str, dict[str, Any]] = {}
        lines: list[str] = []
        for game in games:
            if game == FOUR_CARD_FRENZY:
                reports[game] = self.four_card_frenzy(
                    parse_only(options["only"]), paths[game], progress, lines
                )
            else:
                reports[game] = GAME_REPORTS[game].build_report(progress)
                lines += [*GAME_REPORTS[game].text_lines(reports[game]), ""]
        lines.append(f"total time {round(time.perf_counter() - started, 2)} s")
        self.stdout.write("\n".join(lines))

        for game in games:
            if game != FOUR_CARD_FRENZY:  # Four Card Frenzy's was written with its sections
                write_json(paths[game], reports[game])
            self.stdout.write(f"wrote {paths[game]}")
        if options["markdown"]:
            for game in REPORT_FILES:
                if game in reports:
                    continue
                path = paths[game] if paths[game].exists() else DATA_DIR / REPORT_FILES[game]
                if not path.exists():
                    raise CommandError(
                        f"no {game} report at {paths[game]} for the Markdown page: "
                        f"add --game {game}"
                    )
                reports[game] = load_game_report(game, path)
            Path(options["markdown"]).write_text(markdown(reports), encoding="utf-8")
            self.stdout.write(f"wrote {options['markdown']}")

    def four_card_frenzy(
        self, sections: list[str], output: Path, progress: Progress, lines: list[str]
    ) -> dict[str, Any]:
        """Four Card Frenzy's report, as before: only ``sections`` recomputed, the others
        kept from ``output``; written at once."""
        previous: dict[str, Any] | None = None
        if output.exists() and len(sections) < len(analysis.SECTIONS):
            try:
                previous = json.loads(output.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise CommandError(f"cannot read the existing report {output}: {exc}") from exc
        started = time.perf_counter()
        report = analysis.build_report(sections, previous, progress)
        report["seconds_this_run"] = round(time.perf_counter() - started, 2)
        report["sections_this_run"] = sections
        lines += four_card_frenzy_text(report, sections)
        lines.append(f"time {report['seconds_this_run']} s")
        lines.append("")
        write_json(output, report)
        return report
