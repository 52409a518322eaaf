"""Ante Pair: a small game that exists only for the tests, to prove that a game is one package.

An Ante, then Play (equal to the Ante) or fold against the dealer's five cards, and a Pair
side wager that pays 1 to 1 on a pair or better. It lives under ``tests/`` and is registered
only by the tests that play it (:func:`table.games.register` with :data:`ENTRY`): no platform
file names it, yet the lobby, the felt, the console, the admin, recall and the paytable
report show it. Its rules are written for this test, not a regulation's.
"""

from pathlib import Path

from table.games.entry import GameEntry

ENTRY = GameEntry(
    name="ante_pair",
    title="Ante Pair",
    adapter="tests.platform.ante_pair.game",
    report="tests.platform.ante_pair.report",
    report_file=str(Path(__file__).resolve().parent / "report.json"),
    aliases=("ap",),
    order=50,
)
