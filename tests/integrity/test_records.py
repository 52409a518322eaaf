"""Verifiable records: commit-reveal of every shoe (verify_round), the hash-chained event log
(verify_chain), and the recall page's commitment check."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from table import audit, services
from table.games.cards import codes
from table.models import Round, RoundEvent, Table

from .conftest import Game, current_row, engine_round

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


@pytest.fixture
def two_rounds(game: Game, alice: Any, bob: Any, table: Table) -> list[Round]:
    """A settled round with every optional wager and a fold, then a round voided by a jam."""
    game.sit(alice, 1, 2)
    game.sit(bob, 4)
    game.play(
        [
            (alice, 1, {"ante": 10_00, "prime": 1_00, "four_card_bonus": 2_00, "all_six": 1_00}),
            (alice, 2, {"ante": 5_00}),
            (bob, 4, {"ante": 20_00, "all_six": 5_00}),
        ],
        {1: 3, 2: 0, 4: 1},
    )
    settled = current_row(table)
    game.open()
    game.bet(alice, 1, ante=5_00)
    services.arm_fault(table.pk, "jam", game.dealer)
    game.deal()
    return [settled, current_row(table)]


def run(command: str, *args: Any) -> tuple[str, str]:
    from io import StringIO

    out, err = StringIO(), StringIO()
    call_command(command, *[str(a) for a in args], stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_verify_round_checks_the_commitment_and_every_stack(two_rounds: list[Round]) -> None:
    settled, void = two_rounds
    out, _ = run("verify_round", settled.pk)
    assert "sha256(shoe | salt) equals the commitment" in out
    assert "before betting closed" in out
    assert "every dealt card is where the committed shoe order puts it" in out
    assert "re-settling the dealt layout gives the recorded results" in out
    assert "each wager paid once" in out
    assert out.strip().endswith("round verifies")
    out, _ = run("verify_round", void.pk)
    assert "round verifies" in out and ", void)" in out


def test_anyone_can_check_the_revealed_shoe_against_the_commitment(
    two_rounds: list[Round],
) -> None:
    """docs/protocol.md: sha256(" ".join(shoe) + "|" + salt) == commitment, from the events."""
    for row in two_rounds:
        opened = RoundEvent.objects.get(round=row, kind="round_opened")
        end = RoundEvent.objects.get(round=row, kind__in=["round_settled", "round_void"])
        text = " ".join(end.data["shoe"]) + "|" + end.data["salt"]
        assert hashlib.sha256(text.encode()).hexdigest() == opened.data["commitment"]
        assert opened.version < end.version


def tamper(row: Round, change: Any) -> None:
    state = dict(row.state)
    change(state)
    Round.objects.filter(pk=row.pk).update(state=state)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        # Another shoe order than the one committed to.
        (lambda s: s.update(order=[s["order"][1], s["order"][0], *s["order"][2:]]), "sha256"),
        # Another salt.
        (lambda s: s.update(salt="00" * 16), "sha256"),
        # A box holding a card the shoe gave to the dealer (a swapped card).
        (
            lambda s: (
                s["boxes"][0]["cards"].__setitem__(0, s["dealer_cards"][0]),
                s["dealer_cards"].__setitem__(0, s["order"][0]),
            ),
            "committed shoe",
        ),
        # Another All-Six card.
        (lambda s: s.update(all_six_card=s["stub"][0]), "All-Six card"),
    ],
    ids=["order", "salt", "swapped-card", "all-six"],
)
def test_verify_round_exits_non_zero_on_a_mismatch(
    two_rounds: list[Round], change: Any, says: str
) -> None:
    settled = two_rounds[0]
    tamper(settled, change)
    with pytest.raises(CommandError, match="does not verify"):
        run("verify_round", settled.pk)
    report = audit.verify_round(settled.pk)
    assert any(says in p for p in report.problems), report.problems


def test_verify_round_notices_a_payout_made_twice(two_rounds: list[Round], alice: Any) -> None:
    from table import ledger
    from table.models import LedgerTransaction

    settled = two_rounds[0]
    paid = LedgerTransaction.objects.filter(round=settled, memo="win").first()
    assert paid is not None
    entries = list(paid.entries.values_list("account_id", "amount"))
    ledger.post([ledger.Posting("win", entries, paid.box, paid.wager)], settled.table, settled)
    problems = audit.verify_round(settled.pk).problems
    assert any("paid back 2 times" in p for p in problems), problems
    assert any("moved" in p for p in problems), problems
    # Undo, so the fixture's ledger check at the end holds.
    ledger.post(
        [ledger.Posting("reversal", [(a, -x) for a, x in entries], paid.box, "")],
        settled.table,
        None,
    )


def test_verify_round_unknown_round() -> None:
    with pytest.raises(CommandError, match="no round 999999"):
        run("verify_round", 999999)


def test_the_recall_page_shows_the_commitment_verified(
    two_rounds: list[Round], alice: Any, dealer: Any
) -> None:
    client = Client()
    client.force_login(alice)
    response = client.get(reverse("recall_json", args=[two_rounds[0].table_id]))
    rounds = {r["id"]: r for r in response.json()["rounds"]}
    assert rounds[two_rounds[0].pk]["commitment_verified"] is True
    assert rounds[two_rounds[0].pk]["commitment"] == two_rounds[0].commitment
    page = client.get(reverse("round_detail", args=[two_rounds[0].pk]))
    assert page.status_code == 200
    assert two_rounds[0].commitment in page.content.decode()


def raw_update(sql: str, params: list[Any]) -> None:
    """Tampering the way an intruder with database access would: behind the ORM's back."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_verify_chain_is_clean_after_play(two_rounds: list[Round], table: Table) -> None:
    out, _ = run("verify_chain", "--table", table.pk)
    count = RoundEvent.objects.filter(table=table).count()
    assert f"chain OK, {count} events" in out
    out, _ = run("verify_chain")  # every table
    assert "chain OK" in out


