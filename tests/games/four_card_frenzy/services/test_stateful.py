"""A stateful property test of the services: Hypothesis plays random sequences of sit, stand,
bet, withdraw, "no more bets" + deal, decide, the clock running out, reveal, settle, void,
dealer card exposed, shoe faults, stub counts, new decks, disconnects, reconnects and leaving,
with players of very different bankrolls. After every step:

- money is conserved: every account's balance sums to zero and ``ledger.verify()`` is empty;
- no player's balance is negative;
- a refused command changed nothing (the table's version, chain head, round, shoe, balances,
  seats and event count are as they were); an accepted one moved the version by exactly one;
- every round that has finished reconstructs from its record: ``audit.verify_round`` checks
  sha256(shoe | salt) against the commitment, re-deals the stored shoe order and compares
  every stack, re-settles the stored layout with ``table.games.four_card_frenzy.settlement.settle``
  against
  the stored results and SettlementLine rows, and checks that the ledger moved exactly the
  settled amounts, each wager paid back once.

Each example runs inside a transaction that is rolled back at its end, so examples start from
the same table and bankrolls.
"""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from table import audit, ledger, services
from table.games.four_card_frenzy.round import Phase
from table.games.four_card_frenzy.round import Round as EngineRound
from table.models import Account, DealerAssignment, Round, Seat, Table
from table.services.context import LAG_ALLOWANCE
from tests.conftest import SeededSource

from .conftest import make_player, table_state

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

PLAYERS = ("rich", "modest", "poor")
BANKROLLS = {"rich": 10_000_00, "modest": 300_00, "poor": 30_00}
ANTES = st.sampled_from([0, 1, 4_99, 5_00, 10_00, 25_00, 100_00, 500_00, 500_01])
OPTIONAL = st.sampled_from([0, 0, 0, 1_00, 5_00, 100_00, 100_01])
BOXES = st.integers(min_value=0, max_value=7)  # 0 and 7 do not exist
FAULTS = st.sampled_from(["jam", "face_up_card", "two_face_up_cards", "misdeal", "miscount"])
REASONS = st.sampled_from(["face_up_cards", "wrong_card_count", "shoe_jam", "stub_miscount"])

STATS: dict[str, int] = {}
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def count(what: str) -> None:
    STATS[what] = STATS.get(what, 0) + 1


