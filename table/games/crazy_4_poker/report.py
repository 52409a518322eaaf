"""Crazy 4 Poker's paytable report: every exact figure of :mod:`.analysis`, as a JSON document.

``python manage.py paytable_report`` writes it to ``crazy_4_poker_report.json`` in this package and
the Crazy 4 Poker section of ``docs/paytables.md`` (:func:`markdown_lines`). Pure: no Django,
no files; :func:`build_report` only enumerates (about 80 s on the 2-core machine, most of it
the main game's dealer counts and two boxes' covariance).

The document:

* ``main_game``: the Ante, Super Bonus and Play under the optimal strategy (fold, Play 1x, or
  Play 3x with a pair of aces or better, §657a.7): house edge per Ante, per Ante + Super
  Bonus, element of risk, the decisions, the strategy in words and its simple version, and
  ``net_distribution``: every net of a box per unit of Ante at that strategy with its count
  of deals, its exact variance and two boxes' covariance in one round (the back office's
  band, :mod:`.spread`).
* ``wagers``: ``queens_up`` (A-D) and ``six_card_bonus`` (A-E), whose rows are all fixed
  ("to 1"); ``four_card_progressive`` (A/B), ``five_card_progressive`` (A-D) and
  ``hand_bonus`` (its one table, keyed ``posted``), whose top rows pay a share of a meter.
  Every row has ``combinations``, ``probability`` and ``return`` (probability x net winnings
  per unit staked, so a table's expected net is ``sum(return) - (1 - hit_frequency)``).
  Meter rows are valued **as if the meter stood at its seed** (``at_seed``); the table's
  ``return_at_seed`` and ``house_edge_at_seed`` say so in their names. ``long_run_return``
  adds what the meters pay back in the long run (see :func:`long_run_return`).

Probabilities and edges are floats for reading; ``*_exact`` fields are the exact fractions.

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
from table.games.four_card_frenzy.analysis import (
    DEALER_HANDS,
    FIVE_CARD_HANDS,
    SIX_CARD_SETS,
    SUIT_CLASSES,
    five_card_hands,
    hand_words,
)
from table.games.four_card_frenzy.spread import Layout, hand_class_of_every_hand
from table.games.progressive import MeterRates

from . import analysis
from .hands import (
    KING_HIGH,
    PAIR_OF_ACES,
    FiveCardCategory,
    five_card_categories,
    four_card_hand,
)
from .paytables import (
    FIVE_CARD_PROGRESSIVES,
    FOUR_CARD_PROGRESSIVES,
    HAND_BONUS_METER,
    HAND_BONUS_PAYTABLE,
    QUEENS_UP_PAYTABLES,
    SIX_CARD_BONUS_PAYTABLES,
    SUPER_BONUS,
    ForOne,
    OfMeter,
    Paytable,
    ProgressiveTable,
    ToOne,
)
from .spread import main_spread

GAME: Final = "crazy_4_poker"
TITLE: Final = "Crazy 4 Poker"
REGULATION: Final = "58 Pa. Code ch. 657a"
REPORT_SCHEMA: Final = 1
#: The key of the Five Card Hand Bonus's one posted paytable.
POSTED: Final = "posted"
WAGER_TITLES: Final = {
    "queens_up": "Queens Up Wager",
    "six_card_bonus": "Six Card Bonus Wager",
    "four_card_progressive": "Four-Card Progressive Payout Wager",
    "five_card_progressive": "Five-Card Progressive Payout Wager",
    "hand_bonus": "Five Card Hand Bonus Wager (each hand)",
}
FIXED_WAGERS: Final = ("queens_up", "six_card_bonus")
METER_WAGERS: Final = ("four_card_progressive", "five_card_progressive", "hand_bonus")
METHOD: Final = (
    "Exhaustive enumeration with the game's own hand classifiers and paytables "
    "(table.games.crazy_4_poker); exact fractions, no simulation. See "
    "table/games/crazy_4_poker/analysis.py."
)


def _timed(seconds: dict[str, float], name: str, started: float) -> None:
    seconds[name] = round(time.perf_counter() - started, 2)


# --- the main game -------------------------------------------------------------------------------


def _super_bonus_rows() -> list[dict[str, Any]]:
    """The Super Bonus rows over every five-card hand: every such hand plays (a straight is
    above the K-Q-8-4 threshold), and the Super Bonus pays it whatever the dealer holds."""
    counts = analysis.four_card_class_counts(five_card_hands())
    rows = []
    for row in SUPER_BONUS.rows:
        assert isinstance(row.payout, ToOne)
        n = sum(c for hand, c in counts.items() if hand in row.hands)
        p = Fraction(n, FIVE_CARD_HANDS)
        rows.append(
            {
                "label": row.label,
                "payout": row.payout.posted,
                "combinations": n,
                "probability": float(p),
                "return": float(p * row.payout.ratio),
            }
        )
    return rows


def strategy(classes: analysis.PlayerClasses, game: analysis.MainGame) -> dict[str, Any]:
    """The optimal strategy read off the decisions by best-four value: from which hand every
    hand plays 3x, from which every hand plays, the borderline hands below that (some play,
    by the fifth card and the suits: card removal), in words."""
    by_value: dict[int, list[int]] = {}
    for v, ch, wt in zip(classes.value.tolist(), game.choice.tolist(), classes.weight.tolist(),
                         strict=True):  # fmt: skip
        by_value.setdefault(int(v), [0, 0, 0])[ch] += int(wt)
    values = sorted(by_value)

    def lowest_always(at_least: int) -> int:
        lowest = values[-1]
        for v in reversed(values):
            if sum(by_value[v][at_least:]) != sum(by_value[v]):
                break
            lowest = v
        return lowest

    three_from = lowest_always(analysis.PLAY_3X)
    play_from = lowest_always(analysis.PLAY_1X)
    top_1x = max(v for v in values if v < three_from)
    borderline: list[dict[str, Any]] = [
        {"hand": hand_words(v), "played": sum(by_value[v][1:]), "hands": sum(by_value[v])}
        for v in reversed(values)
        if v < play_from and sum(by_value[v][1:]) > 0
    ]
    folded_from = max(v for v in values if v < play_from and sum(by_value[v][1:]) == 0)
    words = [
        f"Play 3x with {hand_words(three_from)} or better"
        + (
            " - every hand allowed to."
            if hand_words(three_from) == hand_words(PAIR_OF_ACES)
            else "."
        ),  # fmt: skip
        f"Play 1x with {hand_words(play_from)} or better, up to {hand_words(top_1x)}.",
        *[
            f"{b['hand'][0].upper()}{b['hand'][1:]} is borderline: play {b['played']:,} of "
            f"{b['hands']:,} such hands (it depends on the fifth card and the suits)."
            for b in borderline
        ],
        f"Fold everything else: {hand_words(folded_from)} and lower"
        + (" except the borderline hands above." if borderline else "."),
    ]
    return {
        "words": words,
        "play_3x_from": hand_words(three_from),
        "play_1x_from": hand_words(play_from),
        "borderline": borderline,
    }


def folded_but_paid(classes: analysis.PlayerClasses, game: analysis.MainGame) -> dict[str, int]:
    """How many of the C(52,5) player hands the optimal strategy folds although a wager lost
    on a fold would pay them (§657a.11(b)(1)-(2), house interpretation 3): the Super Bonus,
    Queens Up, either progressive and the Hand Bonus on the player's hand. Zero for each means
    those wagers' figures below are their figures as played."""
    five = five_card_hands()
    folded = game.choice == analysis.FOLD
    values = classes.value[folded].tolist()
    weights = classes.weight[folded].tolist()
    categories = five_card_categories(five.cards[classes.rows[folded]]).tolist()
    tables: dict[str, tuple[Paytable, bool]] = {
        "super_bonus": (SUPER_BONUS, False),
        **{f"queens_up_{n}": (t, False) for n, t in QUEENS_UP_PAYTABLES.items()},
        **{
            f"four_card_progressive_{n}": (t.paytable, False)
            for n, t in FOUR_CARD_PROGRESSIVES.items()
        },  # fmt: skip
        **{
            f"five_card_progressive_{n}": (t.paytable, True)
            for n, t in FIVE_CARD_PROGRESSIVES.items()
        },  # fmt: skip
        "hand_bonus_player": (HAND_BONUS_PAYTABLE, True),
    }
    out: dict[str, int] = {}
    for key, (table, five_card) in tables.items():
        out[key] = sum(
            w
            for v, c, w in zip(values, categories, weights, strict=True)
            if table.row_for(FiveCardCategory(c) if five_card else four_card_hand(v)) is not None
        )
    return out


