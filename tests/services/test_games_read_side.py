"""The read side of every game the registry holds: snapshots and round views per viewer (no
hole card leaks), recall with the commit-reveal check, the lobby by game, the console page,
the admin's Rules Submission of every game but the default, and the demo's table of every game
(each game's own: tests/games/<game>/services/test_read_side.py).

Rounds are made here through the game interface alone (table/games/driver.py), stored as the
platform stores them (``Round.state`` is the game's ``to_dict``), independently of the command
path (tests/services/read_side.py)."""

from __future__ import annotations

import json
from html import escape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table import meters
from table.demo import ensure_demo, link_meters, other_tables
from table.games import ENTRIES, GAMES, default_game, game
from table.games.driver import TableDriver, play_round
from table.models import BoxRecord, DealerAssignment, ProgressiveMeter, RulesSubmission, Table
from table.recall import round_record
from table.snapshot import round_view, snapshot
from tests.conftest import SeededSource

from .conftest import make_player
from .read_side import (
    admin_url,
    assign_dealer,
    boss_client,
    dealt_round,
    form_data,
    game_table,
    store,
    users,
)

pytestmark = pytest.mark.django_db

#: The games whose default rules need progressive meters linked.
METERED = [n for n in GAMES if game(n).meters(game(n).default_rules())]


@pytest.fixture
def people() -> dict[str, Any]:
    return {name: make_player(name) for name in ("ann", "bob", "cy")}


@pytest.fixture
def boss() -> Client:
    return boss_client()


# --- snapshots and round views -----------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_each_viewer_sees_only_their_own_hole_cards(name: str, people: dict[str, Any]) -> None:
    table, driver = dealt_round(name, ("ann", "bob"))
    dealer = assign_dealer(table)
    hole = {b.player: (b.box, list(b.cards)) for b in game(name).boxes(driver.state())}
    viewers = {"ann": people["ann"], "bob": people["bob"], "cy": people["cy"], None: None}
    for who, user in viewers.items():
        snap = snapshot(table.pk, user)
        assert snap["table"]["game"] == name
        assert snap["round"]["game"] == name
        assert snap["round"]["dealer"] is None  # nobody sees the dealer's cards yet
        for box in snap["round"]["boxes"]:
            owner = box["player"]
            assert box["cards"] == (hole[owner][1] if owner == who else None), (who, owner)
        text = json.dumps(snap)
        assert '"salt"' not in text and '"order"' not in text
        assert round_view(table.pk, user) == snap["round"]
    console = snapshot(table.pk, dealer)
    assert console["round"]["viewer"]["role"] == "dealer"
    assert all(box["cards"] is None for box in console["round"]["boxes"])
    assert console["round"]["dealer"] is None
    # The console is offered the step due now (the players decide first: a time-out).
    assert {m["move"] for m in console["round"]["moves"]} & {"time_out", "reveal", "void"}
    assert console["shoe"]["cards_dealt"] == game(name).status(driver.state()).cards_dealt
    assert snapshot(table.pk, people["cy"])["shoe"] is None


@pytest.mark.parametrize("name", GAMES)
def test_a_table_posts_its_games_signs_rules_and_felt(name: str) -> None:
    table = game_table(name)
    g = game(name)
    snap = snapshot(table.pk, None)
    assert snap["round"] is None
    assert snap["table"]["game_title"] == g.title
    assert snap["table"]["paytables"] == [s.to_dict() for s in g.signs(g.default_rules())]
    assert snap["table"]["rules"] == g.rules_to_dict(g.default_rules())
    assert snap["table"]["felt"]["spots"] == [list(r) for r in g.felt.spots]
    json.dumps(snap)


@pytest.mark.parametrize("name", METERED)
def test_a_table_shows_its_linked_meters(name: str) -> None:
    table = game_table(name)
    link_meters(table, table.rules)
    linked = list(ProgressiveMeter.objects.filter(tables=table).order_by("pk"))
    assert linked
    shown = snapshot(table.pk, None)["table"]["meters"]
    assert [(m["meter"], m["amount"]) for m in shown] == [(m.pk, m.amount) for m in linked]


