"""The casino's admin: every page renders, Rules Submissions are checked in plain words,
money is shown and typed in dollars, table changes go through the services, credits post
to the ledger, and verify_ledger notices tampering."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import F
from django.test import Client
from django.urls import reverse

from table import services
from table.models import Account, Round, RulesSubmission, Table
from tests.examples import RULES_SUBMISSION_FORM

from .conftest import START, Game, balance, current_row, game_rules

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

VALID = RULES_SUBMISSION_FORM


@pytest.fixture
def boss(staff: Any) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def url(model: Any, view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_admin_page_renders(
    boss: Client, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    Group.objects.create(name="Pit bosses")
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 10_00, "prime": 5_00})])
    from table import meters  # a progressive meter and its history (table/admin/meters.py)

    # Linked between rounds: a round in play keeps the meters it was opened with.
    meters.create_meter("Test mega", "mega", "C", 100, [table])
    game.open()  # a round in play too
    services.place_bets(table.pk, alice, 1, {"ante": 5_00}, key="k")
    # The login throttle's records (django-axes) have admin pages too: a wrong password makes
    # an attempt row; the access and failure logs (off in settings) get one each by hand.
    Client().post(reverse("login"), {"username": "alice", "password": "wrong"})
    for log in (AccessLog, AccessFailureLog):
        log.objects.create(username="alice", ip_address="127.0.0.1", user_agent="test")
    from table.protection import exclusion, limits  # the compliance view's two records

    limits.set_limit(alice, "loss_day", 50_00)
    exclusion.exclude(bob, "1y", by=bob)
    assert boss.get(reverse("admin:index")).status_code == 200
    unchecked = []
    for model, model_admin in admin.site._registry.items():
        changelist = boss.get(url(model, "changelist"))
        assert changelist.status_code == 200, model
        objects = list(model._default_manager.all()[:3])
        for obj in objects:
            assert boss.get(url(model, "change", obj.pk)).status_code == 200, model
        if not objects:
            unchecked.append(model)
        add = boss.get(url(model, "add"))
        expected = 200 if model_admin.has_add_permission(add.wsgi_request) else 403
        assert add.status_code == expected, model
    assert unchecked == []  # every registered model's change form was rendered


def test_history_is_read_only(boss: Client, game: Game, alice: Any, table: Table) -> None:
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 10_00})])
    row = current_row(table)
    assert boss.get(url(Round, "add")).status_code == 403
    assert boss.get(url(Round, "delete", row.pk)).status_code == 403
    page = boss.get(url(Round, "change", row.pk)).content.decode()
    assert reverse("round_detail", args=[row.pk]) in page
    assert 'name="_save"' not in page
    before = row.state
    boss.post(url(Round, "change", row.pk), {"phase": "void"})
    row.refresh_from_db()
    assert row.phase == "settled" and row.state == before


def test_rules_submission_shows_its_signs_in_dollars(boss: Client, rules: RulesSubmission) -> None:
    page = boss.get(url(RulesSubmission, "change", rules.pk)).content.decode()
    # The Odds table and the selected bad beat (B), Prime (A), Four Card Bonus (C), All-Six (E).
    for text in (
        "Four aces",
        "200 to 1",
        "paytable B",
        "100 to 1",
        "All five of the same color",
        "6 to 1",
        "paytable C",
        "Six-card royal flush—diamonds",
        "200,000 to 1",
        "No payout limit",
        "$50,000.00",
    ):
        assert text in page, text
    assert 'value="5.00"' in page  # the $5 Ante minimum, typed in dollars
    listing = boss.get(url(RulesSubmission, "changelist")).content.decode()
    assert "$5.00 – $500.00" in listing


def test_rules_submission_add_form_refuses_in_plain_words(boss: Client) -> None:
    low = boss.post(url(RulesSubmission, "add"), {**VALID, "payout_limit": "10,000"})
    assert low.status_code == 200
    text = low.content.decode()
    assert "the payout limit $10,000.00 is under $50,000.00" in text
    assert "§684a.12(g)" in text
    assert not RulesSubmission.objects.filter(name="Casino rules").exists()

    upside = boss.post(url(RulesSubmission, "add"), {**VALID, "ante_min": "50", "ante_max": "25"})
    assert "the ante minimum is more than its maximum" in upside.content.decode()

    cents = boss.post(url(RulesSubmission, "add"), {**VALID, "ante_min": "10.005"})
    assert "at most two digits after the point" in cents.content.decode()

    words = boss.post(url(RulesSubmission, "add"), {**VALID, "prime_max": "lots"})
    assert "Enter an amount in dollars" in words.content.decode()

    # The floor grows with the table minimum: with bad beat table B and two boxes, one
    # player can win 304 x the Ante (four aces 1+3+200, a losing quads 100): $60,800 at $200.
    floor = boss.post(
        url(RulesSubmission, "add"),
        {**VALID, "bad_beat_paytable": "B", "ante_min": "200", "payout_limit": "55,000"},
    )
    assert "is under $60,800.00" in floor.content.decode()

    ok = boss.post(url(RulesSubmission, "add"), VALID)
    assert ok.status_code == 302
    saved = RulesSubmission.objects.get(name="Casino rules").choices
    assert saved["payout_limit"] == 100_000_00
    assert (saved["ante_min"], saved["ante_max"]) == (10_00, 1_000_00)
    assert saved["four_card_bonus_paytable"] == "E"

    nolimit = boss.post(
        url(RulesSubmission, "add"), {**VALID, "name": "No limit", "payout_limit": ""}
    )
    assert nolimit.status_code == 302
    assert RulesSubmission.objects.get(name="No limit").choices["payout_limit"] is None


def test_table_admin_changes_rules_through_the_services(
    boss: Client, game: Game, alice: Any, table: Table, rules: RulesSubmission
) -> None:
    other = game_rules("Other rules", bad_beat_paytable="A")
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00)
    table.refresh_from_db()
    version = table.version
    form = {"name": table.name, "is_open": "on", "rules": str(other.pk)}
    response = boss.post(url(Table, "change", table.pk), form, follow=True)
    assert response.status_code == 200
    assert "takes effect when it is over" in response.content.decode()
    table.refresh_from_db()
    assert table.rules_id == rules.pk and table.pending_rules_id == other.pk
    assert table.version == version + 1  # one command, logged like any other
    round_before = current_row(table).state
    assert current_row(table).state == round_before
    game.deal()
    # Closing the table during the deal is refused in words, and nothing changes.
    closing = boss.post(url(Table, "change", table.pk), {**form, "is_open": ""})
    assert closing.status_code == 200
    assert "finish it before closing the table" in closing.content.decode()
    table.refresh_from_db()
    assert table.is_open
    game.decide_all()
    game.finish()
    table.refresh_from_db()
    assert table.rules_id == other.pk and table.pending_rules_id is None
    page = boss.get(url(Table, "change", table.pk)).content.decode()
    assert "Must be changed by" in page and "red" in page and "blue" in page
    # A Rules Submission that breaks §684a.12(g) cannot be put in force.
    bad = game_rules("Bad", payout_limit=1_00)
    refused = boss.post(url(Table, "change", table.pk), {**form, "rules": str(bad.pk)})
    assert "cannot be used" in refused.content.decode()


def test_new_table_from_the_admin_gets_a_bankroll(boss: Client, rules: RulesSubmission) -> None:
    response = boss.post(
        url(Table, "add"), {"name": "Frenzy 9", "is_open": "on", "rules": str(rules.pk)}
    )
    assert response.status_code == 302
    table = Table.objects.get(name="Frenzy 9")
    assert Account.objects.filter(table=table, kind=Account.TABLE).exists()


def test_credit_a_player_from_the_accounts(boss: Client, alice: Any, bob: Any) -> None:
    accounts = [Account.objects.get(user=alice).pk, Account.objects.get(user=bob).pk]
    changelist = url(Account, "changelist")
    listing = boss.get(changelist).content.decode()
    assert "$10,000.00" in listing
    form = boss.post(changelist, {"action": "credit", "_selected_action": accounts, "index": "0"})
    assert form.status_code == 200
    assert "Credit play money" in form.content.decode()
    bad = boss.post(
        changelist,
        {
            "action": "credit",
            "_selected_action": accounts,
            "amount": "-5",
            "apply": "1",
            "memo": "x",
        },
    )
    assert "cannot be negative" in bad.content.decode()
    assert balance(alice) == START
    done = boss.post(
        changelist,
        {
            "action": "credit",
            "_selected_action": accounts,
            "amount": "250.50",
            "memo": "welcome bonus",
            "apply": "Credit",
        },
        follow=True,
    )
    assert done.status_code == 200
    assert "Credited $250.50 to alice, bob" in done.content.decode()
    assert balance(alice) == START + 250_50
    assert balance(bob) == START + 250_50


def test_credit_a_player_from_the_users(boss: Client, alice: Any, carol: Any) -> None:
    changelist = reverse("admin:auth_user_changelist")
    assert "$10,000.00" in boss.get(changelist).content.decode()
    boss.post(
        changelist,
        {
            "action": "credit",
            "_selected_action": [alice.pk],
            "amount": "1,000",
            "memo": "m",
            "apply": "Credit",
        },
    )
    assert balance(alice) == START + 1_000_00
    assert balance(carol) == START


def test_verify_ledger_notices_tampering(capsys: Any, alice: Any) -> None:
    call_command("verify_ledger")
    assert "ledger OK" in capsys.readouterr().out
    account = Account.objects.filter(user=alice)
    account.update(balance=F("balance") + 1_00)
    try:
        with pytest.raises(CommandError, match="discrepanc"):
            call_command("verify_ledger")
        assert "player:alice shows" in capsys.readouterr().err
    finally:
        account.update(balance=F("balance") - 1_00)
    call_command("verify_ledger")


@pytest.mark.django_db(transaction=True)
def test_verify_ledger_exits_non_zero(alice: Any) -> None:
    """As a shell sees it: ``manage.py verify_ledger`` on the tampered database exits 1."""
    name = str(connection.settings_dict["NAME"])
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_NAME")}
    env["DJANGO_SETTINGS_MODULE"] = "frenzy_site.settings"
    if connection.vendor == "postgresql":
        s = connection.settings_dict
        env["DATABASE_URL"] = (
            f"postgres://{s['USER']}:{s['PASSWORD'] or ''}@{s['HOST']}:{s['PORT']}/{name}"
        )
    else:
        env["SQLITE_NAME"] = name  # an absolute path: BASE_DIR / it is the path itself

    def verify() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", "verify_ledger"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert verify().returncode == 0
    Account.objects.filter(user=alice).update(balance=F("balance") + 1)
    tampered = verify()
    assert tampered.returncode != 0
    assert "player:alice shows" in tampered.stderr
    Account.objects.filter(user=alice).update(balance=F("balance") - 1)


def test_decks_show_their_age_and_can_be_changed(
    boss: Client, game: Game, alice: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 10_00})])
    table.refresh_from_db()
    shoe = table.shoe
    for deck in shoe["decks"]:
        deck["since"] -= 9 * 3600  # in play for nine hours: past §684a.3(c)'s eight
    Table.objects.filter(pk=table.pk).update(shoe=shoe)
    page = boss.get(url(Table, "change", table.pk)).content.decode()
    assert "overdue by 1 h" in page
    assert "CHANGE NOW" in boss.get(url(Table, "changelist")).content.decode()
    with pytest.raises(services.ServiceError) as expired:
        services.open_betting(table.pk, game.dealer)
    assert expired.value.code == "deck_expired"
    boss.post(
        url(Table, "changelist"),
        {"action": "bring_new_decks", "_selected_action": [table.pk], "index": "0"},
    )
    table.refresh_from_db()
    assert table.rounds_since_stub_count == 0
    page = boss.get(url(Table, "change", table.pk)).content.decode()
    assert "overdue" not in page
    assert "in 7 h 59 min" in page or "in 8 h 00 min" in page
    services.open_betting(table.pk, game.dealer)
