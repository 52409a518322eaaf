"""The progressive meters report (§605a.7) and the secured reset (§605a.8): figures worked by
hand from a meter's history, the liability at past moments, a reset only with the permission
and a reason, in the ledger, the meter's history and the audit log; refused: nothing changes."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from table import backoffice, ledger, meters
from table.games import GAMES, game
from table.models import AuditEntry, MeterEvent, ProgressiveMeter, Round, Table

from .play import make_table

#: The first game whose default rules need progressive meters linked.
METERED = next(n for n in GAMES if game(n).meters(game(n).default_rules()))

pytestmark = pytest.mark.django_db
User = get_user_model()


def _meter(when: Any = None) -> ProgressiveMeter:
    """The first meter of a table of the first game whose default rules need meters, every
    meter seeded at ``when``."""
    from unittest import mock

    at = when or timezone.now()
    with mock.patch.object(meters.timezone, "now", lambda: at):
        table, _ = make_table("Metered", METERED)
    return ProgressiveMeter.objects.filter(tables=table).order_by("pk").first()  # type: ignore[return-value]


def _book(meter: ProgressiveMeter, kind: str, after: int, when: Any, **fields: Any) -> None:
    """A history row as table.meters writes it, at ``when`` (money moved with it in the
    ledger)."""
    from unittest import mock

    from django.db import transaction

    with mock.patch.object(meters.timezone, "now", lambda: when), transaction.atomic():
        meter = meters.lock_meters([meter.pk])[meter.pk]
        before = meters._standing(meter)
        change = after - before.amount
        house = meters.house_account().pk
        ledger.post([ledger.Posting("test", ((house, -change), (meter.account_id, change)))])
        meters._book(meter, before, meters.Meter(after, before.reserve), kind, **fields)


def staff(name: str, *perms: str) -> Any:
    user = User.objects.create_user(name, password="pw", is_staff=True)
    for p in perms:
        user.user_permissions.add(Permission.objects.get(codename=p))
    return User.objects.get(pk=user.pk)


def test_the_meter_report_by_hand() -> None:
    t0 = timezone.now() - dt.timedelta(days=3)
    meter = _meter(t0 - dt.timedelta(days=1))
    seed = meter.amount
    _book(meter, MeterEvent.INCREMENT, seed + 150, t0 + dt.timedelta(hours=1), stakes=3)
    _book(meter, MeterEvent.INCREMENT, seed + 250, t0 + dt.timedelta(hours=2), stakes=2)
    _book(meter, MeterEvent.HIT, seed + 50, t0 + dt.timedelta(hours=3), paid=200, percent=10)
    _book(meter, MeterEvent.REVERSAL, seed, t0 + dt.timedelta(hours=4), stakes=1)
    # Before the first increment it held its seed; after the hit, seed + 50.
    assert backoffice.liability_at(t0 + dt.timedelta(minutes=30)) == _others(t0, meter) + seed
    assert (
        backoffice.liability_at(t0 + dt.timedelta(hours=3, minutes=1))
        == _others(t0, meter) + seed + 50
    )
    [line] = [m for m in backoffice.meter_report(t0, timezone.now()) if m.meter.pk == meter.pk]
    assert (line.amount, line.increments, line.increment_count) == (seed, 250 - 50, 2)
    assert (line.paid, len(line.hits)) == (200, 1)
    assert meters.verify() == []


def _others(t0: dt.datetime, meter: ProgressiveMeter) -> int:
    return sum(m.amount + m.reserve for m in ProgressiveMeter.objects.exclude(pk=meter.pk))


def test_a_secured_reset() -> None:
    meter = _meter()
    table = meter.tables.get()
    seed = meter.amount
    _book(meter, MeterEvent.INCREMENT, seed + 12_345, timezone.now(), stakes=9)
    reader = staff("compliance", "view_progressivemeter", "view_wagershift")
    manager = staff("boss", "view_progressivemeter", "reset_meter", "change_progressivemeter")
    before = (ProgressiveMeter.objects.get(pk=meter.pk).amount, AuditEntry.objects.count())
    for who, reason, code in (
        (reader, "a long enough reason", "not_allowed"),
        (manager, "no", "no_reason"),
    ):
        with pytest.raises(meters.MeterError) as info:
            meters.reset_meter(meter.pk, who, reason)
        assert info.value.code == code
    # A round in play at a linked table: refused too.
    Round.objects.create(
        table=table,
        number=1,
        rules_submission=table.rules,
        game=table.rules.game,
        rules={},
        phase="decisions",
        state={},
        commitment="",
        deck_back="red",
    )
    Table.objects.filter(pk=table.pk).update(current_round=Round.objects.get(table=table))
    with pytest.raises(meters.MeterError) as info:
        meters.reset_meter(meter.pk, manager, "a meter fault, ticket 42")
    assert info.value.code == "round_in_play"
    assert (ProgressiveMeter.objects.get(pk=meter.pk).amount, AuditEntry.objects.count()) == before
    Round.objects.filter(table=table).update(phase="settled")

    event = meters.reset_meter(meter.pk, manager, "a meter fault, ticket 42")
    meter.refresh_from_db()
    reseed = meter.spec().reseed_amount(meter.wager)
    assert meter.amount == reseed
    assert (event.kind, event.actor, event.reason) == ("reset", manager, "a meter fault, ticket 42")
    assert (event.amount_before, event.amount_after) == (seed + 12_345, reseed)
    audit = AuditEntry.objects.get(action="meter_reset")
    assert audit.actor == manager and audit.details["reason"] == "a meter fault, ticket 42"
    assert ledger.verify() == [] and meters.verify() == []
    [line] = [
        m
        for m in backoffice.meter_report(timezone.now() - dt.timedelta(days=1), timezone.now())
        if m.meter.pk == meter.pk
    ]
    assert line.resets == 1


def test_the_reset_page_needs_the_permission() -> None:
    meter = _meter()
    url = reverse("admin:table_progressivemeter_reset", args=[meter.pk])
    client = Client()
    client.force_login(staff("compliance", "view_progressivemeter", "view_wagershift"))
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "because I can"}).status_code == 403
    assert not MeterEvent.objects.filter(kind="reset").exists()
    # The report shows it to the reader, who changes nothing.
    page = client.get(reverse("admin:backoffice_meters"))
    assert page.status_code == 200 and meter.name.encode() in page.content
    boss = Client()
    boss.force_login(staff("boss", "view_progressivemeter", "reset_meter"))
    assert boss.get(url).status_code == 200
    answer = boss.post(url, {"reason": ""})
    assert b"say why" in answer.content
    assert boss.post(url, {"reason": "meter fault ticket 7"}).status_code == 302
    assert MeterEvent.objects.filter(kind="reset", reason="meter fault ticket 7").exists()