class ServicesMachine(RuleBasedStateMachine):
    table_id: int
    users: dict[str, Any]
    dealer: Any

    def __init__(self) -> None:
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()
        self.saved_random = services.dealing.RANDOM
        self.checked: set[int] = set()

    def teardown(self) -> None:
        services.dealing.RANDOM = self.saved_random
        transaction.set_rollback(True)
        self.atomic.__exit__(None, None, None)

    @initialize(seed=st.integers(min_value=0, max_value=2**32), fold=st.booleans())
    def first_round(self, seed: int, fold: bool) -> None:
        """A seeded shoe, and one whole round played first, so that every example settles at
        least one round before the random steps begin."""
        services.dealing.RANDOM = SeededSource(seed)
        for _ in range(40):
            self.next_step(fold)
            row = Round.objects.filter(table_id=self.table_id, phase=Phase.SETTLED.value)
            if row.exists():
                return
        raise AssertionError("the first round did not reach settlement")

    # --- running one command ---------------------------------------------------------------

    def command(self, name: str, call: Any) -> bool:
        before = table_state(self.table_id)
        try:
            call()
        except services.ServiceError as refused:
            assert refused.code and refused.message
            assert table_state(self.table_id) == before, f"refused {name} changed the table"
            count(f"refused {name}: {refused.code}")
            return False
        after = table_state(self.table_id)
        assert after[0] == before[0] + 1, f"{name} moved the version by {after[0] - before[0]}"
        count(f"ok {name}")
        return True

    def engine(self) -> EngineRound | None:
        table = Table.objects.get(pk=self.table_id)
        if not table.current_round_id:
            return None
        return EngineRound.from_dict(Round.objects.get(pk=table.current_round_id).state)

    # --- rules -------------------------------------------------------------------------------

    @rule(player=st.sampled_from(PLAYERS), box=BOXES)
    def sit(self, player: str, box: int) -> None:
        self.command("sit", lambda: services.sit(self.table_id, self.users[player], box))

    @rule(player=st.sampled_from(PLAYERS), box=BOXES)
    def stand(self, player: str, box: int) -> None:
        self.command("stand", lambda: services.stand(self.table_id, self.users[player], box))

    @rule()
    def open_betting(self) -> None:
        self.command("open_betting", lambda: services.open_betting(self.table_id, self.dealer))

    @rule(
        player=st.sampled_from(PLAYERS),
        box=BOXES,
        ante=ANTES,
        prime=OPTIONAL,
        four_card_bonus=OPTIONAL,
        all_six=OPTIONAL,
    )
    def bet(
        self, player: str, box: int, ante: int, prime: int, four_card_bonus: int, all_six: int
    ) -> None:
        wagers = {"ante": ante, "prime": prime, "four_card_bonus": four_card_bonus}
        wagers["all_six"] = all_six
        self.command(
            "bet", lambda: services.place_bets(self.table_id, self.users[player], box, wagers)
        )

    @rule(
        player=st.sampled_from(PLAYERS),
        which=st.integers(min_value=0, max_value=1),
        ante=ANTES,
        prime=OPTIONAL,
        all_six=OPTIONAL,
    )
    def bet_on_own_box(self, player: str, which: int, ante: int, prime: int, all_six: int) -> None:
        """A seated player's own box: limits, money and phase decide."""
        mine = sorted(
            Seat.objects.filter(table_id=self.table_id, player=self.users[player]).values_list(
                "box", flat=True
            )
        )
        if not mine:
            return
        box = mine[min(which, len(mine) - 1)]
        wagers = {"ante": ante, "prime": prime, "all_six": all_six}
        self.command(
            "bet", lambda: services.place_bets(self.table_id, self.users[player], box, wagers)
        )

    @rule(player=st.sampled_from(PLAYERS), box=BOXES)
    def withdraw(self, player: str, box: int) -> None:
        self.command(
            "withdraw", lambda: services.withdraw_bets(self.table_id, self.users[player], box)
        )

    @rule()
    def deal(self) -> None:
        self.command("no_more_bets", lambda: services.no_more_bets(self.table_id, self.dealer))
        self.command("deal", lambda: services.deal(self.table_id, self.dealer))

    @rule(multiple=st.integers(min_value=0, max_value=3))
    def decide_in_turn(self, multiple: int) -> None:
        """The box to act decides (its owner): raises too large or unaffordable are refused."""
        rnd = self.engine()
        box = rnd.to_act if rnd is not None else None
        if box is None:
            self.command("decide", lambda: services.decide(self.table_id, self.users["rich"], 1, 1))
            return
        owner = self.users[rnd.boxes[box].player]
        self.command("decide", lambda: services.decide(self.table_id, owner, box, multiple))

    @rule(player=st.sampled_from(PLAYERS), box=BOXES, multiple=st.integers(-1, 4))
    def decide_anything(self, player: str, box: int, multiple: int) -> None:
        self.command(
            "decide", lambda: services.decide(self.table_id, self.users[player], box, multiple)
        )

    @rule()
    def clock_runs_out(self) -> None:
        past = timezone.now() - dt.timedelta(seconds=1) - LAG_ALLOWANCE
        Table.objects.filter(pk=self.table_id, turn_deadline__isnull=False).update(
            turn_deadline=past
        )
        self.command("time_out", lambda: services.time_out(self.table_id))

    @rule()
    def reveal(self) -> None:
        self.command("reveal", lambda: services.reveal(self.table_id, self.dealer))

    @rule()
    def settle(self) -> None:
        self.command("settle", lambda: services.settle(self.table_id, self.dealer))

    @rule(reason=REASONS)
    def void(self, reason: str) -> None:
        self.command("void", lambda: services.void_round(self.table_id, reason, self.dealer))

    @rule()
    def dealer_card_exposed(self) -> None:
        self.command(
            "dealer_card_exposed", lambda: services.dealer_card_exposed(self.table_id, self.dealer)
        )

    @rule(fault=FAULTS)
    def arm_fault(self, fault: str) -> None:
        self.command("arm_fault", lambda: services.arm_fault(self.table_id, fault, self.dealer))

    @rule()
    def change_decks(self) -> None:
        self.command("change_decks", lambda: services.change_decks(self.table_id, self.dealer))

    @rule()
    def count_stub(self) -> None:
        self.command("count_stub", lambda: services.count_stub(self.table_id, self.dealer))

    @rule(player=st.sampled_from(PLAYERS), connected=st.booleans())
    def connection(self, player: str, connected: bool) -> None:
        before = table_state(self.table_id)
        result = services.set_connected(self.table_id, self.users[player], connected)
        if result is None:  # not seated: nothing to record
            assert table_state(self.table_id) == before
        count("connection")

    @rule(player=st.sampled_from(PLAYERS))
    def leave(self, player: str) -> None:
        self.command("leave", lambda: services.leave(self.table_id, self.users[player]))

    @rule(steps=st.integers(min_value=1, max_value=8), fold=st.booleans())
    def play_on(self, steps: int, fold: bool) -> None:
        """What a dealer and willing players would do next, a few times over: random rules
        alone rarely get a round from betting to settlement."""
        for _ in range(steps):
            self.next_step(fold)

    def next_step(self, fold: bool) -> None:
        t = self.table_id
        rnd = self.engine()
        seats = dict(Seat.objects.filter(table_id=t).values_list("box", "player__username"))
        if not seats:
            for name, box in (("rich", 2), ("modest", 4), ("poor", 5)):
                self.command("sit", lambda n=name, b=box: services.sit(t, self.users[n], b))
            return
        if rnd is None or rnd.finished:
            if not self.command("open_betting", lambda: services.open_betting(t, self.dealer)):
                # No deck left after miscounts (§684a.5(b)): bring new ones.
                self.command("change_decks", lambda: services.change_decks(t, self.dealer))
            return
        if rnd.phase is Phase.BETTING:
            unbet = [b for b in sorted(seats) if b not in rnd.boxes]
            if unbet and not (rnd.boxes_in_play() and fold):
                box = unbet[0]
                user = self.users[seats[box]]
                wagers = {"ante": 5_00, "all_six": 1_00 if box % 2 else 0}
                self.command("bet", lambda: services.place_bets(t, user, box, wagers))
                return
            self.command("no_more_bets", lambda: services.no_more_bets(t, self.dealer))
            return
        if rnd.phase is Phase.CLOSED:
            self.command("deal", lambda: services.deal(t, self.dealer))
            return
        if rnd.phase is Phase.DECISIONS and rnd.to_act is not None:
            box = rnd.to_act
            owner = self.users[rnd.boxes[box].player]
            multiple = 0 if fold and box % 2 else 1
            if not self.command("decide", lambda: services.decide(t, owner, box, multiple)):
                self.command("decide", lambda: services.decide(t, owner, box, 0))
            return
        if rnd.phase is Phase.DECISIONS:
            self.command("reveal", lambda: services.reveal(t, self.dealer))
            return
        if rnd.phase is Phase.REVEALED:
            self.command("settle", lambda: services.settle(t, self.dealer))

    # --- invariants ----------------------------------------------------------------------------

    @invariant()
    def money_is_conserved(self) -> None:
        total = Account.objects.aggregate(t=Sum("balance"))["t"] or 0
        assert total == 0
        assert ledger.verify() == []
        assert not Account.objects.filter(kind=Account.PLAYER, balance__lt=0).exists()

    @invariant()
    def finished_rounds_reconstruct(self) -> None:
        finished = Round.objects.filter(
            table_id=self.table_id, phase__in=[Phase.SETTLED.value, Phase.VOID.value]
        ).exclude(pk__in=self.checked)
        for row in finished:
            report = audit.verify_round(row.pk)
            assert report.problems == [], report.problems
            self.checked.add(row.pk)
            count(f"verified {row.phase}")


