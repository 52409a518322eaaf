"""The paytable reports: exact house edges and hit frequencies for every selectable paytable.

``python manage.py paytable_report`` computes each game's report with the game's own report
module (:data:`table.games.REPORTS`, :class:`table.games.base.PaytableReport`) and writes it
to ``table/data/`` (:data:`REPORT_FILES`: Four Card Frenzy's ``paytable_report.json``, which
is committed, and Crazy 4 Poker's and Five Card Hi-Lo's beside it), and ``docs/paytables.md``
from all three (:func:`markdown`, each game's section its report module's). This module
reads them, for the admin and the docs:

* :func:`load_report` returns Four Card Frenzy's document. Its ``wagers`` are keyed by wager
  kind, the paytable kinds ``prime``, ``four_card_bonus``, ``all_six`` and ``bad_beat`` (the
  main game's Ante, Odds and Raise, one entry per bad-beat table). Under each,
  ``paytables[name]`` has ``rows`` (``label``, ``payout``, ``probability``, ``return``...),
  ``hit_frequency`` and ``house_edge``; see :func:`paytable_summary`.
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


def markdown(reports: Mapping[str, dict[str, Any]] | None = None) -> str:
    """``docs/paytables.md``: a section per game, from ``reports`` (game -> its report; a game
    left out is read from its committed file), each written by the game's report module."""
    from table.games import paytable_report

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
    for i, game in enumerate(REPORT_FILES):
        if i:
            out.append("")  # between two games' sections
        out += paytable_report(game).markdown_lines(documents[game])
    return "\n".join(out) + "\n"
