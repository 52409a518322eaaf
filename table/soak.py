"""Random rounds of every game through the services, each checked against ``settle_round``.

Issue 23 asks that no round can be stuck: every round reaches settled or void, with a ledger
equal to what ``settle_round`` answers for the stored round. :class:`Soak` plays that at the
service layer, seeded (``random.Random(seed)``): for every game of the registry, two tables
under its default rules (linked to the same shared meters when the game has any, so one
table's rounds feed and drain the other's), players with random wagers and decisions picked
from the moves the game offers, time-outs, every shoe drill the game knows, dealer voids, the
house clearing an unfinished round, shoes stacked now and then with straight flushes (the
jackpots that reset a meter to its reseed, the hand bonus's $0: meters from $0 up), and staff
changes between and during rounds (a Rules Submission changed, decks changed, a meter's links
changed between rounds; the same change while a round is in play must be refused). After
every round :func:`table.integrity.round_problems` and :func:`table.audit.verify_round`
check it. The property test (``tests/services/test_soak.py``) runs a few dozen rounds;
``manage.py soak_rounds`` the long form.

The platform's code: it never names a game (the registry, the moves, the game's drills and
meters are all it reads).
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.utils import timezone

from table.games import GAMES
from table.games import game as game_named
from table.games.base import BET, Actor
from table.games.cards import DECK, parse_card
from table.games.driver import choose_args
from table.games.shoe import Fault

from . import audit, integrity, ledger, meters, services
from .models import DealerAssignment, MeterEvent, ProgressiveMeter, Round, RulesSubmission, Table

START = 1_000_000_00  # each soak player's stake money
#: How far past a decision's deadline the soak's clock runs out (past any lag allowance).
HOUR = dt.timedelta(hours=1)


class SoakSource:
    """The shuffle's randomness for a soak: seeded; :meth:`stack` makes the next shuffle
    deal given cards first (a Fisher-Yates shuffle run backwards), and any draw outside a
    shuffle (a Magic Card, a Lucky Bonus) is answered from the same seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.next_order: list[int] | None = None
        self.target: list[int] | None = None
        self.current: list[int] = []
        self.expect = 0  # the next n of a shuffle in progress (0: none)

    def stack(self, head: Sequence[int]) -> None:
        self.next_order = list(head) + [c for c in range(len(DECK)) if c not in head]

    def randbelow(self, n: int) -> int:
        if self.expect == 0 and n == len(DECK):  # a shuffle starts: 52, 51, ..., 2
            self.target, self.next_order = self.next_order, None
            self.current = list(range(n))
            self.expect = n
        if self.expect and n == self.expect:
            self.expect = n - 1 if n > 2 else 0
            if self.target is None:
                return self.rng.randrange(n)
            i = n - 1
            j = self.current.index(self.target[i])
            self.current[i], self.current[j] = self.current[j], self.current[i]
            return j
        return self.rng.randrange(n)


def jackpot_head(rng: random.Random) -> list[int]:
    """35 cards in 7 stacks of 5, some of them straight flushes (royals included)."""
    suits = rng.sample("SHDC", 4)
    stacks: list[list[str]] = []
    for suit in suits[: rng.randint(1, 3)]:
        top = rng.randint(5, 14)  # 5-high to ace-high (a royal)
        ranks = [(top - k) for k in range(5)]
        stacks.append([_rank(r) + suit for r in ranks])
    used = {c for s in stacks for c in s}
    rest = [c for c in (_rank(r) + s for r in range(2, 15) for s in "SHDC") if c not in used]
    rng.shuffle(rest)
    while len(stacks) < 7:
        stacks.append([rest.pop() for _ in range(5)])
    rng.shuffle(stacks)
    return [parse_card(c) for s in stacks for c in s]


def _rank(r: int) -> str:
    return "A" if r in (1, 14) else "23456789TJQKA"[r - 2]


