"""Every paytable as posted, copied by hand from the sources (not from the engine).

§684a.12(b)-(f): /work/shared/seeds/000_0ca38af857d46533.txt.
Manufacturer's Appendices A-D: /work/shared/seeds/003_b1988bdc8ade3e42.txt.
Each table is a list of (row as written, payout as written), top to bottom.
"""

from __future__ import annotations

Posted = list[tuple[str, str]]

# §684a.12(b)
ODDS: Posted = [
    ("Four aces", "200 to 1"),
    ("Any other four-of-a-kind", "30 to 1"),
    ("Straight flush", "15 to 1"),
    ("Three-of-a-kind", "2 to 1"),
    ("Flush", "3 to 2"),
    ("Straight", "1 to 1"),
]

# §684a.12(c)
BAD_BEAT: dict[str, Posted] = {
    "A": [
        ("Four-of-a-kind", "30 to 1"),
        ("Straight flush", "15 to 1"),
        ("Three-of-a-kind", "2 to 1"),
        ("Flush", "3 to 2"),
        ("Straight", "1 to 1"),
    ],
    "B": [
        ("Four-of-a-kind", "100 to 1"),
        ("Straight flush", "30 to 1"),
        ("Three-of-a-kind", "4 to 1"),
        ("Flush", "3 to 1"),
        ("Straight", "2 to 1"),
    ],
    "C": [
        ("Four-of-a-kind", "100 to 1"),
        ("Straight flush", "50 to 1"),
        ("Three-of-a-kind", "4 to 1"),
        ("Flush", "3 to 1"),
        ("Straight", "2 to 1"),
    ],
    "D": [
        ("Four-of-a-kind", "500 to 1"),
        ("Straight flush", "50 to 1"),
        ("Three-of-a-kind", "5 to 1"),
        ("Flush", "4 to 1"),
        ("Straight", "2 to 1"),
    ],
    # Manufacturer's Appendix B (the "Other: Loss" row is a loss, not a payout row)
    "BB-1": [
        ("Quads", "30 to 1"),
        ("Straight Flush", "15 to 1"),
        ("Trips", "2 to 1"),
        ("Flush", "1.5 to 1"),
        ("Straight", "1 to 1"),
    ],
    "BB-2": [
        ("Quads", "100 to 1"),
        ("Straight Flush", "30 to 1"),
        ("Trips", "4 to 1"),
        ("Flush", "3 to 1"),
        ("Straight", "2 to 1"),
    ],
    "BB-3": [
        ("Quads", "100 to 1"),
        ("Straight Flush", "50 to 1"),
        ("Trips", "4 to 1"),
        ("Flush", "3 to 1"),
        ("Straight", "2 to 1"),
    ],
    "BB-4": [
        ("Quads", "500 to 1"),
        ("Straight Flush", "50 to 1"),
        ("Trips", "10 to 1"),
        ("Flush", "3 to 1"),
        ("Straight", "2 to 1"),
    ],
    "BB-5": [
        ("Quads", "500 to 1"),
        ("Straight Flush", "50 to 1"),
        ("Trips", "5 to 1"),
        ("Flush", "4 to 1"),
        ("Straight", "2 to 1"),
    ],
    "BB-6": [
        ("Quads", "500 to 1"),
        ("Straight Flush", "50 to 1"),
        ("Trips", "5 to 1"),
        ("Flush", "4 to 1"),
        ("Straight", "3 to 1"),
    ],
}

# §684a.12(d) and the manufacturer's Appendix D
PRIME: dict[str, Posted] = {
    "A": [("All five of the same color", "6 to 1"), ("Four of the same color", "1 to 1")],
    "B": [("All five of the same color", "5 to 1"), ("Four of the same color", "1 to 1")],
    "Prime-1": [("Five Cards Same Color", "6 to 1"), ("Four Cards Same Color", "1 to 1")],
    "Prime-2": [("Five Cards Same Color", "5 to 1"), ("Four Cards Same Color", "1 to 1")],
}

