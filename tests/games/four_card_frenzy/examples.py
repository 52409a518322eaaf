"""Four Card Frenzy's Rules Submissions for the tests that play it (its own, and the platform's
service tests that still play it by name)."""

from __future__ import annotations

from typing import Any


def fcf_choices(**overrides: Any) -> dict[str, Any]:
    """A Four Card Frenzy Rules Submission's stored choices: the game's default rules but
    ``overrides`` (``TableRules``' own names), as the game writes them (``rules_to_dict``)."""
    from dataclasses import replace

    from table.games.four_card_frenzy.game import GAME
    from table.games.four_card_frenzy.rules import TableRules

    return GAME.rules_to_dict(replace(TableRules(), **overrides))


def fcf_rules(name: str, **overrides: Any) -> Any:
    """A Four Card Frenzy Rules Submission named ``name`` with :func:`fcf_choices`."""
    from table.models import RulesSubmission

    return RulesSubmission.objects.create(
        name=name, game="four_card_frenzy", choices=fcf_choices(**overrides)
    )
