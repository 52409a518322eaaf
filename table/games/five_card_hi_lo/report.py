"""Five Card Hi-Lo's paytable report: every exact figure of :mod:`.analysis`, as a JSON document.

``python manage.py paytable_report`` writes it to ``five_card_hi_lo_report.json`` (here) and
the Five Card Hi-Lo section of ``docs/paytables.md`` (:func:`markdown_lines`). Pure: no Django,
no files; :func:`build_report` takes a few seconds (everything is counted over the 1,993 value
classes of a five-card hand, see :mod:`.enumeration`).

The document:

* ``main_game``: the Ante and Play under the optimal play (fold, or Play with aces high or one
  ace low) for each Ante Bonus table A-D (§663a.12(b), paid as X x Ante: house interpretation
  1): house edge per Ante, element of risk, the outcome shares, the Ante Bonus rows, the
  ``net_distribution`` (every net of a box per unit of Ante at the optimal play with its
  count of deals, its exact variance and two boxes' covariance in one round: the back
  office's band, :func:`.analysis.spread`); and the
  strategy, in words and as two charts (``fold_chart`` for hands without an ace,
  ``ace_low_chart`` for hands with one to three).
* ``wagers``: ``tie`` (its one table, keyed ``posted``, as played with the optimal Ante play,
  plus ``every_hand_plays_house_way``, the digest's enumeration) and ``poker_bonus`` (A, B).
  Rows have ``combinations`` (deals or hands), ``probability`` and ``return`` (probability x
  winnings per unit), so a table's expected net is ``sum(return) - (1 - hit_frequency)``.

One room past 500 lines: one document, each section built from the same enumeration.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

from table.games.common import (
    Progress,
    exact,
    net_distribution_json,
    spread_markdown,
    whole_report,
)
from table.games.common import one_in as _one_in
from table.games.common import percent as _p
from table.games.common import quiet as _quiet

from . import analysis
from .analysis import DEALS, Choice
from .enumeration import ACE_CLASS, TWO_CLASS, tables
from .paytables import (
    ANTE_BONUS_PAYTABLES,
    POKER_BONUS_MIN_PAIR,
    POKER_BONUS_PAYTABLES,
    TIE_ODDS,
    AnteBonusHand,
    TieHand,
)
from .poker import PokerHand

GAME: Final = "five_card_hi_lo"
TITLE: Final = "Five Card Hi-Lo"
REGULATION: Final = "58 Pa. Code ch. 663a"
REPORT_SCHEMA: Final = 1
POSTED: Final = "posted"
HANDS: Final = 2_598_960
METHOD: Final = (
    "Exhaustive enumeration over value classes: a hand's totals, settings and Ante Bonus "
    "depend only on how many cards it holds of each value (2-9, ten-valued, ace), so the "
    "C(52,5) x C(47,5) deals fall into 1,993 x 1,993 class pairs weighted exactly, card "
    "removal included; exact fractions, no simulation. See "
    "table/games/five_card_hi_lo/analysis.py."
)
_RANK_NAMES: Final = "2 3 4 5 6 7 8 9 10 J Q K A".split()
_ANTE_BONUS_LABELS: Final = {
    AnteBonusHand.FOUR_ACES_AND_2: "Four aces and one 2",
    AnteBonusHand.FOUR_ACES: "Four aces",
    AnteBonusHand.THREE_ACES: "Three aces",
}
_POKER_LABELS: Final = {
    PokerHand.ROYAL_FLUSH: "Royal flush",
    PokerHand.STRAIGHT_FLUSH: "Straight flush",
    PokerHand.FOUR_OF_A_KIND: "Four of a kind",
    PokerHand.FULL_HOUSE: "Full house",
    PokerHand.FLUSH: "Flush",
    PokerHand.STRAIGHT: "Straight",
    PokerHand.THREE_OF_A_KIND: "Three of a kind",
    PokerHand.TWO_PAIR: "Two pair",
    PokerHand.PAIR: "One pair",
}
_TIE_LABELS: Final = {
    TieHand.BOTH: "Both hands tie",
    TieHand.HIGH: "High hands tie (low hands do not)",
    TieHand.LOW: "Low hands tie (high hands do not)",
}


def _row(label: str, payout: str, count: int, total: int, wins: Fraction) -> dict[str, Any]:
    """One row: ``wins`` is what the row pays per unit (net winnings, or the bonus)."""
    p = Fraction(count, total)
    return {
        "label": label,
        "payout": payout,
        "combinations": count,
        "probability": float(p),
        "one_in": float(1 / p) if p else None,
        "return": float(p * wins),
    }


# --- the strategy ------------------------------------------------------------------------------


Cells = dict[tuple[int, int], dict[str, int]]


def _cells(decisions: Mapping[tuple[int, ...], analysis.ClassDecision], with_ace: bool) -> Cells:
    """Hands by their aces-high (high, low) totals: how many take each choice."""
    t = tables()
    out: Cells = {}
    for i, counts in enumerate(t.classes):
        aces = counts[ACE_CLASS]
        if not (1 <= aces <= 3 if with_ace else aces == 0):
            continue  # four aces have no choice
        cell = out.setdefault((int(t.high[i]), int(t.low[i])), {})
        choice = decisions[counts].choice
        cell[choice] = cell.get(choice, 0) + int(t.weight[i])
    return out


def _chart(cells: Cells, below: str, above: str) -> list[dict[str, Any]]:
    """Per high total: ``below`` up to some low total, ``above`` from some low total, and the
    low totals in between where the hand's cards decide (card removal)."""
    out = []
    for high in sorted({h for h, _ in cells}):
        lows = sorted(lo for h, lo in cells if h == high)
        only = {lo: set(cells[(high, lo)]) for lo in lows}
        above_from = None
        for lo in reversed(lows):
            if only[lo] != {above}:
                break
            above_from = lo
        below_to = None
        for lo in lows:
            if only[lo] != {below}:
                break
            below_to = lo
        mixed = [
            {
                "low": lo,
                above: cells[(high, lo)].get(above, 0),
                "hands": sum(cells[(high, lo)].values()),
            }
            for lo in lows
            if (below_to is None or lo > below_to) and (above_from is None or lo < above_from)
        ]
        out.append(
            {
                "high": high,
                f"{below}_up_to": below_to,
                f"{above}_from": above_from,
                "mixed": mixed,
            }
        )
    return out


