"""The game tables' service tests' helpers (tests/games/<game>/services/, and the tests here
for every game): a table of a game under its default rules, the round's state, what a refused
command must leave as it was, the books balanced, the voids the dealer's console offers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from table import audit, ledger, meters, services
from table.games import ENTRIES
from table.games import game as game_named
from table.games.base import BET, FINISHED_PHASES, VOID, Actor, Amount
from table.models import (
    DealerAssignment,
    ProgressiveMeter,
    Round,
    RoundEvent,
    RulesSubmission,
    Table,
)
from tests.platform.ante_pair import ENTRY as TEST_GAME

from .conftest import balance, make_player

User = get_user_model()

#: Every game the registry finds, and the tests' own (tests/platform/ante_pair): a platform
#: test over these covers a game added later too (a module that uses it registers the tests'
#: own game with conftest's ``the_tests_own_game``).
EVERY_GAME = sorted({*ENTRIES, TEST_GAME.name})


def make_table(name: str, game: Any, **choices: Any) -> tuple[Table, Any]:
    """A table of ``game`` under its default rules (with ``choices`` changed), its bankroll
    and a dealer assigned to it."""
    stored = {**game.rules_to_dict(game.default_rules()), **choices}
    rules = RulesSubmission.objects.create(name=f"{name} rules", game=game.name, choices=stored)
    table = Table.objects.create(name=name, rules=rules, is_test=True)  # drills allowed
    ledger.table_bankroll(table)
    dealer = User.objects.create_user(f"dealer-{name}", password="pw")
    dealer.user_permissions.add(
        Permission.objects.get(codename="deal_table", content_type__app_label="table")
    )
    DealerAssignment.objects.create(table=table, dealer=dealer)
    return table, User.objects.get(pk=dealer.pk)


def state(table: Table) -> Any:
    table.refresh_from_db()
    row = Round.objects.get(pk=table.current_round_id)
    return game_named(row.game).from_dict(row.state)


def required_stake(table: Table, user: Any, box: int) -> Amount:
    """The wager a box's bet needs (an Ante), as the player's bet move offers it now."""
    [bet] = [
        m
        for m in game_named(table.rules.game).moves(state(table), Actor.player(user.username))
        if m.name == BET and m.box == box
    ]
    return next(a for a in bet.amounts if a.required)


def play_turns(table: Table, players: tuple[Any, ...]) -> None:
    """Each player's moves of a dealt round in turn, as the felt offers them (a choice that
    stays in the hand, not a fold: what the move offers first otherwise), until none is due."""
    g = game_named(table.rules.game)
    for _ in range(50):
        due = [
            (user, move)
            for user in players
            for move in g.moves(state(table), Actor.player(user.username))
            if move.choices
        ]
        if not due:
            return
        user, move = due[0]
        choice = next((c for c in move.choices if "fold" not in c.label.lower()), move.choices[0])
        services.act(table.pk, user, move.name, move.box or 1, dict(choice.args))
    raise AssertionError("the players' turns never ended")


def play_out(table: Table, dealer: Any, players: tuple[Any, ...]) -> None:
    """A dealt round to its end as the consoles would play it: the players' turns
    (:func:`play_turns`), then the reveal and the settlement."""
    play_turns(table, players)
    services.reveal(table.pk, dealer)
    services.settle(table.pk, dealer)
    assert game_named(table.rules.game).status(state(table)).phase in FINISHED_PHASES


def snapshot(table: Table, *users: Any) -> tuple[Any, ...]:
    """Everything a refused command must leave as it was."""
    table.refresh_from_db()
    row = Round.objects.filter(pk=table.current_round_id).values_list("state", flat=True).first()
    return (
        table.version,
        table.last_hash,
        RoundEvent.objects.filter(table=table).count(),
        row,
        tuple(balance(u) for u in users),
        tuple(ProgressiveMeter.objects.order_by("pk").values_list("amount", "reserve")),
    )


def refused(code: str, table: Table, users: tuple[Any, ...], command: Callable[[], Any]) -> None:
    before = snapshot(table, *users)
    with pytest.raises(services.ServiceError) as info:
        command()
    assert info.value.code == code, info.value.message
    assert info.value.message
    assert snapshot(table, *users) == before


def books_balance(table: Table) -> None:
    assert ledger.verify() == []
    assert meters.verify() == []
    assert audit.verify_chain(table.pk).broken is None


def standing(meter: ProgressiveMeter) -> tuple[int, int]:
    meter.refresh_from_db()
    return meter.amount, meter.reserve


def void_event(table: Table) -> RoundEvent:
    return RoundEvent.objects.filter(table=table, kind="round_void").get()


def offered(table: Table) -> list[str]:
    """The voids the dealer's console offers now (the dealer's moves in the round view)."""
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    g = game_named(row.game)
    return [
        c.args["reason"]
        for m in g.moves(g.from_dict(row.state), Actor.dealer())
        if m.name == VOID
        for c in m.choices
    ]


def tamper(table: Table, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the stored round as a miscounted deck would have it (the virtual shoe deals 52)."""
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    change(row.state)
    row.save()


def lose_a_stub_card(stored: dict[str, Any]) -> None:
    stored["stub"] = stored["stub"][1:]


def every_offered_void_is_accepted(table: Table, dealer: Any) -> int:
    """Each void the dealer's moves offer now, sent as the console sends it, is accepted:
    tried in a savepoint, rolled back."""
    row = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id)
    g = game_named(row.game)
    rnd = g.from_dict(row.state)
    tried = 0
    for move in g.moves(rnd, Actor.dealer()):
        if move.name != VOID:
            continue
        for choice in move.choices:
            savepoint = transaction.savepoint()
            try:
                services.void_round(table.pk, choice.args["reason"], dealer)
                assert Round.objects.get(pk=row.pk).phase == "void"
            finally:
                transaction.savepoint_rollback(savepoint)
            tried += 1
    return tried


def voids_tried(name: str) -> dict[str, int]:
    """How many voids the dealer's moves offer (each accepted) at a table of the game ``name``
    under its default rules with its meters linked: while betting, closed, in the decisions,
    and with a stub count that shows a miscount."""
    from table.demo import link_meters

    g = game_named(name)
    table, dealer = make_table(name, g)
    link_meters(table, table.rules)
    alice = make_player("alice")
    services.sit(table.pk, alice, 1)
    services.open_betting(table.pk, dealer)
    services.act(table.pk, alice, "bet", 1, {"ante": 10_00})
    tried = {"betting": every_offered_void_is_accepted(table, dealer)}
    services.no_more_bets(table.pk, dealer)
    tried["closed"] = every_offered_void_is_accepted(table, dealer)
    services.deal(table.pk, dealer)
    tried["decisions"] = every_offered_void_is_accepted(table, dealer)
    tamper(table, lose_a_stub_card)  # a stub count that shows a miscount
    tried["miscount"] = every_offered_void_is_accepted(table, dealer)
    return tried
