"""Plain SQL for the few statements every table command runs, and only here.

The ORM costs about a millisecond of Python per statement here, which at a busy table
server is most of a command's time; these are the same statements written once, portable
between SQLite and PostgreSQL (placeholders and JSON as text; PostgreSQL casts the text).
Every hand-written statement of the command path is built in this module (the functions
under "The command path's statements": the locked read, the round's and the table's
updates, the ledger's locks, postings and balances); the callers pass values only.

On PostgreSQL each of those statements is also *prepared*: the first time a connection
sends one it goes as ``PREPARE fsN_1 AS ...`` ahead of the batch, and from then on as
``EXECUTE fsN_1(...)`` with its values (:func:`_compose`). Without it PostgreSQL parsed and
planned every statement of every command again: planning was 54% of the database's time at
100 tables (pg_stat_statements, 2026-11-27: 29.3 of 54.3 s; the locked read alone 1.7 of its
2.2 ms), CPU that the table server shares with it on a small host (issue 26).

One module, past 500 lines, because it is one room: every statement the command path writes
by hand, and the one way they are bound, batched and sent.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache, wraps
from typing import Any, TypeVar, cast

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model
from psycopg.adapt import Transformer

_vendors: dict[str, str] = {}


def vendor() -> str:
    """``connection.vendor``, read once per database engine of the process: every read of
    ``connection`` goes through Django's proxy to the thread's own connection (an asgiref
    ``Local``: ~2.2 us here), and the command path asked it ~25 times a command (issue 26).
    The engine is the settings' (a dict), so a process whose settings name another engine
    gets that engine's vendor."""
    engine = connections.settings[DEFAULT_DB_ALIAS]["ENGINE"]
    known = _vendors.get(engine)
    if known is None:
        known = _vendors[engine] = connection.vendor
    return known


@lru_cache(maxsize=256)
def _quoted(vendor: str, name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[Model]) -> str:
    return _quoted(vendor(), model._meta.db_table)


def col(name: str) -> str:
    return _quoted(vendor(), name)


_Statement = TypeVar("_Statement", bound=Callable[..., str])


#: Each statement of every text this module's builders made (:func:`_prepared`): on
#: PostgreSQL those are prepared on a connection at their first use. Their number is bounded
#: (the builders' caches; the counts in a text, of rows or players, are a table's): a builder
#: takes its values as parameters, never written into its text.
_PREPARABLE: set[str] = set()
#: On (the default) unless the environment says ``FRENZY_PREPARED_STATEMENTS=0``: a
#: deployment whose connections go through a pool in transaction mode (PgBouncer's), where
#: a session's prepared statement may be on another server connection, turns it off.
PREPARE = os.environ.get("FRENZY_PREPARED_STATEMENTS", "1") != "0"
#: At most this many statements prepared on one connection (each holds its plan in the
#: server's memory); past it a statement goes out bound, as without preparing.
MOST_PREPARED = 300
#: Each preparable statement's number in the process (its text -> n), and its PREPARE's body
#: by number: a statement is prepared as ``fs<n>_<attempt>`` (:func:`_compose`), and
#: :func:`readable` shows what a name stands for.
_numbers: dict[str, int] = {}
_bodies: dict[int, str] = {}
_next_number = itertools.count(1)
_PLACEHOLDER = re.compile(r"%[%s]")


def _prepared(text: str) -> str:
    """``text`` (one statement, or several joined by ``;\\n``), noted as the builders' own:
    each of its statements is prepared on PostgreSQL (:func:`_compose`)."""
    _PREPARABLE.update(text.split(";\n"))
    return text


def _noted(build: _Statement) -> _Statement:
    """A builder whose texts are prepared on PostgreSQL (under its own ``lru_cache``)."""

    @wraps(build)
    def text(*args: Any) -> str:
        return _prepared(build(*args))

    return cast(_Statement, text)


def _built_once(build: _Statement) -> _Statement:
    """A statement's text built once per database vendor and arguments (a list argument is
    taken as a tuple), not again for each command: building it cost as much as a small
    statement's round trip's Python (``lock_table_accounts``: 0.9% of the process at 100
    tables, issue 26), and the same text object hashes once for :func:`_template`'s cache.
    On PostgreSQL it is prepared (:func:`_prepared`)."""
    kept = lru_cache(maxsize=512)(lambda vendor, *args: _prepared(build(*args)))

    @wraps(build)
    def text(*args: Any) -> str:
        return kept(vendor(), *(tuple(a) if isinstance(a, list) else a for a in args))

    return cast(_Statement, text)


@contextmanager
def _executed(sql: str, params: Sequence[Any]) -> Iterator[Any]:
    """A cursor that ran ``sql`` with ``params``, at its first statement's result. On
    PostgreSQL the text goes out composed (:func:`_compose`: the builders' statements
    prepared, the rest bound here), past the results of the PREPAREs that lead it."""
    with connection.cursor() as cursor:
        if vendor() == "postgresql":
            text, new = _compose(cursor, [(sql, params)])
            if text is None:
                cursor.execute(sql, params)
            else:
                cursor.execute(text)
                _remember(cursor, new)
                for _ in new:
                    cursor.nextset()
        else:
            cursor.execute(sql, params)
        yield cursor


