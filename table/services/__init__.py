"""One function per table command. Services own the transactions.

Each command: lock the table row (``select_for_update``; SQLite serialises writers with
IMMEDIATE transactions), return the first answer for a replayed idempotency key, refuse a
stale client version, load the round, call the game (``game.apply``), store the round, the
ledger entries and the events, bump the table version, and publish the events only after
commit.

A refused command raises :class:`ServiceError` and changes nothing: the transaction rolls
back and the in-memory engine objects are thrown away.

By concern, each module importing only those above it:

- :mod:`.context`: :class:`Context`, :class:`Result`, :class:`ServiceError`, the audit log;
- :mod:`.records`: what a command writes (the round, box records, the event chain, the table);
- :mod:`.command`: :func:`execute`, the locked read, idempotency, who runs a command;
- :mod:`.seats`: sit, stand, leave, presence;
- :mod:`.players`: a player's moves (bets, decisions, settings) for any game;
- :mod:`.takeover`: who deals, the automatic dealer or a dealer at the console;
- :mod:`.dealing`: the dealer's and the clock's commands, drills, decks, the stub, the table;
- :mod:`.rules`: Rules Submission changes and the notices players get.

Callers use ``services.X`` (or ``from table.services import X``) for the names below. The
shuffle's randomness is :data:`table.services.dealing.RANDOM`: tests patch it there.
"""

from ..broadcast import Publication
from .command import dealer_name, execute, fingerprint, player_name
from .context import Context, Result, ServiceError
from .dealing import (
    arm_fault,
    change_decks,
    close_table,
    count_stub,
    deal,
    dealer_card_exposed,
    fail_unfinished_round,
    no_more_bets,
    open_betting,
    open_table,
    restart_betting_clock,
    reveal,
    settle,
    supervisor_void,
    time_out,
    void_round,
)
from .more_time import more_time
from .players import PLAYER_MOVES, act, decide, place_bets, withdraw_bets
from .rules import change_rules, rules_edited
from .seats import GRACE_SECONDS, leave, set_connected, sit, stand
from .takeover import DEALER_STALE, claim_dealing, hand_back, release_dealing, take_over

__all__ = [
    "DEALER_STALE",
    "GRACE_SECONDS",
    "PLAYER_MOVES",
    "Context",
    "Publication",
    "Result",
    "ServiceError",
    "act",
    "arm_fault",
    "change_decks",
    "change_rules",
    "claim_dealing",
    "close_table",
    "count_stub",
    "deal",
    "dealer_card_exposed",
    "dealer_name",
    "decide",
    "execute",
    "fail_unfinished_round",
    "fingerprint",
    "hand_back",
    "leave",
    "no_more_bets",
    "open_betting",
    "open_table",
    "place_bets",
    "player_name",
    "release_dealing",
    "restart_betting_clock",
    "reveal",
    "rules_edited",
    "set_connected",
    "settle",
    "supervisor_void",
    "sit",
    "stand",
    "more_time",
    "take_over",
    "time_out",
    "void_round",
    "withdraw_bets",
]