def main_game_section(progress: Progress = _quiet) -> dict[str, Any]:
    """§657a.11(c)(3) settled against every dealer hand for every player hand class, the best
    choice per class, and the figures of that strategy."""
    t0 = time.perf_counter()
    five = five_card_hands()
    classes = analysis.player_classes(five, progress)
    counted = time.perf_counter() - t0
    progress(f"crazy 4 poker: dealer outcomes of every player hand counted in {counted:.1f} s")
    t0 = time.perf_counter()
    game = analysis.main_game(classes)
    optimal = strategy(classes, game)
    threshold, simple = analysis.best_simple_strategy(classes, game)
    evaluated = time.perf_counter() - t0
    progress(f"crazy 4 poker: house edge {float(game.house_edge) * 100:.4f}% per Ante")
    # The back office's band: the whole distribution and two boxes' covariance.
    t0 = time.perf_counter()
    layout = Layout.build(five)
    spread = main_spread(classes, game, layout, hand_class_of_every_hand(five))
    del layout
    spread_seconds = time.perf_counter() - t0
    progress(f"crazy 4 poker: distribution and covariance of two boxes in {spread_seconds:.1f} s")
    qualifies = Fraction(int((five.values >= KING_HIGH).sum()), FIVE_CARD_HANDS)
    average_total = 2 + game.average_play
    return {
        "title": "Ante, Super Bonus and Play (the main game)",
        "source": "§657a.11(c), §657a.12(a)-(b)",
        "population": (
            f"all {FIVE_CARD_HANDS:,} player hands x {DEALER_HANDS:,} dealer hands "
            f"(= {FIVE_CARD_HANDS * DEALER_HANDS:,} deals), player hands reduced to "
            f"{SUIT_CLASSES:,} classes up to suit permutation"
        ),
        "unit": "per unit of Ante (the Super Bonus is an equal second unit); element of risk "
        "per unit of Ante + Super Bonus + Play",
        "house_edge": float(game.house_edge),
        "house_edge_exact": exact(game.house_edge),
        "house_edge_per_initial_wager": float(game.house_edge_per_initial_wager),
        "element_of_risk": float(game.element_of_risk),
        "element_of_risk_exact": exact(game.element_of_risk),
        "average_play": float(game.average_play),
        "average_total_wager": float(average_total),
        "decisions": {k: float(v) for k, v in game.decisions.items()},
        "expected_net_by_wager": {k: float(v) for k, v in game.by_wager.items()},
        "dealer_qualifies": float(qualifies),
        "strategy": {
            **optimal,
            "simple": {
                "play_1x_from": hand_words(threshold),
                "play_3x_from": hand_words(PAIR_OF_ACES),
                "house_edge": float(simple.house_edge),
                "element_of_risk": float(simple.element_of_risk),
                "cost": float(simple.house_edge - game.house_edge),
            },
        },
        "super_bonus_rows": _super_bonus_rows(),
        "folded_hands_a_lost_wager_would_pay": folded_but_paid(classes, game),
        "net_distribution": net_distribution_json(spread.counts, spread.covariance),
        "seconds": round(counted + evaluated + spread_seconds, 2),
        "seconds_detail": {
            **{k: round(v, 2) for k, v in classes.seconds.items()},
            "strategy_and_figures": round(evaluated, 2),
            "distribution_and_covariance": round(spread_seconds, 2),
        },
    }


