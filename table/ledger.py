"""Double-entry ledger in integer cents.

Every movement of money is a :class:`LedgerTransaction` whose entries sum to zero. Player
accounts never go below zero; the table bankroll (house-banked) and the cage (where demo
play money and credits come from) may. Account balances are cached on the row in the same
database transaction and :func:`verify` recomputes them from the entries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Count, Sum
from django.utils import timezone

from table.engine.round import Transfer

from . import fastsql
from .models import Account, Entry, LedgerTransaction, Round, Table

CAGE_NAME = "cage"


class InsufficientFunds(Exception):
    def __init__(self, player: str, needed: int, balance: int) -> None:
        self.code = "insufficient_funds"
        self.message = (
            f"not enough balance: this needs {needed / 100:,.2f} and {player} has "
            f"{balance / 100:,.2f}"
        )
        super().__init__(self.message)


def cage() -> Account:
    account, _ = Account.objects.get_or_create(name=CAGE_NAME, defaults={"kind": Account.CAGE})
    return account


def player_account(user: AbstractBaseUser) -> Account:
    account, _ = Account.objects.get_or_create(
        user=user, defaults={"kind": Account.PLAYER, "name": f"player:{user.get_username()}"}
    )
    return account


def table_bankroll(table: Table) -> Account:
    account, _ = Account.objects.get_or_create(
        table=table, defaults={"kind": Account.TABLE, "name": f"table:{table.pk}:{table.name}"}
    )
    return account


@dataclass(frozen=True)
class Posting:
    memo: str
    moves: Sequence[tuple[int, int]]  # (account id, amount added to it)
    box: int | None = None
    wager: str = ""


def post(
    postings: Sequence[Posting], table: Table | None = None, round: Round | None = None
) -> dict[int, int]:
    """Write postings; refuse (changing nothing) if a player account would go negative.

    Returns the new balance of every account touched. Must run inside the caller's
    ``transaction.atomic()``.
    """
    if not postings:
        return {}
    delta: dict[int, int] = defaultdict(int)
    for posting in postings:
        if sum(a for _, a in posting.moves) != 0:
            raise ValueError(f"unbalanced posting {posting}")
        for account_id, amount in posting.moves:
            delta[account_id] += amount
    # Lock the accounts in id order (no deadlock between two tables sharing a player).
    ids = sorted(delta)
    marks = ", ".join(["%s"] * len(ids))
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    found = fastsql.rows(
        f"SELECT {fastsql.col('id')}, kind, name, balance FROM {fastsql.table(Account)} "
        f"WHERE {fastsql.col('id')} IN ({marks}) ORDER BY {fastsql.col('id')}{lock}",
        ids,
    )
    balances = {r[0]: r[3] for r in found}
    for account_id, kind, name, balance in found:
        if kind == Account.PLAYER and balance + delta[account_id] < 0:
            raise InsufficientFunds(name.removeprefix("player:"), -delta[account_id], balance)
    now = fastsql.when(timezone.now())
    tx_ids = fastsql.insert_many(
        LedgerTransaction,
        ["created", "memo", "table_id", "round_id", "box", "wager"],
        [
            (now, p.memo, table.pk if table else None, round.pk if round else None, p.box, p.wager)
            for p in postings
        ],
        returning=True,
    )
    fastsql.insert_many(
        Entry,
        ["transaction_id", "account_id", "amount"],
        [
            (tx, account_id, amount)
            for tx, posting in zip(tx_ids, postings, strict=True)
            for account_id, amount in posting.moves
            if amount
        ],
        returning=False,
    )
    changes = {a: d for a, d in delta.items() if d}
    if changes:
        # One UPDATE for every account touched (the rows are locked above).
        cases = " ".join(f"WHEN {int(a)} THEN {int(d)}" for a, d in changes.items())
        marks = ", ".join(["%s"] * len(changes))
        fastsql.run(
            f"UPDATE {fastsql.table(Account)} SET balance = balance + CASE {fastsql.col('id')} "
            f"{cases} ELSE 0 END WHERE {fastsql.col('id')} IN ({marks})",
            list(changes),
        )
    return {a: balances[a] + delta[a] for a in delta}


def post_transfers(
    transfers: Iterable[Transfer],
    table: Table,
    round: Round | None,
    accounts_by_player: dict[str, int],
    bankroll: int,
) -> dict[int, int]:
    """Turn the engine's transfers (player <-> table) into ledger postings."""
    postings = []
    for t in transfers:
        player = accounts_by_player[t.player]
        # amount > 0: the player stakes money on the table; < 0: the table pays the player.
        postings.append(
            Posting(t.memo, ((player, -t.amount), (bankroll, t.amount)), t.box, t.wager or "")
        )
    return post(postings, table, round)


def accounts_for(table: Table, players: Iterable[str]) -> tuple[dict[str, int], int]:
    """Account ids of these players (by username) and of the table's bankroll, in one query
    (creating any that do not exist yet)."""
    wanted = sorted(set(players))
    found: dict[str, int] = {}
    bankroll = None
    users = get_user_model()._meta.db_table
    marks = ", ".join(["%s"] * len(wanted)) or "NULL"
    for pk, table_id, username in fastsql.rows(
        f"SELECT a.id, a.table_id, u.username FROM {fastsql.table(Account)} a "
        f"LEFT JOIN {fastsql.col(users)} u ON u.id = a.user_id "
        f"WHERE a.table_id = %s OR u.username IN ({marks})",
        [table.pk, *wanted],
    ):
        if table_id == table.pk:
            bankroll = pk
        elif username in wanted:
            found[username] = pk
    if bankroll is None:
        bankroll = table_bankroll(table).pk
    for name in set(wanted) - set(found):
        user = get_user_model().objects.get(username=name)
        found[name] = player_account(user).pk
    return found, bankroll


def credit(user: AbstractBaseUser, amount: int, memo: str = "credit") -> None:
    """Move play money from the cage to a player (admin action, demo balances)."""
    if not isinstance(amount, int) or amount <= 0:
        raise ValueError("a credit is a positive number of cents")
    with transaction.atomic():
        post([Posting(memo, ((cage().pk, -amount), (player_account(user).pk, amount)))])


def verify() -> list[str]:
    """Every discrepancy in the ledger, in plain words (empty when it balances)."""
    problems: list[str] = []
    unbalanced = (
        Entry.objects.values("transaction_id")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
        .order_by("transaction_id")
    )
    for row in unbalanced[:20]:
        problems.append(f"transaction {row['transaction_id']} entries sum to {row['total']}, not 0")
    empty = LedgerTransaction.objects.annotate(n=Count("entries")).filter(n__lt=2)
    for tx in empty[:20]:
        problems.append(f"transaction {tx.pk} ({tx.memo}) has fewer than two entries")
    sums = dict(Entry.objects.values_list("account_id").annotate(total=Sum("amount")))
    for account in Account.objects.all():
        expected = sums.get(account.pk, 0) or 0
        if account.balance != expected:
            problems.append(
                f"account {account.name} shows {account.balance} but its entries sum to {expected}"
            )
        if account.kind == Account.PLAYER and account.balance < 0:
            problems.append(f"player account {account.name} is negative: {account.balance}")
    total = Account.objects.aggregate(t=Sum("balance"))["t"] or 0
    if total != 0:
        problems.append(f"all balances sum to {total}, not 0: money was created or lost")
    return problems
