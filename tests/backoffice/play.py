"""Generated play through the platform's services, for the back office's tests: tables of
every game with their meters linked, players betting every wager type offered at random
amounts within the limits, deciding and setting hands among the choices their moves offer."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from table import ledger, meters, services
from table.games import game as game_named
from table.games.base import BET, CLOSE_BETTING, DEAL, REVEAL, SETTLE, Actor
from table.games.driver import choose_args
from table.models import DealerAssignment, ProgressiveMeter, Round, RulesSubmission, Table

User = get_user_model()
STEPS = {
    CLOSE_BETTING: services.no_more_bets,
    DEAL: services.deal,
    REVEAL: services.reveal,
    SETTLE: services.settle,
}


class Source:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self.rng.randrange(n)


def make_table(name: str, game: str, **choices: Any) -> tuple[Table, Any]:
    g = game_named(game)
    stored = {**g.rules_to_dict(g.default_rules()), **choices}
    rules = RulesSubmission.objects.create(name=f"{name} rules", game=game, choices=stored)
    table = Table.objects.create(name=name, rules=rules)
    ledger.table_bankroll(table)
    dealer = User.objects.create_user(f"dealer-{name}", password="pw")
    dealer.user_permissions.add(
        Permission.objects.get(codename="deal_table", content_type__app_label="table")
    )
    DealerAssignment.objects.create(table=table, dealer=dealer)
    for spec in g.meters(rules.game_rules()):
        kind, paytable, wager = spec.pool.split(":")
        found = ProgressiveMeter.objects.filter(name=f"{spec.pool}").first()
        if found is None:
            found = meters.create_meter(spec.pool, kind, paytable, int(wager))
        found.tables.add(table)
    return table, User.objects.get(pk=dealer.pk)


def _state(table: Table) -> Any:
    table.refresh_from_db()
    row = Round.objects.get(pk=table.current_round_id)
    return game_named(row.game).from_dict(row.state)


def play_round(
    table: Table,
    dealer: Any,
    players: dict[str, Any],
    src: Source,
    seats: dict[str, int],
    fold: bool = False,
) -> None:
    """One round: every player bets one box (a bet move's amounts, every optional one half the
    time), then decisions and settings picked among those offered, the dealer's steps. With
    ``fold`` a player bets only the required wagers, at the minimum, and folds whenever a
    move offers it (a choice labelled "Fold...")."""
    services.open_betting(table.pk, dealer)
    g = game_named(table.rules.game)
    for name, user in players.items():
        bets = [
            m
            for m in g.moves(_state(table), Actor.player(name))
            if m.name == BET and m.box == seats[name]
        ]
        if bets:
            move = bets[src.randbelow(len(bets))]
            args = choose_args(move, src)
            if fold:  # the required wagers only, at the table's minimum
                args = {a.arg: a.low for a in move.amounts if a.required}
            services.act(table.pk, user, BET, move.box, args)
    for _ in range(100):
        state = _state(table)
        if g.status(state).finished:
            return
        acted = False
        for name, user in players.items():
            moves = [
                m for m in g.moves(state, Actor.player(name)) if m.name not in (BET, "withdraw")
            ]
            if moves:
                move = moves[0]
                args = choose_args(move, src)
                folds = [c for c in move.choices if c.label.lower().startswith("fold")]
                if fold and folds:
                    args = dict(folds[0].args)
                services.act(table.pk, user, move.name, move.box, args)
                acted = True
                break
        if acted:
            continue
        steps = [m for m in g.moves(state, Actor.dealer("d")) if m.name in STEPS]
        if not steps:
            raise RuntimeError(f"stuck in {g.status(state).phase}")
        STEPS[steps[0].name](table.pk, dealer)
    raise RuntimeError("round never finished")