_PA_FCB_ROWS = [
    "Four aces",
    "Any other four-of-a-kind",
    "Royal flush",
    "Straight flush",
    "Three aces",
    "Any other three-of-a-kind",
    "Flush",
    "Straight",
    "Two pair—other than two aces and two queens",
    "Two aces and two queens",
]
# §684a.12(e), column by column as printed
_PA_FCB_COLUMNS = {
    "A": ["50", "50", "40", "40", "8", "8", "4", "3", "2", "1"],
    "B": ["50", "50", "40", "40", "7", "7", "4", "3", "2", "1"],
    "C": ["200", "100", "50", "30", "20", "8", "4", "3", "2", "1"],
    "D": ["200", "100", "50", "40", "20", "7", "4", "3", "2", "1"],
    "E": ["200", "100", "50", "30", "20", "6", "4", "3", "2", "1"],
    "F": ["200", "100", "50", "40", "20", "5", "4", "3", "2", "1"],
    "G": ["200", "100", "50", "40", "20", "6", "4", "3", "2", "1"],
    "H": ["200", "100", "50", "40", "20", "5", "4", "3", "2", "1"],
}
_MF_FCB_ROWS = [
    "Quad Aces",
    "Quads",
    "Royal",
    "Straight Flush",
    "Trip Aces",
    "Trips",
    "Flush",
    "Straight",
    "Two Pair",
    "QQ-AA",
]
# Manufacturer's Appendix C, column by column as printed
_MF_FCB_COLUMNS = {
    "FC-1": ["50", "50", "30", "30", "9", "9", "4", "3", "2", "1"],
    "FC-2": ["50", "50", "40", "40", "8", "8", "4", "3", "2", "1"],
    "FC-3": ["50", "50", "30", "30", "8", "8", "4", "3", "2", "1"],
    "FC-4": ["50", "50", "40", "40", "7", "7", "4", "3", "2", "1"],
    "FC-5": ["200", "100", "50", "30", "20", "8", "4", "3", "2", "1"],
    "FC-6": ["200", "100", "50", "40", "20", "7", "4", "3", "2", "1"],
    "FC-7": ["200", "100", "50", "30", "20", "6", "4", "3", "2", "1"],
    "FC-8": ["200", "100", "50", "40", "20", "5", "4", "3", "2", "1"],
    "FC-9": ["200", "100", "50", "40", "20", "8", "4", "3", "2", "1"],
    "FC-10": ["200", "100", "50", "40", "20", "7", "4", "3", "2", "1"],
    "FC-11": ["200", "100", "50", "40", "20", "6", "4", "3", "2", "1"],
    "FC-12": ["200", "100", "50", "40", "20", "5", "4", "3", "2", "1"],
}
FOUR_CARD_BONUS: dict[str, Posted] = {
    **{
        name: [(row, f"{pay} to 1") for row, pay in zip(_PA_FCB_ROWS, col, strict=True)]
        for name, col in _PA_FCB_COLUMNS.items()
    },
    **{
        name: [(row, f"{pay} to 1") for row, pay in zip(_MF_FCB_ROWS, col, strict=True)]
        for name, col in _MF_FCB_COLUMNS.items()
    },
}

# §684a.12(f)
_ALL_SIX_ROWS = [
    "Royal flush",
    "Straight flush",
    "Four-of-a-kind",
    "Full house",
    "Flush",
    "Straight",
    "Three-of-a-kind",
]
_ALL_SIX_COLUMNS = {
    "A": ["1,000", "200", "50", "25", "20", "10", "5"],
    "B": ["1,000", "200", "50", "25", "15", "10", "5"],
    "C": ["1,000", "200", "100", "20", "15", "9", "8"],
    "D": ["1,000", "200", "100", "20", "15", "10", "7"],
    "E": ["1,000", "200", "50", "20", "15", "10", "5"],
}
ALL_SIX: dict[str, Posted] = {
    name: [(row, f"{pay} to 1") for row, pay in zip(_ALL_SIX_ROWS, col, strict=True)]
    for name, col in _ALL_SIX_COLUMNS.items()
}
ALL_SIX["E"] = [
    ("Six-card royal flush—diamonds", "200,000 to 1"),
    ("Six-card royal flush—hearts, spades or clubs", "20,000 to 1"),
    *ALL_SIX["E"],
]
