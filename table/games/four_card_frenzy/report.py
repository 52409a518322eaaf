"""Four Card Frenzy's paytable report: :mod:`.analysis`'s exact figures, for people.

``python manage.py paytable_report`` writes the document :func:`build_report` computes to
``table/games/four_card_frenzy/paytable_report.json`` (which the admin reads through
:func:`table.paytable_report.load_report`), prints :func:`text_lines` and writes
:func:`markdown_lines` as the Four Card Frenzy section of ``docs/paytables.md``. Its parts
(``--only``, :func:`parse_sections`) are :data:`.analysis.SECTIONS`, each computed alone while
the others are kept from the file. Its flags (tables outside the usual house-edge range,
:func:`flags`) the admin shows too.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from table.games import GAME_TITLES
from table.games.common import Progress, quiet, spread_markdown
from table.games.common import percent as _p
from table.games.errors import InvalidInput
from table.paytable_report import load_report

from . import analysis

GAME: Final = "four_card_frenzy"
#: Other words for a part of the report on the command line.
SECTION_ALIASES: Final = {
    "main": "bad_beat",
    "main_game": "bad_beat",
    "allsix": "all_six",
    "fcf": "four_card_bonus",
}


#: A side bet usually keeps between about 2% and 15% of what is wagered on it.
SIDE_BET_MAX_HOUSE_EDGE: Final = 0.15
#: A main game like this one usually keeps under about 5% of the Ante.
MAIN_GAME_MAX_HOUSE_EDGE: Final = 0.05
SIDE_BETS: Final = ("prime", "four_card_bonus", "all_six")
MAIN_GAME: Final = "bad_beat"


def paytable_summary(kind: str, name: str, report: dict[str, Any] | None = None) -> dict[str, Any]:
    """One paytable's entry: ``rows`` (label, payout, probability, return), ``hit_frequency``,
    ``house_edge`` and, for the main game, ``element_of_risk`` and ``strategy``.

    Raises :class:`KeyError` for a kind or name the report does not hold.
    """
    document = report if report is not None else load_report()
    entry: dict[str, Any] = document["wagers"][kind]["paytables"][name]
    return entry


def _pct(x: float) -> str:
    return f"{x * 100:.2f}%"


def flags(report: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Tables whose house edge is outside the usual range, each with the reason in words.

    Each flag is ``{"kind", "name", "house_edge", "reason"}``. A negative house edge (the
    player has the advantage) is always flagged; so is a side bet keeping more than 15% or a
    main game keeping more than 5% of the Ante.
    """
    document = report if report is not None else load_report()
    wagers = document.get("wagers", {})
    out: list[dict[str, Any]] = []
    for kind, section in wagers.items():
        title = section.get("title", kind)
        for name, entry in section.get("paytables", {}).items():
            edge = float(entry["house_edge"])
            reason = None
            if edge < 0:
                reason = (
                    f"{title}, table {name}: the player has the advantage - a house edge of "
                    f"{_pct(edge)}, so the casino loses {_pct(-edge)} of every unit wagered "
                    "in the long run."
                )
            elif kind in SIDE_BETS and edge > SIDE_BET_MAX_HOUSE_EDGE:
                reason = (
                    f"{title}, table {name}: the house keeps {_pct(edge)} of every unit "
                    f"wagered, above the usual {_pct(SIDE_BET_MAX_HOUSE_EDGE)} ceiling for a "
                    "side bet."
                )
                other = entry.get("manufacturer_counterpart")
                if other:
                    other_edge = float(section["paytables"][other]["house_edge"])
                    reason += (
                        f" It pays only from two pair up (§684a.12(e) as written), while the "
                        f"manufacturer's {other}, identical from two pair up, also pays a pair "
                        f"of queens to aces 1 to 1 and keeps {_pct(other_edge)}; the 'two aces "
                        "and two queens' row may be a misreading of 'QQ-AA'."
                    )
            elif kind == MAIN_GAME and edge > MAIN_GAME_MAX_HOUSE_EDGE:
                reason = (
                    f"{title}, table {name}: the house keeps {_pct(edge)} of the Ante, above "
                    f"the usual {_pct(MAIN_GAME_MAX_HOUSE_EDGE)} for a main game."
                )
            if reason:
                out.append({"kind": kind, "name": name, "house_edge": edge, "reason": reason})
    return out