# --- side wagers ---------------------------------------------------------------------------------


def _row_json(row: analysis.Row, payout: ToOne | ForOne | OfMeter,
              meters: Mapping[str, MeterRates]) -> dict[str, Any]:  # fmt: skip
    p = row.probability
    out: dict[str, Any] = {
        "label": row.label,
        "payout": row.posted,
        "combinations": row.count,
        "probability": float(p),
        "one_in": float(1 / p) if p else None,
    }
    if isinstance(payout, ToOne):
        out["net_per_unit"] = float(payout.ratio)
        out["return"] = float(p * payout.ratio)
        return out
    if isinstance(payout, ForOne):
        paid = Fraction(payout.times)
    else:
        # "X% of the meter", valued at the meter's seed per unit of the fixed wager.
        paid = Fraction(payout.percent, 100) * meters[payout.meter].seed
        out["meter"] = payout.meter
        out["at_seed"] = True
    out["paid_per_unit"] = float(paid)
    out["net_per_unit"] = float(paid - 1)
    out["return"] = float(p * (paid - 1))
    return out


def return_at_seed(table: Paytable, wager: analysis.SideWager,
                   meters: Mapping[str, MeterRates]) -> Fraction:  # fmt: skip
    """What a "for 1" table pays back per unit staked if every meter always stood at its seed."""
    total = Fraction(0)
    for row, counted in zip(table.rows, wager.rows, strict=True):
        if isinstance(row.payout, OfMeter):
            paid = Fraction(row.payout.percent, 100) * meters[row.payout.meter].seed
        elif isinstance(row.payout, ForOne):
            paid = Fraction(row.payout.times)
        else:
            paid = row.payout.ratio + 1
        total += counted.probability * paid
    return total


