"""The read side's test helpers (tests/services/test_games_read_side.py and each game's own
tests/games/<game>/services/test_read_side.py): a table of a game under its default rules, a
round made through the game interface alone (table/games/driver.py) and stored as the platform
stores it (``Round.state`` is the game's ``to_dict``), its dealer, and the admin's Rules
Submission form filled in with a game's defaults."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from table import ledger
from table.admin.game_rules import form_initial, form_values
from table.games import game
from table.games.base import CLOSE_BETTING, DEAL, Actor, Command
from table.games.driver import TableDriver, place_bets
from table.models import DealerAssignment, Round, RulesSubmission, Seat, Table
from tests.conftest import SeededSource


def game_table(name: str, title: str | None = None) -> Table:
    g = game(name)
    title = title or f"{name} table"
    rules = RulesSubmission.objects.create(
        name=f"{title} rules", game=name, choices=g.rules_to_dict(g.default_rules())
    )
    table = Table.objects.create(name=title, rules=rules)
    ledger.table_bankroll(table)
    return table


def store(table: Table, driver: TableDriver) -> Round:
    """The driver's round as the platform keeps it, made the table's round in play."""
    g = driver.game
    state = driver.state()
    status = g.status(state)
    row = Round.objects.create(
        table=table,
        number=status.number,
        rules_submission=table.rules,
        game=g.name,
        rules=g.rules_to_dict(g.round_rules(state)),
        phase=status.phase,
        state=json.loads(json.dumps(driver.stored)),
        commitment=status.commitment,
        deck_back=status.deck_back,
        void_reason=status.void_reason or "",
    )
    table.current_round = row
    table.save(update_fields=["current_round"])
    return row


def dealt_round(name: str, players: tuple[str, ...]) -> tuple[Table, TableDriver]:
    """A table of ``name`` whose round is dealt and awaits the players' decisions."""
    table = game_table(name)
    g = game(name)
    rng = SeededSource(7)
    driver = TableDriver(g, g.default_rules(), rng)
    driver.open()
    place_bets(driver, players, rng, most=1)
    driver.send(Actor.dealer("dealer"), Command(CLOSE_BETTING))
    driver.send(Actor.dealer("dealer"), Command(DEAL))
    assert g.status(driver.state()).dealt and not g.status(driver.state()).revealed
    for box in g.boxes(driver.state()):
        Seat.objects.get_or_create(
            table=table, box=box.box, defaults={"player": users()[box.player]}
        )
    store(table, driver)
    return table, driver


def users() -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    return {u.username: u for u in get_user_model().objects.all()}


def assign_dealer(table: Table) -> Any:
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="dealer")
    user.user_permissions.add(
        Permission.objects.get(codename="deal_table", content_type__app_label="table")
    )
    DealerAssignment.objects.get_or_create(table=table, dealer=user)
    return get_user_model().objects.get(pk=user.pk)


def boss_client() -> Client:
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.create_superuser("boss", password="pw-boss")
    client = Client()
    client.force_login(staff)
    return client


def admin_url(view: str, *args: Any) -> str:
    return reverse(f"admin:table_rulessubmission_{view}", args=args)


def form_data(name: str, title: str, **changes: Any) -> dict[str, Any]:
    """The add form as filled in with the game's defaults (money in dollars)."""
    g = game(name)
    data: dict[str, Any] = {"name": title, "game": name}
    defaults = g.rules_to_dict(g.default_rules())
    for f in g.rules_fields():
        value = defaults.get(f.name)
        if f.parts:  # filled in as parts, in words and dollars (issue 28)
            for key, initial in form_values(f, value).items():
                data[key] = f"{initial / 100:.2f}" if isinstance(initial, int) else initial
            continue
        if f.kind == "cents" and value is not None:
            value = f"{value / 100:.2f}"
        elif f.kind == "flag" and f.counts:  # a number, as at the other games (issue 28)
            value = str(form_initial(f, value))
        elif f.kind == "flag":
            if not value:
                continue
            value = "on"
        elif value is None:
            value = ""
        elif not isinstance(value, str | int):
            value = json.dumps(value)
        data[f.name] = value
    for key, value in changes.items():
        data[key] = value
    return data
