"""The ledger's and the meters' checks read the database at one moment: a command that
commits while a check runs on a live system is either wholly in what it read or wholly out,
never a discrepancy that is not one (bench_flood's last "leave", still running on the server
after its client went, showed as 2 accounts "off" by its stake). PostgreSQL: real
concurrency, a second connection commits between the check's reads."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.db import connection

from table import ledger, meters
from table.models import Account

pytestmark = [
    pytest.mark.realstack,
    pytest.mark.django_db(transaction=True),
    # Threads share one SQLite connection in tests: the real-stack pass runs these.
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs DATABASE_URL (PostgreSQL): the real-stack pass",
    ),
]


def credit_elsewhere(user: Any, amount: int) -> None:
    """A credit committed by another connection (its own thread), now."""

    def run() -> None:
        try:
            ledger.credit(user, amount, "committed during the check")
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()


class AccountsAfterACommit:
    """``Account`` for the check, whose accounts are read only after another connection
    committed a credit: after the entries were summed, before the balances are read."""

    PLAYER = Account.PLAYER

    def __init__(self, user: Any) -> None:
        self.user = user
        self.objects = self

    def all(self) -> Any:
        ledger.Account = Account  # type: ignore[misc]  # the credit itself reads accounts
        try:
            credit_elsewhere(self.user, 7_00)
        finally:
            ledger.Account = self  # type: ignore[misc, assignment]
        return Account.objects.all()

    def aggregate(self, **kw: Any) -> Any:
        return Account.objects.aggregate(**kw)


def test_a_credit_committed_between_the_checks_reads_is_not_a_discrepancy(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert connection.vendor == "postgresql"
    ledger.credit(alice, 100_00, "before the check")
    before = ledger.player_account(alice).balance
    monkeypatch.setattr(ledger, "Account", AccountsAfterACommit(alice))
    assert ledger.verify() == []
    monkeypatch.undo()
    # The credit did commit (the check just did not see it), and the ledger balances with it.
    assert ledger.player_account(alice).balance == before + 7_00
    assert ledger.verify() == [] and meters.verify() == []


def test_one_snapshot_for_every_read_of_the_check(alice: Any) -> None:
    assert connection.vendor == "postgresql"
    ledger.credit(alice, 100_00, "before the check")
    with ledger.consistent_read():
        before = ledger.player_account(alice).balance
        credit_elsewhere(alice, 5_00)
        assert ledger.player_account(alice).balance == before  # the moment the check began
    assert ledger.player_account(alice).balance == before + 5_00