def test_verify_chain_names_the_first_altered_event(two_rounds: list[Round], table: Table) -> None:
    victim = RoundEvent.objects.filter(table=table, kind="box_settled").order_by("version")[1]
    later = RoundEvent.objects.filter(table=table, kind="box_settled").order_by("version")[2]
    for row in (later, victim):  # two rows changed: the first in the chain is named
        data = dict(row.data)
        data["net"] = data["net"] + 1_000_00
        raw_update(
            "UPDATE table_roundevent SET data = %s WHERE id = %s", [json.dumps(data), row.pk]
        )
    with pytest.raises(CommandError) as failed:
        run("verify_chain", "--table", table.pk)
    where = f"table {table.pk}, version {victim.version}, seq {victim.seq}, kind box_settled"
    assert where in str(failed.value)
    report = audit.verify_chain(table.pk)
    assert report.broken is not None
    assert (report.broken.version, report.broken.seq) == (victim.version, victim.seq)
    assert "altered" in report.broken.problem


def test_verify_chain_notices_a_removed_event(two_rounds: list[Round], table: Table) -> None:
    rows = list(RoundEvent.objects.filter(table=table).order_by("version", "seq"))
    gone, after = rows[10], rows[11]
    raw_update("DELETE FROM table_roundevent WHERE id = %s", [gone.pk])
    report = audit.verify_chain(table.pk)
    assert report.broken is not None
    assert (report.broken.version, report.broken.seq, report.broken.kind) == (
        after.version,
        after.seq,
        after.kind,
    )
    assert "removed" in report.broken.problem


def test_verify_chain_notices_the_tail_cut_off(two_rounds: list[Round], table: Table) -> None:
    last = RoundEvent.objects.filter(table=table).order_by("-version", "-seq").first()
    assert last is not None
    raw_update("DELETE FROM table_roundevent WHERE id = %s", [last.pk])
    with pytest.raises(CommandError, match="chain is broken"):
        run("verify_chain", "--table", table.pk)
    assert "missing" in str(audit.verify_chain(table.pk).broken)


def test_verify_chain_notices_a_rewritten_hash(two_rounds: list[Round], table: Table) -> None:
    """Changing a row and recomputing its own hash breaks the next row's link."""
    row = RoundEvent.objects.filter(table=table, kind="round_opened").order_by("version").first()
    assert row is not None
    forged = RoundEvent(**{f.attname: getattr(row, f.attname) for f in RoundEvent._meta.fields})
    forged.data = {**row.data, "commitment": "0" * 64}
    new_hash = forged.compute_hash()
    raw_update(
        "UPDATE table_roundevent SET data = %s, hash = %s WHERE id = %s",
        [json.dumps(forged.data), new_hash, row.pk],
    )
    report = audit.verify_chain(table.pk)
    assert report.broken is not None
    nxt = (
        RoundEvent.objects.filter(table=table)
        .order_by("version", "seq")
        .filter(version__gte=row.version)
        .exclude(pk=row.pk)
        .first()
    )
    assert nxt is not None
    assert (report.broken.version, report.broken.seq) == (nxt.version, nxt.seq)


def test_the_event_log_refuses_changes_through_the_orm(two_rounds: list[Round]) -> None:
    from table.models import AppendOnlyError

    with pytest.raises(AppendOnlyError):
        RoundEvent.objects.all().update(kind="x")
    with pytest.raises(AppendOnlyError):
        RoundEvent.objects.all().delete()


def test_settled_round_state_reveals_what_the_events_revealed(
    two_rounds: list[Round], table: Table
) -> None:
    rnd = engine_round(table)
    end = RoundEvent.objects.get(round=two_rounds[1], kind="round_void")
    assert end.data["shoe"] == codes(rnd.order)
