"""Four Card Frenzy (58 Pa. Code ch. 684a) as a game of the platform.

Pure, typed Python with no Django (``mypy --strict``): :mod:`.hands` (four-card values and the
bonus classes, §684a.6), :mod:`.paytables` (every §684a.12 and manufacturer paytable as data),
:mod:`.settlement` (settling a dealt round), :mod:`.rules` (the Rules Submission's choices),
:mod:`.round` (the round state machine), :mod:`.contract` (the ``settle_round`` JSON
contract), :mod:`.analysis` (exact mathematics by enumeration) and :mod:`.game`, which puts
the game behind the platform's :class:`~table.games.base.Game` interface. The cards, the
virtual shoe, the errors and the event types every game shares are in ``table/games/``.
"""

from table.games.entry import DemoTable, GameEntry

ENTRY = GameEntry(
    name="four_card_frenzy",
    title="Four Card Frenzy",
    adapter="table.games.four_card_frenzy.game",
    report="table.games.four_card_frenzy.report",
    report_file="paytable_report.json",
    demo=DemoTable(
        "Frenzy 1",
        "Pennsylvania demo",
        {
            "jurisdiction": "pennsylvania",
            "bad_beat_paytable": "B",
            "prime_paytable": "A",
            "four_card_bonus_paytable": "C",
            "all_six_paytable": "E",
            "payout_limit": 100_000_00,
            "adjacent_boxes": 2,
            "ante_min": 5_00,
            "ante_max": 500_00,
            "decision_seconds": 20,
            "betting_seconds": 15,
        },
    ),
    aliases=("fcf", "frenzy"),
    order=0,
    # Its rounds and settle_round documents (RULES.md) came before the "game" key.
    unkeyed=True,
    default=True,
    bench="bench.games.four_card_frenzy",
)
