"""``manage.py bench_commands``: CPU time and statements of each command, per game.

See :mod:`bench.commands`. Example: ``manage.py bench_commands --rounds 30`` on the configured
database (every registered game; ``--games`` names some). Every move is played as a felt
plays it, from the player's round view (the bench names no game).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from bench.commands import Costs, timed
from table import duties, ledger, meters, services
from table.demo import dealer_permission
from table.games import ENTRIES, game
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
    for spec in game(name).meters(rules.game_rules()):
        kind, paytable, wager = spec.pool.split(":")
        found = ProgressiveMeter.objects.filter(name=f"Command bench {spec.pool}").first()
        if found is None:
            found = meters.create_meter(f"Command bench {spec.pool}", kind, paytable, int(wager))
        found.tables.add(table)
    return table, dealer, players


def move_of(table: Table, player: Any, box: int, names: tuple[str, ...]) -> dict[str, Any] | None:
    """The first of the box's moves named ``names`` the player's round view offers now
    (read untimed), as a felt finds it."""
    from table.snapshot import round_view

    view = round_view(table.pk, player) or {}
    return next((m for m in view.get("moves", []) if m["move"] in names and m["box"] == box), None)


def bet_args(move: dict[str, Any], optional: bool = False) -> dict[str, Any]:
    """The required wagers (the Ante) at :data:`ANTE` within their limits; with ``optional``
    every optional wager too, at its lowest (the progressive meters are then fed each round,
    as ``bench_load``'s bots feed them half the time each); else no side wager."""
    args = {
        a["arg"]: min(max(ANTE, a["low"]), a["high"]) for a in move["amounts"] if a["required"]
    }
    if optional:
        args.update({a["arg"]: a["low"] for a in move["amounts"] if not a["required"]})
    return args


def bet(table: Table, player: Any, box: int, optional: bool = False) -> Any:
    move = move_of(table, player, box, ("bet",))
    if move is None:
        raise CommandError(f"box {box}: no bet offered")
    args = bet_args(move, optional)
    return lambda: services.act(table.pk, player, "bet", box, args, publish=False)


def turn(table: Table, player: Any, box: int) -> tuple[str, Any] | None:
    """The box's turn, if its view offers one: a decision (the first choice past the first,
    which folds: the least it may commit) or a setting (the first offered)."""
    move = move_of(table, player, box, ("decide", "set_hands"))
    if move is None or not move["choices"]:
        return None
    choices = move["choices"]
    args = choices[1 if move["move"] == "decide" and len(choices) > 1 else 0]["args"]
    name = move["move"]
    return name, lambda: services.act(table.pk, player, name, box, args, publish=False)


def turns(costs: Costs, players: dict[int, Any], table: Table, limit: int = 6) -> None:
    """Every box's turns in the order the game asks for them (decisions, then whatever the
    game asks for after them: its settings), each timed as its move's kind."""
    for _ in range(limit * limit):
        due = next((found for box, p in players.items() if (found := turn(table, p, box))), None)
        if due is None:
            return
        timed(costs, *due)
    raise CommandError("the boxes' turns never ended")


def play_rounds(name: str, rounds: int, optional: bool = False) -> Costs:
    table, dealer, players = seat_table(name)
    costs = Costs()
    t = table.pk
    for _ in range(rounds):
        timed(costs, "open_betting", lambda: services.open_betting(t, dealer, publish=False))
        for box, player in players.items():
            timed(costs, "bet", bet(table, player, box, optional))
        timed(costs, "no_more_bets", lambda: services.no_more_bets(t, dealer, publish=False))
        timed(costs, "deal", lambda: services.deal(t, dealer, publish=False))
        turns(costs, players, table)
        timed(costs, "reveal", lambda: services.reveal(t, dealer, publish=False))
        timed(costs, "settle", lambda: services.settle(t, dealer, publish=False))
    return costs


class Command(BaseCommand):
    help = "CPU time and SQL statements of each command of a round, per game (medians)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--rounds", type=int, default=30)
        parser.add_argument(
            "--games", default=",".join(ENTRIES), help="comma-separated (default: every game)"
        )
        parser.add_argument(
            "--optional",
            action="store_true",
            help="every optional wager too, at its lowest (feeds the progressive meters)",
        )

    def handle(self, *args: Any, **o: Any) -> None:
        db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
        self.stdout.write(f"database {db}; {o['rounds']} rounds per game; medians per command")
        for name in [g.strip() for g in o["games"].split(",") if g.strip()]:
            costs = play_rounds(name, o["rounds"], o["optional"])
            self.stdout.write(f"{name}")
            self.stdout.write(f"  {'command':<14} {'CPU ms':>8} {'wall ms':>8}  statements")
            for kind, cpu, wall, statements in costs.rows():
                self.stdout.write(f"  {kind:<14} {cpu:>8.2f} {wall:>8.2f}  {statements}")
