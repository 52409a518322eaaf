"""``manage.py bench_commands``: CPU time and statements of each command, per game.

See :mod:`bench.commands`. Example: ``manage.py bench_commands --rounds 30 --games
four_card_frenzy,crazy_4_poker,five_card_hi_lo`` on the configured database.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from bench.commands import FOUR_CARD_FRENZY, Costs, timed
from table import duties, ledger, services
from table.demo import dealer_permission
from table.management.commands.bench_load import bench_rules
from table.models import ProgressiveMeter, Seat, Table

ANTE = 10_00


def user(name: str, dealer: bool = False) -> Any:
    found, created = get_user_model().objects.get_or_create(username=name)
    if created:
        found.set_unusable_password()
        found.save(update_fields=["password"])
    if dealer:
        found.user_permissions.add(dealer_permission())
        found = get_user_model().objects.get(pk=found.pk)  # forget the permission cache
    return found


def seat_table(name: str) -> tuple[Table, Any, dict[int, Any]]:
    """A table of the game with six seated players (funded) and an assigned dealer."""
    rules = bench_rules(name)  # the same rules as bench_load's tables
    table, _ = Table.objects.get_or_create(
        name=f"Command bench ({name})", defaults={"rules": rules}
    )
    dealer = user("bench-cmd-dealer", dealer=True)
    if not duties.can_deal(dealer, table.pk):
        duties.assign_dealer(table.pk, dealer, None)
    services.fail_unfinished_round(table.pk)
    Seat.objects.filter(table=table).delete()
    players = {}
    for box in range(1, 7):
        player = user(f"bench-cmd-{name[:4]}-{box}")
        if ledger.player_account(player).balance < 1_000_00:
            ledger.credit(player, 100_000_00, "bench play money")
        services.sit(table.pk, player, box, publish=False)
        players[box] = player
    if name != FOUR_CARD_FRENZY:
        from table import meters
        from table.games import game

        for spec in game(name).meters(rules.game_rules()):
            kind, paytable, wager = spec.pool.split(":")
            found = ProgressiveMeter.objects.filter(name=f"Command bench {spec.pool}").first()
            if found is None:
                found = meters.create_meter(
                    f"Command bench {spec.pool}", kind, paytable, int(wager)
                )
            found.tables.add(table)
    return table, dealer, players


def bet(name: str, table: Table, player: Any, box: int) -> Any:
    if name == FOUR_CARD_FRENZY:
        return services.place_bets(table.pk, player, box, {"ante": ANTE}, publish=False)
    return services.act(table.pk, player, "bet", box, {"ante": ANTE}, publish=False)


def decision(name: str, table: Table, player: Any, box: int) -> Any:
    if name == FOUR_CARD_FRENZY:
        return services.decide(table.pk, player, box, 1, publish=False)
    play: Any = ANTE if name == "crazy_4_poker" else True
    return services.act(table.pk, player, "decide", box, {"play": play}, publish=False)


def setting(table: Table, player: Any, box: int) -> Any:
    """Hi-Lo: the first setting the player's move offers (from their round view, untimed)."""
    from table.snapshot import round_view

    view = round_view(table.pk, player) or {}
    move = next(
        (m for m in view.get("moves", []) if m["move"] == "set_hands" and m["box"] == box), None
    )
    if move is None:
        return None
    args = move["choices"][0]["args"]
    return lambda: services.act(table.pk, player, "set_hands", box, args, publish=False)


def in_turn(costs: Costs, kind: str, players: dict[int, Any], attempt: Any, limit: int = 6) -> None:
    """Each box's move in the order the game asks for it: a box not yet due is refused
    (untimed: a refused command is not kept) and tried again after the others."""
    due = dict(players)
    for _ in range(limit * limit):
        if not due:
            return
        for box, player in list(due.items()):
            run = attempt(box, player)
            if run is None:
                continue
            try:
                timed(costs, kind, run)
                del due[box]
            except services.ServiceError:
                continue
    raise CommandError(f"{kind}: boxes {sorted(due)} never became due")


def play_rounds(name: str, rounds: int) -> Costs:
    table, dealer, players = seat_table(name)
    costs = Costs()
    t = table.pk
    for _ in range(rounds):
        timed(costs, "open_betting", lambda: services.open_betting(t, dealer, publish=False))
        for box, player in players.items():
            timed(costs, "bet", partial(bet, name, table, player, box))
        timed(costs, "no_more_bets", lambda: services.no_more_bets(t, dealer, publish=False))
        timed(costs, "deal", lambda: services.deal(t, dealer, publish=False))
        in_turn(
            costs,
            "decide",
            players,
            lambda b, p: lambda: decision(name, table, p, b),
        )
        if name == "five_card_hi_lo":
            in_turn(costs, "set_hands", players, lambda b, p: setting(table, p, b))
        timed(costs, "reveal", lambda: services.reveal(t, dealer, publish=False))
        timed(costs, "settle", lambda: services.settle(t, dealer, publish=False))
    return costs


class Command(BaseCommand):
    help = "CPU time and SQL statements of each command of a round, per game (medians)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rounds", type=int, default=30)
        parser.add_argument("--games", default=FOUR_CARD_FRENZY)

    def handle(self, *args: Any, **o: Any) -> None:
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        self.stdout.write(f"database {db}; {o['rounds']} rounds per game; medians per command")
        for name in [g.strip() for g in o["games"].split(",") if g.strip()]:
            costs = play_rounds(name, o["rounds"])
            self.stdout.write(f"{name}")
            self.stdout.write(f"  {'command':<14} {'CPU ms':>8} {'wall ms':>8}  statements")
            for kind, cpu, wall, statements in costs.rows():
                self.stdout.write(f"  {kind:<14} {cpu:>8.2f} {wall:>8.2f}  {statements}")