# --- recall ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_round_is_recalled_and_its_shoe_checked(
    name: str, people: dict[str, Any]
) -> None:
    table = game_table(name)
    g = game(name)
    rng = SeededSource(11)
    driver = TableDriver(g, g.default_rules(), rng)
    status = play_round(driver, ["ann", "bob"], rng, time_outs=False)
    assert status.finished
    row = store(table, driver)
    boxes = g.boxes(driver.state())
    for box in boxes:
        BoxRecord.objects.create(
            round=row, box=box.box, player=users()[box.player], wagers=dict(box.wagers)
        )
    record = round_record(row, viewer=None, full=True)
    assert record["commitment_verified"] is True
    assert len(record["shoe"]) == 52 and record["salt"]
    assert {b["box"]: b["net"] for b in record["boxes"]} == {b.box: b.net for b in boxes}
    assert {p: v["net"] for p, v in record["players"].items()} == dict(status.players or {})
    # A tampered shoe no longer hashes to the commitment published at opening.
    row.commitment = "0" * 64
    assert round_record(row, viewer=None, full=True)["commitment_verified"] is False
    row.refresh_from_db()
    # The players' recall page: their own boxes, and what the table showed everyone.
    ann = Client()
    ann.force_login(people["ann"])
    page = ann.get(reverse("round_detail", args=[row.pk]))
    assert page.status_code == 200
    assert g.title in page.content.decode()
    mine = ann.get(reverse("my_rounds"))
    assert mine.status_code == 200 and f"round {row.number}" in mine.content.decode()


# --- lobby and pages ---------------------------------------------------------------------------


def test_the_lobby_lists_tables_under_their_game(people: dict[str, Any]) -> None:
    tables = {name: game_table(name, f"{name} one") for name in reversed(list(GAMES))}
    client = Client()
    client.force_login(people["ann"])
    page = client.get(reverse("lobby"))
    assert page.status_code == 200
    sections = page.context["games"]
    # A section per game with a table, in the registry's order (each game's ENTRY.order).
    assert [s["name"] for s in sections] == list(GAMES)
    assert [[t["table"].pk for t in s["tables"]] for s in sections] == [
        [tables[s["name"]].pk] for s in sections
    ]
    text = page.content.decode()
    for name, each in tables.items():
        assert escape(game(name).title) in text and game(name).regulation in text
        felt = client.get(reverse("table", args=[each.pk])).content.decode()
        assert f'data-game="{name}"' in felt


@pytest.mark.parametrize("name", GAMES)
def test_the_console_page_names_its_game_and_felt(name: str) -> None:
    table = game_table(name)
    client = Client()
    client.force_login(assign_dealer(table))
    page = client.get(reverse("dealer_console", args=[table.pk])).content.decode()
    module = game(name).felt.console_module
    assert f'data-game="{name}"' in page
    assert f'data-felt-module="{module or ""}"' in page


# --- the admin -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in GAMES if n != default_game()])
def test_a_rules_submission_of_another_game_is_added_and_shown(name: str, boss: Client) -> None:
    page = boss.get(admin_url("add") + f"?game={name}")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="ante_min"' in text
    own = {f.name for f in game(name).rules_fields()}
    for other in GAMES:  # no other game's own fields
        for field in {f.name for f in game(other).rules_fields()} - own:
            assert f'name="{field}"' not in text, (other, field)
    answer = boss.post(admin_url("add"), form_data(name, "house rules", ante_min="10.00"))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    saved = RulesSubmission.objects.get(name="house rules")
    g = game(name)
    assert saved.game == name and saved.game_problems() == []
    assert saved.choices["ante_min"] == 10_00
    assert saved.choices == g.rules_to_dict(g.parse_rules(saved.choices))
    change = boss.get(admin_url("change", saved.pk)).content.decode()
    for sign in g.signs(saved.game_rules()):
        assert sign.wager in change.replace("&#x27;", "'").replace("&amp;", "&")
    for figure in g.math_report(saved.game_rules()):
        assert f"{figure.house_edge * 100:.4f}%" in change


# --- the demo ----------------------------------------------------------------------------------


def test_the_demo_opens_a_table_of_every_game_once() -> None:
    demo = ensure_demo()
    # Every game whose entry names a demo table, the default game's first.
    assert [t.rules.game for t in demo.tables] == [
        default_game(),
        *(name for name, *_ in other_tables()),
    ]
    assert {t.rules.game for t in demo.tables} == {e.name for e in ENTRIES.values() if e.demo}
    linked = {
        t.pk: {m.kind for m in ProgressiveMeter.objects.filter(tables=t)} for t in demo.tables
    }
    for each in demo.tables:
        needed = {s.name for s in game(each.rules.game).meters(each.rules.game_rules())}
        assert linked[each.pk] == needed, each.rules.game
    assert any(linked.values())  # a game of the demo needs meters: they are linked
    assert meters.verify() == []
    for each in demo.tables:
        assert each.rules.game_problems() == []
        assert DealerAssignment.objects.filter(table=each, dealer__username="dealer").exists()
    again = ensure_demo()
    assert [t.pk for t in again.tables] == [t.pk for t in demo.tables]
    assert Table.objects.count() == len(demo.tables)
    assert ProgressiveMeter.objects.count() == sum(len(k) for k in linked.values())
