"""One platform minimum for every game's clocks (issue 23: one game dealt with a 4 s decision
clock where the others refused below 5): ``MIN_CLOCK_SECONDS``, held to every
Rules Submission field of kind ``seconds`` of every game, so a table under such rules does not
open."""

from __future__ import annotations

import pytest

from table import services
from table.games import GAMES
from table.games import game as game_named
from table.games.base import MIN_CLOCK_SECONDS
from table.models import RulesSubmission

from .tables import make_table

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_clock_of_every_game_is_held_to_the_platform_minimum(name: str) -> None:
    game = game_named(name)
    base = game.rules_to_dict(game.default_rules())
    clocks = [f.name for f in game.rules_fields() if f.kind == "seconds"]
    assert clocks, f"{name} has no clock"
    for clock in clocks:
        short = RulesSubmission(
            name="short", game=name, choices={**base, clock: MIN_CLOCK_SECONDS - 1}
        )
        problems = dict(short.game_problems())
        assert clock in problems, (clock, problems)
        assert str(MIN_CLOCK_SECONDS) in problems[clock]
        enough = RulesSubmission(name="ok", game=name, choices={**base, clock: MIN_CLOCK_SECONDS})
        assert enough.game_problems() == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_table_with_a_clock_under_the_minimum_does_not_open(name: str) -> None:
    game = game_named(name)
    table, dealer = make_table(f"{name} fast", game)
    rules = table.rules
    clock = next(f.name for f in game.rules_fields() if f.kind == "seconds")
    rules.choices = {**rules.choices, clock: MIN_CLOCK_SECONDS - 1}
    rules.save()
    with pytest.raises(services.ServiceError) as info:
        services.open_betting(table.pk, dealer)
    assert info.value.code == "bad_rules"
    assert f"at least {MIN_CLOCK_SECONDS} seconds" in info.value.message
