"""What staff see of a Four Card Frenzy Rules Submission beside its choices (the admin draws
these contexts in the game's templates, in this package's ``templates/``): the
signs as posted (§684a.2(b)(4),(5)) with the limits and the payout limit's floor, every
paytable to choose from by jurisdiction, and the paytable mathematics of issue #7 (the
saved choices' figures, the figures of every option for the live preview of unsaved ones,
and the page comparing every paytable), read from this package's ``paytable_report.json``.

Plain values only (no Django): the platform renders them.
"""

from __future__ import annotations

from typing import Any, Final

from table.games.base import StaffPart, dollars
from table.games.errors import InvalidInput

from .paytables import ODDS_PAYTABLE, PAYTABLES, PaytableKind, paytable
from .rules import (
    JURISDICTION_NAMES,
    PAYTABLE_FIELDS,
    Jurisdiction,
    TableRules,
    jurisdiction_paytables,
    parse_jurisdiction,
)

#: The templates of the parts and pages (in this package's ``templates/``: table/game_files.py).
TEMPLATES: Final = "admin/table/four_card_frenzy/"
#: The staff pages (:meth:`FourCardFrenzy.staff_page`): the comparison of every paytable, and
#: the figures of every option the live preview reads (``static/table/admin_rules.js``).
REPORT_PAGE: Final = "paytable-report"
FIGURES_PAGE: Final = "paytable-figures"


def posted_sign_context(rules: TableRules) -> dict[str, Any]:
    """What the posted signs show (§684a.2(b)(4),(5)): each paytable the submission selects,
    the wagers offered and their limits, the payout limit."""
    signs = [
        {
            "title": "Odds Wager (player's hand equal to or better than the dealer's)",
            "name": "Odds",
            "source": ODDS_PAYTABLE.source,
            "rows": ODDS_PAYTABLE.as_posted(),
        }
    ]
    selected = [
        (
            "Odds Wager bad beat (player's straight or better loses)",
            PaytableKind.BAD_BEAT,
            rules.bad_beat_paytable,
            True,
        ),
        ("Prime Wager", PaytableKind.PRIME, rules.prime_paytable, rules.offers_prime),
        (
            "Four Card Bonus Wager",
            PaytableKind.FOUR_CARD_BONUS,
            rules.four_card_bonus_paytable,
            rules.offers_four_card_bonus,
        ),
        ("All-Six Bonus Wager", PaytableKind.ALL_SIX, rules.all_six_paytable, rules.offers_all_six),
    ]
    notes: list[str] = []
    for title, kind, name, offered in selected:
        if not offered:
            notes.append(f"{title}: not offered at this table.")
            continue
        try:
            table = paytable(kind, name)
        except InvalidInput as exc:
            notes.append(f"{title}: {exc.message}")
            continue
        signs.append(
            {
                "title": title,
                "name": f"paytable {table.name}",
                "source": table.source,
                "rows": table.as_posted(),
            }
        )
    limits = [("Ante and Odds (each)", rules.ante_min, rules.ante_max)]
    for wager, label in (
        ("prime", "Prime"),
        ("four_card_bonus", "Four Card Bonus"),
        ("all_six", "All-Six Bonus"),
    ):
        if rules.offers(wager):
            low, high = rules.limits(wager)
            limits.append((label, low, high))
    try:
        floor = dollars(rules.payout_limit_floor())
    except InvalidInput:
        floor = "(choose valid paytables first)"
    try:
        jurisdiction = JURISDICTION_NAMES[parse_jurisdiction(rules.jurisdiction)]
    except InvalidInput:
        jurisdiction = ""
    return {
        "signs": signs,
        "limits": limits,
        "floor": floor,
        "payout_limit": rules.payout_limit,
        "adjacent_boxes": rules.adjacent_boxes,
        "two_decks": rules.two_decks,
        "jurisdiction": jurisdiction,
        "notes": notes,
    }


_KIND_TITLES: Final = (
    (PaytableKind.BAD_BEAT, "Bad beat (Odds Wager)"),
    (PaytableKind.PRIME, "Prime"),
    (PaytableKind.FOUR_CARD_BONUS, "Four Card Bonus"),
    (PaytableKind.ALL_SIX, "All-Six Bonus"),
)


def catalogue_context() -> dict[str, Any]:
    """Every paytable there is to choose from, by wager and jurisdiction."""
    sections = [
        {
            "title": title,
            "groups": [
                {
                    "jurisdiction": JURISDICTION_NAMES[where],
                    "tables": [
                        {"name": n, "source": t.source, "rows": t.as_posted()}
                        for n, t in PAYTABLES[kind].items()
                        if n in jurisdiction_paytables(where, kind)
                    ],
                }
                for where in Jurisdiction
            ],
        }
        for kind, title in _KIND_TITLES
    ]
    return {"sections": sections}


# --- paytable mathematics (issue #7), read from this package's paytable_report.json -------------

