"""The paytable report: exact house edges and hit frequencies for every selectable paytable.

``python manage.py paytable_report`` computes it (see :mod:`table.engine.analysis`) and writes
``table/data/paytable_report.json``, which is committed. This module only reads it, for the
admin and the docs:

* :func:`load_report` returns the document. Its ``wagers`` are keyed by wager kind, the
  :class:`~table.engine.paytables.PaytableKind` values ``prime``, ``four_card_bonus``,
  ``all_six`` and ``bad_beat`` (the main game's Ante, Odds and Raise, one entry per bad-beat
  table). Under each, ``paytables[name]`` has ``rows`` (``label``, ``payout``,
  ``probability``, ``return``...), ``hit_frequency`` and ``house_edge``; see
  :func:`paytable_summary`.
* :func:`flags` lists the tables whose house edge is out of the usual casino range, each with
  the reason in plain words.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

REPORT_PATH: Final = Path(__file__).resolve().parent / "data" / "paytable_report.json"

#: A side bet usually keeps between about 2% and 15% of what is wagered on it.
SIDE_BET_MAX_HOUSE_EDGE: Final = 0.15
#: A main game like this one usually keeps under about 5% of the Ante.
MAIN_GAME_MAX_HOUSE_EDGE: Final = 0.05
SIDE_BETS: Final = ("prime", "four_card_bonus", "all_six")
MAIN_GAME: Final = "bad_beat"


def load_report(path: Path | str | None = None) -> dict[str, Any]:
    """The committed report (or the one at ``path``)."""
    if path is None:
        return _load_default()
    return _read(Path(path))


@lru_cache(maxsize=1)
def _load_default() -> dict[str, Any]:
    return _read(REPORT_PATH)


def _read(path: Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as fh:
        document: dict[str, Any] = json.load(fh)
    return document


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


# --- the Markdown page (docs/paytables.md) -------------------------------------------------


def _p(x: float, places: int = 4) -> str:
    return f"{x * 100:.{places}f}%"


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


def markdown(report: dict[str, Any] | None = None) -> str:
    """``docs/paytables.md``: the summary tables, the strategy, the flags and every row."""
    document = report if report is not None else load_report()
    wagers = document["wagers"]
    out = [
        "# Paytable mathematics",
        "",
        "Exact house edge and hit frequency of every selectable paytable, by **exhaustive "
        "enumeration** with the engine's own hand tables and classifiers - no simulation. "
        "Generated by `python manage.py paytable_report --markdown docs/paytables.md` from "
        "`table/data/paytable_report.json` (which the admin reads through "
        "`table.paytable_report.load_report()`); do not edit by hand.",
        "",
        "* **House edge** of a side bet: expected loss per unit wagered on it. **Hit "
        "frequency**: probability that it pays anything.",
        "* Main game: the Ante and Odds are one unit each; the player folds or raises as "
        "well as possible knowing only their own five cards. **House edge per Ante**: expected "
        "loss of the whole hand (Ante + Odds + Raise) per unit of Ante. **Element of risk**: "
        "the same loss per unit of everything wagered (Ante + Odds + average Raise).",
        "",
    ]
    if "bad_beat" in wagers:
        section = wagers["bad_beat"]
        first = next(iter(section["paytables"].values()))
        out += [
            "## Main game (Ante, Odds, Raise) by bad-beat table",
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
            "### Optimal strategy"
            + (" (the same for every bad-beat table)" if same else f" (table {first['name']})"),
            "",
            *[f"* {w}" for w in first["strategy"]["words"]],
            "",
            f"The player folds {_p(d['fold'], 2)} of hands, raises 1x on {_p(d['raise_1x'], 2)} "
            f"and 3x on {_p(d['raise_3x'], 2)}. Population: {section['population']}.",
            "",
        ]
    out += ["## Side bets", "", "| wager | table | hit frequency | house edge |"]
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
    out += ["", "## Tables outside the usual house-edge range", ""]
    out += [f"* {f['reason']}" for f in flagged] or ["None."]
    out += ["", "## Computation times", "", "| part | seconds | population |"]
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
        "subsets of the player's five cards (see `table/engine/analysis.py`).",
        "",
        "## Every row",
    ]
    for kind in (*SIDE_BETS, MAIN_GAME):
        if kind not in wagers:
            continue
        section = wagers[kind]
        out += ["", f"### {section['title']}"]
        for name, e in section["paytables"].items():
            extra = ""
            if kind == MAIN_GAME:
                extra = " - bad-beat rows: probability per hand dealt of a bad-beat payout"
            out += ["", f"**{name}** ({e['source']}){extra}", "", *_rows_table(e)]
            summary = f"hit frequency {_p(e['hit_frequency'])}, house edge {_p(e['house_edge'])}"
            if kind == MAIN_GAME:
                summary += f" per Ante, element of risk {_p(e['element_of_risk'])}"
            out += ["", summary + "."]
    return "\n".join(out) + "\n"