def test_random_command_sequences_keep_the_books(rules: Any, dealer: Any) -> None:
    rules.choices = {**rules.choices, "payout_limit": 50_000_00}
    rules.full_clean()
    rules.save()
    table = Table.objects.create(name="Stateful", rules=rules, is_test=True)
    ledger.table_bankroll(table)
    DealerAssignment.objects.create(table=table, dealer=dealer)  # the dealer deals this table
    ServicesMachine.table_id = table.pk
    ServicesMachine.users = {name: make_player(name, BANKROLLS[name]) for name in PLAYERS}
    ServicesMachine.dealer = dealer
    run_state_machine_as_test(
        ServicesMachine,
        settings=settings(
            max_examples=10 if ON_POSTGRES else 25,
            stateful_step_count=60,
            deadline=None,
            database=None,
            # Fixed sequences: the coverage asserted below (a settled and a void round
            # verified) must not depend on the luck of one CI run.
            derandomize=True,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    print("stateful steps:", dict(sorted(STATS.items())))
    # The sequences reached every part of a round, not just refusals.
    reached = {k for k in STATS if k.startswith(("ok ", "verified"))}
    assert {"ok open_betting", "ok bet", "ok deal", "ok decide", "ok settle"} <= reached
    assert {"verified settled", "verified void"} <= reached
