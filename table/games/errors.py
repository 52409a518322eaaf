"""Domain errors raised by the engine.

Every refusal carries a stable machine-readable ``code`` (sent to clients in error
frames) and a plain-words ``message`` (shown to people).
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every refusal the engine makes."""

    code: str = "engine_error"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidInput(EngineError):
    """Malformed data: an unknown card, a wrong card count, a negative stake."""


class RuleViolation(EngineError):
    """A well-formed command that the rules forbid now (wrong phase, out of turn, limits)."""