def long_run_return(table: Paytable, wager: analysis.SideWager,
                    meters: Mapping[str, MeterRates]) -> Fraction:  # fmt: skip
    """The return per unit staked over an endless run of the meters.

    Everything that goes onto a meter is paid out by it eventually: its primary and reserve
    shares of every wager (§657a.12(d)(3), (e)(3), (f)(4)) and the house's reseed after each
    100% payout (the reserve then added was already counted as it accrued). So in the long
    run the meter rows return ``sum(primary + reserve) + sum(P(100% row) x reseed)`` per unit,
    whoever among the meter's players collects it and whatever share a row pays; the fixed
    rows return their own. The cents that rounding leaves on a meter are ignored.
    """
    total = Fraction(0)
    for row, counted in zip(table.rows, wager.rows, strict=True):
        if isinstance(row.payout, ForOne):
            total += counted.probability * row.payout.times
        elif isinstance(row.payout, OfMeter) and row.payout.percent == 100:
            total += counted.probability * meters[row.payout.meter].reseed
    for spec in meters.values():
        total += Fraction(spec.primary + spec.reserve, 100)
    return total


def _envy_json(table: ProgressiveTable, counts: Mapping[Any, int]) -> dict[str, Any]:
    """The Envy Bonuses one progressive wager collects per other player's box, per unit of the
    wager (§657a.11(e)(5)): any one other box's hand is uniform over C(52,5), whatever this
    box holds, and every qualifying hand plays under the optimal strategy."""
    rows = []
    expected = Fraction(0)
    for hand, cents in table.envy[100]:
        p = Fraction(counts[hand], FIVE_CARD_HANDS)
        per_unit = Fraction(cents, 100)
        expected += p * per_unit
        rows.append(
            {
                "hand": hand.name.lower(),
                "paid_per_unit": float(per_unit),
                "combinations": counts[hand],
                "probability": float(p),
            }
        )
    return {"rows": rows, "expected_per_other_box": float(expected)}