_MATH_KINDS: Final = (
    ("bad_beat", "bad_beat_paytable", None, "Ante, Odds and Raise (bad beat table)"),
    ("prime", "prime_paytable", "offers_prime", "Prime"),
    ("four_card_bonus", "four_card_bonus_paytable", "offers_four_card_bonus", "Four Card Bonus"),
    ("all_six", "all_six_paytable", "offers_all_six", "All-Six Bonus"),
)


def _report() -> tuple[dict[str, Any], dict[tuple[str, str], str]]:
    """The committed report, and the reason each flagged table is flagged."""
    from table.paytable_report import load_report

    from .report import flags

    report = load_report()
    return report, {(f["kind"], f["name"]): f["reason"] for f in flags(report)}


def _pct(x: float, places: int = 4) -> str:
    return f"{x * 100:.{places}f}%"


def math_figures() -> dict[str, Any]:
    """Every selectable paytable's precomputed figures, for the live preview of the choices
    being edited (static/table/admin_rules.js): no recomputation, only look-ups."""
    report, flagged = _report()
    figures: dict[str, Any] = {"wagers": [], "jurisdictions": {}}
    for kind, field, offered, title in _MATH_KINDS:
        tables = {}
        for name, entry in report["wagers"][kind]["paytables"].items():
            tables[name] = {
                "house_edge": entry["house_edge"],
                "hit_frequency": entry.get("hit_frequency"),
                "element_of_risk": entry.get("element_of_risk"),
                "house_edge_per_initial_wager": entry.get("house_edge_per_initial_wager"),
                "flag": flagged.get((kind, name), ""),
            }
        figures["wagers"].append(
            {"kind": kind, "field": field, "offered": offered, "title": title, "tables": tables}
        )
    for where in Jurisdiction:
        figures["jurisdictions"][where.value] = {
            "name": JURISDICTION_NAMES[where],
            "tables": {
                field: list(jurisdiction_paytables(where, kind))
                for field, _wager, kind in PAYTABLE_FIELDS
            },
        }
    return figures


def mathematics_context(rules: TableRules) -> dict[str, Any]:
    """House edge, hit frequency and row probabilities of the selected paytables, with a
    warning for any table outside the usual range (computed by exhaustive enumeration); the
    template adds the place of the live preview of unsaved choices."""
    report, flagged = _report()
    parts = []
    for kind, field, offered, title in _MATH_KINDS:
        if offered and not getattr(rules, offered):
            continue
        name = getattr(rules, field)
        entry = report["wagers"][kind]["paytables"].get(name)
        if entry is None:
            continue
        rows = [
            {
                "label": r["label"],
                "payout": r["payout"],
                "probability": f"{r['probability']:.8f}",
                "one_in": f"{r.get('one_in', 0):,.1f}",
                "return": f"{r['return']:.6f}",
            }
            for r in entry.get("rows", [])
        ]
        parts.append(
            {
                "kind": kind,
                "title": title,
                "name": name,
                "entry": entry,
                "rows": rows,
                "warning": flagged.get((kind, name)),
            }
        )
    return {"parts": parts, "report_page": REPORT_PAGE, "figures_page": FIGURES_PAGE}


def report_context() -> dict[str, Any]:
    """Every selectable paytable: hit frequency, house edge, flags, computation times."""
    report, flagged = _report()
    sections = []
    for kind, _field, _offered, title in _MATH_KINDS:
        section = report["wagers"][kind]
        rows = []
        for name, entry in section["paytables"].items():
            rows.append(
                {
                    "name": name,
                    "source": entry.get("source", ""),
                    "hit": _pct(entry["hit_frequency"]),
                    "edge": _pct(entry["house_edge"]),
                    "risk": _pct(entry["element_of_risk"]) if "element_of_risk" in entry else "",
                    "flag": flagged.get((kind, name), ""),
                }
            )
        sections.append(
            {
                "title": title,
                "kind": kind,
                "population": section.get("population", ""),
                "seconds": section.get("seconds"),
                "rows": rows,
                "strategy": next(iter(section["paytables"].values()))
                .get("strategy", {})
                .get("words", []),
            }
        )
    return {"sections": sections, "method": report.get("method", "")}


def staff_parts(rules: TableRules) -> tuple[StaffPart, ...]:
    """The posted signs with the limits and the payout limit's floor, every paytable to
    choose from, and the mathematics of the selected paytables with the live preview."""
    return (
        StaffPart("signs", TEMPLATES + "posted_signs.html", posted_sign_context(rules)),
        StaffPart("reference", TEMPLATES + "paytable_catalogue.html", catalogue_context()),
        StaffPart("mathematics", TEMPLATES + "mathematics.html", mathematics_context(rules)),
    )


def staff_page(name: str) -> StaffPart | None:
    if name == REPORT_PAGE:
        return StaffPart(
            "page", TEMPLATES + "paytable_report.html", report_context(), "Paytable mathematics"
        )
    if name == FIGURES_PAGE:
        return StaffPart("page", "", math_figures())
    return None
