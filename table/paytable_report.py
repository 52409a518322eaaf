"""The paytable report: exact house edges and hit frequencies for every selectable paytable.

``python manage.py paytable_report`` computes it (see :mod:`table.games.four_card_frenzy.analysis`)
and writes
``table/data/paytable_report.json``, which is committed; it writes Crazy 4 Poker's and Five
Card Hi-Lo's reports beside it (:data:`REPORT_FILES`, built by each game's ``report`` module)
and ``docs/paytables.md`` from all three (:func:`markdown`). This module only reads them, for
the admin and the docs:

* :func:`load_report` returns the document. Its ``wagers`` are keyed by wager kind, the
  :class:`~table.games.four_card_frenzy.paytables.PaytableKind` values ``prime``,
  ``four_card_bonus``,
  ``all_six`` and ``bad_beat`` (the main game's Ante, Odds and Raise, one entry per bad-beat
  table). Under each, ``paytables[name]`` has ``rows`` (``label``, ``payout``,
  ``probability``, ``return``...), ``hit_frequency`` and ``house_edge``; see
  :func:`paytable_summary`.
* :func:`flags` lists the tables whose house edge is out of the usual casino range, each with
  the reason in plain words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

DATA_DIR: Final = Path(__file__).resolve().parent / "data"
REPORT_PATH: Final = DATA_DIR / "paytable_report.json"

FOUR_CARD_FRENZY: Final = "four_card_frenzy"
CRAZY_4_POKER: Final = "crazy_4_poker"
FIVE_CARD_HI_LO: Final = "five_card_hi_lo"
#: Every game's report file in ``table/data/``, in the order of the docs.
REPORT_FILES: Final = {
    FOUR_CARD_FRENZY: REPORT_PATH.name,
    CRAZY_4_POKER: "crazy_4_poker_report.json",
    FIVE_CARD_HI_LO: "five_card_hi_lo_report.json",
}
GAME_TITLES: Final = {
    FOUR_CARD_FRENZY: "Four Card Frenzy",
    CRAZY_4_POKER: "Crazy 4 Poker",
    FIVE_CARD_HI_LO: "Five Card Hi-Lo",
}

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


def load_game_report(game: str, path: Path | str | None = None) -> dict[str, Any]:
    """One game's committed report (or the one at ``path``); Four Card Frenzy's is
    :func:`load_report`'s."""
    if game not in REPORT_FILES:
        raise KeyError(f"unknown game {game!r} (choose from {', '.join(REPORT_FILES)})")
    if path is None and game == FOUR_CARD_FRENZY:
        return _load_default()
    return _read(Path(path) if path is not None else DATA_DIR / REPORT_FILES[game])


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


def four_card_frenzy_text(report: dict[str, Any], sections: list[str]) -> list[str]:
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


def four_card_frenzy_markdown(report: dict[str, Any] | None = None) -> list[str]:
    """The Four Card Frenzy section of ``docs/paytables.md``: the summary tables, the
    strategy, the flags and every row."""
    document = report if report is not None else load_report()
    wagers = document["wagers"]
    out = [
        f"## {GAME_TITLES[FOUR_CARD_FRENZY]} (58 Pa. Code ch. 684a)",
        "",
        "From `table/data/paytable_report.json`, which the admin reads through "
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


def markdown(reports: Mapping[str, dict[str, Any]] | None = None) -> str:
    """``docs/paytables.md``: a section per game, from ``reports`` (game -> its report; a game
    left out is read from its committed file)."""
    from table.games.crazy_4_poker import report as crazy_4_poker
    from table.games.five_card_hi_lo import report as five_card_hi_lo

    given = dict(reports or {})
    documents = {g: given[g] if g in given else load_game_report(g) for g in REPORT_FILES}
    out = [
        "# Paytable mathematics",
        "",
        "Exact house edge and hit frequency of every selectable paytable of every game, by "
        "**exhaustive enumeration** with each game's own hand tables and classifiers - no "
        "simulation. Generated by `python manage.py paytable_report --markdown "
        "docs/paytables.md` from the reports in `table/data/` ("
        + ", ".join(f"`{name}`" for name in REPORT_FILES.values())
        + "); do not edit by hand.",
        "",
        "* **House edge** of a wager: expected loss per unit wagered on it. **Hit frequency**: "
        "probability that it pays anything.",
        "* **House edge per Ante** of a main game: expected loss of the whole hand per unit of "
        "Ante. **Element of risk**: the same loss per unit of everything wagered on the hand.",
        "",
        "Games: " + ", ".join(GAME_TITLES.values()) + ".",
        "",
    ]
    out += four_card_frenzy_markdown(documents[FOUR_CARD_FRENZY])
    out += ["", *crazy_4_poker.markdown_lines(documents[CRAZY_4_POKER])]
    out += ["", *five_card_hi_lo.markdown_lines(documents[FIVE_CARD_HI_LO])]
    return "\n".join(out) + "\n"
