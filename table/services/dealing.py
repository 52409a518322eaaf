"""The dealer's commands and the clock's: opening betting (the shuffle, with :data:`RANDOM`),
no more bets, the deal, the clock running out, the reveal and the settlement; the
irregularities and the shoe (voids, the shoe's drills, new decks, the stub count); opening and
closing the table; a round left unfinished; the betting countdown starting again.

Tests swap a seeded source in for :data:`RANDOM` here, in this module
(``monkeypatch.setattr(services.dealing, "RANDOM", ...)``): :func:`open_betting` reads it from
this module's globals, so the package does not re-export it (a copy there would take a patch
and never be read). One module past 500 lines because these are the dealer's commands, each a
short body over the shared command path; split further, each file would hold two of them.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from typing import Any

from django.contrib.auth.models import User

from table.games import game as game_named
from table.games.base import (
    DEAL,
    DEALER,
    REVEAL,
    SETTLE,
    SUPERVISOR_VOID,
    TIME_OUT,
    VOID,
    Actor,
    Command,
    Game,
    GameStep,
    Inputs,
    MeterSpec,
)
from table.games.errors import EngineError
from table.games.shoe import Fault, RandomSource, SecretsSource, Shuffler, new_salt

from .. import duties, fastsql, meters
from ..models import Round, RulesSubmission, Table
from .command import _as_dealer, dealer_name, execute
from .context import Context, Result, ServiceError, _audit, _deadline_ms, clock_due
from .takeover import _check_driver

#: The randomness behind every shuffle; tests swap in a seeded source.
RANDOM: RandomSource = SecretsSource()


#: The platform's own word for a stub miscount, taken at every table: each game's own is its
#: :attr:`Game.stub_miscount_reason` (dealer.js's console sends this one).
STUB_MISCOUNT = "stub_miscount"
#: The void of a table closing while betting (§684a, §657a, §663a: no round is dealt on a
#: closed table); every game knows it, and the table closes with it.
TABLE_CLOSED = "table_closed"
#: The voids only the platform sends (a restart gives a round up, a supervisor voids one from
#: the back office): a dealer naming them is refused.
PLATFORM_VOIDS = frozenset({"server_restart", SUPERVISOR_VOID})


def _actor(ctx: Context) -> Actor:
    """Who the game sees sending a dealer command: the dealer at the console, or the house
    (the clock, the automatic dealer, a restart)."""
    if ctx.dealer is not None:
        return Actor.dealer(ctx.dealer.get_username())
    return Actor.house()


def _send(ctx: Context, command: Command, inputs: Inputs | None = None) -> GameStep:
    """Apply a dealer's or the house's command to the round in play, and its step."""
    state = ctx.live_round()
    step = ctx.game.apply(state, _actor(ctx), command, inputs or Inputs())
    ctx.apply(step)
    return step


def _dealer_may(game: Game[Any, Any], state: Any, move: str) -> bool:
    """Whether the dealer's moves offer ``move`` now (the step due)."""
    return any(m.name == move for m in game.moves(state, Actor.dealer()))


def _dealer_may_void(game: Game[Any, Any], state: Any, reason: str) -> bool:
    """Whether the dealer's moves offer a void for ``reason`` now."""
    return any(
        m.name == VOID and any(c.args.get("reason") == reason for c in m.choices)
        for m in game.moves(state, Actor.dealer())
    )


