"""``python manage.py paytable_report``: exact house edge and hit frequency of every paytable.

Enumerates every deal (see :mod:`table.engine.analysis`), prints the tables and writes
``table/data/paytable_report.json`` for the admin (:mod:`table.paytable_report`). About a
minute on two cores; ``--only prime,four_card_bonus`` recomputes some sections and keeps the
others from the existing file.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from table.engine import analysis
from table.paytable_report import REPORT_PATH, flags, markdown

ALIASES = {
    "main": "bad_beat",
    "main_game": "bad_beat",
    "allsix": "all_six",
    "fcb": "four_card_bonus",
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


def _pct(x: float, places: int = 4) -> str:
    return f"{x * 100:.{places}f}%"


def format_side_bets(section: dict[str, Any]) -> list[str]:
    lines = [f"== {section['title']} ({section['population']}; {section['seconds']} s)"]
    for name, entry in section["paytables"].items():
        lines.append(f"-- table {name} ({entry['source']})")
        for row in entry["rows"]:
            lines.append(
                f"   {row['label'][:44]:<44} {row['payout']:>14} {row['combinations']:>12,} "
                f"p={row['probability']:.8f} return {row['return']:.6f}"
            )
        lines.append(
            f"   hit frequency {_pct(entry['hit_frequency'])}   "
            f"house edge {_pct(entry['house_edge'])}"
        )
    return lines


def format_main_game(section: dict[str, Any]) -> list[str]:
    lines = [f"== {section['title']}", f"   {section['population']}"]
    detail = ", ".join(f"{k} {v} s" for k, v in section["seconds_detail"].items())
    lines.append(f"   time {section['seconds']} s ({detail})")
    lines.append(
        f"   {'table':<6} {'edge/Ante':>10} {'edge/(A+O)':>11} {'elem.risk':>10} "
        f"{'avg raise':>9} {'fold':>7} {'1x':>7} {'3x':>7} {'bad beat':>9}"
    )
    for name, e in section["paytables"].items():
        d = e["decisions"]
        per_initial = _pct(e["house_edge_per_initial_wager"])
        lines.append(
            f"   {name:<6} {_pct(e['house_edge']):>10} {per_initial:>11}"
            f" {_pct(e['element_of_risk']):>10} {e['average_raise']:>9.4f}"
            f" {_pct(d['fold'], 2):>7} {_pct(d['raise_1x'], 2):>7} {_pct(d['raise_3x'], 2):>7}"
            f" {_pct(e['hit_frequency'], 3):>9}"
        )
    strategies: dict[tuple[str, ...], list[str]] = {}
    for name, e in section["paytables"].items():
        strategies.setdefault(tuple(e["strategy"]["words"]), []).append(name)
    for words, names in strategies.items():
        lines.append(f"-- optimal strategy (tables {', '.join(names)}):")
        lines.extend(f"   * {w}" for w in words)
    for name, e in section["paytables"].items():
        lines.append(f"-- table {name} ({e['source']}) bad-beat rows")
        for row in e["rows"]:
            lines.append(
                f"   {row['label']:<20} {row['payout']:>10} p={row['probability']:.8f} "
                f"return {row['return']:.6f}"
            )
    return lines


class Command(BaseCommand):
    help = "Compute the exact house edge of every paytable by enumeration and write the report."
    requires_system_checks: list[str] = []
    requires_migrations_checks = False

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--only",
            help="comma-separated sections to recompute: prime, four_card_bonus, all_six, "
            "bad_beat (alias main); the others are kept from the existing output file",
        )
        parser.add_argument("--output", default=str(REPORT_PATH), help="JSON file to write")
        parser.add_argument("--quiet", action="store_true", help="no progress lines")
        parser.add_argument(
            "--markdown", metavar="PATH", help="also write the Markdown page (docs/paytables.md)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        sections = parse_only(options["only"])
        output = Path(options["output"])
        previous: dict[str, Any] | None = None
        if output.exists() and len(sections) < len(analysis.SECTIONS):
            try:
                previous = json.loads(output.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise CommandError(f"cannot read the existing report {output}: {exc}") from exc

        def progress(line: str) -> None:
            if not options["quiet"]:
                self.stderr.write(f"[{time.perf_counter() - started:6.1f} s] {line}")

        started = time.perf_counter()
        report = analysis.build_report(sections, previous, progress)
        report["seconds_this_run"] = round(time.perf_counter() - started, 2)
        report["sections_this_run"] = sections

        lines: list[str] = []
        for name in sections:
            section = report["wagers"][name]
            lines += format_main_game(section) if name == "bad_beat" else format_side_bets(section)
            lines.append("")
        flagged = flags(report)
        lines.append(f"== {len(flagged)} tables outside the usual house-edge range")
        lines.extend(f"   * {f['reason']}" for f in flagged)
        lines.append(f"total time {report['seconds_this_run']} s")
        self.stdout.write("\n".join(lines))

        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        self.stdout.write(f"wrote {output}")
        if options["markdown"]:
            Path(options["markdown"]).write_text(markdown(report), encoding="utf-8")
            self.stdout.write(f"wrote {options['markdown']}")
