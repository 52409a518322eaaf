"""Crazy 4 Poker (58 Pa. Code ch. 657a): the pure engine.

* :mod:`.hands` - four-card (Four Card Frenzy's values), five-card and six-card hands (§657a.6)
* :mod:`.paytables` - every paytable, Envy Bonus schedule and meter of §657a.12, as data
* :mod:`.rules` - the Rules Submission's choices, validated; the Play decision (§657a.11(b))
* :mod:`.meters` - meter increments, payouts, reseeds, reserves
* :mod:`.settlement` - "no more bets" and the settlement of a round in §657a.11's order
* :mod:`.irregularities` - §657a.13 as data, the void round, the §657a.10(b) deal
* :mod:`.contract` - the ``settle_round`` JSON contract (CRAZY_4_POKER.md)
* :mod:`.round` - one round as a state machine shaped like Four Card Frenzy's
  (:mod:`table.games.four_card_frenzy.round`): commands with checks, steps of events, transfers and
  meter changes
* :mod:`.view` - what each viewer (owner, other player, spectator, dealer) may see of a round
"""

from table.games.entry import DemoTable, GameEntry

ENTRY = GameEntry(
    name="crazy_4_poker",
    title="Crazy 4 Poker",
    adapter="table.games.crazy_4_poker.game",
    report="table.games.crazy_4_poker.report",
    report_file="crazy_4_poker_report.json",
    demo=DemoTable("Crazy 4 Poker 1", "Crazy 4 Poker demo"),
    aliases=("c4p", "crazy4"),
    order=2,
    report_order=1,
)
