"""Double-entry ledger in integer cents.

Every movement of money is a :class:`LedgerTransaction` whose entries sum to zero. Player
accounts never go below zero; the table bankroll (house-banked) and the cage (where demo
play money and credits come from) may. Account balances are cached on the row in the same
database transaction and :func:`verify` recomputes them from the entries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Count, Sum
from django.utils import timezone

from table.games.events import Transfer

from . import duties, fastsql
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


class CreditRefused(Exception):
    """A credit player protection refuses: an excluded or suspended player, or a credit
    limit (§814a.2(1))."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def cage() -> Account:
    account, _ = Account.objects.get_or_create(name=CAGE_NAME, defaults={"kind": Account.CAGE})
    return account


def player_account(user: User) -> Account:
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


#: An account as locked for a command: (kind, name, balance).
Held = dict[int, tuple[str, str, int]]


def post(
    postings: Sequence[Posting],
    table: Table | None = None,
    round: Round | None = None,
    held: Held | None = None,
    session: int | None = None,
) -> dict[int, int]:
    """Write postings; refuse (changing nothing) if a player account would go negative.

    Returns the new balance of every account touched. Must run inside the caller's
    ``transaction.atomic()``. ``held``: accounts the caller already locked in this
    transaction (see :func:`lock_for_table`), with their balances, kept up to date here;
    any other account is locked now.
    """
    if not postings:
        return {}
    delta: dict[int, int] = defaultdict(int)
    for posting in postings:
        if sum(a for _, a in posting.moves) != 0:
            raise ValueError(f"unbalanced posting {posting}")
        for account_id, amount in posting.moves:
            delta[account_id] += amount
    known: Held = held if held is not None else {}
    missing = sorted(set(delta) - set(known))
    if missing:
        # Lock the accounts in id order (no deadlock between two tables sharing a player).
        for account_id, kind, name, balance in fastsql.rows(
            fastsql.lock_accounts(len(missing)), missing
        ):
            known[account_id] = (kind, name, balance)
    for account_id in sorted(delta):
        kind, name, balance = known[account_id]
        if kind == Account.PLAYER and balance + delta[account_id] < 0:
            raise InsufficientFunds(name.removeprefix("player:"), -delta[account_id], balance)
    now = fastsql.when(timezone.now())
    transactions = [
        (
            now,
            p.memo,
            table.pk if table else None,
            round.pk if round else None,
            p.box,
            p.wager,
            session,
        )
        for p in postings
    ]
    entries = [
        (n, account_id, amount)
        for n, posting in enumerate(postings, start=1)
        for account_id, amount in posting.moves
        if amount
    ]
    if fastsql.vendor() == "postgresql":
        _write_postings(transactions, entries)
    else:
        tx_ids = fastsql.insert_many(
            LedgerTransaction,
            ["created", "memo", "table_id", "round_id", "box", "wager", "session_id"],
            transactions,
            returning=True,
        )
        fastsql.insert_many(
            Entry,
            ["transaction_id", "account_id", "amount"],
            [(tx_ids[n - 1], account_id, amount) for n, account_id, amount in entries],
            returning=False,
        )
    changes = {a: d for a, d in delta.items() if d}
    if changes:
        # One UPDATE for every account touched (the rows are locked above).
        fastsql.write(fastsql.add_to_balances(changes), fastsql.add_to_balances_params(changes))
    for account_id, amount in delta.items():
        kind, name, balance = known[account_id]
        known[account_id] = (kind, name, balance + amount)
    return {a: known[a][2] for a in delta}


def _write_postings(
    transactions: Sequence[tuple[object, ...]], entries: Sequence[tuple[int, int, int]]
) -> None:
    """PostgreSQL: the transactions and their entries in one statement (so it can travel
    with the command's other writes): the new transaction ids, numbered in the order of
    ``transactions`` (a sequence hands them out in row order), join the entries' numbers."""
    fastsql.write(
        fastsql.postings(len(transactions), len(entries)),
        [p for row in transactions for p in row] + [p for row in entries for p in row],
    )


def post_transfers(
    transfers: Iterable[Transfer],
    table: Table,
    round: Round | None,
    accounts_by_player: dict[str, int],
    bankroll: int,
    held: Held | None = None,
    session: int | None = None,
) -> dict[int, int]:
    """Turn the engine's transfers (player <-> table) into ledger postings."""
    postings = []
    for t in transfers:
        player = accounts_by_player[t.player]
        # amount > 0: the player stakes money on the table; < 0: the table pays the player.
        postings.append(
            Posting(t.memo, ((player, -t.amount), (bankroll, t.amount)), t.box, t.wager or "")
        )
    return post(postings, table, round, held, session)


