"""Five Card Hi-Lo (58 Pa. Code ch. 663a): the pure engine.

- :mod:`.hands` point values, the player's settings and their legality, the house way
- :mod:`.poker` five-card poker ranks for the Poker Bonus
- :mod:`.paytables` §663a.12 as data (Ante Bonus A-D, Tie, Poker Bonus A/B)
- :mod:`.settlement` Ante/Play, Ante Bonus, Tie, Poker Bonus; folds; orders of play
- :mod:`.rules` the Rules Submission's choices
- :mod:`.irregularities` §663a.13 and the virtual shoe's deal
- :mod:`.contract` the ``settle_round`` JSON contract
- :mod:`.round` one round as a state machine (betting to settlement, void), shaped like
  Four Card Frenzy's; :mod:`.view` what each viewer may see of it and may do
- :mod:`.enumeration`, :mod:`.analysis` exact figures by value classes
"""

from table.games.entry import DemoTable, GameEntry

ENTRY = GameEntry(
    name="five_card_hi_lo",
    title="Five Card Hi-Lo",
    adapter="table.games.five_card_hi_lo.game",
    report="table.games.five_card_hi_lo.report",
    report_file="five_card_hi_lo_report.json",
    demo=DemoTable("Hi-Lo 1", "Five Card Hi-Lo demo"),
    aliases=("hilo", "hi_lo"),
    order=1,
    report_order=2,
)
