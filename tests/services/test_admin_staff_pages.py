"""The admin as a compliance officer reads it: rounds and the ledger in names, cards and
dollars (played at the service tests' table, of the registry's default game). A game's Rules
Submissions in the admin (jurisdictions, the mathematics of unsaved choices): its own tests,
tests/games/<game>/services/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table import services
from table.games.cards import card_label, parse_card
from table.models import LedgerTransaction, Round, Table
from table.templatetags.frenzy_tags import WAGER_NAMES

from .conftest import Game, current_row

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(staff: Any) -> Client:
    client = Client()
    client.force_login(staff)
    return client


# --- rounds and the ledger in words ---------------------------------------------------------


def _faces(codes: str) -> list[str]:
    return [card_label(parse_card(c)) for c in codes.split()]


def test_the_rounds_list_shows_players_net_and_void_reason(
    boss: Client, game: Game, alice: Any, bob: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.sit(bob, 3)
    result = game.play([(alice, 1, {"ante": 10_00}), (bob, 3, {"ante": 5_00})])
    game.open()
    game.bet(alice, 1, ante=10_00)
    services.arm_fault(table.pk, "jam", game.dealer)  # the shoe jams while dealing
    game.deal()
    listing = boss.get(reverse("admin:table_round_changelist")).content.decode()
    assert "alice (1), bob (3)" in listing
    net = sum(p["net"] for p in result["players"].values())
    sign = "+" if net > 0 else ("−" if net < 0 else "")
    assert f"{sign}${abs(net) // 100:,}.{abs(net) % 100:02d}" in listing
    assert "the dealing shoe jammed" in listing


def test_a_round_shows_cards_as_cards_and_money_in_dollars(
    boss: Client, game: Game, alice: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 10_00, "prime": 5_00})])
    row = current_row(table)
    page = boss.get(reverse("admin:table_round_change", args=[row.pk])).content.decode()
    record = row.box_records.get()
    for face in _faces(record.cards):
        assert face in page
    for face in _faces(" ".join(row.state["results"]["dealer"]["cards"])):
        assert face in page
    assert "Ante $10.00" in page and "Prime $5.00" in page
    # The stored engine state shows its cards as codes, not as the integers it keeps.
    stored = row.state["boxes"][0]["cards"]
    assert isinstance(stored[0], int)
    integers = ",\\s*".join(str(c) for c in stored)
    assert not re.search(r"\[\s*" + integers + r"\s*\]", page)
    assert f"&quot;{record.cards.split()[0]}&quot;" in page


def test_a_round_in_play_shows_no_hole_cards(
    boss: Client, game: Game, alice: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00)
    game.deal()
    row = current_row(table)
    page = boss.get(reverse("admin:table_round_change", args=[row.pk])).content.decode()
    assert "still in play" in page
    for code in (c for b in row.state["boxes"] for c in b["cards"]):
        label = card_label(code)
        assert f">{label}<" not in page


def test_ledger_pages_read_in_words(boss: Client, game: Game, alice: Any, table: Table) -> None:
    game.sit(alice, 1)
    game.play([(alice, 1, {"ante": 10_00, "four_card_bonus": 5_00})])
    transaction = LedgerTransaction.objects.exclude(wager="").first()
    assert transaction is not None
    page = boss.get(
        reverse("admin:table_ledgertransaction_change", args=[transaction.pk])
    ).content.decode()
    for unreadable in ("LedgerTransaction object", "Entry object", "Entrys", "ENTRYS"):
        assert unreadable not in page
    assert f"transaction {transaction.pk}" in page
    assert "alice (player)" in page and f"{table.name} bankroll" in page
    assert WAGER_NAMES[transaction.wager] in page and "Balanced" in page
    amount = sum(e.amount for e in transaction.entries.all() if e.amount > 0)
    assert f"${amount // 100:,}.{amount % 100:02d}" in page
    listing = boss.get(reverse("admin:table_ledgertransaction_changelist")).content.decode()
    assert "alice (player) → " in listing or "→ alice (player)" in listing
    assert ">four_card_bonus<" not in listing  # the wager filter names wagers in words
    account = transaction.entries.first().account  # type: ignore[union-attr]
    assert "$" in str(account)
    rounds = Round.objects.filter(table=table)
    assert rounds.exists()
