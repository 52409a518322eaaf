"""Four Card Frenzy engine: pure, typed Python with no Django (58 Pa. Code ch. 684a).

Modules: :mod:`cards` (cards and deck), :mod:`hands` (four-card values and bonus classes),
:mod:`paytables` (every §684a.12 and manufacturer paytable as data), :mod:`settlement`
(settling a dealt round), :mod:`rules` (the Rules Submission's choices), :mod:`shoe` (the
virtual shuffler and dealing shoe), :mod:`round` (the round state machine) and
:mod:`contract` (the ``settle_round`` JSON contract).
"""

from .errors import EngineError, InvalidInput, RuleViolation

__all__ = ["EngineError", "InvalidInput", "RuleViolation"]