def open_betting(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    """Open a new round: shuffle the next deck, publish its commitment, take bets."""

    def body(ctx: Context) -> dict[str, Any]:
        table = ctx.table
        _check_driver(ctx)
        if not table.is_open:
            raise ServiceError("table_closed", "the table is closed")
        current = ctx.status()
        if current is not None and not current.finished:
            raise ServiceError("round_in_play", f"round {current.number} is still {current.phase}")
        if table.pending_rules_id:
            table.rules_id = table.pending_rules_id
            table.pending_rules = None
            table.rules = RulesSubmission.objects.get(pk=table.rules_id)
        # A table runs the game of its Rules Submission (services.rules keeps it one game).
        game = game_named(table.rules.game)
        # A Submission in force that breaks the rules (say one from before jurisdictions
        # were checked) deals no round; the refusal is the one change_rules gives.
        problems = table.rules.game_problems()
        if problems:
            raise ServiceError("bad_rules", "; ".join(m for _, m in problems))
        rules = ctx.rules
        _check_meters_linked(ctx, game.meters(rules))
        settings = game.table_settings(rules)
        shuffler = _shuffler(table, settings.two_decks)
        try:
            # §684a.3(b): one deck, or two alternating, as the submission in force says.
            if shuffler.match_rules(settings.two_decks, time.time()):
                ctx.note(
                    "decks_changed",
                    {
                        "decks": [d.back for d in shuffler.decks],
                        "reason": f"the Rules Submission “{table.rules.name}” plays "
                        + ("two decks" if settings.two_decks else "one deck"),
                    },
                )
            back, order = shuffler.shuffle_next(RANDOM, time.time())
        except EngineError as exc:
            if exc.code != "deck_miscount":
                raise
            # §684a.5(b): the deck that counted wrong leaves the table; no round opens on it.
            table.shoe = shuffler.to_dict()
            ctx.note("deck_removed", {"reason": exc.message})
            return {"opened": False, "deck_removed": exc.message}
        table.shoe = shuffler.to_dict()
        number = (current.number if current else 0) + 1
        if current is None:
            last = Round.objects.filter(table=table).order_by("-number").first()
            number = (last.number if last else 0) + 1
        state, step = game.open_round(number, rules, back, order, new_salt())
        status = game.status(state)  # a new round: the commitment the table publishes
        [round_id] = fastsql.insert_many(
            Round,
            [
                "table_id",
                "number",
                "game",
                "rules_submission_id",
                "rules",
                "phase",
                "state",
                "commitment",
                "deck_back",
                "void_reason",
                "opened_at",
            ],
            [
                (
                    table.pk,
                    number,
                    game.name,
                    table.rules_id,
                    fastsql.dumps(game.rules_to_dict(rules)),
                    status.phase,
                    fastsql.dumps(game.to_dict(state)),
                    status.commitment,
                    back,
                    "",
                    fastsql.when(ctx.now),
                )
            ],
            returning=True,
        )
        ctx.round_row = Round(id=round_id, phase=status.phase)
        ctx.set_round(state, game)
        table.current_round = ctx.round_row
        table.betting_deadline = ctx.now + dt.timedelta(seconds=settings.betting_seconds)
        ctx.apply(step)
        ctx.events[-1].data["deadline"] = _deadline_ms(table.betting_deadline)
        ctx.events[-1].data["seconds"] = settings.betting_seconds
        return {"opened": True, "round": number, "commitment": status.commitment}

    return execute(
        table_id,
        dealer_name(dealer),
        "open_betting",
        _as_dealer(dealer, body),
        meters="links",  # which meters are linked comes with the locked read
        **kw,
    )


def _shuffler(table: Table, two_decks: bool) -> Shuffler:
    if table.shoe:
        return Shuffler.from_dict(table.shoe)
    return Shuffler.fresh(time.time(), two_decks)


def _two_decks(ctx: Context) -> bool:
    return ctx.game.table_settings(ctx.rules).two_decks


def _check_meters_linked(ctx: Context, needed: tuple[MeterSpec, ...]) -> None:
    """A table whose rules offer a progressive or a hand bonus deals only with every meter they
    need linked to it (§657a.12(d)-(f): the wager pays from the meter): refused before any
    wager is taken, rather than at the settlement. The links as the locked read brought them
    (PostgreSQL), else read now."""
    if not needed:
        return
    table = ctx.table
    found = ctx.linked if ctx.linked is not None else meters.linked(table.pk, lock=False)
    linked = {f"{m.kind}:{m.paytable}:{m.wager}" for m in found.meters.values()}
    missing = [spec for spec in needed if spec.pool not in linked]
    if missing:
        names = ", ".join(spec.label for spec in missing)
        raise ServiceError(
            "meters_not_linked",
            f"the rules of {table.name} need these progressive meters linked to the table: "
            f"{names}. Link them in the admin (Progressive meters) before opening betting",
        )


def no_more_bets(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> None:
        _check_driver(ctx)
        _send(ctx, Command("close_betting"))

    # The meters its increments feed (§657a.10(a)(2)) are locked with the table row.
    return execute(
        table_id,
        dealer_name(dealer),
        "no_more_bets",
        _as_dealer(dealer, body),
        meters="lock",
        **kw,
    )


def deal(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    """Deal from the virtual automated shoe; any armed shoe fault happens now."""

    def body(ctx: Context) -> dict[str, Any]:
        _check_driver(ctx)
        state = ctx.live_round()
        game = ctx.game
        shuffler = _shuffler(ctx.table, game.table_settings(game.round_rules(state)).two_decks)
        # The armed drills go off on a deal that is due, and only those this game's deal
        # knows (§684a.13, §657a.13, §663a.13).
        faults = shuffler.take_deal_faults() if _dealer_may(game, state, DEAL) else []
        faults = [f for f in faults if f in game.drills]
        # The randomness of the table game system (a Magic Card, §657a.12(f)(3)) is the
        # shuffle's.
        _send(ctx, Command(DEAL), Inputs(faults=tuple(faults), rng=RANDOM))
        ctx.table.shoe = shuffler.to_dict()
        ctx.table.rounds_since_stub_count += 1
        status = ctx.status()
        assert status is not None
        return {"phase": status.phase}

    return execute(table_id, dealer_name(dealer), "deal", _as_dealer(dealer, body), **kw)


def time_out(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    """The clock ran out for what the table waits for: the box to act folds (abandoned
    wagers), or what the game's timer says a time-out does (a setting not made is set aces
    high, say). Run by the clock, or from the console by a dealer assigned to the table."""

    def body(ctx: Context) -> dict[str, Any]:
        state = ctx.live_round()
        # A decision sent before the deadline may still be on its way (context.LAG_ALLOWANCE).
        if ctx.table.turn_deadline and not clock_due(ctx.table.turn_deadline, ctx.now):
            raise ServiceError("not_yet", "the player still has time")
        timer = ctx.game.timer(state)
        command = Command(TIME_OUT)
        if timer is not None and timer.kind != "betting" and timer.expire is not None:
            command = timer.expire
        _send(ctx, command)
        response: dict[str, Any] = {"box": command.box}
        if timer is not None and timer.kind == "setting":
            response["boxes"] = list(timer.boxes)
        return response

    return execute(table_id, "clock", "time_out", _as_dealer(dealer, body), **kw)


def reveal(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> None:
        _check_driver(ctx)
        _send(ctx, Command(REVEAL))

    return execute(table_id, dealer_name(dealer), "reveal", _as_dealer(dealer, body), **kw)


def _test_settle_delay() -> None:
    """Crash-test hook (tests/integrity/test_crash.py): with ``FRENZY_TEST_SETTLE_DELAY`` set,
    wait that many seconds inside the settle transaction, after the ledger postings, so that a
    process killed now dies mid-settlement. Never set in production."""
    delay = os.environ.get("FRENZY_TEST_SETTLE_DELAY")
    if delay:
        time.sleep(float(delay))


def _settle(ctx: Context) -> dict[str, Any]:
    """Settle the round with the shared meters as they stand; each player's result."""
    step = _send(ctx, Command(SETTLE), Inputs(meters=ctx.meter_readings()))
    settled = next((e for e in step.events if e.kind == "round_settled"), None)
    return dict(settled.data.get("players") or {}) if settled is not None else {}


def settle(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> dict[str, Any]:
        _check_driver(ctx)
        players = _settle(ctx)
        _test_settle_delay()
        return {"players": players}

    # The meters it reads and may pay from (§657a.12) are locked with the table row.
    return execute(
        table_id, dealer_name(dealer), "settle", _as_dealer(dealer, body), meters="lock", **kw
    )


def void_round(
    table_id: int,
    reason: str,
    dealer: User | None = None,
    evidence: dict[str, Any] | None = None,
    **kw: Any,
) -> Result:
    """Void the round for an irregularity the dealer names (§684a.13, §657a.13, §663a.13,
    and the stub counts of §684a.10(f), §657a.10(f), §663a.10(f)): every stake goes back.

    The reason and its evidence (``evidence``: what the dealer saw, e.g. which dealer card was
    exposed) go to the game as they are: the game knows which reasons exist and when each may
    happen, and takes none on trust (the deal's irregularities only from the shoe, a stub
    miscount only from the count, nothing once the outcome is known). ``table_closed`` closes
    the table as :func:`close_table` does."""

    request: dict[str, Any] = {"reason": reason}
    if evidence:
        request["evidence"] = evidence
    return _declared_void(table_id, "void", reason, evidence, dealer, request, **kw)


def _declared_void(
    table_id: int,
    command: str,
    reason: str,
    evidence: dict[str, Any] | None,
    dealer: User | None,
    request: dict[str, Any] | None,
    **kw: Any,
) -> Result:
    def body(ctx: Context) -> dict[str, Any]:
        if reason in PLATFORM_VOIDS:
            raise ServiceError(
                "platform_reason",
                f"{reason} is the platform's own void: a supervisor voids a round from the back "
                "office, a restart from the server",
            )
        if reason == TABLE_CLOSED:
            _close(ctx)
            return {"reason": reason}
        ctx.live_round()
        named = ctx.game.stub_miscount_reason if reason == STUB_MISCOUNT else reason
        found = {**(evidence or {}), "declared_by": ctx.actor}
        _send(ctx, Command(VOID, None, {"reason": named, "evidence": found}))
        return {"reason": reason}

    return execute(
        table_id, dealer_name(dealer), command, _as_dealer(dealer, body), request=request, **kw
    )


#: The void of a dealer card exposed (§684a.13(d), §657a.13(d)): each game decides; a game
#: without that rule refuses it as it refuses any reason it does not know.
DEALER_CARD_EXPOSED = "dealer_card_exposed"


def dealer_card_exposed(
    table_id: int, dealer: User | None = None, card: str | None = None, **kw: Any
) -> Result:
    """A dealer card exposed, declared by the dealer (with the card seen, ``card``): the game
    decides what follows: a game may refuse it (``shoe_only``: in the virtual shoe only the
    shoe exposes a dealer card, while dealing, and the deal then applies the game's rule
    itself; a declaration would let a dealer choose or guess his way to a void), or have no
    such rule (``unknown_irregularity``)."""
    evidence = {"card": card} if card else None
    return _declared_void(
        table_id, "dealer_card_exposed", DEALER_CARD_EXPOSED, evidence, dealer, evidence, **kw
    )


def arm_fault(
    table_id: int, fault: str, dealer: User | None = None, **kw: Any
) -> Result:
    """Tell the virtual shoe to fail on its next shuffle or deal (§684a.13 drills)."""

    def body(ctx: Context) -> dict[str, Any]:
        if not ctx.table.is_test:
            # Drills are for testing and training, never at a table open to ordinary play.
            raise ServiceError(
                "not_a_test_table",
                "shoe drills exist only on test tables (marked in the admin); "
                f"{ctx.table.name} is open to ordinary play",
            )
        try:
            kind = Fault(fault)
            if kind not in ctx.game.drills:
                raise ValueError(fault)
        except ValueError:
            drills = ", ".join(f.value for f in ctx.game.drills)
            raise ServiceError(
                "unknown_fault", f"unknown shoe fault {fault!r} (one of {drills})"
            ) from None
        shuffler = _shuffler(ctx.table, _two_decks(ctx))
        shuffler.arm(kind)
        ctx.table.shoe = shuffler.to_dict()
        # A drill is the dealer's and the record's, never the players' log (issue 28: every
        # player read "Shoe fault armed: misdeal ... on the next deal").
        ctx.note("shoe_fault_armed", {"fault": kind.value}, DEALER)
        _audit(ctx, "drill_armed", {"fault": kind.value})
        return {"fault": kind.value}

    request = {"fault": fault}
    return execute(
        table_id, dealer_name(dealer), "arm_fault", _as_dealer(dealer, body), request=request, **kw
    )


def change_decks(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    """Bring new decks into play (at least every 8 hours, §684a.3(c)(2))."""

    def body(ctx: Context) -> dict[str, Any]:
        status = ctx.status()
        if status is not None and not status.finished and not status.betting:
            raise ServiceError("round_in_play", "change decks between rounds")
        two_decks = _two_decks(ctx)
        shuffler = _shuffler(ctx.table, two_decks)
        shuffler.change_decks(time.time(), two_decks)
        ctx.table.shoe = shuffler.to_dict()
        ctx.table.rounds_since_stub_count = 0
        ctx.note("decks_changed", {"decks": [d.back for d in shuffler.decks]})
        _audit(ctx, "decks_changed", {"decks": [d.back for d in shuffler.decks]})
        return {}

    return execute(
        table_id,
        dealer_name(dealer),
        "change_decks",
        _as_dealer(dealer, body, staff_may=True),
        **kw,
    )


def count_stub(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    """Count the last round's cards (§684a.10(d)-(f)): 52 resets the count; else void."""

    def body(ctx: Context) -> dict[str, Any]:
        state = ctx.load_round()
        if state is None:
            raise ServiceError("no_round", "no round has been dealt yet")
        game = ctx.game
        status = ctx.status()
        assert status is not None
        if not status.dealt:
            # Nothing dealt, no stub: a "count" now would reset the counter unseen.
            raise ServiceError(
                "no_stub",
                f"round {status.number} has not been dealt: the stub is counted after a deal",
            )
        if _dealer_may(game, state, SETTLE):
            # §684a.11(c): with the dealer's hand face up the dealer settles; a void now
            # would pick the outcome. Count the stub once the round is settled.
            raise ServiceError(
                "wrong_phase", "the dealer's hand is face up: settle the round, then count the stub"
            )
        counted = status.cards_counted
        ok = counted == 52
        if ok:
            ctx.table.rounds_since_stub_count = 0
        elif not status.finished:
            # §684a.10(f), §657a.10(f), §663a.10(f): a stub that does not count out voids.
            _send(ctx, Command(VOID, None, {"reason": game.stub_miscount_reason}))
        ctx.note("stub_counted", {"count": counted, "correct": ok})
        _audit(ctx, "stub_counted", {"round": status.number, "count": counted, "correct": ok})
        return {"count": counted, "correct": ok}

    return execute(table_id, dealer_name(dealer), "count_stub", _as_dealer(dealer, body), **kw)


def open_table(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    def body(ctx: Context) -> None:
        ctx.table.is_open = True
        ctx.note("table_opened", {})
        _audit(ctx, "table_opened", {})

    return execute(
        table_id, dealer_name(dealer), "open_table", _as_dealer(dealer, body, staff_may=True), **kw
    )


def close_table(table_id: int, dealer: User | None = None, **kw: Any) -> Result:
    """Close the table; a round still taking bets is voided and its wagers returned."""

    return execute(
        table_id,
        dealer_name(dealer),
        "close_table",
        _as_dealer(dealer, _close, staff_may=True),
        **kw,
    )


def _close(ctx: Context) -> None:
    """Close the table: a round not yet dealt is void (``table_closed``, when its game allows
    it now: every game while betting), one in play is finished first."""
    state = ctx.load_round()
    status = ctx.status()
    if state is not None and status is not None and not status.finished:
        if not _dealer_may_void(ctx.game, state, TABLE_CLOSED):
            raise ServiceError("round_in_play", "finish the round before closing the table")
        evidence = {"closed_by": ctx.actor}
        _send(ctx, Command(VOID, None, {"reason": TABLE_CLOSED, "evidence": evidence}))
    ctx.table.is_open = False
    ctx.note("table_closed", {})
    _audit(ctx, "table_closed", {})


def fail_unfinished_round(table_id: int) -> Result | None:
    """Void a round left unfinished and return every stake (a round is normally resumed
    from the store after a restart; this is for a table being cleared, e.g. by bench_load)."""
    table = Table.objects.get(pk=table_id)
    if not table.current_round_id:
        return None
    row = Round.objects.get(pk=table.current_round_id)
    game = game_named(row.game)
    if game.status(game.from_dict(row.state)).finished:
        return None

    def body(ctx: Context) -> None:
        state = ctx.live_round()
        if _dealer_may(ctx.game, state, SETTLE):
            # The outcome is known: the round is settled, never voided (§684a.11(c)).
            _settle(ctx)
            return
        status = ctx.status()
        assert status is not None
        phase = status.phase
        _send(ctx, Command(VOID, None, {"reason": "server_restart", "evidence": {"phase": phase}}))

    return execute(table_id, "clock", "void", body)


#: The permission a supervisor needs to void a round from the back office.
VOID_PERMISSION = "table.void_round"


def supervisor_void(table_id: int, reason: str, staff: User, **kw: Any) -> Result:
    """A supervisor gives up the round in play from the back office (issue 23: the way out of
    a round that can be neither settled nor voided, needing no code): every stake goes back
    and the meter increments come back out, in any phase before settled, the dealer's hand
    face up included (the game's :data:`SUPERVISOR_VOID`). Needs the ``void_round``
    permission and a reason, which goes with the void and into the audit log with the
    supervisor's name."""
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ServiceError(
            "reason_required", "say why the round is voided: it goes in the audit log"
        )
    if not staff.is_active or not staff.has_perm(VOID_PERMISSION):
        raise ServiceError(
            "forbidden", "voiding a round needs the supervisor's void_round permission"
        )

    def body(ctx: Context) -> dict[str, Any]:
        ctx.live_round()
        status = ctx.status()
        assert status is not None
        by = staff.get_username()
        evidence = {"voided_by": by, "reason": text, "phase": status.phase}
        _send(ctx, Command(VOID, None, {"reason": SUPERVISOR_VOID, "evidence": evidence}))
        round_id = ctx.round_row.pk if ctx.round_row is not None else None
        details = {"round": status.number, "phase": status.phase, "reason": text}
        duties.record(
            staff, "round_voided", details, table_id=ctx.table.pk, round_id=round_id, when=ctx.now
        )
        return {"round": status.number, "voided_in": status.phase}

    return execute(
        table_id,
        f"staff:{staff.get_username()}",
        "supervisor_void",
        body,
        request={"reason": text},
        **kw,
    )


def restart_betting_clock(table_id: int, *, wait: bool = False, **kw: Any) -> Result:
    """Nobody has bet when the countdown ran out: keep betting open for another countdown;
    or (``wait``) with no countdown until someone bets, so that a seated player who never
    bets does not add an event to the log every countdown (the clock starts one when a
    bet comes)."""

    def body(ctx: Context) -> dict[str, Any]:
        state = ctx.live_round()
        game = ctx.game
        status = ctx.status()
        if status is None or not status.betting:
            raise ServiceError("wrong_phase", "betting is not open")
        seconds = None if wait else game.table_settings(game.round_rules(state)).betting_seconds
        ctx.table.betting_deadline = (
            None if seconds is None else ctx.now + dt.timedelta(seconds=seconds)
        )
        deadline = _deadline_ms(ctx.table.betting_deadline)
        ctx.note("betting_clock", {"deadline": deadline, "seconds": seconds})
        return {"deadline": deadline}

    return execute(table_id, "clock", "betting_clock", body, **kw)
