"""Four Card Frenzy (58 Pa. Code ch. 684a) as a game of the platform.

The pure engine is still in ``table/engine`` (where the game was first written; a later step
moves it here). :mod:`.game` wraps it in the platform's :class:`~table.games.base.Game`
interface.
"""