def parse_sections(text: str | None) -> list[str]:
    """The parts ``text`` names (comma-separated; "main" is the main game, ``bad_beat``), in
    the order named, once each; every part for None."""
    if not text:
        return list(analysis.SECTIONS)
    names = []
    for part in text.split(","):
        name = SECTION_ALIASES.get(part.strip(), part.strip())
        if name not in analysis.SECTIONS:
            raise InvalidInput(
                "unknown_section",
                f"unknown section {part.strip()!r} (choose from "
                f"{', '.join(analysis.SECTIONS)}; 'main' means bad_beat)",
            )
        if name not in names:
            names.append(name)
    return names


def build_report(
    progress: Progress = quiet,
    sections: Sequence[str] | None = None,
    previous: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The report: ``sections`` (None: every part) computed, the others kept from
    ``previous``; it says which parts this run computed and how long they took."""
    sections = list(analysis.SECTIONS if sections is None else sections)
    started = time.perf_counter()
    report = analysis.build_report(sections, previous, progress)
    report["seconds_this_run"] = round(time.perf_counter() - started, 2)
    report["sections_this_run"] = sections
    return report


def text_lines(report: Mapping[str, Any]) -> list[str]:
    """The console summary of the parts this run computed, and its time."""
    lines = _computed_text(dict(report), list(report["sections_this_run"]))
    lines.append(f"time {report['seconds_this_run']} s")
    return lines


def markdown_lines(report: Mapping[str, Any]) -> list[str]:
    """The Four Card Frenzy section of ``docs/paytables.md``."""
    return _section_markdown(dict(report))


# --- the console summary of ``paytable_report`` ------------------------------------------


def _side_bets_text(section: dict[str, Any]) -> list[str]:
    lines = [f"== {section['title']} ({section['population']}; {section['seconds']} s)"]
    for name, entry in section["paytables"].items():
        lines.append(f"-- table {name} ({entry['source']})")
        for row in entry["rows"]:
            lines.append(
                f"   {row['label'][:44]:<44} {row['payout']:>14} {row['combinations']:>12,} "
                f"p={row['probability']:.8f} return {row['return']:.6f}"
            )
        lines.append(
            f"   hit frequency {_p(entry['hit_frequency'])}   house edge {_p(entry['house_edge'])}"
        )
    return lines


def _main_game_text(section: dict[str, Any]) -> list[str]:
    lines = [f"== {section['title']}", f"   {section['population']}"]
    detail = ", ".join(f"{k} {v} s" for k, v in section["seconds_detail"].items())
    lines.append(f"   time {section['seconds']} s ({detail})")
    lines.append(
        f"   {'table':<6} {'edge/Ante':>10} {'edge/(A+O)':>11} {'elem.risk':>10} "
        f"{'avg raise':>9} {'fold':>7} {'1x':>7} {'3x':>7} {'bad beat':>9}"
    )
    for name, e in section["paytables"].items():
        d = e["decisions"]
        per_initial = _p(e["house_edge_per_initial_wager"])
        lines.append(
            f"   {name:<6} {_p(e['house_edge']):>10} {per_initial:>11}"
            f" {_p(e['element_of_risk']):>10} {e['average_raise']:>9.4f}"
            f" {_p(d['fold'], 2):>7} {_p(d['raise_1x'], 2):>7} {_p(d['raise_3x'], 2):>7}"
            f" {_p(e['hit_frequency'], 3):>9}"
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


def _computed_text(report: dict[str, Any], sections: list[str]) -> list[str]:
    """What ``paytable_report`` prints for the Four Card Frenzy ``sections`` it computed."""
    lines: list[str] = []
    for name in sections:
        section = report["wagers"][name]
        lines += _main_game_text(section) if name == MAIN_GAME else _side_bets_text(section)
        lines.append("")
    flagged = flags(report)
    lines.append(f"== {len(flagged)} tables outside the usual house-edge range")
    lines.extend(f"   * {f['reason']}" for f in flagged)
    return lines


# --- the Markdown page (docs/paytables.md) -------------------------------------------------


def _rows_table(entry: dict[str, Any]) -> list[str]:
    lines = [
        "| hand | pays | combinations | probability | return |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in entry["rows"]:
        lines.append(
            f"| {r['label']} | {r['payout']} | {r['combinations']:,} | "
            f"{r['probability']:.8f} | {r['return']:.6f} |"
        )
    return lines


def _section_markdown(document: dict[str, Any]) -> list[str]:
    """The Four Card Frenzy section of ``docs/paytables.md``: the summary tables, the
    strategy, the flags and every row."""
    wagers = document["wagers"]
    out = [
        f"## {GAME_TITLES[GAME]} (58 Pa. Code ch. 684a)",
        "",
        "From `table/games/four_card_frenzy/paytable_report.json`, which the admin reads through "
        "`table.paytable_report.load_report()`. Main game: the Ante and Odds are one unit "
        "each; the player folds or raises as well as possible knowing only their own five "
        "cards. **House edge per Ante**: expected loss of the whole hand (Ante + Odds + Raise) "
        "per unit of Ante. **Element of risk**: the same loss per unit of everything wagered "
        "(Ante + Odds + average Raise).",
        "",
    ]
    if "bad_beat" in wagers:
        section = wagers["bad_beat"]
        first = next(iter(section["paytables"].values()))
        out += [
            "### Main game (Ante, Odds, Raise) by bad-beat table",
            "",
            "| bad-beat table | house edge per Ante | per Ante + Odds | element of risk | "
            "average Raise | bad-beat frequency |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for name, e in section["paytables"].items():
            out.append(
                f"| {name} | {_p(e['house_edge'])} | {_p(e['house_edge_per_initial_wager'])} | "
                f"{_p(e['element_of_risk'])} | {e['average_raise']:.4f} | "
                f"{_p(e['hit_frequency'], 3)} |"
            )
        d = first["decisions"]
        same = len({tuple(e["strategy"]["words"]) for e in section["paytables"].values()}) == 1
        out += [
            "",
            "#### Optimal strategy"
            + (" (the same for every bad-beat table)" if same else f" (table {first['name']})"),
            "",
            *[f"* {w}" for w in first["strategy"]["words"]],
            "",
            f"The player folds {_p(d['fold'], 2)} of hands, raises 1x on {_p(d['raise_1x'], 2)} "
            f"and 3x on {_p(d['raise_3x'], 2)}. Population: {section['population']}.",
            "",
        ]
        spreads = [
            (n, e["net_distribution"])
            for n, e in section["paytables"].items()
            if "net_distribution" in e
        ]
        if spreads:
            out += spread_markdown(spreads, "Ante, Odds and Raise")
    out += ["### Side bets", "", "| wager | table | hit frequency | house edge |"]
    out += ["| --- | --- | ---: | ---: |"]
    for kind in SIDE_BETS:
        if kind not in wagers:
            continue
        for name, e in wagers[kind]["paytables"].items():
            out.append(
                f"| {wagers[kind]['title']} | {name} | {_p(e['hit_frequency'])} | "
                f"{_p(e['house_edge'])} |"
            )
    flagged = flags(document)
    out += ["", "### Tables outside the usual house-edge range", ""]
    out += [f"* {f['reason']}" for f in flagged] or ["None."]
    out += ["", "### Computation times", "", "| part | seconds | population |"]
    out += ["| --- | ---: | --- |"]
    for section in wagers.values():
        out.append(f"| {section['title']} | {section['seconds']} | {section['population']} |")
        for part, seconds in section.get("seconds_detail", {}).items():
            out.append(f"| &nbsp;&nbsp;{part.replace('_', ' ')} | {seconds} | |")
        if "validation" in section:
            v = section["validation"]
            out.append(
                f"| &nbsp;&nbsp;classifier check | {v['seconds']} | "
                f"{v['sets_checked_against_all_six_hand']:,} sets against `all_six_hand`, "
                f"{v['mismatches']} mismatches |"
            )
    out += [
        "",
        "Timed on the project's 2-core machine (shared with other work, so indicative). "
        "The main game is the expensive part: about 4 x 10^12 (player hand, dealer hand) "
        "pairs, counted exactly by reducing player hands to their 134,459 classes under suit "
        "permutation and counting each class's dealer hands by inclusion-exclusion over the "
        "subsets of the player's five cards (see `table/games/four_card_frenzy/analysis.py`).",
        "",
        "### Four Card Frenzy: every row",
    ]
    for kind in (*SIDE_BETS, MAIN_GAME):
        if kind not in wagers:
            continue
        section = wagers[kind]
        out += ["", f"#### {section['title']}"]
        for name, e in section["paytables"].items():
            extra = ""
            if kind == MAIN_GAME:
                extra = " - bad-beat rows: probability per hand dealt of a bad-beat payout"
            out += ["", f"**{name}** ({e['source']}){extra}", "", *_rows_table(e)]
            summary = f"hit frequency {_p(e['hit_frequency'])}, house edge {_p(e['house_edge'])}"
            if kind == MAIN_GAME:
                summary += f" per Ante, element of risk {_p(e['element_of_risk'])}"
            out += ["", summary + "."]
    return out
