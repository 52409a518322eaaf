"""What player protection keeps (part of the ``table`` app; ``table.models`` imports these).

A :class:`PlayerSession` per login (§812a.9(a)(5)); one :class:`PlayerGuard` row per player
with the limits in force and the increases waiting (§814a.2), the cool-off and the exclusion
(ch. 815a) as the command path reads them in one statement; :class:`LimitChange` (append-only)
is every change with its time and actor, for compliance; :class:`SelfExclusion` each exclusion
and its lifting; :class:`PlayTally` what a player wagered, won or lost and was credited per day
(the day, week and month limits add these up, under the player's account lock).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models


class PlayerSession(models.Model):
    """One login: from logging in to logging out (or being logged out), §812a.1 "player
    session". ``key`` is its unique identifier (§812a.9(a)(5)), kept with every command, event
    and ledger transaction made in it."""

    key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="player_sessions"
    )
    started = models.DateTimeField(db_index=True)
    ended = models.DateTimeField(null=True, blank=True)
    #: The last command or page of the session: after 15 minutes without one the password
    #: must be entered again (§812a.3(a)(6)).
    last_active = models.DateTimeField()
    #: When the last reality check was answered (the login, at first): the next one is due
    #: ``PlayerGuard.reality_minutes`` later (§814a.1(e)(2)-(3)).
    reality_answered = models.DateTimeField()
    address = models.GenericIPAddressField(null=True, blank=True)
    #: Net result (won less lost) and amount wagered since login, in cents (§814a.1(e)(1)-(2)):
    #: added to by every command that moves the player's money, under their account lock, in
    #: its batch of writes (table/protection/guard.py ``record``); the bar shows them, and
    #: each balance the player's socket is told comes with them.
    net = models.BigIntegerField(default=0)
    wagered = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["-started", "-id"]
        indexes = [models.Index(fields=["user", "started"])]

    def __str__(self) -> str:
        return f"session {self.key} of {self.user}"


class PlayerGuard(models.Model):
    """A player's protection as the command path reads it (one row, one statement).

    ``limits``: the limits in force, kind -> cents (minutes for ``time_day``). ``pending``:
    increases and removals asked for, kind -> {"amount": cents or null (removal), "asked":
    ISO time, "after": ISO time}; each takes effect only once its time has come and the
    player confirms it again then (§814a.2)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guard"
    )
    limits = models.JSONField(default=dict, blank=True)
    pending = models.JSONField(default=dict, blank=True)
    #: A timed suspension the player chose (§814a.2(6)): no play, no credits until then.
    cooloff_until = models.DateTimeField(null=True, blank=True)
    #: Excluded (ch. 815a): until ``excluded_until``, or for life when that is empty.
    excluded = models.BooleanField(default=False)
    excluded_until = models.DateTimeField(null=True, blank=True)
    #: How often the reality check comes: 60 minutes, or 15 or 30 as the player chooses.
    reality_minutes = models.PositiveSmallIntegerField(default=60)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"protection of {self.user}"


class AppendOnly(models.QuerySet[Any]):
    def delete(self) -> Any:
        from table.models import AppendOnlyError

        raise AppendOnlyError("the limit history is append-only")

    def update(self, **kwargs: Any) -> int:
        from table.models import AppendOnlyError

        raise AppendOnlyError("the limit history is append-only")


class LimitChange(models.Model):
    """Every limit change, cool-off and reality-check choice, with its time and actor:
    append-only (compliance reads it; nobody edits it)."""

    created = models.DateTimeField(db_index=True)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    actor_name = models.CharField("actor", max_length=160)
    kind = models.CharField(max_length=24)
    #: "set", "decreased", "increase asked", "removal asked", "increased", "removed",
    #: "withdrawn" (an asked increase taken back), "cool-off", "reality check every".
    action = models.CharField(max_length=24)
    before = models.BigIntegerField(null=True, blank=True)
    after = models.BigIntegerField(null=True, blank=True)
    #: When the change takes (or took) effect.
    effective = models.DateTimeField(null=True, blank=True)
    session = models.ForeignKey(
        PlayerSession, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    objects = AppendOnly.as_manager()

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.player}: {self.kind} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        from table.models import AppendOnlyError

        if self.pk is not None:
            raise AppendOnlyError("the limit history is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        from table.models import AppendOnlyError

        raise AppendOnlyError("the limit history is append-only")


class SelfExclusion(models.Model):
    """One exclusion (ch. 815a): asked by the player, or recorded by staff from the state's
    list (§815a.5). It ends at ``ends`` (never for life); it is lifted only after that, by
    staff, in the audit log (§815a.6(a))."""

    ONE_YEAR, FIVE_YEARS, LIFE = "1y", "5y", "life"
    TERMS = [(ONE_YEAR, "1 year"), (FIVE_YEARS, "5 years"), (LIFE, "lifetime")]
    PLAYER, STATE_LIST = "player", "state list"
    SOURCES = [(PLAYER, "the player, here"), (STATE_LIST, "the state's list")]

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="exclusions"
    )
    term = models.CharField(max_length=4, choices=TERMS)
    source = models.CharField(max_length=12, choices=SOURCES)
    started = models.DateTimeField()
    ends = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    recorded_by_name = models.CharField(max_length=160)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    lifted_by_name = models.CharField(max_length=160, blank=True, default="")
    note = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["-started", "-id"]

    def __str__(self) -> str:
        return f"{self.player} excluded ({self.get_term_display()}) from {self.started:%Y-%m-%d}"


class PlayTally(models.Model):
    """A player's day at the tables (the casino's time zone): amount wagered (stakes less
    wagers given back before the deal or by a void), net result (won less lost) and credits.
    Written in the same transaction as the ledger postings it counts."""

    account = models.ForeignKey("table.Account", on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    wagered = models.BigIntegerField(default=0)
    net = models.BigIntegerField(default=0)
    credits = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account", "day"], name="one_tally_per_day")]
