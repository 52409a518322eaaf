"""Four Card Frenzy (58 Pa. Code ch. 684a) as a game of the platform.

Pure, typed Python with no Django (``mypy --strict``): :mod:`.hands` (four-card values and the
bonus classes, §684a.6), :mod:`.paytables` (every §684a.12 and manufacturer paytable as data),
:mod:`.settlement` (settling a dealt round), :mod:`.rules` (the Rules Submission's choices),
:mod:`.round` (the round state machine), :mod:`.contract` (the ``settle_round`` JSON
contract), :mod:`.analysis` (exact mathematics by enumeration) and :mod:`.game`, which puts
the game behind the platform's :class:`~table.games.base.Game` interface. The cards, the
virtual shoe, the errors and the event types every game shares are in ``table/games/``.
"""
