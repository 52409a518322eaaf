"""The casino's side: Rules Submissions, tables, the round store, the ledger.

Money is stored in integer cents and shown and typed here in dollars. History (rounds, their
events, ledger transactions) is read-only. A table's Rules Submission and its open/closed state
change through :mod:`table.services`, like every other table command, so that a change made
while a round is in play waits for the round to end and every round keeps the rules it was
played under.
"""

from __future__ import annotations

from django.contrib import admin

from . import (
    accounts,
    common,
    duties,
    game_rules,
    meters,
    protection,
    reports,
    rounds,
    rules,
    secrecy,
    tables,
)
from .accounts import CreditForm, credit_players
from .common import ReadOnlyAdmin, ReadOnlyInline
from .tables import deck_rows

# Every admin registered so far (ours, and Django's users and groups) under one rule: nothing
# secret of a round in play is shown, searched, filtered or sorted on.
secrecy.guard(admin.site)

admin.site.site_header = "Casino table games — administration"
admin.site.site_title = "Casino table games admin"
admin.site.index_title = "Rules Submissions, tables, rounds and the ledger"

__all__ = [
    "CreditForm",
    "ReadOnlyAdmin",
    "ReadOnlyInline",
    "accounts",
    "common",
    "credit_players",
    "deck_rows",
    "duties",
    "game_rules",
    "meters",
    "protection",
    "reports",
    "rounds",
    "rules",
    "secrecy",
    "tables",
]
