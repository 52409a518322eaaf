"""Player protection in the command path: every check runs in the command's own
transaction, after the player's account row is locked (the ledger locks it to post the
stake), so two tables' commands for one player run one after the other and cannot together
pass a limit (§814a.2(2)); a refusal rolls the whole command back.

:func:`enforce` runs after a player's command did its work and before anything is written:

- from a session (the websocket passes its id): the session is the player's and open, not
  idle 15 minutes (§812a.3(a)(6)); its last activity is written with the command's writes;
- a wager (money from the player to the table on a box, by the player's own command): no
  exclusion (ch. 815a) or cool-off (§814a.2(6)); during betting (a new round) no reality check
  waiting (§814a.1(e)(2)) and the day's time not used up (§814a.2(4): a dealt round still
  finishes); the loss and amount wagered per day, week and month, the largest single wager
  and the table limit (§814a.2(2), (3), (5)). A refusal names the limit and what is left.

:func:`record` adds every player's money moved by a command to their day's tally and to
their open sessions' figures since login (in the command's batched writes: no round trip of
its own), and gives those figures back for the balance each player is told.

No read of its own (docs/player-protection.md, "Command path cost"): the session comes with
the table row (``fastsql.locked_read``), the player's limits, exclusion, cool-off and tallies
with their account lock (``fastsql.lock_table_accounts``), after the lock; the dealer's and
the clock's commands read nothing here.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from table import fastsql
from table.games.events import Transfer

from . import periods
from .models import PlayerSession

IDLE = dt.timedelta(minutes=15)
#: A session's last activity is written at most this often (every command would be a write).
TOUCH_EVERY = dt.timedelta(seconds=30)
#: Memos of money given back before it was played: not "wagered" (table/games/common.py's
#: bet changes before the deal; a void's returns).
_GIVEN_BACK = ("wager returned", "returned (void)")


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def is_stake(t: Transfer) -> bool:
    """Money a player puts at risk on a box (a wager, a raise, a play)."""
    return t.amount > 0 and t.box is not None


def wagered_by(t: Transfer) -> int:
    if is_stake(t):
        return t.amount
    if t.memo in _GIVEN_BACK:
        return t.amount  # negative: the stake comes off what was wagered
    return 0


def _dollars(cents: int) -> str:
    return f"${max(cents, 0) / 100:,.2f}"


def _moment(value: Any) -> dt.datetime | None:
    from table.services.command import _moment as moment

    return moment(value)


def lock_dates(now: dt.datetime) -> tuple[dt.date, ...]:
    """The dates the players' account lock reads the tallies with (``fastsql
    .lock_table_accounts``'s ``guard``): day, week start, month start, the same again, and
    the earliest of them."""
    day, week, month = periods.starts(now)  # the day once (periods.local_day)
    return (day, week, month, day, week, month, min(week, month))


def enforce(
    actor: str,
    session: int | None,
    transfers: list[Transfer],
    now: dt.datetime,
    betting: Callable[[], bool],
    boxes: Callable[[], list[Any]],
    session_row: tuple[Any, ...] | None = None,
    guard_row: tuple[Any, ...] | None = None,
) -> None:
    """Refuse (:class:`Refused`) a command of player ``actor`` that protection forbids.

    ``transfers``: every transfer the command posted so far; ``betting()``: the round is taking
    bets (a wager now opens the player's part in a new round); ``boxes()``: the round's boxes
    (``Game.boxes``) as the command left them. Both are asked only when a check needs them
    (the round's status costs a hash of its shoe).

    ``session_row``: the session as read with the table row (None: not the actor's, or
    none); ``guard_row``: the player's protection as read with their account lock (None: read
    now, for an account that lock did not read)."""
    mine = [t for t in transfers if t.player == actor]
    stakes = [t for t in mine if is_stake(t)]
    if session is None and not stakes:
        return
    if session is not None:
        if session_row is None or session_row[0] is not None:
            raise Refused("session_ended", "your session has ended: log in again")
        last = _moment(session_row[1])
        assert last is not None
        if now - last > IDLE:
            raise Refused(
                "session_idle",
                "you were away more than 15 minutes: enter your password again to play",
            )
        if now - last > TOUCH_EVERY:
            fastsql.write(fastsql.session_touch(), [fastsql.when(now), session])
    if not stakes:
        return
    if guard_row is None:
        guard_row = fastsql.one(fastsql.guard_read(fastsql.vendor()), [*lock_dates(now), actor])
    assert guard_row is not None
    user_id, limits, cooloff, excluded, excluded_until, reality_minutes, sums = guard_row
    sums = fastsql.loads(sums) if sums else [0] * 6
    wagered = dict(zip(periods.PERIODS, [int(v) for v in sums[:3]], strict=True))
    net = dict(zip(periods.PERIODS, [int(v) for v in sums[3:6]], strict=True))
    limits = fastsql.loads(limits) if limits else {}
    until = _moment(excluded_until)
    if excluded and (until is None or until > now):
        raise Refused("excluded", "you are excluded from play: no wager can be taken")
    cooled = _moment(cooloff)
    if cooled is not None and cooled > now:
        raise Refused(
            "cooloff",
            f"you chose a break from play until {timezone.localtime(cooled):%Y-%m-%d %H:%M}",
        )
    # During betting (a new round) only: a round already dealt finishes (§814a.1(e), §814a.2(4)).
    if session is not None:
        assert session_row is not None
        due = _moment(session_row[2])
        assert due is not None
        if now >= due + dt.timedelta(minutes=reality_minutes or 60) and betting():
            raise Refused(
                "reality_check",
                "answer the reality check first (keep playing, log out or set a limit)",
            )
    if "time_day" in limits and betting():
        _check_time(user_id, limits["time_day"], now)
    _check_money(actor, limits, mine, wagered, net, boxes)


def _check_money(
    actor: str,
    limits: dict[str, int],
    mine: list[Transfer],
    wagered: dict[str, int],
    net: dict[str, int],
    boxes: Callable[[], list[Any]],
) -> None:
    here_wagered = sum(wagered_by(t) for t in mine)
    here_net = -sum(t.amount for t in mine)
    for period in periods.PERIODS:
        kind = f"loss_{period}"
        if kind in limits:
            loss_before = -net[period]
            if loss_before - here_net > limits[kind]:
                left = limits[kind] - loss_before
                raise Refused(
                    "limit_reached",
                    f"your {periods.words(kind)} limit is {_dollars(limits[kind])}: "
                    f"{_dollars(left)} of it is left, this needs {_dollars(-here_net)}",
                )
        kind = f"wagered_{period}"
        if kind in limits and here_wagered > 0:
            if wagered[period] + here_wagered > limits[kind]:
                left = limits[kind] - wagered[period]
                raise Refused(
                    "limit_reached",
                    f"your {periods.words(kind)} limit is {_dollars(limits[kind])}: "
                    f"{_dollars(left)} of it is left, this needs {_dollars(here_wagered)}",
                )
    if "wager_max" not in limits and "table_max" not in limits:
        return
    own = [b for b in boxes() if b.player == actor]
    if "wager_max" in limits:
        largest = max((v for b in own for v in b.wagers.values()), default=0)
        if largest > limits["wager_max"]:
            raise Refused(
                "limit_reached",
                f"your largest single wager is {_dollars(limits['wager_max'])}: "
                f"this wager is {_dollars(largest)}",
            )
    if "table_max" in limits:
        at_risk = sum(v for b in own for v in b.wagers.values())
        if at_risk > limits["table_max"]:
            raise Refused(
                "limit_reached",
                f"your table limit is {_dollars(limits['table_max'])} at risk in a round: "
                f"this would make {_dollars(at_risk)}",
            )


def time_played(user_id: int, now: dt.datetime) -> dt.timedelta:
    """Time logged in today (the casino's day), from each session's login to its log-off (an
    open one: to its last activity, or now for the latest)."""
    start = timezone.make_aware(
        dt.datetime.combine(periods.local_day(now), dt.time()), timezone.get_current_timezone()
    )
    total = dt.timedelta()
    rows = list(
        PlayerSession.objects.filter(user_id=user_id, started__lt=now)
        .exclude(ended__lt=start)
        .order_by("started")
        .values_list("started", "ended", "last_active")
    )
    # Sessions at once (two devices) count their time once: the union of the intervals.
    reach = start
    for n, (began, ended, last) in enumerate(rows):
        end = min(ended or (now if n == len(rows) - 1 else last), now)
        begin = max(began, reach)
        if end > begin:
            total += end - begin
            reach = end
    return total


def _check_time(user_id: int, minutes: int, now: dt.datetime) -> None:
    used = time_played(user_id, now)
    if used >= dt.timedelta(minutes=minutes):
        raise Refused(
            "limit_reached",
            f"your time per day is {periods.amount_words('time_day', minutes)}: it is used up "
            "for today (a round already dealt still finishes)",
        )


def record(
    transfers: list[Transfer],
    accounts: dict[str, int],
    now: dt.datetime,
    sessions: dict[str, dict[int, tuple[int, int]]],
) -> dict[str, dict[int, tuple[int, int]]]:
    """Each player's wagered amount and net result from these transfers, onto their day's
    tally and their open sessions' figures since login (written with the command's other
    writes). ``sessions``: those figures as read with the players' account locks; returns
    them as this command leaves them, for the players whose figures changed (the balance
    each is told comes with them, §814a.1(e)(1)-(2))."""
    if not transfers:
        return {}
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for t in transfers:
        if t.player not in accounts:
            continue
        sums[t.player][0] += wagered_by(t)
        sums[t.player][1] -= t.amount
    day = periods.local_day(now)
    moved = {p: (w, n) for p, (w, n) in sums.items() if w or n}
    rows = sorted((accounts[p], day, w, n, 0) for p, (w, n) in moved.items())
    if rows:
        fastsql.write(fastsql.tally_add(len(rows)), [p for row in rows for p in row])
    after: dict[str, dict[int, tuple[int, int]]] = {}
    for player, (w, n) in moved.items():
        for session, (net, wagered) in sessions.get(player, {}).items():
            after.setdefault(player, {})[session] = (net + n, wagered + w)
    if after:
        changes = {s: (moved[p][1], moved[p][0]) for p, found in after.items() for s in found}
        fastsql.write(fastsql.session_add(changes), fastsql.session_add_params(changes))
    return after


def add_credit(account: int, amount: int, now: dt.datetime) -> None:
    fastsql.write(fastsql.tally_add(1), [account, periods.local_day(now), 0, 0, amount])


def refuse_play(user_id: int, now: dt.datetime) -> None:
    """Refuse taking a seat (:class:`Refused`) to an excluded player (ch. 815a) or one on a
    cool-off (§814a.2(6))."""
    from .models import PlayerGuard

    found = (
        PlayerGuard.objects.filter(user_id=user_id)
        .values_list("excluded", "excluded_until", "cooloff_until")
        .first()
    )
    if found is None:
        return
    excluded, until, cooled = found
    if excluded and (until is None or until > now):
        raise Refused("excluded", "you are excluded from play: you cannot take a seat")
    if cooled is not None and cooled > now:
        raise Refused(
            "cooloff",
            f"you chose a break from play until {timezone.localtime(cooled):%Y-%m-%d %H:%M}",
        )


def check_credit(user_id: int, account: int, amount: int, now: dt.datetime) -> None:
    """Refuse a credit (:class:`Refused`) to an excluded or suspended player, or past a
    credit limit of the day, week or month (§814a.2(1)); the account is locked by the
    caller."""
    from .models import PlayerGuard, PlayTally

    found = (
        PlayerGuard.objects.filter(user_id=user_id)
        .values_list("excluded", "excluded_until", "cooloff_until", "limits")
        .first()
    )
    if found is None:
        return
    excluded, until, cooled, limits = found
    if excluded and (until is None or until > now):
        raise Refused("excluded", "the player is excluded from play: no credit can be made")
    if cooled is not None and cooled > now:
        raise Refused("cooloff", "the player chose a break from play: no credit until it ends")
    for period in periods.PERIODS:
        kind = f"credits_{period}"
        if kind not in (limits or {}):
            continue
        since = periods.period_start(period, now)
        rows = PlayTally.objects.filter(account_id=account, day__gte=since)
        before = sum(rows.values_list("credits", flat=True))
        if before + amount > limits[kind]:
            raise Refused(
                "limit_reached",
                f"the player's {periods.words(kind)} limit is {_dollars(limits[kind])}: "
                f"{_dollars(limits[kind] - before)} of it is left",
            )