def _fixed_json(wager: analysis.SideWager, table: Paytable) -> dict[str, Any]:
    return {
        "name": table.name,
        "source": table.source,
        "population": wager.total,
        "rows": [_row_json(r, t.payout, {}) for r, t in zip(wager.rows, table.rows, strict=True)],
        "hit_combinations": sum(r.count for r in wager.rows),
        "hit_frequency": float(wager.hit_frequency),
        "return_to_player": float(1 - wager.house_edge),
        "house_edge": float(wager.house_edge),
        "house_edge_exact": exact(wager.house_edge),
    }


def _meter_json(
    wager: analysis.SideWager,
    table: Paytable,
    meters: Sequence[MeterRates],
    envy: dict[str, Any] | None,
) -> dict[str, Any]:
    specs = {m.name: m for m in meters}
    at_seed = return_at_seed(table, wager, specs)
    long_run = long_run_return(table, wager, specs)
    out: dict[str, Any] = {
        "name": table.name,
        "source": table.source,
        "population": wager.total,
        "rows": [
            _row_json(r, t.payout, specs) for r, t in zip(wager.rows, table.rows, strict=True)
        ],
        "hit_combinations": sum(r.count for r in wager.rows),
        "hit_frequency": float(wager.hit_frequency),
        "return_at_seed": float(at_seed),
        "return_at_seed_exact": exact(at_seed),
        "house_edge_at_seed": float(1 - at_seed),
        "house_edge_at_seed_exact": exact(1 - at_seed),
        "meters": [
            {
                "name": m.name,
                "seed_per_unit": m.seed,
                "reseed_per_unit": m.reseed,
                "primary_percent": m.primary,
                "reserve_percent": m.reserve,
            }
            for m in meters
        ],
        "meter_contribution": float(Fraction(sum(m.primary + m.reserve for m in meters), 100)),
        "long_run_return": float(long_run),
        "long_run_return_exact": exact(long_run),
    }
    if envy is not None:
        out["envy_bonus"] = envy
    return out


