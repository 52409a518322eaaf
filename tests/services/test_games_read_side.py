"""The read side of every game: snapshots and round views per viewer (no hole card leaks),
recall with the commit-reveal check, the lobby by game, the admin's Rules Submission of
Crazy 4 Poker and Five Card Hi-Lo, a table's one game, and the demo's table of every game.

Rounds of the games after Four Card Frenzy are made here through the game interface alone
(table/games/driver.py), stored as the platform stores them (``Round.state`` is the game's
``to_dict``), independently of the command path."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from table import ledger, meters
from table.admin.game_rules import form_initial, form_values
from table.demo import ensure_demo, other_tables
from table.games import ENTRIES, GAMES, default_game, game
from table.games.base import CLOSE_BETTING, DEAL, Actor, Command
from table.games.driver import TableDriver, place_bets, play_round
from table.models import (
    BoxRecord,
    DealerAssignment,
    ProgressiveMeter,
    Round,
    RulesSubmission,
    Seat,
    Table,
)
from table.recall import round_record
from table.snapshot import round_view, snapshot
from tests.conftest import SeededSource
from tests.game_names import CRAZY_4_POKER, FIVE_CARD_HI_LO, FOUR_CARD_FRENZY

from .conftest import make_player

pytestmark = pytest.mark.django_db

OTHER_GAMES = (CRAZY_4_POKER, FIVE_CARD_HI_LO)


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


@pytest.fixture
def people() -> dict[str, Any]:
    return {name: make_player(name) for name in ("ann", "bob", "cy")}


# --- snapshots and round views -----------------------------------------------------------------


@pytest.mark.parametrize("name", OTHER_GAMES)
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


@pytest.mark.parametrize(
    "name, exposed",
    [("crazy_4_poker", True), ("five_card_hi_lo", False)],
)
def test_the_console_offers_only_the_drills_its_games_deal_knows(
    name: str, exposed: bool, people: dict[str, Any]
) -> None:
    """§657a.13(d) has a dealer card exposed while dealing; ch. 663a has no such rule, so a
    Hi-Lo console has no such drill to arm (and the shoe refuses it)."""
    table, _ = dealt_round(name, ("ann",))
    drills = snapshot(table.pk, assign_dealer(table))["shoe"]["drills"]
    assert {"jam", "face_up_card", "two_face_up_cards", "misdeal", "miscount"} <= set(drills)
    assert ("dealer_card_exposed" in drills) is exposed


@pytest.mark.parametrize("name", OTHER_GAMES)
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


def test_a_crazy_4_poker_table_shows_its_linked_meters() -> None:
    table = game_table(CRAZY_4_POKER)
    mega = meters.create_meter("five card", "five_card", "A", 100, [table])
    hand = meters.create_meter("hand", "hand_bonus", "", 100, [table])
    shown = snapshot(table.pk, None)["table"]["meters"]
    assert [(m["meter"], m["amount"]) for m in shown] == [
        (mega.pk, mega.amount),
        (hand.pk, hand.amount),
    ]


def test_four_card_frenzys_snapshot_names_its_game_and_felt(table: Table) -> None:
    snap = snapshot(table.pk, None)
    assert snap["table"]["game"] == FOUR_CARD_FRENZY
    assert snap["table"]["felt"]["felt_module"] is None  # the generic felt draws it
    assert snap["table"]["meters"] == []


def test_a_rules_change_is_noticed_in_the_games_words(people: dict[str, Any]) -> None:
    table, _driver = dealt_round(FIVE_CARD_HI_LO, ("ann",))
    g = game(FIVE_CARD_HI_LO)
    rules = g.rules_to_dict(g.default_rules())
    table.pending_rules = RulesSubmission.objects.create(
        name="no tie", game=FIVE_CARD_HI_LO, choices={**rules, "offers_tie": False}
    )
    table.save()
    notice = snapshot(table.pk, None)["table"]["rules_notice"]
    assert notice["rules"] == "no tie" and notice["from_round"] == 2
    assert any("Tie" in change for change in notice["changes"])


# --- recall ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", OTHER_GAMES)
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


def test_a_folded_box_stays_hidden_from_another_player_in_recall(people: dict[str, Any]) -> None:
    """Crazy 4 Poker: a box folded before the reveal is not shown to another player
    (§657a.11(b)); the full record shows it."""
    g = game(CRAZY_4_POKER)
    for seed in range(40):
        table = game_table(CRAZY_4_POKER, f"c4p {seed}")
        rng = SeededSource(seed)
        driver = TableDriver(g, g.default_rules(), rng)
        play_round(driver, ["ann", "bob"], rng, time_outs=False)
        view = g.view(driver.state(), Actor.spectator())
        hidden = [b for b in view["boxes"] if b["cards"] is None]
        if hidden:
            break
    else:
        pytest.skip("no round with a hidden box in 40 seeds")
    row = store(table, driver)
    box = hidden[0]
    other = "bob" if box["player"] == "ann" else "ann"
    shown = {b["box"]: b for b in round_record(row, viewer=other, full=False)["boxes"]}
    assert shown[box["box"]]["cards"] is None
    full = {b["box"]: b for b in round_record(row, viewer=None, full=True)["boxes"]}
    assert full[box["box"]]["cards"]


# --- lobby and pages ---------------------------------------------------------------------------


def test_the_lobby_lists_tables_under_their_game(table: Table, people: dict[str, Any]) -> None:
    c4p = game_table(CRAZY_4_POKER, "Crazy one")
    hilo = game_table(FIVE_CARD_HI_LO, "Hi-Lo one")
    client = Client()
    client.force_login(people["ann"])
    page = client.get(reverse("lobby"))
    assert page.status_code == 200
    sections = page.context["games"]
    # A section per game with a table, in the registry's order (each game's ENTRY.order).
    tables = {each.rules.game: each for each in (table, c4p, hilo)}
    assert [s["name"] for s in sections] == [g for g in GAMES if g in tables]
    assert [[t["table"].pk for t in s["tables"]] for s in sections] == [
        [tables[s["name"]].pk] for s in sections
    ]
    text = page.content.decode()
    assert "58 Pa. Code ch. 657a" in text and "Ante &amp; Super Bonus" in text
    assert "Ante &amp; Odds" in text
    for each in (table, c4p, hilo):
        felt = client.get(reverse("table", args=[each.pk])).content.decode()
        assert f'data-game="{each.rules.game}"' in felt


def test_the_console_page_names_its_game(people: dict[str, Any]) -> None:
    hilo = game_table(FIVE_CARD_HI_LO)
    client = Client()
    client.force_login(assign_dealer(hilo))
    page = client.get(reverse("dealer_console", args=[hilo.pk])).content.decode()
    assert f'data-game="{FIVE_CARD_HI_LO}"' in page and 'data-felt-module=""' in page


# --- the admin -----------------------------------------------------------------------------


@pytest.fixture
def boss() -> Client:
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


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_a_rules_submission_of_another_game_is_added_and_shown(name: str, boss: Client) -> None:
    page = boss.get(admin_url("add") + f"?game={name}")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="ante_min"' in text and "bad_beat_paytable" not in text
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


def test_a_bad_crazy_4_poker_choice_is_refused_in_words(boss: Client) -> None:
    answer = boss.post(
        admin_url("add"),
        form_data(CRAZY_4_POKER, "bad", progressive_table="five_card Z", hand_bonus_wager="3.00"),
    )
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert "five_card Z" in " ".join(errors["progressive_table"])
    assert "$1 or $5" in " ".join(errors["hand_bonus_wager"])
    assert not RulesSubmission.objects.filter(name="bad").exists()


def test_crazy_4_poker_progressive_and_hand_bonus_in_words_and_dollars(boss: Client) -> None:
    """Issue 28: chosen with a select and a dollars field each, not typed as JSON in cents,
    and stored exactly as before."""
    page = boss.get(admin_url("add") + f"?game={CRAZY_4_POKER}").content.decode()
    assert '<select name="progressive_table"' in page
    assert "Four-card progressive, paytable B" in page
    assert 'name="progressive_wager"' in page and 'name="hand_bonus_wager"' in page
    assert '"wager"' not in page.replace("&quot;", '"'), "no JSON to type"
    answer = boss.post(
        admin_url("add"),
        form_data(
            CRAZY_4_POKER,
            "four-card B",
            progressive_table="four_card B",
            progressive_wager="5.00",
            hand_bonus_wager="",
        ),
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    saved = RulesSubmission.objects.get(name="four-card B")
    assert saved.choices["progressive"] == {"type": "four_card", "paytable": "B", "wager": 500}
    assert saved.choices["hand_bonus"] is None
    assert saved.choices == game(CRAZY_4_POKER).rules_to_dict(saved.game_rules())
    # Read back into the same words and dollars on its change page.
    form = boss.get(admin_url("change", saved.pk)).context["adminform"].form
    assert form["progressive_table"].value() == "four_card B"
    assert form["progressive_wager"].value() == "5.00" and form["hand_bonus_wager"].value() == ""

    # Not offered: the wager beside it is not read.
    answer = boss.post(
        admin_url("add"),
        form_data(CRAZY_4_POKER, "none", progressive_table="", hand_bonus_wager="5.00"),
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    none = RulesSubmission.objects.get(name="none")
    assert none.choices["progressive"] is None and none.choices["hand_bonus"] == {"wager": 500}


@pytest.mark.parametrize(
    ("changes", "field", "said"),
    [
        ({"progressive_wager": "2.00"}, "progressive_wager", "must be $1 or $5"),
        ({"progressive_wager": ""}, "progressive_wager", "Fill this in too"),
        ({"hand_bonus_wager": "0.50"}, "hand_bonus_wager", "not $0.50 (50 cents) (§657a.12(f))"),
    ],
)
def test_a_bad_crazy_4_poker_wager_is_refused_in_words_changing_nothing(
    boss: Client, changes: dict[str, str], field: str, said: str
) -> None:
    before = list(RulesSubmission.objects.values_list("pk", "choices"))
    answer = boss.post(admin_url("add"), form_data(CRAZY_4_POKER, "bad wager", **changes))
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    words = " ".join(errors[field])
    assert said in words, words
    assert set(errors) == {field}, errors
    assert list(RulesSubmission.objects.values_list("pk", "choices")) == before


def test_a_bad_hi_lo_choice_is_refused_in_words(boss: Client) -> None:
    answer = boss.post(
        admin_url("add"),
        form_data(FIVE_CARD_HI_LO, "bad", ante_min="600.00"),
    )
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert errors, "a minimum above the maximum must be refused"
    assert not RulesSubmission.objects.filter(name="bad").exists()
    text = " ".join(str(e) for e in errors.values())
    assert "ante" in text.lower()


def test_adjacent_boxes_are_one_control_at_every_game(boss: Client) -> None:
    """Issue 28: a number at every game (Hi-Lo's one box or two was a checkbox), Hi-Lo's
    still stored as its flag; a number it does not allow is refused, changing nothing."""
    for name, field in (
        (CRAZY_4_POKER, "max_boxes_per_player"),
        (FIVE_CARD_HI_LO, "adjacent_boxes"),
        (FOUR_CARD_FRENZY, "adjacent_boxes"),
    ):
        form = boss.get(admin_url("add") + f"?game={name}").context["adminform"].form
        assert form.fields[field].widget.input_type == "number", name
    answer = boss.post(admin_url("add"), form_data(FIVE_CARD_HI_LO, "one box", adjacent_boxes="1"))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    saved = RulesSubmission.objects.get(name="one box")
    assert saved.choices["adjacent_boxes"] is False and saved.game_rules().boxes_per_player() == 1
    form = boss.get(admin_url("change", saved.pk)).context["adminform"].form
    assert form["adjacent_boxes"].value() == 1
    g = game(FIVE_CARD_HI_LO)  # what players are told, in the same number
    changes = g.rule_changes(g.default_rules(), saved.game_rules())
    assert "Adjacent boxes per player (§663a.7(f)): 1 (was 2)" in changes
    answer = boss.post(admin_url("add"), form_data(FIVE_CARD_HI_LO, "three", adjacent_boxes="3"))
    assert answer.status_code == 200
    assert "2" in " ".join(answer.context["adminform"].form.errors["adjacent_boxes"])
    assert not RulesSubmission.objects.filter(name="three").exists()


def test_a_hi_lo_submission_is_changed(boss: Client) -> None:
    table = game_table(FIVE_CARD_HI_LO)
    saved = table.rules
    answer = boss.post(
        admin_url("change", saved.pk),
        {
            k: v
            for k, v in form_data(FIVE_CARD_HI_LO, saved.name, poker_bonus_paytable="B").items()
            if k != "game"
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    saved.refresh_from_db()
    assert saved.choices["poker_bonus_paytable"] == "B" and saved.game == FIVE_CARD_HI_LO


def test_a_table_runs_one_game(boss: Client, table: Table) -> None:
    c4p = game_table(CRAZY_4_POKER)
    answer = boss.post(
        reverse("admin:table_table_change", args=[table.pk]),
        {"name": table.name, "is_open": "on", "rules": c4p.rules.pk},
    )
    assert answer.status_code == 200
    words = " ".join(answer.context["adminform"].form.errors["rules"])
    assert "runs Four Card Frenzy" in words and "Crazy 4 Poker" in words
    table.refresh_from_db()
    assert table.rules.game == FOUR_CARD_FRENZY
    listing = boss.get(reverse("admin:table_table_changelist")).content.decode()
    assert "Crazy 4 Poker" in listing and "Four Card Frenzy" in listing


# --- the demo ----------------------------------------------------------------------------------


def test_the_demo_opens_a_table_of_every_game_once() -> None:
    demo = ensure_demo()
    # Every game whose entry names a demo table, the default game's first.
    assert [t.rules.game for t in demo.tables] == [
        default_game(),
        *(name for name, *_ in other_tables()),
    ]
    assert {t.rules.game for t in demo.tables} == {e.name for e in ENTRIES.values() if e.demo}
    c4p = next(t for t in demo.tables if t.rules.game == CRAZY_4_POKER)
    linked = {m.kind for m in ProgressiveMeter.objects.filter(tables=c4p)}
    assert linked == {s.name for s in game(CRAZY_4_POKER).meters(c4p.rules.game_rules())}
    assert meters.verify() == []
    for each in demo.tables:
        assert each.rules.game_problems() == []
        assert DealerAssignment.objects.filter(table=each, dealer__username="dealer").exists()
    again = ensure_demo()
    assert [t.pk for t in again.tables] == [t.pk for t in demo.tables]
    assert Table.objects.count() == len(demo.tables)
    assert ProgressiveMeter.objects.count() == len(linked)
