"""The table's memory: Rules Submissions, tables, seats, rounds, the event log and the ledger.

A round's whole engine state (shoe order, every stack, wager, decision and settlement) is kept
as JSON on :class:`Round`; :class:`BoxRecord` and :class:`SettlementLine` repeat what recall and
reports query. :class:`RoundEvent` is append-only and hash-chained per table. Money is a
double-entry ledger in integer cents: every :class:`LedgerTransaction`'s entries sum to zero.

One room past 500 lines: Django finds an app's models in one module, and the relations (a
table's rules, a round's events, its ledger postings, a meter's tables) read best side by side.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from table.money import dollars

# The app's models, kept in their package; re-exported (``X as X``) for ``table.models``.
from table.protection.models import LimitChange as LimitChange
from table.protection.models import PlayerGuard as PlayerGuard
from table.protection.models import PlayerSession as PlayerSession
from table.protection.models import PlayTally as PlayTally
from table.protection.models import SelfExclusion as SelfExclusion

#: What each stored text of a Rules Submission's choices gives, by game and text: the choices
#: and the rules they read as. A command reads its table's submission anew each time, and its
#: rules are the same (frozen) value until the choices change.
_READ: dict[tuple[str, str | bytes], tuple[dict[str, Any], Any]] = {}
_READ_MOST = 64


def _copied(choices: dict[str, Any]) -> dict[str, Any]:
    """A copy of stored choices that a change in place to either leaves the other as it was."""
    return {k: copy.deepcopy(v) if isinstance(v, dict | list) else v for k, v in choices.items()}


if TYPE_CHECKING:
    # The stubs' field is generic in (set, get) types; Django's class is not subscriptable.
    _BigInteger = models.BigIntegerField[int, int]
else:
    _BigInteger = models.BigIntegerField


class Money(_BigInteger):
    """An amount in integer cents."""


def _game_choices() -> list[tuple[str, str]]:
    from table.games import GAME_TITLES

    return list(GAME_TITLES.items())


def _default_game() -> str:
    """The game a Rules Submission or a round is for unless it says: the registry's default
    (the entry that says it is, :func:`table.games.default_game`), never a name here."""
    from table.games import default_game

    return default_game()


class RulesSubmission(models.Model):
    """What a game's chapter leaves to the casino (§601a.2): paytables, wagers offered, limits.

    A submission names its game; a table runs the game of its submission. Its choices are the
    JSON ``choices``, in the form the game's ``rules_to_dict`` writes and its ``parse_rules``
    reads, checked by its ``rules_problems`` in the admin, a rules change and opening a round
    alike (the first game's were model columns until migration 0010).
    """

    name = models.CharField(max_length=100, unique=True)
    game = models.CharField(
        max_length=32,
        choices=_game_choices,
        default=_default_game,
        help_text="The game this Rules Submission is for; a table runs the game of its rules.",
    )
    #: The game's choices (its ``rules_to_dict`` form); empty: the game's default rules.
    choices = models.JSONField(default=dict, blank=True)
    #: The amount every wager is a whole number of, in cents: whole dollars unless the
    #: submission says otherwise. A bet of any other amount (5.005, odd cents) is refused,
    #: in the browser and by the server (issue 28).
    betting_unit = models.PositiveIntegerField(
        default=100,
        help_text="Every wager is a whole number of this amount ($1.00: whole dollars).",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def game_rules(self) -> Any:
        """The rules in the game's own value (what its rounds are opened under):
        ``game(self.game).parse_rules(self.choices)``, read once per set of choices (the
        instance keeps them with a copy of the choices they came from, and reads again
        only once the choices differ, a change in place included)."""
        choices = self.choices or {}
        kept = self._parsed
        if kept is not None and kept[0] == self.game and kept[1] == choices:
            return kept[2]
        from table.games import game

        rules = game(self.game).parse_rules(choices)
        self._parsed = (self.game, _copied(choices), rules)
        return rules

    #: (game, choices, rules) as :meth:`game_rules` last read them.
    _parsed: tuple[str, dict[str, Any], Any] | None = None

    def read_choices(self, stored: Any) -> None:
        """Set the choices from the column as a plain SQL read gives it (JSON text), with
        the rules they read as if the same text was read before (the command path reads
        its table's submission with every command, table/services/command.py)."""
        if not isinstance(stored, str | bytes):
            self.choices = stored
            return
        key = (self.game, stored)
        found = _READ.get(key)
        if found is None:
            from table.games.errors import InvalidInput

            self.choices = json.loads(stored)
            try:
                self.game_rules()
            except InvalidInput:
                return  # malformed: game_rules() says so when asked
            assert self._parsed is not None
            if len(_READ) >= _READ_MOST:
                _READ.clear()  # start over (one step, safe beside another thread's read)
            found = _READ[key] = (self._parsed[1], self._parsed[2])
        kept, rules = found
        self.choices = _copied(kept)
        self._parsed = (self.game, kept, rules)

    def game_problems(self) -> list[tuple[str, str]]:
        """Every reason these rules cannot be used, as (field, words); malformed choices too."""
        from table.games import game
        from table.games.base import clock_problems
        from table.games.errors import InvalidInput

        try:
            rules = self.game_rules()
        except InvalidInput as exc:
            return [("choices", exc.message)]
        found = game(self.game)
        problems = [(p.field, p.words) for p in found.rules_problems(rules)]
        # One platform minimum for every game's clocks (MIN_CLOCK_SECONDS), whatever the
        # game checks itself.
        checked = {name for name, _ in problems}
        stored = found.rules_to_dict(rules)
        problems += [
            (p.field, p.words)
            for p in clock_problems(found.rules_fields(), stored)
            if p.field not in checked
        ]
        return problems

    def clean(self) -> None:
        problems = self.game_problems()
        if problems:
            errors: dict[str, list[str]] = {}
            for field_name, message in problems:
                errors.setdefault(field_name, []).append(message)
            raise ValidationError(errors)


class Table(models.Model):
    name = models.CharField(max_length=100, unique=True)
    is_open = models.BooleanField(default=True)
    #: Shoe drills (§684a.13, §657a.13, §663a.13 irregularities on purpose) are for testing
    #: and training: only a table the admin marks as a test table offers them, and the lobby
    #: and the felt say it is one (issue 28). Setting it is audited like every admin change.
    is_test = models.BooleanField(
        "test table",
        default=False,
        help_text="A table for testing and training: its console may arm shoe drills, and "
        "players see it is a test table. Never for ordinary play.",
    )
    rules = models.ForeignKey(
        RulesSubmission,
        on_delete=models.PROTECT,
        related_name="tables",
        help_text="The Rules Submission in force.",
    )
    pending_rules = models.ForeignKey(
        RulesSubmission,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Takes effect when the round in play is over (rules change only between rounds).",
    )
    #: Bumped by every command that changes the table; every event carries it.
    version = models.BigIntegerField(default=0)
    #: The shuffler and shoe: decks in play, their back colours, when each came into play.
    shoe = models.JSONField(default=dict, blank=True)
    rounds_since_stub_count = models.PositiveIntegerField(default=0)
    current_round = models.ForeignKey(
        "Round", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    betting_deadline = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    #: The one automatic dealer allowed to run this table's clock, and its last heartbeat.
    clock_owner = models.CharField(max_length=64, blank=True, default="")
    clock_heartbeat = models.DateTimeField(null=True, blank=True)
    #: Who moves the rounds on: an automatic dealer's name while one deals, "dealer:<name>"
    #: after a dealer took over at the console, empty for whoever presses first.
    dealt_by = models.CharField(max_length=64, blank=True, default="")
    last_hash = models.CharField(max_length=64, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        permissions = [("deal_table", "Can run a table from the dealer console")]

    def __str__(self) -> str:
        return self.name


class Seat(models.Model):
    """A player sitting at a box (box 1 is farthest to the dealer's left)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    box = models.PositiveSmallIntegerField(validators=[MinValueValidator(1), MaxValueValidator(6)])
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats"
    )
    sat_at = models.DateTimeField(auto_now_add=True)
    connected = models.BooleanField(default=True)
    #: When the player dropped; the box is kept for a grace period.
    disconnected_at = models.DateTimeField(null=True, blank=True)
    #: Presence lease (table.presence): the socket holding it renews it; once it has run out
    #: the player counts as gone, whichever process held the socket (or if it died).
    presence_until = models.DateTimeField(null=True, blank=True)
    presence_socket = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["table", "box"]
        constraints = [
            models.UniqueConstraint(fields=["table", "box"], name="one_player_per_box"),
        ]

    def __str__(self) -> str:
        return f"{self.table} box {self.box}: {self.player}"


class Round(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    rules_submission = models.ForeignKey(
        RulesSubmission, on_delete=models.PROTECT, related_name="+"
    )
    #: The game the round was played (its ``state`` is that game's ``to_dict``).
    game = models.CharField(max_length=32, default=_default_game, db_index=True)
    #: The exact rules this round was played under, frozen: history never changes meaning.
    rules = models.JSONField()
    phase = models.CharField(max_length=16, db_index=True)
    #: The engine's whole round: shoe order and salt, stacks, wagers, decisions, settlement.
    state = models.JSONField()
    commitment = models.CharField(max_length=64)
    deck_back = models.CharField(max_length=16)
    void_reason = models.CharField(max_length=32, blank=True, default="")
    opened_at = models.DateTimeField(auto_now_add=True)
    dealt_at = models.DateTimeField(null=True, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_number_per_table")
        ]
        # A supervisor's way out of a round in play (services.supervisor_void, issue 23).
        permissions = [("void_round", "Can void a round in play from the admin (supervisor)")]

    def __str__(self) -> str:
        return f"{self.table} round {self.number}"


class BoxRecord(models.Model):
    """One box of one finished round, as it was: for game recall and disputes (§684a.11(e))."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="box_records")
    box = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="box_records"
    )
    cards = models.CharField(max_length=20, blank=True)
    best_four = models.CharField(max_length=16, blank=True)
    hand = models.CharField(max_length=60, blank=True)
    wagers = models.JSONField(default=dict)
    decision = models.SmallIntegerField(null=True)
    net = Money(default=0)

    class Meta:
        ordering = ["-round_id", "box"]
        constraints = [models.UniqueConstraint(fields=["round", "box"], name="one_record_per_box")]

    def __str__(self) -> str:
        return f"box {self.box} of round {self.round_id}"


class SettlementLine(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="settlement_lines")
    box = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    wager = models.CharField(max_length=20)
    stake = Money()
    outcome = models.CharField(max_length=8)
    net = Money()
    row = models.CharField(max_length=80, blank=True, default="")

    class Meta:
        ordering = ["round", "-box", "id"]

    def __str__(self) -> str:
        return f"box {self.box} {self.wager}: {self.outcome} {self.net}"


class AppendOnlyError(Exception):
    pass


class AppendOnlyQuerySet(models.QuerySet["RoundEvent"]):
    """Bulk ``delete()`` and ``update()`` would bypass the row's own guards: refuse them."""

    def delete(self) -> Any:
        raise AppendOnlyError("the event log is append-only")

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("the event log is append-only")


def event_hash(
    table_id: int,
    round_id: int | None,
    version: int,
    seq: int,
    kind: str,
    audience: str,
    data: Any,
    actor: str,
    created: Any,
    prev_hash: str,
    session_id: int | None,
) -> str:
    """A :class:`RoundEvent`'s hash, chained to the one before (``prev_hash``): also what a
    command appends with, from its values (no model instance for each event)."""
    body = json.dumps(
        {
            "table": table_id,
            "round": round_id,
            "version": version,
            "seq": seq,
            "kind": kind,
            "audience": audience,
            "data": data,
            "actor": actor,
            "created": created.isoformat(),
            **({"session": session_id} if session_id is not None else {}),
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


class RoundEvent(models.Model):
    """The append-only, hash-chained event log of a table."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, null=True, related_name="events")
    version = models.BigIntegerField()
    seq = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=40)
    audience = models.CharField(max_length=180)
    data = models.JSONField()
    actor = models.CharField(max_length=160, blank=True, default="")
    created = models.DateTimeField()
    prev_hash = models.CharField(max_length=64, blank=True, default="")
    hash = models.CharField(max_length=64)
    #: The player session the command ran in (§812a.9(a)(5)); empty for the dealer's, the
    #: clock's and commands from no session. In the hash only when set (older rows' hashes
    #: stay as they were).
    session = models.ForeignKey(
        PlayerSession, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["table", "version", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version", "seq"], name="event_position")
        ]
        indexes = [models.Index(fields=["round", "version"])]

    def compute_hash(self) -> str:
        return event_hash(
            self.table_id,
            self.round_id,
            self.version,
            self.seq,
            self.kind,
            self.audience,
            self.data,
            self.actor,
            self.created,
            self.prev_hash,
            self.session_id,
        )

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AppendOnlyError("the event log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise AppendOnlyError("the event log is append-only")


class CommandRecord(models.Model):
    """The first answer to a client command, by idempotency key: a replay gets it back."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    actor = models.CharField(max_length=160)
    key = models.CharField(max_length=64)
    command = models.CharField(max_length=40)
    #: SHA-256 of the command and its arguments: a key sent again with another command is
    #: refused (``key_reused``), not answered with the first command's reply. Empty on
    #: records made before it was kept (those replay whatever is sent).
    request = models.CharField(max_length=64, blank=True, default="")
    response = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)
    #: The player session the command came in (§812a.9(a)(5)).
    session = models.ForeignKey(
        PlayerSession, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "actor", "key"], name="one_answer_per_key")
        ]


class Account(models.Model):
    PLAYER, TABLE, CAGE = "player", "table", "cage"
    METER, HOUSE = "meter", "house"  # a progressive meter's pool; the house that seeds meters
    KINDS = [
        (PLAYER, "player"),
        (TABLE, "table bankroll"),
        (CAGE, "cage"),
        (METER, "progressive meter"),
        (HOUSE, "house (meter seeds)"),
    ]

    kind = models.CharField(max_length=8, choices=KINDS)
    name = models.CharField(max_length=160, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="account",
    )
    table = models.OneToOneField(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="bankroll"
    )
    #: Kept equal to the sum of this account's entries (verify_ledger checks it).
    balance = Money(default=0)

    class Meta:
        ordering = ["kind", "name"]
        # The cashier's duty, apart from dealing and from changing the books.
        permissions = [("credit_account", "Can credit play money to a player (cashier)")]

    def __str__(self) -> str:
        return f"{self.name} ({dollars(self.balance)})"


class LedgerTransaction(models.Model):
    created = models.DateTimeField(auto_now_add=True)
    memo = models.CharField(max_length=120)
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="transactions"
    )
    box = models.PositiveSmallIntegerField(null=True, blank=True)
    wager = models.CharField(max_length=20, blank=True, default="")
    #: The player session whose command posted it (§812a.9(a)(5)): a wager, a credit; a
    #: payout posted by the dealer's settlement is tied to the wager by round and box.
    session = models.ForeignKey(
        PlayerSession, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        what = self.memo
        if self.box is not None:
            what += f", box {self.box}"
        if self.wager:
            what += f" {self.wager.replace('_', ' ')}"
        return f"transaction {self.pk}: {what}"


class Entry(models.Model):
    """One side of a transaction: ``amount`` added to the account's balance (may be < 0)."""

    transaction = models.ForeignKey(
        LedgerTransaction, on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = Money()

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        amount = dollars(self.amount, signed=True)
        return f"entry {self.pk} of transaction {self.transaction_id}: {amount}"


class DealerAssignment(models.Model):
    """Who may deal which table: the deal permission (``table.deal_table``) is a role, and a
    dealer deals only the tables they are assigned to (and may not play at them)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="dealer_assignments")
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dealer_assignments"
    )
    assigned_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "dealer"]
        constraints = [
            models.UniqueConstraint(fields=["table", "dealer"], name="one_assignment_per_dealer")
        ]

    def __str__(self) -> str:
        return f"{self.dealer} deals {self.table}"


class AuditQuerySet(models.QuerySet["AuditEntry"]):
    """Bulk ``delete()`` and ``update()`` would bypass the row's own guards: refuse them."""

    def delete(self) -> Any:
        raise AppendOnlyError("the audit log is append-only")

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("the audit log is append-only")


class AuditEntry(models.Model):
    """Every privileged action (a credit, a rules change, a void, a deck change, a table
    opened or closed, a drill armed, a dealer assigned, a change in the admin): who, when,
    what, where. Append-only: nobody edits or deletes a row (the database refuses too)."""

    created = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty for the house itself (the automatic dealer's clock, the demo set-up).",
    )
    actor_name = models.CharField("actor", max_length=160)
    action = models.CharField(max_length=40, db_index=True)
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    details = models.JSONField(default=dict)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "audit log entry"
        verbose_name_plural = "audit log"

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M:%S} {self.actor_name}: {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AppendOnlyError("the audit log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise AppendOnlyError("the audit log is append-only")


# --- progressive meters (shared by tables, e.g. §657a.12(d)(3)-(4), (e)(3)-(4), (f)(2), (f)(4)) ---


class ProgressiveMeter(models.Model):
    """A progressive meter in the database, shared by every table linked to it.

    ``amount`` is what a 100% payout pays and ``reserve`` what house interpretation 6 adds to
    the reseed when it does; both live as money in the meter's own ledger account, whose
    balance always equals ``amount + reserve`` (docs/meters.md). Amount and reserve change only
    through :mod:`table.meters`, under the row's lock; ``version`` counts those changes."""

    FOUR_CARD, FIVE_CARD = "four_card", "five_card"
    MEGA, MAJOR, MINOR, HAND_BONUS = "mega", "major", "minor", "hand_bonus"
    #: The field's choices, as the migrations have them: every kind of the games' meter
    #: catalogues (``table.games.meter_catalogue``, which names the meters), with its label.
    KINDS = [
        (FOUR_CARD, "Four-Card Progressive"),
        (FIVE_CARD, "Five-Card Progressive"),
        (MEGA, "Mega"),
        (MAJOR, "Major"),
        (MINOR, "Minor"),
        (HAND_BONUS, "Five Card Hand Bonus"),
    ]
    WAGERS = [(100, "$1"), (500, "$5")]

    name = models.CharField(max_length=100, unique=True)
    kind = models.CharField(max_length=12, choices=KINDS)
    paytable = models.CharField(
        max_length=2,
        blank=True,
        default="",
        help_text="The progressive paytable letter it serves (Four-Card A-B, Five-Card A-D); "
        "empty for the hand-bonus meter.",
    )
    wager = models.PositiveIntegerField(
        choices=WAGERS, help_text="The table's fixed wager the seed and rates are per unit of."
    )
    # §657a.12: "$10,000 for 1" etc. — per unit of the wager, copied from the engine's data.
    seed = models.PositiveIntegerField(editable=False)
    reseed = models.PositiveIntegerField(editable=False)
    primary_rate = models.PositiveSmallIntegerField("primary %", editable=False)
    reserve_rate = models.PositiveSmallIntegerField("reserve %", editable=False)
    amount = Money(default=0, editable=False)
    reserve = Money(default=0, editable=False)
    version = models.BigIntegerField(default=0, editable=False)
    account = models.OneToOneField(
        "Account", on_delete=models.PROTECT, related_name="progressive_meter", editable=False
    )
    tables = models.ManyToManyField(
        Table,
        blank=True,
        related_name="progressive_meters",
        help_text="The tables whose wagers feed this meter and whose winners it pays.",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        # §605a.8: a reset by hand is a secured act (its own permission), in the audit log.
        permissions = [("reset_meter", "Can reset a progressive meter (secured, audited)")]

    def __str__(self) -> str:
        return f"{self.name} ({dollars(self.amount)})"

    def spec(self) -> Any:
        """The meter's ``MeterRates`` (table/games/progressive.py) from this row's own (stored)
        figures."""
        from table.games.progressive import MeterRates

        return MeterRates(self.kind, self.seed, self.reseed, self.primary_rate, self.reserve_rate)

    def clean(self) -> None:
        from table.games import meter_catalogue

        catalogue = meter_catalogue()
        found = catalogue.get((self.kind, self.paytable))
        if found is None:
            offered = ", ".join(f"{k}{' ' + p if p else ''}" for k, p in sorted(catalogue))
            raise ValidationError(
                f"no paytable has a {self.kind} meter for paytable "
                f"{self.paytable or '(none)'}; the meters are: {offered}"
            )
        if self.wager not in found.stakes:
            raise ValidationError(
                f"the wager is one of {', '.join(dollars(s) for s in found.stakes)} "
                "(house interpretation 5)"
            )


class MeterEventQuerySet(models.QuerySet["MeterEvent"]):
    """Bulk ``delete()`` and ``update()`` would bypass the row's own guards: refuse them."""

    def delete(self) -> Any:
        raise AppendOnlyError("a meter's history is append-only")

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("a meter's history is append-only")


class MeterEvent(models.Model):
    """Every change of a meter, append-only: its seeding, each round's increments at "no more
    bets", a void's reversal, each hit (who, which table and round, which box and wager, the
    meter before and after, whether it reset to its reseed)."""

    SEED, INCREMENT, REVERSAL, HIT = "seed", "increment", "reversal", "hit"
    RESET = "reset"  # by staff holding table.reset_meter, with a reason (§605a.8)
    KINDS = [
        (SEED, "seeded"),
        (INCREMENT, "increment"),
        (REVERSAL, "reversal"),
        (HIT, "hit"),
        (RESET, "reset by staff"),
    ]

    meter = models.ForeignKey(ProgressiveMeter, on_delete=models.PROTECT, related_name="events")
    #: The meter's version after this change: events of one meter in commit order (a split
    #: dealer-hand jackpot is one row per share, the last share doing the reset).
    version = models.BigIntegerField()
    kind = models.CharField(max_length=10, choices=KINDS)
    created = models.DateTimeField()
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="meter_events"
    )
    round_number = models.PositiveIntegerField(null=True, blank=True)
    box = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    wager = models.CharField(max_length=20, blank=True, default="")
    percent = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Wagers an increment was taken from (or a reversal gave back).
    stakes = models.PositiveIntegerField(default=0)
    #: Boxes a dealer-hand jackpot was split between (§657a.12(f)(2)); 1 for any other hit.
    split = models.PositiveSmallIntegerField(default=1)
    paid = Money(default=0)
    amount_before = Money()
    reserve_before = Money()
    amount_after = Money()
    reserve_after = Money()
    #: What the house added at a 100% hit (the reseed), or at creation (the seed).
    funded = Money(default=0)
    reseeded = models.BooleanField(default=False)
    #: A reset by staff: who, and why (empty for every other change).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True, default="")

    objects = MeterEventQuerySet.as_manager()

    class Meta:
        ordering = ["meter", "-version"]
        constraints = [
            # One row per change of a meter: two writers can never both book "version n".
            models.UniqueConstraint(fields=["meter", "version"], name="one_event_per_meter_version")
        ]
        indexes = [models.Index(fields=["round", "kind"])]

    def __str__(self) -> str:
        return f"{self.meter.name} v{self.version}: {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AppendOnlyError("a meter's history is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise AppendOnlyError("a meter's history is append-only")


# --- the back office's roll-up (docs/backoffice.md) ----------------------------------------


class WagerShift(models.Model):
    """What one wager type of one table took and paid in one shift of one gaming day, under
    one set of rules (the exact rules the rounds were played under, by their digest): sums of
    the settlement lines, kept up to date by the settlement that writes them, in its own
    transaction (:mod:`table.rollup`), so reports read a month of a casino in one small query.

    ``wager`` is a wager key; ``"*round"`` counts the rounds (``lines``) with each round's main
    game as one result (``handle`` the round's Ante, ``handle_sq`` its square) and ``"*main"``
    is each box's whole main game as one result per unit of its required wager (its
    ``handle`` the Ante), which the confidence band of the main game's return needs. A
    roll-up row is derived data: ``manage.py rollup_rebuild`` recomputes every row from the
    settlement lines."""

    gaming_day = models.DateField()
    shift = models.PositiveSmallIntegerField(default=0)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=32)
    rules_submission = models.ForeignKey(
        RulesSubmission, on_delete=models.PROTECT, related_name="+"
    )
    rules_key = models.CharField(max_length=64)
    rules = models.JSONField()
    wager = models.CharField(max_length=20)
    lines = models.BigIntegerField(default=0)
    handle = Money(default=0)
    handle_sq = models.DecimalField(max_digits=38, decimal_places=0, default=0)
    net = Money(default=0)
    net_sq = models.DecimalField(max_digits=38, decimal_places=0, default=0)
    net_handle = models.DecimalField(max_digits=38, decimal_places=0, default=0)
    paid = Money(default=0)
    wins = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["gaming_day", "shift", "table", "wager"]
        verbose_name = "table games report"
        verbose_name_plural = "table games reports"
        constraints = [
            models.UniqueConstraint(
                fields=["gaming_day", "shift", "table", "rules_key", "wager"],
                name="one_rollup_row",
            )
        ]
        indexes = [models.Index(fields=["gaming_day", "table"])]