def _ranges(values: list[int]) -> str:
    """16, 17, 18, 20 -> "16-18 and 20"."""
    parts: list[str] = []
    start = prev = values[0]
    for v in [*values[1:], None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _thresholds(pairs: Mapping[int, int]) -> str:
    """{high: low} -> "9 with a high hand of 16-19; 10 with 20-24" (grouped by the low)."""
    by_low: dict[int, list[int]] = {}
    for high, low in sorted(pairs.items()):
        by_low.setdefault(low, []).append(high)
    parts = [f"{low} with {_ranges(highs)}" for low, highs in sorted(by_low.items())]
    return parts[0].replace(" with ", " with a high hand of ", 1) + "".join(
        f"; {p}" for p in parts[1:]
    )


def strategy_words(fold_chart: list[dict[str, Any]], ace_chart: list[dict[str, Any]],
                   aces_always_play: bool) -> list[str]:  # fmt: skip
    """The optimal strategy in words, read off the two charts."""
    words = []
    if aces_always_play:
        words.append("Play every hand that holds an ace.")
    folds = {r["high"]: r["fold_from"] for r in fold_chart if r["fold_from"] is not None}
    always = [r["high"] for r in fold_chart if r["fold_from"] is None and not r["mixed"]]
    if folds:
        words.append(
            "Without an ace (the setting is then forced: the three highest cards high), fold "
            f"when the low hand totals at least {_thresholds(folds)}; play every other hand"
            + (f" (a high hand of {_ranges(always)} always plays)." if always else ".")
        )
    for row in fold_chart:
        for m in row["mixed"]:
            words.append(
                f"Without an ace, a high of {row['high']} and a low of {m['low']}: play "
                f"{m['hands'] - m['fold']:,} of {m['hands']:,} such hands (which ones depends "
                "on the exact cards: card removal)."
            )
    lows = {r["high"]: r["ace_low_from"] for r in ace_chart if r["ace_low_from"] is not None}
    keep = [r["high"] for r in ace_chart if r["ace_low_from"] is None and not r["mixed"]]
    mixed = [r["high"] for r in ace_chart if r["mixed"]]
    if lows:
        words.append(
            "With one to three aces, set aces high (the default: the three highest cards high, "
            "an ace counting 11) unless the low hand of that setting totals at least "
            f"{_thresholds(lows)}: then put one ace low (it counts 1, with the lowest other "
            "card; the next three cards go high)"
            + (f"; with a high of {_ranges(keep)} always keep aces high" if keep else "")
            + "."
            + (
                f" With a high of {_ranges(mixed)}, some low totals below the threshold "
                "go either way by the other cards (see the ace-low chart)."
                if mixed
                else ""
            )
        )
    words.append("With four aces there is no choice (A-A-A high, the fourth ace low): play.")
    return words


# --- sections ----------------------------------------------------------------------------------


def _ante_bonus_hand_counts() -> dict[AnteBonusHand, int]:
    t = tables()
    aces = t.counts[:, ACE_CLASS]
    twos = t.counts[:, TWO_CLASS]
    return {
        AnteBonusHand.FOUR_ACES_AND_2: int(t.weight[(aces == 4) & (twos == 1)].sum()),
        AnteBonusHand.FOUR_ACES: int(t.weight[(aces == 4) & (twos == 0)].sum()),
        AnteBonusHand.THREE_ACES: int(t.weight[aces == 3].sum()),
    }


def _net_distribution(letter: str) -> dict[str, Any]:
    """The main game's whole distribution and two boxes' covariance (the back office's band)."""
    spread = analysis.spread(letter)
    return net_distribution_json(spread.counts, spread.covariance)


def main_game_section(progress: Progress = _quiet) -> dict[str, Any]:
    t0 = time.perf_counter()
    counts = _ante_bonus_hand_counts()
    paytables: dict[str, Any] = {}
    for letter, table in ANTE_BONUS_PAYTABLES.items():
        a = analysis.ante_figures(letter)
        simple = -analysis.strategy_expected(letter, analysis.simple_choice)
        aces_high = -analysis.strategy_expected(letter, lambda _c: Choice.ACES_HIGH)
        paytables[letter] = {
            "name": letter,
            "source": "§663a.12(b)",
            "rows": [
                _row(_ANTE_BONUS_LABELS[hand], f"{x:,} for 1", counts[hand], HANDS, Fraction(x))
                for hand, x in table.items()
            ],
            "house_edge": float(a.house_edge),
            "house_edge_exact": exact(a.house_edge),
            "element_of_risk": float(a.element_of_risk),
            "element_of_risk_exact": exact(a.element_of_risk),
            "average_total_wager": float(1 + a.play_rate),
            "play_rate": float(a.play_rate),
            "ace_low_rate": float(a.ace_low_rate),
            "outcomes": {
                "win": float(a.win),
                "push": float(a.push),
                "lose": float(a.lose),
                "fold": float(a.fold),
            },
            "net_distribution": _net_distribution(letter),
            "simple_strategy_house_edge": float(simple),
            "always_play_aces_high_house_edge": float(aces_high),
        }
        progress(f"five card hi-lo {letter}: house edge {float(a.house_edge) * 100:.4f}% per Ante")
    chosen = {letter: analysis.decisions(letter) for letter in ANTE_BONUS_PAYTABLES}
    first = chosen["A"]
    same = all(all(d[c].choice == first[c].choice for c in first) for d in chosen.values())
    fold_chart = _chart(_cells(first, with_ace=False), Choice.ACES_HIGH, Choice.FOLD)
    for row in fold_chart:  # name the keys in the player's words
        row["play_up_to"] = row.pop(f"{Choice.ACES_HIGH}_up_to")
    ace_chart = _chart(_cells(first, with_ace=True), Choice.ACES_HIGH, Choice.ACE_LOW)
    aces_always_play = all(d.choice != Choice.FOLD for c, d in first.items() if c[ACE_CLASS] > 0)
    seconds = time.perf_counter() - t0
    return {
        "title": "Ante and Play (the main game), one entry per Ante Bonus table",
        "source": "§663a.11(g)-(h), §663a.12(a)-(b)",
        "population": (
            f"all {HANDS:,} player hands x {analysis.DEALER_HANDS:,} dealer hands "
            f"(= {DEALS:,} deals), in {len(tables().classes):,} x {len(tables().classes):,} "
            "value-class pairs"
        ),
        "unit": "per unit of Ante; element of risk per unit of Ante + Play",
        "ante_bonus_reading": "X for 1 pays X x Ante on top of the Ante/Play result "
        "(house interpretation 1); no Ante Bonus on a fold (interpretation 2)",
        "paytables": paytables,
        "strategy": {
            "same_for_every_table": same,
            "words": strategy_words(fold_chart, ace_chart, aces_always_play),
            "fold_chart": fold_chart,
            "ace_low_chart": ace_chart,
            "simple_fold_low_from": {str(h): lo for h, lo in analysis.FOLD_LOW_FROM.items()},
        },
        "seconds": round(seconds, 2),
    }


def _tie_entry(tie: analysis.TieFigures) -> dict[str, Any]:
    shares = {TieHand.BOTH: tie.both, TieHand.HIGH: tie.high_only, TieHand.LOW: tie.low_only}
    rows = []
    for hand, share in shares.items():
        count = share * DEALS
        assert count.denominator == 1
        rows.append(
            _row(
                _TIE_LABELS[hand],
                f"{TIE_ODDS[hand]} to 1",
                int(count),
                DEALS,
                Fraction(TIE_ODDS[hand]),
            )
        )
    hit = 1 - tie.lose
    return {
        "name": POSTED,
        "source": "§663a.12(c)",
        "population": DEALS,
        "rows": rows,
        "hit_frequency": float(hit),
        "return_to_player": float(1 - tie.house_edge),
        "house_edge": float(tie.house_edge),
        "house_edge_exact": exact(tie.house_edge),
    }


def _poker_bonus_entry(letter: str) -> dict[str, Any]:
    counts = analysis.poker_hand_counts()
    figures = analysis.poker_bonus_figures(letter)
    min_pair = POKER_BONUS_MIN_PAIR[letter]
    rows = []
    for hand, odds in POKER_BONUS_PAYTABLES[letter].items():
        if hand is PokerHand.PAIR:
            n = sum(c for (h, r), c in counts.items() if h is hand and r is not None
                    and r >= min_pair)  # fmt: skip
            label = f"One pair, {_RANK_NAMES[min_pair]}s or better"
        else:
            n = sum(c for (h, _), c in counts.items() if h is hand)
            label = _POKER_LABELS[hand]
        rows.append(_row(label, f"{odds} to 1", n, HANDS, Fraction(odds)))
    return {
        "name": letter,
        "source": "§663a.12(d)",
        "population": HANDS,
        "rows": rows,
        "hit_frequency": float(figures.win_rate),
        "return_to_player": float(1 - figures.house_edge),
        "house_edge": float(figures.house_edge),
        "house_edge_exact": exact(figures.house_edge),
    }


def wager_sections(progress: Progress = _quiet) -> dict[str, Any]:
    t0 = time.perf_counter()
    tie: dict[str, Any] = {
        "title": "Tie Wager",
        "population": f"all {DEALS:,} deals",
        "unit": "per unit wagered",
        "paytables": {POSTED: _tie_entry(analysis.tie_figures(optimal_ante_play=True))},
        "played_as": "the player folds and sets by the optimal Ante play (table A; the same "
        "for every table); a fold loses the Tie Wager (§663a.11(b)(1))",
        "every_hand_plays_house_way": _tie_entry(analysis.tie_figures()),
    }
    tie_seconds = time.perf_counter() - t0
    progress(f"five card hi-lo: Tie Wager in {tie_seconds:.1f} s")
    t0 = time.perf_counter()
    poker: dict[str, Any] = {
        "title": "Poker Bonus Wager",
        "population": f"all C(52,5) = {HANDS:,} five-card hands",
        "unit": "per unit wagered; it stays in action on a fold (§663a.11(b)(2))",
        "paytables": {letter: _poker_bonus_entry(letter) for letter in POKER_BONUS_PAYTABLES},
    }
    poker_seconds = time.perf_counter() - t0
    tie["seconds"] = round(tie_seconds, 2)
    poker["seconds"] = round(poker_seconds, 2)
    return {"tie": tie, "poker_bonus": poker}


#: The report is computed whole: it has no parts to name alone (``--only``).
parse_sections = whole_report


def build_report(
    progress: Progress = _quiet,
    sections: Sequence[str] | None = None,
    previous: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole Five Card Hi-Lo report (no parts: ``sections`` is None, ``previous`` unused)."""
    parse_sections(",".join(sections or ()))
    started = time.perf_counter()
    main = main_game_section(progress)
    wagers = wager_sections(progress)
    detail = {
        "main_game": main["seconds"],
        "tie": wagers["tie"]["seconds"],
        "poker_bonus": wagers["poker_bonus"]["seconds"],
    }
    return {
        "schema": REPORT_SCHEMA,
        "game": GAME,
        "title": TITLE,
        "regulation": REGULATION,
        "generated_by": f"python manage.py paytable_report --game {GAME}",
        "method": METHOD,
        "main_game": main,
        "wagers": wagers,
        "seconds": round(time.perf_counter() - started, 2),
        "seconds_detail": detail,
    }


# --- people: the console summary and the Markdown section -------------------------------------


def text_lines(report: Mapping[str, Any]) -> list[str]:
    """The console summary of ``paytable_report``."""
    m = report["main_game"]
    lines = [f"== {TITLE}: {m['title']}", f"   {m['population']}"]
    for name, e in m["paytables"].items():
        lines.append(
            f"   Ante Bonus {name}: house edge {_p(e['house_edge'])} per Ante, element of risk "
            f"{_p(e['element_of_risk'])}, play {_p(e['play_rate'], 2)}, one ace low "
            f"{_p(e['ace_low_rate'], 2)}"
        )
    lines += [f"   * {w}" for w in m["strategy"]["words"]]
    for section in report["wagers"].values():
        lines.append(f"== {TITLE}: {section['title']}")
        for name, e in section["paytables"].items():
            lines.append(
                f"   {name:<7} hit frequency {_p(e['hit_frequency'])}   "
                f"house edge {_p(e['house_edge'])}"
            )
    lines.append(f"   time {report['seconds']} s")
    return lines


def _rows_table(entry: Mapping[str, Any], what: str = "hand") -> list[str]:
    lines = [
        f"| {what} | pays | combinations | probability | one in | return |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in entry["rows"]:
        lines.append(
            f"| {r['label']} | {r['payout']} | {r['combinations']:,} | {r['probability']:.8f} "
            f"| {_one_in(r['one_in'])} | {r['return']:.6f} |"
        )
    return lines


def _cell(value: int | None) -> str:
    return "-" if value is None else str(value)


def _mixed(row: Mapping[str, Any], key: str) -> str:
    def one(m: Mapping[str, Any]) -> str:
        if m[key] == m["hands"]:
            return f"{m['low']} (all)"
        return f"{m['low']} ({m[key]:,} of {m['hands']:,})" if m[key] else f"{m['low']} (none)"

    return ", ".join(one(m) for m in row["mixed"]) or "-"


def markdown_lines(report: Mapping[str, Any]) -> list[str]:
    """The Five Card Hi-Lo section of ``docs/paytables.md`` (headings from level 2)."""
    m = report["main_game"]
    st = m["strategy"]
    w = report["wagers"]
    out = [
        f"## {TITLE} ({REGULATION})",
        "",
        "From `table/games/five_card_hi_lo/five_card_hi_lo_report.json`; "
        f"{m['population']}. {report['method']}",
        "",
        "### Ante and Play by Ante Bonus table, under the optimal play",
        "",
        "| Ante Bonus table | house edge per Ante | element of risk | plays | one ace low | "
        "win | push | lose | fold |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, e in m["paytables"].items():
        o = e["outcomes"]
        out.append(
            f"| {name} | {_p(e['house_edge'])} | {_p(e['element_of_risk'])} | "
            f"{_p(e['play_rate'], 2)} | {_p(e['ace_low_rate'], 2)} | {_p(o['win'], 2)} | "
            f"{_p(o['push'], 2)} | {_p(o['lose'], 2)} | {_p(o['fold'], 2)} |"
        )
    a = m["paytables"]["A"]
    out += [
        "",
        "**House edge per Ante**: expected loss of the whole hand (Ante + Play + Ante Bonus) "
        "per unit of Ante. **Element of risk**: the same per unit of Ante + Play (the Play "
        "equals the Ante and is made on the hands played). The player sees only their own "
        f"five cards. The Ante Bonus: {m['ante_bonus_reading']}. Exactly: table A "
        f"{a['house_edge_exact']} per Ante. Win/push/lose/fold: shares of all deals.",
        "",
        *spread_markdown(
            [(n, e["net_distribution"]) for n, e in m["paytables"].items()],
            "Ante, Play and Ante Bonus",
        ),
        "#### Optimal strategy"
        + (" (the same for every Ante Bonus table)" if st["same_for_every_table"] else ""),
        "",
        *[f"* {x}" for x in st["words"]],
        "",
        "Hands without an ace, by the high hand's total (the low hand is the other two cards):",
        "",
        "| high total | play with a low total up to | fold from a low total of | "
        "it depends at low (played of hands) |",
        "| ---: | ---: | ---: | --- |",
    ]
    for row in st["fold_chart"]:
        if row["fold_from"] is None and not row["mixed"]:
            continue
        played = [
            {"low": x["low"], "played": x["hands"] - x["fold"], "hands": x["hands"]}
            for x in row["mixed"]
        ]
        out.append(
            f"| {row['high']} | {_cell(row['play_up_to'])} | {_cell(row['fold_from'])} | "
            f"{_mixed({'mixed': played}, 'played')} |"
        )
    always = [r["high"] for r in st["fold_chart"] if r["fold_from"] is None and not r["mixed"]]
    out += [
        "",
        f"Every other high total ({_ranges(always)}) always plays.",
        "",
        "Hands with one to three aces (always played), by the **aces-high** setting's totals:",
        "",
        "| aces-high high total | keep aces high with a low up to | one ace low from a low of | "
        "it depends at low (ace low of hands) |",
        "| ---: | ---: | ---: | --- |",
    ]
    for row in st["ace_low_chart"]:
        out.append(
            f"| {row['high']} | {_cell(row['aces_high_up_to'])} | {_cell(row['ace_low_from'])} "
            f"| {_mixed(row, 'ace_low')} |"
        )
    simple = _thresholds({int(h): lo for h, lo in st["simple_fold_low_from"].items()})
    out += [
        "",
        "A simpler rule - play every hand with an ace, put one ace low when that setting's "
        "(high, low) totals win more often than the aces-high ones against the dealer's house "
        "way (`analysis.setting_values`), and without an ace fold from the low totals of the "
        f"chart above (from a low of {simple}) - gives a house edge of "
        f"{_p(a['simple_strategy_house_edge'])} on table A; always playing aces high, "
        f"{_p(a['always_play_aces_high_house_edge'])}.",
        "",
        "#### Ante Bonus rows (per unit of Ante, every such hand plays)",
        "",
        "| table | " + " | ".join(r["label"] for r in a["rows"]) + " | return per Ante |",
        "| --- |" + " ---: |" * (len(a["rows"]) + 1),
    ]
    for name, e in m["paytables"].items():
        out.append(
            f"| {name} | "
            + " | ".join(r["payout"] for r in e["rows"])
            + f" | {sum(r['return'] for r in e['rows']):.6f} |"
        )
    out.append("| hands | " + " | ".join(f"{r['combinations']:,}" for r in a["rows"]) + " | |")
    tie = w["tie"]
    t_played = tie["paytables"][POSTED]
    t_house = tie["every_hand_plays_house_way"]
    out += [
        "",
        "### Tie Wager and Poker Bonus",
        "",
        "| wager | table | hit frequency | house edge |",
        "| --- | --- | ---: | ---: |",
        f"| Tie Wager, with the optimal Ante play | posted | {_p(t_played['hit_frequency'])} | "
        f"{_p(t_played['house_edge'])} |",
        f"| Tie Wager, every hand played, set the house way | posted | "
        f"{_p(t_house['hit_frequency'])} | {_p(t_house['house_edge'])} |",
    ]
    for name, e in w["poker_bonus"]["paytables"].items():
        out.append(
            f"| {w['poker_bonus']['title']} | {name} | {_p(e['hit_frequency'])} | "
            f"{_p(e['house_edge'])} |"
        )
    out += [
        "",
        f"The Tie Wager as played: {tie['played_as']}. The second line is the digest's "
        "enumeration (every box plays and sets the house way). The Poker Bonus depends only on "
        "the five cards as dealt and stays in action on a fold.",
        "",
        "### Computation time",
        "",
        f"{report['seconds']} s in all on the project's 2-core machine (shared, so "
        "indicative): "
        + ", ".join(f"{k.replace('_', ' ')} {v} s" for k, v in report["seconds_detail"].items())
        + ".",
        "",
        f"### {TITLE}: every row",
        "",
        "*return*: probability x winnings per unit staked, so a wager's expected net is the "
        "sum of its rows' returns minus the probability of losing.",
        "",
        "#### Tie Wager (§663a.12(c))",
        "",
        "With the optimal Ante play:",
        "",
        *_rows_table(t_played, "hands"),
        "",
        "Every hand played, set the house way:",
        "",
        *_rows_table(t_house, "hands"),
        "",
        "#### Poker Bonus Wager (§663a.12(d))",
    ]
    for name, e in w["poker_bonus"]["paytables"].items():
        out += [
            "",
            f"**table {name}**",
            "",
            *_rows_table(e),
            "",
            f"Hit frequency {_p(e['hit_frequency'])}, house edge {_p(e['house_edge'])} "
            f"(exactly {e['house_edge_exact']}).",
        ]
    return out