def one(sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
    with _executed(sql, params) as cursor:
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def last_one(sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
    """The first row of the last statement of ``sql`` (several statements, one round trip;
    PostgreSQL only when there are several)."""
    with _executed(sql, params) as cursor:
        if vendor() == "postgresql":
            while cursor.nextset():
                pass
        row = cursor.fetchone()
    return tuple(row) if row is not None else None


def last_rows(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of the last statement of ``sql`` (several statements, one round trip;
    PostgreSQL only when there are several)."""
    with _executed(sql, params) as cursor:
        if vendor() == "postgresql":
            while cursor.nextset():
                pass
        return [tuple(r) for r in cursor.fetchall()]


def result_sets(sql: str, params: Sequence[Any] = ()) -> list[list[tuple[Any, ...]]]:
    """The rows of every statement of ``sql``, each a SELECT (several statements, one round
    trip: PostgreSQL only), in order."""
    found = []
    with _executed(sql, params) as cursor:
        while True:
            found.append([tuple(r) for r in cursor.fetchall()])
            if not cursor.nextset():
                break
    return found


def rows(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    with _executed(sql, params) as cursor:
        return [tuple(r) for r in cursor.fetchall()]


def run(sql: str, params: Sequence[Any] = ()) -> None:
    with _executed(sql, params):
        pass


_pending = threading.local()


@contextmanager
def batched_writes() -> Iterator[None]:
    """Hold the writes made through :func:`write` and send them together at :func:`flush`.

    On PostgreSQL a command's writes (ledger, round, events, table, command record) then
    cost one round trip instead of one each: the driver binds parameters client-side, so
    several statements travel in one query string. Nothing reads these rows back before
    the command commits. SQLite has no round trip to save (and runs one statement per
    call): there each write runs at once.
    """
    if vendor() != "postgresql":
        yield
        return
    outer = getattr(_pending, "writes", None)
    _pending.writes = []
    try:
        yield
    finally:
        _pending.writes = outer


def write(sql: str, params: Sequence[Any] = ()) -> None:
    """A statement whose result nobody reads: held for :func:`flush` inside
    :func:`batched_writes`, run at once otherwise."""
    writes = getattr(_pending, "writes", None)
    if writes is None:
        run(sql, params)
    else:
        writes.append((sql, params))


def flush(commit: bool = False) -> None:
    """Send the held writes, in the order they were made, as one query; with ``commit``, the
    COMMIT travels in the same query (the caller's outermost ``atomic()`` then finds the
    transaction already committed: the driver's commit() does nothing on an idle connection)."""
    writes = getattr(_pending, "writes", None)
    if not writes:
        return
    _pending.writes = []
    with connection.cursor() as cursor:
        text, new = _compose(cursor, writes, commit)
        if text is None:
            # bind writes text as UTF-8: on any other client encoding, the driver binds it all.
            literal = Transformer.from_context(cursor.cursor).as_literal
            statements = [
                _template(sql) % tuple(b"NULL" if p is None else literal(p) for p in params)
                for sql, params in writes
            ]
            if commit:
                statements.append(b"COMMIT")
            cursor.execute(b";\n".join(statements).decode())
        else:
            cursor.execute(text)
            _remember(cursor, new)


def _compose(
    cursor: Any, batch: Sequence[tuple[str, Sequence[Any]]], commit: bool = False
) -> tuple[str | None, dict[str, bytes]]:
    """PostgreSQL: the ``batch`` of statements as one query text, every value bound
    (:func:`bind`: the joined text goes out with no parameters left for the driver to find),
    and the statements prepared on this connection by it (template -> name), to be
    remembered once the text has run (:func:`_remember`).

    Each statement a builder of this module made (:data:`_PREPARABLE`) goes as ``EXECUTE
    name(values)``; the first time on a connection, its ``PREPARE name AS ...`` leads the
    text (one result each, before the statements' own). PostgreSQL then parses it once per
    connection and, after a few runs, plans it once (its plan cache's generic plan). A
    prepared statement outlives a rollback (PostgreSQL's are not transactional); one
    whose text failed is not remembered and is prepared again under a new name (the
    failed one, if it was made, stays unused). None (and nothing prepared): a connection
    whose client encoding is not UTF-8 (the caller lets the driver bind it all)."""
    pg = cursor.cursor
    if pg.connection.info.encoding != "utf-8":
        return None, {}
    literal = Transformer.from_context(pg).as_literal
    known, attempts = _known(pg.connection) if PREPARE else (None, {})
    seen: dict[int, bytes] = {}
    new: dict[str, bytes] = {}
    prepares: list[bytes] = []
    statements: list[bytes] = []
    for sql, params in batch:
        # The set first: a builder's text hashes once; only another text is searched.
        if known is None or sql not in _PREPARABLE and ";\n" not in sql:
            statements.append(bind(literal, sql, params, seen))
            continue
        offset = 0
        for part, count, body in _parts(sql):
            values = params[offset : offset + count]
            offset += count
            name = None if body is None else known.get(part) or new.get(part)
            if name is None and body is not None and len(known) + len(new) < MOST_PREPARED:
                # A new name on each attempt on this connection: one that ran in a text that
                # then failed may exist (unremembered) and cannot be prepared again.
                attempt = attempts[part] = attempts.get(part, 0) + 1
                name = new[part] = b"fs%d_%d" % (_number(part, body), attempt)
                prepares.append(b"PREPARE " + name + b" AS " + body)
            if name is None:  # not a builder's, or the connection holds its most
                statements.append(bind(literal, part, values, seen))
            elif values:
                args = _literals(literal, values, seen)
                statements.append(b"EXECUTE " + name + b"(" + b", ".join(args) + b")")
            else:
                statements.append(b"EXECUTE " + name)
    if commit:
        statements.append(b"COMMIT")
    return b";\n".join(prepares + statements).decode(), new


def _known(pg_connection: Any) -> tuple[dict[str, bytes], dict[str, int]]:
    """The statements prepared on this driver connection (text -> name) and how often each
    was tried: kept on the connection object, so a connection Django opens anew starts with
    none."""
    found = getattr(pg_connection, "_frenzy_prepared", None)
    if found is None:
        found = pg_connection._frenzy_prepared = ({}, {})
    return cast(tuple[dict[str, bytes], dict[str, int]], found)


def _number(part: str, body: bytes) -> int:
    number = _numbers.get(part)
    if number is None:
        number = _numbers.setdefault(part, next(_next_number))
        _bodies[number] = body.decode()
    return number


_EXECUTE = re.compile(r"EXECUTE fs(\d+)_\d+(?:\(.*\))?", re.DOTALL)


def readable(sql: str) -> str:
    """A query text as sent (:func:`_compose`) with each ``EXECUTE`` of a prepared statement
    shown as the statement it names (its values as ``$1``, ``$2``...) and its PREPAREs
    left out: for the tests and for reading a log of the statements sent."""
    shown = []
    for part in sql.split(";\n"):
        if part.startswith("PREPARE fs"):
            continue
        found = _EXECUTE.fullmatch(part)
        shown.append(_bodies[int(found.group(1))] if found else part)
    return ";\n".join(shown)


def _remember(cursor: Any, new: dict[str, bytes]) -> None:
    """The statements a text prepared, once it has run."""
    if new:
        _known(cursor.cursor.connection)[0].update(new)


@lru_cache(maxsize=1024)
def _parts(sql: str) -> tuple[tuple[str, int, bytes | None], ...]:
    """The statements of ``sql`` (joined by ``;\\n``): each its text, its number of
    parameters, and, for one of the builders' (:data:`_PREPARABLE`), the body of its
    ``PREPARE`` (``%s`` numbered ``$1``, ``$2``..., ``%%`` a plain ``%``); None for another."""
    found = []
    for part in sql.split(";\n"):
        pieces = _PLACEHOLDER.split(part)
        marks = _PLACEHOLDER.findall(part)
        count = marks.count("%s")
        body = None
        if part in _PREPARABLE:
            numbered, n = [pieces[0]], 0
            for mark, piece in zip(marks, pieces[1:], strict=True):
                n += mark == "%s"
                numbered += ["%" if mark == "%%" else f"${n}", piece]
            body = "".join(numbered).encode()
        found.append((part, count, body))
    return tuple(found)


def bind(
    literal: Any, sql: str, params: Sequence[Any], seen: dict[int, bytes] | None = None
) -> bytes:
    """``sql`` with its ``%s`` placeholders filled in with ``params`` as SQL literals: what the
    driver's own ``literal`` (``mogrify``) writes, byte for byte. The statements of this module
    use positional ``%s`` only, so their text is already the template the driver would make
    of it; the driver's parse of the text, which it caches only for statements of at most 50
    parameters (not a round's multi-row INSERTs), is skipped.

    The two kinds of value that are most of a command's parameters (integers, text: 85% of
    them in bench_commands' writes) are written here as the driver writes them, without a
    call into it each (its type lookup, its escaping's allocations: most of the binding's
    time, issue 26); every other value, and any text the driver would treat otherwise (a
    backslash, which it writes as E'...', a NUL, which it refuses), goes to ``literal``,
    once per object in ``seen`` (the batch's: the command's time is in most of its rows, and
    a time stamp is the driver's dearest literal, ~3.5 us)."""
    return _template(sql) % _literals(literal, params, {} if seen is None else seen)


def _literals(literal: Any, params: Sequence[Any], seen: dict[int, bytes]) -> tuple[bytes, ...]:
    """Each parameter as the driver's ``literal`` writes it (psycopg, on a UTF-8 connection:
    :func:`flush` checks): an integer as its digits, a negative one after a space (so that
    ``-%s`` never makes a ``--`` comment); a text with no backslash and no NUL in single
    quotes, each quote doubled (libpq's ``PQescapeLiteral``), its UTF-8 bytes; None as NULL.
    ``tests/services/test_fastsql_bind.py`` holds these to the driver's, hostile text too."""
    out: list[bytes] = []
    append = out.append
    for p in params:
        kind = type(p)  # not isinstance: a bool, an enum or any subclass is the driver's
        if kind is int:
            append(b"%d" % p if p >= 0 else b" %d" % p)
        elif kind is str and "\\" not in p and "\x00" not in p:
            try:
                append(b"'%s'" % p.replace("'", "''").encode())
            except UnicodeEncodeError:  # a lone surrogate: the driver's own refusal
                append(literal(p))
        elif p is None:
            append(b"NULL")
        else:
            # By identity: the batch holds every parameter until it is sent, so no id is reused.
            found = seen.get(id(p))
            if found is None:
                found = seen[id(p)] = literal(p)
            append(found)
    return tuple(out)


@lru_cache(maxsize=1024)
def _template(sql: str) -> bytes:
    return sql.encode()


def dumps(value: Any) -> str:
    """Compact JSON text: orjson's (several times faster than the standard library's, on the
    command path's every write and every frame a table sends); what orjson refuses (an
    integer past 64 bits, a key that is no string, int or float) goes through ``json``.
    Either is the same JSON to a reader; orjson writes non-ASCII characters as they are,
    not escaped."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


#: Every digit as "9" (a table for ``translate``, quicker than a regular expression): a run
#: of 19 of them or more may be an integer past 64 bits, which orjson reads as a float (losing
#: cents), not as ``json``'s exact integer.
_DIGITS = str.maketrans("0123456789", "9" * 10)
_DIGITS_BYTES = bytes.maketrans(b"0123456789", b"9" * 10)
_LONG = "9" * 19


def loads(value: Any) -> Any:
    """A JSON column as read back: PostgreSQL's driver decodes jsonb, SQLite gives text.
    Text is read by orjson (a command reads its round's whole state, its table's shoe and
    its rules this way, several times faster than the standard library's), unless it holds
    a number orjson would not read exactly (19 digits or more: ``json`` keeps every integer
    exact) or anything else it refuses (NaN, a lone surrogate): then by ``json``. The same
    values either way."""
    if isinstance(value, str):
        exact = _LONG not in value.translate(_DIGITS)
    elif isinstance(value, bytes):
        exact = _LONG.encode() not in value.translate(_DIGITS_BYTES)
    else:
        return value
    if exact:
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            pass
    return json.loads(value)


def when(value: dt.datetime | None) -> Any:
    """A time as the database takes it: PostgreSQL's driver adapts a datetime itself (Django's
    ``adapt_datetimefield_value`` there returns it as it is); SQLite's backend writes text."""
    if vendor() == "postgresql":
        return value
    return connection.ops.adapt_datetimefield_value(value)


def insert_many(
    model: type[Model], columns: Sequence[str], values: Sequence[Sequence[Any]], returning: bool
) -> list[int]:
    """One multi-row INSERT; with ``returning`` the new ids, in the order of ``values``."""
    if not values:
        return []
    sql = _insert(model, tuple(columns), len(values), returning)
    params = [p for v in values for p in v]
    if not returning:
        write(sql, params)
        return []
    return [r[0] for r in rows(sql, params)]


@_built_once
def _insert(model: type[Model], columns: tuple[str, ...], count: int, returning: bool) -> str:
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = f"INSERT INTO {table(model)} ({', '.join(col(c) for c in columns)}) VALUES " + ", ".join(
        [row] * count
    )
    return sql + " RETURNING " + col("id") if returning else sql


# --- the command path's statements --------------------------------------------------------
# Each one replaced ORM calls where `manage.py bench_load` measured the difference (README,
# "Measured"): the locked read is one round trip instead of five, the writes travel together.


@lru_cache(maxsize=4)
@_noted
def locked_read(vendor: str, table_columns: tuple[str, ...], rules_columns: tuple[str, ...]) -> str:
    """A command's read under the table's lock (table/services/command.py): the table row,
    its Rules Submission, the answer to the idempotency key, the current round, the seats,
    the dealers assigned, whether the dealer running it may credit, and the actor's player
    session, in one round trip. On PostgreSQL
    two statements travel together: the first waits for the row lock, the second reads (at
    READ COMMITTED a statement that waited for a lock would see the other tables as they
    were when it started waiting)."""
    from django.contrib.auth import get_user_model

    from .models import (
        CommandRecord,
        DealerAssignment,
        PlayerSession,
        Round,
        RulesSubmission,
        Seat,
        Table,
    )

    lock = ""
    if vendor == "postgresql":
        lock = f"SELECT id FROM {table(Table)} WHERE id = %s FOR UPDATE;\n"
        seat_list = "json_agg(json_build_array(s.box, s.player_id, u.username))"
        dealer_list = "json_agg(json_build_array(d.dealer_id, du.username))"
        session_row = "json_build_array(ps.ended, ps.last_active, ps.reality_answered)"
    else:
        session_row = "json_array(ps.ended, ps.last_active, ps.reality_answered)"
        seat_list = "json_group_array(json_array(s.box, s.player_id, u.username))"
        dealer_list = "json_group_array(json_array(d.dealer_id, du.username))"
    rules_cols = ", ".join(f"r.{col(c)}" for c in rules_columns)
    table_cols = ", ".join(f"t.{col(c)}" for c in table_columns)
    users = col(get_user_model()._meta.db_table)
    rounds = table(Round)
    return (
        f"{lock}SELECT {table_cols}, {rules_cols}, "
        f"(SELECT c.response FROM {table(CommandRecord)} c WHERE c.table_id = t.id "
        f"AND c.actor = %s AND c.{col('key')} = %s), "
        f"(SELECT c.request FROM {table(CommandRecord)} c WHERE c.table_id = t.id "
        f"AND c.actor = %s AND c.{col('key')} = %s), "
        f"(SELECT phase FROM {rounds} WHERE id = t.current_round_id), "
        f"(SELECT state FROM {rounds} WHERE id = t.current_round_id), "
        f"(SELECT {seat_list} FROM {table(Seat)} s JOIN {users} u ON u.id = s.player_id "
        "WHERE s.table_id = t.id), "
        # The dealers assigned to the table: a dealer command checks its dealer without a
        # round trip of its own (table/duties.py); their names for the console's round view.
        f"(SELECT {dealer_list} FROM {table(DealerAssignment)} d "
        f"JOIN {users} du ON du.id = d.dealer_id WHERE d.table_id = t.id), "
        # The player session the command came in, if it is the actor's (player protection,
        # table/protection/guard.py): when it ended, its last activity and reality check.
        # Whether the dealer running the command (by username; none for a player's) may
        # credit accounts now: the duties check of every dealer command (table/duties.py
        # ``clash``) rides the locked read instead of a statement of its own.
        f"(SELECT CASE WHEN {credits('cu')} THEN 1 ELSE 0 END FROM {users} cu "
        "WHERE cu.username = %s), "
        f"(SELECT {session_row} FROM {table(PlayerSession)} ps "
        f"JOIN {users} pu ON pu.id = ps.user_id WHERE ps.id = %s AND pu.username = %s) "
        f"FROM {table(Table)} t "
        f"JOIN {table(RulesSubmission)} r ON r.id = t.rules_id WHERE t.id = %s"
    )


@_built_once
def round_phase_and_state() -> str:
    """The current round's phase and stored state, by id."""
    from .models import Round

    return f"SELECT phase, state FROM {table(Round)} WHERE id = %s"


@_built_once
def round_update(stamps: Sequence[str]) -> str:
    """A round's state, phase and void reason, with the time stamps a change of phase sets
    (``stamps``: ``"dealt_at = COALESCE(dealt_at, %s)"`` and the like), by id."""
    from .models import Round

    return (
        f"UPDATE {table(Round)} SET state = %s, phase = %s, void_reason = %s"
        + "".join(", " + sql for sql in stamps)
        + " WHERE id = %s"
    )


@_built_once
def user_ids(count: int) -> str:
    """The (username, id) of ``count`` users by username."""
    from django.contrib.auth import get_user_model

    marks = ", ".join(["%s"] * count) or "NULL"
    users = col(get_user_model()._meta.db_table)
    return f"SELECT username, id FROM {users} WHERE username IN ({marks})"


@_built_once
def table_update() -> str:
    """Every field of a table row a command may change (not the clock owner's heartbeat,
    which another writer keeps), by id."""
    from .models import Table

    return (
        f"UPDATE {table(Table)} SET version = %s, last_hash = %s, is_open = %s, "
        "rules_id = %s, pending_rules_id = %s, shoe = %s, rounds_since_stub_count = %s, "
        "current_round_id = %s, betting_deadline = %s, turn_deadline = %s WHERE id = %s"
    )


@_built_once
def lock_accounts(count: int) -> str:
    """``count`` accounts by id, locked in id order (no deadlock between two tables sharing
    a player): id, kind, name, balance."""
    from .models import Account

    marks = ", ".join(["%s"] * count)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f"SELECT {col('id')}, kind, name, balance FROM {table(Account)} "
        f"WHERE {col('id')} IN ({marks}) ORDER BY {col('id')}{lock}"
    )


def add_to_balances(changes: dict[int, int]) -> str:
    """One UPDATE adding each change to its account's balance. Parameters:
    :func:`add_to_balances_params` (each account's id and change, then the ids)."""
    return _add_to_balances(len(changes))


def add_to_balances_params(changes: dict[int, int]) -> list[int]:
    return [*(v for pair in changes.items() for v in pair), *changes]


@_built_once
def _add_to_balances(count: int) -> str:
    """The statement for ``count`` accounts: prepared on PostgreSQL, so the amounts are
    parameters (written into the text, each command's would be a statement of its own)."""
    from .models import Account

    cases = " ".join(["WHEN %s THEN CAST(%s AS BIGINT)"] * count)
    marks = ", ".join(["%s"] * count)
    return (
        f"UPDATE {table(Account)} SET balance = balance + CASE {col('id')} "
        f"{cases} ELSE 0 END WHERE {col('id')} IN ({marks})"
    )


@_built_once
def postings(transactions: int, entries: int) -> str:
    """PostgreSQL: ``transactions`` ledger transactions and their ``entries`` in one
    statement; the new transaction ids, numbered in row order, join the entries' numbers."""
    from .models import Entry, LedgerTransaction

    tx_row = "(" + ", ".join(["%s"] * 7) + ")"
    # Typed: a prepared statement's parameters take their types from where they stand, and
    # a VALUES list standing alone gives them none (they would be text).
    entry_row = "(%s::bigint, %s::bigint, %s::bigint)"
    return (
        f"WITH tx AS (INSERT INTO {table(LedgerTransaction)} "
        "(created, memo, table_id, round_id, box, wager, session_id) VALUES "
        + ", ".join([tx_row] * transactions)
        + " RETURNING id), numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM tx) "
        f"INSERT INTO {table(Entry)} (transaction_id, account_id, amount) "
        "SELECT numbered.id, e.account_id, e.amount FROM (VALUES "
        + ", ".join([entry_row] * entries)
        + ") AS e (n, account_id, amount) JOIN numbered ON numbered.n = e.n"
    )


@_built_once
def lock_table_accounts(players: int, guard: bool = False) -> str:
    """A table's bankroll and ``players`` players' accounts (by username), locked in id
    order: id, table id, username, kind, name, balance, and each player's open sessions'
    figures since login (JSON [[session id, net, wagered], ...]: the balance the player is
    told comes with them, table/services/records.py).

    ``guard``: each player's protection too (table/protection/guard.py), so that a wager
    costs no round trip of its own for it: the user id, the guard's limits, cool-off,
    exclusion and reality-check interval, and the tallies of the day, the week and the
    month (JSON [wagered day, week, month, net day, week, month]). Parameters: with
    ``guard``, day, week start, month start, day, week start, month start, the earliest of
    those; then the table id and the usernames.

    On PostgreSQL, with players, two statements travel together (:func:`last_rows`): the
    first waits for the row locks, the second reads. At READ COMMITTED a statement that
    waited for a lock sees the locked rows as the last command left them but every other
    table (the tallies, the sessions) as it was when it started waiting: one statement would
    let two tables' wagers together pass a loss limit (§814a.2(2))."""
    from django.contrib.auth import get_user_model

    from .models import Account, PlayerSession

    users = get_user_model()._meta.db_table
    marks = ", ".join(["%s"] * players) or "NULL"
    postgres = vendor() == "postgresql"
    array, agg = (
        ("json_build_array", "json_agg") if postgres else ("json_array", "json_group_array")
    )
    accounts = f"FROM {table(Account)} a LEFT JOIN {col(users)} u ON u.id = a.user_id "
    # The accounts by id, found through two index lookups: "a.table_id = %s OR u.username IN"
    # filtered the join of every account with every user (two whole-table scans a wager,
    # growing with the casino's players; 0.38 ms at 700 accounts, issue 26).
    where = (
        f"WHERE a.id IN (SELECT {col('id')} FROM {table(Account)} WHERE table_id = %s "
        f"UNION ALL SELECT a2.id FROM {table(Account)} a2 JOIN {col(users)} u2 "
        f"ON u2.id = a2.user_id WHERE u2.username IN ({marks})) ORDER BY a.id"
    )
    sessions = (
        f"(SELECT {agg}({array}(s.id, s.net, s.wagered)) FROM {table(PlayerSession)} s "
        "WHERE s.user_id = a.user_id AND s.ended IS NULL)"
    )
    extra = joins = ""
    if guard:
        columns, joins = _guard_columns(array)
        extra = ", " + columns
    read = (
        f"SELECT a.id, a.table_id, u.username, a.kind, a.name, a.balance, {sessions}{extra} "
        f"{accounts}{joins}{where}"
    )
    if not postgres or not players:
        lock = " FOR UPDATE OF a" if connection.features.has_select_for_update_of else ""
        return read + lock
    return f"SELECT a.id {accounts}{where} FOR UPDATE OF a;\n{read}"


def lock_table_accounts_params(
    table_id: int, usernames: Sequence[str], guard: Sequence[Any] = ()
) -> list[Any]:
    """The parameters of :func:`lock_table_accounts` (``guard``: its seven dates)."""
    where = [table_id, *usernames]
    if vendor() == "postgresql" and usernames:
        return [*where, *guard, *where]
    return [*guard, *where]


@lru_cache(maxsize=16)
@_noted
def rollup_upsert(vendor: str, count: int) -> str:
    """``count`` roll-up rows (:class:`~table.models.WagerShift`) added to what the same
    (gaming day, shift, table, rules, wager) already holds, or inserted: one statement, in
    the settlement's batch of writes (table/rollup.py)."""
    from .models import WagerShift

    keys = ("gaming_day", "shift", "table_id", "rules_key", "wager")
    sums = ("lines", "handle", "handle_sq", "net", "net_sq", "net_handle", "paid", "wins")
    columns = (*keys, "game", "rules_submission_id", "rules", *sums)
    name = table(WagerShift)
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    adds = ", ".join(f"{col(s)} = {name}.{col(s)} + excluded.{col(s)}" for s in sums)
    return (
        f"INSERT INTO {name} ({', '.join(col(c) for c in columns)}) VALUES "
        + ", ".join([row] * count)
        + f" ON CONFLICT ({', '.join(col(k) for k in keys)}) DO UPDATE SET {adds}"
    )


# --- progressive meters (table/meters.py) ---------------------------------------------------

#: A meter's columns as a command reads them with its lock (:func:`table_meters`): every
#: column but ``created``, which no command uses.
METER_COLUMNS = (
    "id",
    "name",
    "kind",
    "paytable",
    "wager",
    "seed",
    "reseed",
    "primary_rate",
    "reserve_rate",
    "amount",
    "reserve",
    "version",
    "account_id",
)


@lru_cache(maxsize=4)
@_noted
def table_meters(vendor: str, lock: bool) -> str:
    """The meters linked to a table, in id order (:data:`METER_COLUMNS`), each with its ledger
    account's kind, name and balance, the table's current round, and whether that round has
    fed the meter already (an increment in its history): one statement where the meters
    store sent four (the links, the meters' lock, the increments of the round, the table's
    bankroll). With ``lock`` the meters' rows and their accounts are locked (``FOR UPDATE OF
    m, a``), in the meters' id order, as :func:`table.meters.lock_meters` locks them: a
    meter's account is only ever locked by whoever holds its meter, so locking it with its
    meter adds no wait and no deadlock, and the postings that follow lock nothing more.
    At READ COMMITTED the locked rows are read as the last writer left them (the amounts, the
    balances); the increments are the round's own, written only under its table's lock, which
    the command holds. Parameters: the table id three times."""
    from .models import Account, MeterEvent, ProgressiveMeter, Table

    links = table(ProgressiveMeter.tables.through)
    columns = ", ".join(f"m.{col(c)}" for c in METER_COLUMNS)
    locking = ""
    if lock and connection.features.has_select_for_update_of:
        locking = " FOR UPDATE OF m, a"
    current = f"(SELECT current_round_id FROM {table(Table)} WHERE id = %s)"
    return (
        f"SELECT {columns}, a.kind, a.name, a.balance, {current}, "
        f"EXISTS (SELECT 1 FROM {table(MeterEvent)} e WHERE e.meter_id = m.id "
        f"AND e.kind = '{MeterEvent.INCREMENT}' AND e.round_id = {current}) "
        f"FROM {table(ProgressiveMeter)} m JOIN {table(Account)} a ON a.id = m.account_id "
        f"WHERE m.id IN (SELECT progressivemeter_id FROM {links} WHERE table_id = %s) "
        f"ORDER BY m.id{locking}"
    )


@lru_cache(maxsize=2)
@_noted
def meter_bankroll_lock(vendor: str) -> str:
    """A table's bankroll, locked (id, kind, name, balance), if the table has a meter linked:
    what the meters' postings are made against (table/services/context.py ``_apply_meters``
    locks it first). A table with no meter locks nothing. Parameters: the table id twice."""
    from .models import Account, ProgressiveMeter

    links = table(ProgressiveMeter.tables.through)
    return (
        f"SELECT a.id, a.kind, a.name, a.balance FROM {table(Account)} a WHERE a.table_id = %s "
        f"AND EXISTS (SELECT 1 FROM {links} l WHERE l.table_id = %s) FOR UPDATE"
    )


@_built_once
def meter_update() -> str:
    """A meter's amount, reserve and version, by id (its row is locked)."""
    from .models import ProgressiveMeter

    return (
        f"UPDATE {table(ProgressiveMeter)} SET amount = %s, reserve = %s, version = %s "
        f"WHERE {col('id')} = %s"
    )


# --- player protection (table/protection/guard.py) ----------------------------------------


def _guard_columns(array: str) -> tuple[str, str]:
    """The select list and the join that read a player's protection with their account
    ``a``: user id, limits, cool-off, exclusion, its end, reality-check interval, and the
    tallies (JSON [wagered day, week, month, net day, week, month]; parameters: day, week
    start, month start, day, week start, month start, the earliest of those)."""
    from .models import PlayerGuard, PlayTally

    sums = ", ".join(
        f"COALESCE(SUM(CASE WHEN t.day >= %s THEN t.{what} ELSE 0 END), 0)"
        for what in ("wagered", "net")
        for _period in ("day", "week", "month")
    )
    columns = (
        "a.user_id, g.limits, g.cooloff_until, g.excluded, g.excluded_until, "
        f"g.reality_minutes, (SELECT {array}({sums}) FROM {table(PlayTally)} t "
        "WHERE t.account_id = a.id AND t.day >= %s)"
    )
    return columns, f"LEFT JOIN {table(PlayerGuard)} g ON g.user_id = a.user_id "


@lru_cache(maxsize=2)
@_noted
def guard_read(vendor: str) -> str:
    """A player's protection by username, as :func:`lock_table_accounts` reads it with the
    lock (``guard``): for a player whose account that lock did not read (made in the same
    command). Parameters: the seven dates, then the username."""
    from django.contrib.auth import get_user_model

    from .models import Account

    users = col(get_user_model()._meta.db_table)
    columns, join = _guard_columns("json_build_array" if vendor == "postgresql" else "json_array")
    return (
        f"SELECT {columns} FROM {table(Account)} a JOIN {users} u ON u.id = a.user_id "
        f"{join}WHERE u.username = %s"
    )


@_built_once
def tally_add(rows: int) -> str:
    """Add to ``rows`` players' tallies of a day (made at first use): (account id, day,
    wagered, net, credits) each."""
    from .models import PlayTally

    marks = ", ".join(["(%s, %s, %s, %s, %s)"] * rows)
    return (
        f"INSERT INTO {table(PlayTally)} (account_id, day, wagered, net, credits) VALUES {marks} "
        "ON CONFLICT (account_id, day) DO UPDATE SET wagered = "
        f"{table(PlayTally)}.wagered + excluded.wagered, net = {table(PlayTally)}.net + "
        f"excluded.net, credits = {table(PlayTally)}.credits + excluded.credits"
    )


@_built_once
def session_touch() -> str:
    """A session's last activity, now (an idle session is locked after 15 minutes)."""
    from .models import PlayerSession

    return f"UPDATE {table(PlayerSession)} SET last_active = %s WHERE {col('id')} = %s"


def session_add(changes: dict[int, tuple[int, int]]) -> str:
    """Add (net, wagered) to open sessions' figures since login, by session id. Parameters:
    :func:`session_add_params`."""
    return _session_add(len(changes))


def session_add_params(changes: dict[int, tuple[int, int]]) -> list[int]:
    """Each session's id and net, each one's id and wagered, then the ids."""
    return [
        *(v for s, (n, _w) in changes.items() for v in (s, n)),
        *(v for s, (_n, w) in changes.items() for v in (s, w)),
        *changes,
    ]


@_built_once
def _session_add(count: int) -> str:
    from .models import PlayerSession

    case = " ".join(["WHEN %s THEN CAST(%s AS BIGINT)"] * count)
    marks = ", ".join(["%s"] * count)
    return (
        f"UPDATE {table(PlayerSession)} SET net = net + CASE {col('id')} {case} ELSE 0 END, "
        f"wagered = wagered + CASE {col('id')} {case} ELSE 0 END "
        f"WHERE {col('id')} IN ({marks})"
    )


# --- the duties (table/duties.py) ------------------------------------------------------------


@lru_cache(maxsize=2)
def credits(alias: str) -> str:
    """The condition that the user row ``alias`` may credit accounts now: active, and a
    superuser or holding the permission directly or through a group
    (:func:`table.duties._credit_query`, the same test in plain SQL). Parameters: the
    permission's codename and app label, twice."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group, Permission
    from django.contrib.contenttypes.models import ContentType

    user_model = get_user_model()
    held = table(user_model.user_permissions.through)
    member = table(user_model.groups.through)
    granted = table(Group.permissions.through)
    perms, types = table(Permission), table(ContentType)
    permission = (
        f"JOIN {perms} p ON p.id = x.permission_id JOIN {types} ct ON ct.id = p.content_type_id "
        "WHERE p.codename = %s AND ct.app_label = %s"
    )
    return (
        f"{alias}.is_active AND ({alias}.is_superuser "
        f"OR EXISTS (SELECT 1 FROM {held} x {permission} AND x.user_id = {alias}.id) "
        f"OR EXISTS (SELECT 1 FROM {member} g JOIN {granted} x ON x.group_id = g.group_id "
        f"{permission} AND g.user_id = {alias}.id))"
    )


@lru_cache(maxsize=2)
@_noted
def may_credit(vendor: str) -> str:
    """Whether a user may credit accounts now (:func:`credits`), as one statement (the
    duties check of a command outside the locked read, and of a credit: table/duties.py).
    Parameters: user id, the permission's codename and app label, twice."""
    from django.contrib.auth import get_user_model

    users = table(get_user_model())
    return f"SELECT 1 FROM {users} u WHERE u.id = %s AND {credits('u')}"