@dataclass
class Figures:
    rounds: Counter[tuple[str, str]] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    #: Payments out of the shared meters, by kind: "hit", "reset", "split share".
    meter_payments: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        out = []
        for name in sorted({g for g, _ in self.rounds}):
            settled = self.rounds[name, "settled"]
            void = self.rounds[name, "void"]
            out.append(f"{name}: {settled + void} rounds, {settled} settled, {void} void")
        total = sum(self.rounds.values())
        out.append(
            f"total: {total} rounds, {len(self.problems)} mismatches, "
            f"{self.seconds:.1f} s ({1000 * self.seconds / max(total, 1):.0f} ms a round)"
        )
        if self.meter_payments:
            out.append(
                "meter payments: "
                + ", ".join(f"{k} x{v}" for k, v in sorted(self.meter_payments.items()))
            )
        if self.refusals:
            out.append(
                "refused as they should be: "
                + ", ".join(f"{k} x{v}" for k, v in sorted(self.refusals.items()))
            )
        return out


@dataclass
class _Table:
    table: Table
    game: Any
    dealer: Any
    players: list[Any]
    rules: list[RulesSubmission]


class Soak:
    """Seeded random rounds at the service layer; ``run(n)`` plays ``n`` rounds in turn at
    every table and returns the :class:`Figures`."""

    def __init__(
        self,
        seed: int,
        prefix: str = "soak",
        games: Sequence[str] = (),
        jackpot_rate: float = 0.4,
    ) -> None:
        self.jackpot_rate = jackpot_rate
        self.rng = random.Random(seed)
        self.source = SoakSource(random.Random(seed + 1))
        self.prefix = f"{prefix}{seed}"
        self.figures = Figures()
        self.tables: list[_Table] = []
        self.games = list(games) or list(GAMES)
        self.jackpots = False

    # --- set-up -----------------------------------------------------------------------------

    def setup(self) -> None:
        users = get_user_model()
        deal = Permission.objects.get(codename="deal_table", content_type__app_label="table")
        self.staff = users.objects.create_superuser(f"{self.prefix}-staff", "", "pw")
        for name in self.games:
            game = game_named(name)
            base = game.rules_to_dict(game.default_rules())
            variants = [base, *self._variants(game, base)]
            subs = [
                RulesSubmission.objects.create(
                    name=f"{self.prefix} {name} {i}", game=name, choices=choices
                )
                for i, choices in enumerate(variants)
            ]
            linked: list[Table] = []
            for n in range(2):
                # Test tables: the soak arms shoe drills, which only test tables allow.
                table = Table.objects.create(
                    name=f"{self.prefix} {name} {n + 1}", rules=subs[0], is_test=True
                )
                ledger.table_bankroll(table)
                dealer = users.objects.create_user(f"{self.prefix}-{name}-dealer{n}", "", "pw")
                dealer.user_permissions.add(deal)
                DealerAssignment.objects.create(table=table, dealer=dealer)
                players = []
                for p in range(3):
                    user = users.objects.create_user(f"{self.prefix}-{name}{n}-p{p}", "", "pw")
                    ledger.player_account(user)
                    ledger.credit(user, START, "soak stake money")
                    players.append(user)
                self.tables.append(
                    _Table(table, game, users.objects.get(pk=dealer.pk), players, subs)
                )
                linked.append(table)
            for spec in game.meters(game.parse_rules(base)):
                kind, paytable, wager = spec.pool.split(":")
                meters.create_meter(
                    f"{self.prefix} {spec.label}", kind, paytable, int(wager), linked
                )

    def _variants(self, game: Any, base: dict[str, Any]) -> list[dict[str, Any]]:
        """Other Rules Submissions of the game a table may change to: the Magic Card and Lucky
        Bonus drawn often, where the game has them."""
        out = []
        if "magic_card_probability" in base and base.get("hand_bonus"):
            out.append({**base, "magic_card_probability": "1/2", "lucky_bonus_probability": "1/2"})
        valid = []
        for choices in out:
            try:
                rules = game.parse_rules(choices)
            except Exception:
                continue
            if not game.rules_problems(rules):
                valid.append(choices)
        return valid

    # --- playing -----------------------------------------------------------------------------

    def run(self, rounds: int) -> Figures:
        started = time.perf_counter()
        if not self.tables:
            self.setup()
        for i in range(rounds):
            self.play(self.tables[i % len(self.tables)])
        self.figures.seconds = time.perf_counter() - started
        for problem in ledger.verify() + meters.verify():
            self.figures.problems.append(f"books: {problem}")
        return self.figures

    def _refused(self, codes: tuple[str, ...], fn: Any, *args: Any, **kw: Any) -> Any:
        """Run a service; a refusal with one of ``codes`` is counted, any other is raised."""
        try:
            return fn(*args, **kw)
        except (services.ServiceError, meters.MeterError) as exc:
            if exc.code not in codes:
                raise
            self.figures.refusals[exc.code] += 1
            return None

    def _between_rounds(self, t: _Table) -> None:
        rng = self.rng
        roll = rng.random()
        if roll < 0.08 and len(t.rules) > 1:
            services.change_rules(t.table.pk, rng.choice(t.rules), staff=self.staff)
        elif roll < 0.12:
            services.change_decks(t.table.pk, t.dealer)
        elif roll < 0.16:
            self._refused(
                ("wrong_phase", "no_round", "no_stub"), services.count_stub, t.table.pk, t.dealer
            )
        elif roll < 0.22:
            # Staff unlink a meter between rounds and link it again (the table's rules need
            # it: an unlinked table does not open, "meters_not_linked").
            for meter in ProgressiveMeter.objects.filter(tables=t.table):
                with transaction.atomic():
                    meter.tables.remove(t.table)
                self._refused(("meters_not_linked",), services.open_betting, t.table.pk, t.dealer)
                with transaction.atomic():
                    meter.tables.add(t.table)

    def _during_round(self, t: _Table) -> None:
        """Staff try to change what the round depends on: refused while it is in play."""
        meter = ProgressiveMeter.objects.filter(tables=t.table).first()
        if meter is not None and self.rng.random() < 0.5:
            try:
                with transaction.atomic():
                    meter.tables.remove(t.table)
            except meters.MeterError as exc:
                self.figures.refusals[exc.code] += 1
            else:
                self.figures.problems.append(f"{t.table.name}: a meter unlinked mid-round")
        elif len(t.rules) > 1:
            services.change_rules(t.table.pk, self.rng.choice(t.rules), staff=self.staff)

    def play(self, t: _Table) -> None:
        rng, game, pk = self.rng, t.game, t.table.pk
        t.table.refresh_from_db()
        if not t.table.is_open:  # a void for the table closing closed it
            services.open_table(pk, t.dealer)
        self._between_rounds(t)
        self.jackpots = rng.random() < self.jackpot_rate
        if self.jackpots:
            self.source.stack(jackpot_head(rng))
        if Fault.MISCOUNT in game.drills and rng.random() < 0.03:
            services.arm_fault(pk, Fault.MISCOUNT.value, t.dealer)
        opened = services.open_betting(pk, t.dealer).response
        if not opened.get("opened"):
            services.change_decks(pk, t.dealer)  # §684a.5(b): the deck that miscounted left
            self.figures.refusals["deck_removed"] += 1
            return
        seated = self._bets(t)
        if not seated:
            services.close_table(pk, t.dealer)  # nobody bet: the round is void, table closed
            services.open_table(pk, t.dealer)
            self._check(t)
            return
        drills = [f for f in game.drills if f is not Fault.MISCOUNT]
        if drills and rng.random() < 0.12:
            services.arm_fault(pk, rng.choice(drills).value, t.dealer)
        if rng.random() < 0.1:
            self._during_round(t)
        for _ in range(200):
            state = self._state(t)
            status = game.status(state)
            if status.finished:
                break
            self._step(t, state)
        else:
            self.figures.problems.append(f"{t.table.name}: a round did not finish")
        self._check(t)

    def _state(self, t: _Table) -> Any:
        t.table.refresh_from_db()
        assert t.table.current_round_id is not None  # play() opened one; it stays after it ends
        row = Round.objects.get(pk=t.table.current_round_id)
        return t.game.from_dict(row.state)

    def _bets(self, t: _Table) -> list[Any]:
        rng, game, pk = self.rng, t.game, t.table.pk
        bettors = []
        for user in t.players:
            if rng.random() < 0.2:
                continue
            bets = [m for m in game.moves(self._state(t), Actor.player(user.username))]
            bets = [m for m in bets if m.name == BET]
            rng.shuffle(bets)
            for move in bets[: 1 + rng.randrange(2)]:
                try:
                    services.sit(pk, user, move.box)
                except services.ServiceError as exc:
                    self.figures.refusals[exc.code] += 1
                args = choose_args(move, self.source)
                if self.jackpots:  # a stacked shoe: every side wager too, to meet the jackpots
                    args = {a.arg: args.get(a.arg, a.low) for a in move.amounts} or args
                try:
                    services.act(pk, user, BET, move.box, args)
                    bettors.append(user)
                except services.ServiceError as exc:
                    self.figures.refusals[exc.code] += 1
        return bettors

    def _step(self, t: _Table, state: Any) -> None:
        rng, game, pk = self.rng, t.game, t.table.pk
        roll = rng.random()
        dealer_moves = game.moves(state, Actor.dealer())
        voids = [c for m in dealer_moves if m.name == "void" for c in m.choices]
        if roll < 0.006:
            services.fail_unfinished_round(pk)  # the house clears the table (a restart)
            return
        if roll < 0.016 and voids:
            reason = rng.choice(voids).args["reason"]
            services.void_round(pk, reason, t.dealer)
            return
        if roll < 0.03 and not game.status(state).betting:
            self._during_round(t)
            return
        for user in t.players:
            mine = [m for m in game.moves(state, Actor.player(user.username)) if m.name != BET]
            mine = [m for m in mine if m.name not in ("withdraw", "withdraw_bets")]
            if mine:
                if rng.random() < 0.1:
                    break  # this player lets the clock run out
                move = rng.choice(mine)
                services.act(pk, user, move.name, move.box, choose_args(move, self.source))
                return
        steps = {m.name for m in dealer_moves}
        for name, fn in (
            ("close_betting", services.no_more_bets),
            ("deal", services.deal),
            ("reveal", services.reveal),
            ("settle", services.settle),
        ):
            if name in steps:
                fn(pk, t.dealer)
                return
        timer = game.timer(state)
        if timer is not None and timer.expire is not None:
            Table.objects.filter(pk=pk).update(turn_deadline=timezone.now() - HOUR)
            services.time_out(pk)
            return
        raise RuntimeError(f"{t.table.name}: nobody may move in {game.status(state).phase}")

    def _check(self, t: _Table) -> None:
        t.table.refresh_from_db()
        assert t.table.current_round_id is not None  # play() opened one; it stays after it ends
        row = Round.objects.select_related("table").get(pk=t.table.current_round_id)
        status = t.game.status(t.game.from_dict(row.state))
        self.figures.rounds[row.game, status.phase] += 1
        for hit in MeterEvent.objects.filter(round=row, kind=MeterEvent.HIT):
            self.figures.meter_payments["hit"] += 1
            self.figures.meter_payments["reset"] += hit.reseeded
            self.figures.meter_payments["split share"] += hit.split > 1
            self.figures.meter_payments["from a meter under $1"] += hit.amount_before < 100
        self.figures.problems += integrity.round_problems(row)
        self.figures.problems += [
            f"{row.table.name} round {row.number}: {p}" for p in audit.verify_round(row.pk).problems
        ]
