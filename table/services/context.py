"""What every table command works with: its :class:`Context` (the table as read under the
lock, the round, the events and the money moved so far), the :class:`Result` it answers with,
and the :class:`ServiceError` a refused command raises; with the two helpers every kind of
command uses on a context (the audit log, the clock's deadlines in milliseconds).

The bottom of the package: every other module here imports it, it imports none of them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from table.games.events import PUBLIC, Event, Step
from table.games.four_card_frenzy.round import Round as EngineRound
from table.games.four_card_frenzy.rules import TableRules

from .. import duties, fastsql, ledger
from ..broadcast import Publication
from ..models import Round, Table


class ServiceError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Result:
    version: int
    response: dict[str, Any]
    replayed: bool = False
    #: Set when the caller publishes the events itself (``execute(..., publish=False)``).
    publication: Publication | None = None


@dataclass
class Context:
    """What one command works on, and what it has done so far."""

    table: Table
    actor: str
    now: dt.datetime
    round_row: Round | None = None
    engine: EngineRound | None = None
    events: list[Event] = field(default_factory=list)
    accounts: dict[str, int] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)  # players whose balance changed
    balances: dict[int, int] = field(default_factory=dict)  # account id -> new balance
    bankroll: int | None = None
    held: ledger.Held = field(default_factory=dict)  # accounts locked by this command
    #: The current round's (phase, state) as read with the table row.
    stored_round: tuple[str, Any] | None = None
    #: box -> (user id, username) of the seats as read with the table row.
    seats: dict[int, tuple[int, str]] = field(default_factory=dict)
    #: The ids of the dealers assigned to the table, as read with the table row.
    dealers: frozenset[int] = frozenset()
    #: The dealer or staff user running a dealer command (None: the house's clock).
    dealer: AbstractBaseUser | None = None

    @property
    def rules(self) -> TableRules:
        return self.table.rules.to_table_rules()

    def load_round(self) -> EngineRound | None:
        if self.engine is None and self.table.current_round_id:
            found = self.stored_round
            if found is None:
                found = fastsql.one(
                    f"SELECT phase, state FROM {fastsql.table(Round)} WHERE id = %s",
                    [self.table.current_round_id],
                )
            assert found is not None
            # A stand-in row (id and phase): enough to point at, and _save_round writes it.
            self.round_row = Round(id=self.table.current_round_id, phase=found[0])
            self.engine = EngineRound.from_dict(fastsql.loads(found[1]))
        return self.engine

    def live_round(self) -> EngineRound:
        rnd = self.load_round()
        if rnd is None or rnd.finished:
            raise ServiceError("no_round", "no round is in play: open betting first")
        return rnd

    def apply(self, step: Step) -> None:
        """Record a step's events and post its money now (so balance checks see it)."""
        self.events.extend(step.events)
        if not step.transfers:
            return
        players = {t.player for t in step.transfers}
        missing = players - set(self.accounts)
        if missing or self.bankroll is None:
            found, self.bankroll, held = ledger.lock_for_table(self.table, missing)
            self.accounts.update(found)
            for account_id, account in held.items():
                self.held.setdefault(account_id, account)
        self.balances.update(
            ledger.post_transfers(
                step.transfers, self.table, self.round_row, self.accounts, self.bankroll, self.held
            )
        )
        self.moved |= players

    def note(self, kind: str, data: dict[str, Any], audience: str = PUBLIC) -> None:
        self.events.append(Event(kind, data, audience))


def _deadline_ms(moment: dt.datetime | None) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def _audit(ctx: Context, action: str, details: dict[str, Any]) -> None:
    """The command's privileged action into the audit log, in its transaction."""
    round_id = ctx.round_row.pk if ctx.round_row is not None else None
    duties.record(
        ctx.dealer, action, details, table_id=ctx.table.pk, round_id=round_id, when=ctx.now
    )
