"""Fixtures for the service tests: a table, its Rules Submission, a dealer, funded players,
a replayable shoe, and a ledger that must balance at the end of every test."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from table import ledger, services
from table.games.cards import parse_card
from table.games.four_card_frenzy.round import Round as EngineRound
from table.models import Account, DealerAssignment, Round, RulesSubmission, Table
from tests.conftest import SeededSource
from tests.games.four_card_frenzy.examples import fcf_rules

User = get_user_model()
START = 10_000_00  # every test player starts with $10,000


class StackedSource:
    """A shuffle source that makes each shuffle come out in a chosen order (Fisher-Yates run
    backwards): the first cards of each order are given, the rest follow in deck order.

    Any other draw (the table game system's Magic Card and Lucky Bonus draws at the deal) is
    answered from ``draws`` in turn (:meth:`script`), never as a shuffle step; with nothing
    scripted it answers ``n - 1``, so a draw with a probability below 1 does not trigger."""

    def __init__(self, *orders: Sequence[str], draws: Sequence[int] = ()) -> None:
        self.orders = [self._complete(o) for o in orders]
        self.current: list[int] | None = None
        self.target: list[int] = []
        self.draws = list(draws)
        self.expect = 0  # the next n of a shuffle in progress (52, 51, ..., 2), 0: none

    @staticmethod
    def _complete(head: Sequence[str]) -> list[int]:
        cards = [parse_card(c) for c in head]
        assert len(set(cards)) == len(cards), "a card twice in a stacked shoe"
        return cards + [c for c in range(52) if c not in cards]

    def script(self, *answers: int) -> None:
        """The answers of the next draws outside a shuffle, in order."""
        self.draws.extend(answers)

    def randbelow(self, n: int) -> int:
        if self.expect == 0 and self.draws:
            answer = self.draws.pop(0)
            assert 0 <= answer < n, f"scripted draw {answer} is not below {n}"
            return answer
        if self.expect == 0 and n == 52:  # a new shuffle starts from the deck in order
            self.target = self.orders.pop(0) if self.orders else list(range(52))
            self.current = list(range(52))
            self.expect = 52
        if self.expect == 0 or n != self.expect:
            return n - 1
        self.expect = n - 1 if n > 2 else 0
        assert self.current is not None
        i = n - 1
        j = self.current.index(self.target[i])
        self.current[i], self.current[j] = self.current[j], self.current[i]
        return j


@pytest.fixture(autouse=True)
def seeded_shoe(monkeypatch: pytest.MonkeyPatch) -> SeededSource:
    source = SeededSource(20261121)
    monkeypatch.setattr(services.dealing, "RANDOM", source)
    return source


@pytest.fixture
def stack_shoe(monkeypatch: pytest.MonkeyPatch) -> Callable[..., StackedSource]:
    """``stack_shoe(["AS", "AH", ...], ...)``: the next shuffles deal these cards first."""

    def stack(*orders: Sequence[str]) -> StackedSource:
        source = StackedSource(*orders)
        monkeypatch.setattr(services.dealing, "RANDOM", source)
        return source

    return stack


@pytest.fixture(autouse=True)
def ledger_balances(db: None) -> Iterator[None]:
    """Every test that moves money must leave the ledger balanced."""
    yield
    assert ledger.verify() == []


def make_player(username: str, balance: int = START) -> Any:
    user = User.objects.create_user(username, password="pw-" + username)
    ledger.player_account(user)
    if balance:
        ledger.credit(user, balance, "test stake money")
    return user


def balance(user: Any) -> int:
    return Account.objects.get(user=user).balance


@pytest.fixture
def rules() -> RulesSubmission:
    rules: RulesSubmission = fcf_rules(
        "Test rules",
        bad_beat_paytable="B",
        prime_paytable="A",
        four_card_bonus_paytable="C",
        all_six_paytable="E",
        payout_limit=None,
        adjacent_boxes=2,
    )
    return rules


@pytest.fixture
def table(rules: RulesSubmission) -> Table:
    # A test table: the console may arm shoe drills here (issue 28), as many tests do.
    table = Table.objects.create(name="Test table", rules=rules, is_test=True)
    ledger.table_bankroll(table)
    return table


@pytest.fixture
def dealer(table: Table) -> Any:
    """The dealer role, assigned to deal the test table (the role alone deals nothing)."""
    user = User.objects.create_user("dealer", password="pw-dealer")
    user.user_permissions.add(
        Permission.objects.get(codename="deal_table", content_type__app_label="table")
    )
    DealerAssignment.objects.create(table=table, dealer=user)
    return User.objects.get(pk=user.pk)


@pytest.fixture
def alice() -> Any:
    return make_player("alice")


@pytest.fixture
def bob() -> Any:
    return make_player("bob")


@pytest.fixture
def carol() -> Any:
    return make_player("carol")


@pytest.fixture
def staff() -> Any:
    return User.objects.create_superuser("boss", "boss@example.com", "pw-boss")


def engine_round(table: Table) -> EngineRound:
    table.refresh_from_db()
    assert table.current_round_id
    return EngineRound.from_dict(Round.objects.get(pk=table.current_round_id).state)


def current_row(table: Table) -> Round:
    table.refresh_from_db()
    return Round.objects.get(pk=table.current_round_id)


@dataclass
class Game:
    """Drive rounds through the services as the consoles would."""

    table: Table
    dealer: Any

    def sit(self, user: Any, *boxes: int) -> None:
        for box in boxes:
            services.sit(self.table.pk, user, box)

    def open(self) -> None:
        result = services.open_betting(self.table.pk, self.dealer)
        assert result.response["opened"], result.response

    def bet(self, user: Any, box: int, **wagers: int) -> None:
        services.place_bets(self.table.pk, user, box, wagers)

    def deal(self) -> None:
        services.no_more_bets(self.table.pk, self.dealer)
        services.deal(self.table.pk, self.dealer)

    def decide_all(self, choices: dict[int, int] | None = None) -> None:
        """Every box decides in turn: ``choices[box]`` (default 1x); a raise the hand does
        not allow becomes 1x."""
        choices = choices or {}
        while True:
            rnd = engine_round(self.table)
            box = rnd.to_act
            if box is None:
                return
            play = rnd.boxes[box]
            multiple = choices.get(box, 1)
            from table.games.four_card_frenzy.hands import best_four, max_raise_multiple

            multiple = min(multiple, max_raise_multiple(best_four(play.cards).value))
            services.decide(self.table.pk, User.objects.get(username=play.player), box, multiple)

    def finish(self) -> dict[str, Any]:
        services.reveal(self.table.pk, self.dealer)
        return services.settle(self.table.pk, self.dealer).response

    def play(
        self, bets: Sequence[tuple[Any, int, dict[str, int]]], choices: dict[int, int] | None = None
    ) -> dict[str, Any]:
        self.open()
        for user, box, wagers in bets:
            self.bet(user, box, **wagers)
        self.deal()
        self.decide_all(choices)
        return self.finish()


@pytest.fixture
def game(table: Table, dealer: Any) -> Game:
    return Game(table, dealer)
