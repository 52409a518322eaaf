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
from table.games import game as game_named
from table.games.base import VOID, Actor
from table.models import (
    DealerAssignment,
    ProgressiveMeter,
    Round,
    RoundEvent,
    RulesSubmission,
    Table,
)

from .conftest import balance, make_player

User = get_user_model()


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