@dataclass
class Locked:
    """What :func:`lock_for_table` read with the locks, besides the balances: each player's
    open sessions' figures since login (session id -> (net, wagered)), and with ``guard``,
    the player protection row (``fastsql.lock_table_accounts``'s guard columns), by
    username."""

    sessions: dict[str, dict[int, tuple[int, int]]]
    guard: dict[str, tuple[object, ...]]


def lock_for_table(
    table: Table, players: Iterable[str], guard: Sequence[object] = ()
) -> tuple[dict[str, int], int, Held, Locked]:
    """Lock the table's bankroll and these players' accounts (by username), in id order, in
    one round trip (creating any that do not exist yet): their ids, the bankroll's id, each
    locked account's (kind, name, balance) for :func:`post`, and what came with the locks
    (:class:`Locked`; ``guard``: the seven dates of ``fastsql.lock_table_accounts``, to read
    the players' protection too)."""
    wanted = sorted(set(players))
    found, bankroll, held, locked = read_locked(
        table.pk,
        wanted,
        fastsql.last_rows(
            fastsql.lock_table_accounts(len(wanted), bool(guard)),
            fastsql.lock_table_accounts_params(table.pk, wanted, guard),
        ),
        bool(guard),
    )
    if bankroll is None:
        bankroll = table_bankroll(table).pk
    for name in set(wanted) - set(found):
        user = get_user_model().objects.get(username=name)
        found[name] = player_account(user).pk
    # Accounts made just now are locked (and read) by post() when it first needs them.
    return found, bankroll, held, locked


def read_locked(
    table_id: int, wanted: Sequence[str], rows: Iterable[tuple[Any, ...]], guard: bool
) -> tuple[dict[str, int], int | None, Held, Locked]:
    """What :func:`lock_for_table` makes of the rows of ``fastsql.lock_table_accounts``:
    the players' account ids found (by username), the bankroll's id (None: not found), each
    locked account's (kind, name, balance), and what came with the locks."""
    found: dict[str, int] = {}
    held: Held = {}
    locked = Locked({}, {})
    bankroll = None
    for row in rows:
        pk, of_table, username, kind, name, balance, sessions = row[:7]
        held[pk] = (kind, name, balance)
        if of_table == table_id:
            bankroll = pk
        elif username in wanted:
            found[username] = pk
            locked.sessions[username] = {
                int(s): (int(net), int(wagered))
                for s, net, wagered in (fastsql.loads(sessions) if sessions else [])
            }
            if guard:
                locked.guard[username] = row[7:]
    return found, bankroll, held, locked


def credit(
    user: User, amount: int, memo: str = "credit", by: User | None = None
) -> None:
    """Move play money from the cage to a player: a cashier's action (``by``, who needs the
    credit permission and may not credit themselves), or the house's (demo balances, ``by``
    None). Either way it is in the audit log, in the same transaction."""
    if not isinstance(amount, int) or amount <= 0:
        raise ValueError("a credit is a positive number of cents")
    if by is not None:
        problem = duties.credit_problem(by, user)
        if problem:
            # The refused attempt is in the audit log (nothing else happens).
            duties.refused(by, "credit", problem, {"player": user.get_username(), "amount": amount})
            raise duties.DutyError("credit_refused", problem)
    from .protection import guard

    with transaction.atomic():
        account = player_account(user)
        held: Held = {}
        # The player's account locked first: protection counts this credit with any other
        # made at the same time (§814a.2(1)), and refuses an excluded or suspended player.
        for account_id, kind, name, balance in fastsql.rows(fastsql.lock_accounts(1), [account.pk]):
            held[account_id] = (kind, name, balance)
        now = timezone.now()
        try:
            guard.check_credit(user.pk, account.pk, amount, now)
        except guard.Refused as exc:
            raise CreditRefused(exc.code, exc.message) from exc
        post([Posting(memo, ((cage().pk, -amount), (account.pk, amount)))], held=held)
        guard.add_credit(account.pk, amount, now)
        duties.record(by, "credit", {"player": user.get_username(), "amount": amount, "memo": memo})


@contextmanager
def consistent_read() -> Iterator[None]:
    """Several reads that see the database at one moment: a check run on a live system (the
    ledger's, the meters') reads the entries and then the balances, and a command that commits
    between the two would show as a discrepancy that is not one (a bench's last "leave",
    still running on the server after its client went, did: 2 accounts "off" by its stake).

    On PostgreSQL the outermost transaction is REPEATABLE READ (one snapshot for all its
    statements; read only, it waits for no lock and makes none wait); inside a caller's
    transaction, that transaction's own reads. On SQLite a transaction's reads hold one read
    snapshot (or its shared lock) from the first to the end."""
    outermost = connection.get_autocommit()
    with transaction.atomic():
        if outermost and fastsql.vendor() == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def verify() -> list[str]:
    """Every discrepancy in the ledger, in plain words (empty when it balances), as of one
    moment (:func:`consistent_read`)."""
    with consistent_read():
        return _discrepancies()


def _discrepancies() -> list[str]:
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