def side_wager_sections(progress: Progress = _quiet) -> dict[str, Any]:
    t0 = time.perf_counter()
    five = five_card_hands()
    s = analysis.side_wagers_five_card()
    four_counts = analysis.four_card_class_counts(five)
    five_counts = analysis.five_card_class_counts(five)
    five_card_seconds = time.perf_counter() - t0
    progress(f"crazy 4 poker: five-card side wagers counted in {five_card_seconds:.1f} s")
    t0 = time.perf_counter()
    six = analysis.six_card_bonus_wagers()
    six_seconds = time.perf_counter() - t0
    progress(f"crazy 4 poker: Six Card Bonus counted in {six_seconds:.1f} s")
    five_pop = f"all C(52,5) = {FIVE_CARD_HANDS:,} five-card hands"

    def section(key: str, population: str, unit: str, seconds: float | None,
                paytables: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
        out: dict[str, Any] = {"title": WAGER_TITLES[key], "population": population}
        out["unit"] = unit
        if seconds is not None:  # the meter wagers are counted with Queens Up
            out["seconds"] = round(seconds, 2)
        return {**out, "paytables": paytables}

    meter_unit = (
        "per unit of the fixed wager ($1 or $5); meter rows valued as if the meter stood "
        "at its seed"
    )
    return {
        "queens_up": section(
            "queens_up",
            five_pop + ", best four cards",
            "per unit wagered",
            five_card_seconds,
            {w.name: _fixed_json(w, QUEENS_UP_PAYTABLES[w.name]) for w in s["queens_up"]},
        ),
        "six_card_bonus": section(
            "six_card_bonus",
            f"all C(52,6) = {SIX_CARD_SETS:,} six-card sets (five cards and the Six Card "
            "Bonus card)",
            "per unit wagered",
            six_seconds,
            {w.name: _fixed_json(w, SIX_CARD_BONUS_PAYTABLES[w.name]) for w in six},
        ),
        "four_card_progressive": section(
            "four_card_progressive",
            five_pop + ", best four cards",
            meter_unit,
            None,
            {
                w.name: _meter_json(
                    w,
                    FOUR_CARD_PROGRESSIVES[w.name].paytable,
                    FOUR_CARD_PROGRESSIVES[w.name].meters,
                    _envy_json(FOUR_CARD_PROGRESSIVES[w.name], four_counts),
                )
                for w in s["four_card_progressive"]
            },
        ),
        "five_card_progressive": section(
            "five_card_progressive",
            five_pop + ", all five cards",
            meter_unit,
            None,
            {
                w.name: _meter_json(
                    w,
                    FIVE_CARD_PROGRESSIVES[w.name].paytable,
                    FIVE_CARD_PROGRESSIVES[w.name].meters,
                    _envy_json(FIVE_CARD_PROGRESSIVES[w.name], five_counts),
                )
                for w in s["five_card_progressive"]
            },
        ),
        "hand_bonus": section(
            "hand_bonus",
            five_pop + " (the player's or the dealer's), all five cards",
            meter_unit,
            None,
            {
                POSTED: _meter_json(
                    s["hand_bonus"][0], HAND_BONUS_PAYTABLE, (HAND_BONUS_METER,), None
                )
            },
        ),
    }


#: The report is computed whole: it has no parts to name alone (``--only``).
parse_sections = whole_report


def build_report(
    progress: Progress = _quiet,
    sections: Sequence[str] | None = None,
    previous: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole Crazy 4 Poker report (no parts: ``sections`` is None, ``previous`` unused)."""
    parse_sections(",".join(sections or ()))
    started = time.perf_counter()
    main = main_game_section(progress)
    wagers = side_wager_sections(progress)
    detail = {f"main_game_{k}": v for k, v in main["seconds_detail"].items()}
    detail["five_card_side_wagers"] = wagers["queens_up"]["seconds"]
    detail["six_card_bonus"] = wagers["six_card_bonus"]["seconds"]
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
    d = m["decisions"]
    lines = [
        f"== {TITLE}: {m['title']}",
        f"   {m['population']}",
        f"   house edge {_p(m['house_edge'])} per Ante, {_p(m['house_edge_per_initial_wager'])}"
        f" per Ante + Super Bonus, element of risk {_p(m['element_of_risk'])}",
        f"   fold {_p(d['fold'], 2)}, play 1x {_p(d['play_1x'], 2)}, play 3x "
        f"{_p(d['play_3x'], 2)}; average Play {m['average_play']:.4f} Ante",
        *[f"   * {w}" for w in m["strategy"]["words"]],
    ]
    for key, section in report["wagers"].items():
        lines.append(f"== {TITLE}: {section['title']}")
        for name, e in section["paytables"].items():
            if key in FIXED_WAGERS:
                lines.append(
                    f"   {name:<7} hit frequency {_p(e['hit_frequency'])}   "
                    f"house edge {_p(e['house_edge'])}"
                )
            else:
                lines.append(
                    f"   {name:<7} hit frequency {_p(e['hit_frequency'])}   house edge at seed "
                    f"{_p(e['house_edge_at_seed'])}   long-run return {_p(e['long_run_return'])}"
                )
    lines.append(f"   time {report['seconds']} s")
    return lines


def _rows_table(entry: Mapping[str, Any]) -> list[str]:
    lines = [
        "| hand | pays | combinations | probability | one in | return |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in entry["rows"]:
        pays = r["payout"]
        if r.get("at_seed"):
            pays += f" (at seed: {r['paid_per_unit']:,.0f} for 1)"
        lines.append(
            f"| {r['label']} | {pays} | {r['combinations']:,} | {r['probability']:.8f} | "
            f"{_one_in(r['one_in'])} | {r['return']:.6f} |"
        )
    return lines


def markdown_lines(report: Mapping[str, Any]) -> list[str]:
    """The Crazy 4 Poker section of ``docs/paytables.md`` (headings from level 2)."""
    m = report["main_game"]
    d = m["decisions"]
    s = m["strategy"]["simple"]
    w = report["wagers"]
    out = [
        f"## {TITLE} ({REGULATION})",
        "",
        "From `table/games/crazy_4_poker/crazy_4_poker_report.json`; "
        f"{m['population']}. {report['method']}",
        "",
        "### Main game (Ante, Super Bonus, Play) under the optimal strategy",
        "",
        "| house edge per Ante | per Ante + Super Bonus | element of risk | average Play | "
        "fold | Play 1x | Play 3x |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {_p(m['house_edge'])} | {_p(m['house_edge_per_initial_wager'])} | "
        f"{_p(m['element_of_risk'])} | {m['average_play']:.4f} | {_p(d['fold'], 2)} | "
        f"{_p(d['play_1x'], 2)} | {_p(d['play_3x'], 2)} |",
        "",
        f"Exactly {m['house_edge_exact']} of the Ante (element of risk "
        f"{m['element_of_risk_exact']}). The Ante and Super Bonus are one unit each; the "
        "player folds or plays knowing only their own five cards, the dealer qualifies with "
        f"king high or better ({_p(m['dealer_qualifies'], 2)} of dealer hands). **House edge "
        "per Ante**: expected loss of the whole hand per unit of Ante. **Element of risk**: the "
        "same loss per unit of everything wagered (Ante + Super Bonus + average Play). Expected "
        "net per unit of Ante by wager: "
        + ", ".join(
            f"{k.replace('_', ' ')} {v * 100:+.4f}%" for k, v in m["expected_net_by_wager"].items()
        )
        + ".",
        "",
        *spread_markdown([("posted", m["net_distribution"])], "Ante, Super Bonus and Play"),
        "#### Optimal strategy",
        "",
        *[f"* {x}" for x in m["strategy"]["words"]],
        "",
        f"The simple version - Play 3x with {s['play_3x_from']} or better, 1x with "
        f"{s['play_1x_from']} or better, fold the rest - gives a house edge of "
        f"{_p(s['house_edge'])} per Ante ({s['cost'] * 100:.5f}% more than the optimum).",
        "",
        "Super Bonus (§657a.12(b)), paid on a straight or better whatever the dealer holds, "
        "pushes below a straight unless the hand loses to a qualifying dealer:",
        "",
        "| hand | pays | combinations | probability | return |",
        "| --- | ---: | ---: | ---: | ---: |",
        *[
            f"| {r['label']} | {r['payout']} | {r['combinations']:,} | {r['probability']:.8f} "
            f"| {r['return']:.6f} |"
            for r in m["super_bonus_rows"]
        ],
        "",
        "### Queens Up and Six Card Bonus",
        "",
        "| wager | table | hit frequency | house edge |",
        "| --- | --- | ---: | ---: |",
    ]
    for key in FIXED_WAGERS:
        for name, e in w[key]["paytables"].items():
            out.append(
                f"| {w[key]['title']} | {name} | {_p(e['hit_frequency'])} | {_p(e['house_edge'])} |"
            )
    out += [
        "",
        "Queens Up is lost on a fold (§657a.11(b)(1)), and so are the Super Bonus, the "
        "progressive and the Hand Bonus; "
        + (
            "the optimal strategy folds no hand any of them pays (checked hand by hand), so "
            "these are their figures as played."
            if not any(m["folded_hands_a_lost_wager_would_pay"].values())
            else "the optimal strategy folds some hands they pay: "
            + ", ".join(
                f"{k} {n:,}" for k, n in m["folded_hands_a_lost_wager_would_pay"].items() if n
            )
            + " hands."
        )
        + " The Six Card Bonus stays in action after a fold (§657a.11(b)(3)).",
        "",
        "### Progressives and the Five Card Hand Bonus, at the seeded meter",
        "",
        "Rows paying a percentage of a meter are valued **as if the meter always stood at its "
        "seed** (per $1 of the fixed wager, the seed the rules give; a $5 wager's meters are "
        "five times larger): *return at seed* and *house edge at seed*. The progressive meters "
        "reseed at their seed, so they never stand lower; the Hand Bonus meter reseeds at $0 "
        "plus its reserve and can. The meters grow by the listed share of every wager "
        "(primary + reserve) and everything on a meter is paid out in the end, so over an "
        "endless run the meter rows pay back exactly that share plus the house's reseeds after "
        "each 100% payout: *long-run return* (the cents rounding leaves on a meter ignored). "
        "The Envy Bonus is paid by the house on top: the column gives its expected value per "
        "unit of the wager for each other player's box at the table. Magic Card and Lucky "
        "Bonus (off unless the Rules Submission enables them) are not included.",
        "",
        "| wager | table | hit frequency | return at seed | house edge at seed | meter share "
        "| long-run return | Envy Bonus per other box |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key in METER_WAGERS:
        for name, e in w[key]["paytables"].items():
            envy = e.get("envy_bonus")
            envy_text = f"{envy['expected_per_other_box']:.6f}" if envy else "-"
            out.append(
                f"| {w[key]['title']} | {'-' if name == POSTED else name} | "
                f"{_p(e['hit_frequency'])} | {_p(e['return_at_seed'])} | "
                f"{_p(e['house_edge_at_seed'])} | {_p(e['meter_contribution'], 0)} | "
                f"{_p(e['long_run_return'])} | {envy_text} |"
            )
    out += [
        "",
        "The Five Card Hand Bonus on the dealer's hand has the same hand frequencies, but a box "
        "that folds loses it (house interpretation 3), which the table above does not count.",
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
        "*return*: probability x net winnings per unit staked (a meter row at its seed), so a "
        "table's expected net is the sum of its rows' returns minus the probability of losing.",
    ]
    for key, section in w.items():
        out += ["", f"#### {section['title']}", "", f"Population: {section['population']}."]
        for name, e in section["paytables"].items():
            label = "the posted table" if name == POSTED else f"table {name}"
            out += ["", f"**{label}** ({e['source']})", "", *_rows_table(e), ""]
            if key in FIXED_WAGERS:
                out.append(
                    f"Hit frequency {_p(e['hit_frequency'])}, house edge {_p(e['house_edge'])} "
                    f"(exactly {e['house_edge_exact']})."
                )
            else:
                meters = ", ".join(
                    f"{x['name'].replace('_', ' ')} seed {x['seed_per_unit']:,} / reseed "
                    f"{x['reseed_per_unit']:,} per unit, {x['primary_percent']}% + "
                    f"{x['reserve_percent']}% reserve"
                    for x in e["meters"]
                )
                out.append(
                    f"Hit frequency {_p(e['hit_frequency'])}; return at seed "
                    f"{_p(e['return_at_seed'])}, long-run return {_p(e['long_run_return'])}. "
                    f"Meters: {meters}."
                )
                if "envy_bonus" in e:
                    out.append(
                        "Envy Bonus per other player's box: "
                        + ", ".join(
                            f"{r['hand'].replace('_', ' ')} {r['paid_per_unit']:,.0f} per unit "
                            f"(p = {r['probability']:.8f})"
                            for r in e["envy_bonus"]["rows"]
                        )
                        + f"; {e['envy_bonus']['expected_per_other_box']:.6f} per unit."
                    )
    return out
