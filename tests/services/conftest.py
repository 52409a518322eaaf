"""Fixtures for the service tests: a table of the registry's default game (the entry with
``default=True``, :func:`table.games.default_game`), its Rules Submission, a dealer, funded
players, a replayable shoe, and a ledger that must balance at the end of every test. A test of
one game's rules is that game's (tests/games/<game>/services/); a test that differs by game
takes its games from the registry (tests/services/tables.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from table import ledger, services
from table.games import default_game, register, unregister
from table.games import game as game_named
from table.games.base import DECIDE, Actor
from table.games.cards import parse_card
from table.models import Account, DealerAssignment, Round, RulesSubmission, Seat, Table
from tests.conftest import SeededSource
from tests.platform.ante_pair import ENTRY as TEST_GAME

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


@pytest.fixture(scope="module")
def the_tests_own_game() -> Iterator[None]:
    """The tests' own game (tests/platform/ante_pair) registered for a module whose tests run
    at every game (tests/services/tables.py ``EVERY_GAME``), taken off again after it."""
    register(TEST_GAME)
    yield
    unregister(TEST_GAME.name)


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


#: The choices the service tests' Rules Submission makes besides the default game's default
#: rules (its stored names; the paytables these tests' payouts were worked out from).
CHOICES = {"bad_beat_paytable": "B", "four_card_bonus_paytable": "C", "all_six_paytable": "E"}


def game_rules(name: str, **choices: Any) -> RulesSubmission:
    """A Rules Submission of the default game named ``name``: its default rules with
    ``choices`` (its stored names) changed."""
    g = game_named(default_game())
    stored = {**g.rules_to_dict(g.default_rules()), **choices}
    return RulesSubmission.objects.create(name=name, game=g.name, choices=stored)


@pytest.fixture
def rules() -> RulesSubmission:
    """The default game's default rules with :data:`CHOICES` (no payout limit, two adjacent
    boxes at most: the defaults)."""
    return game_rules("Test rules", **CHOICES)


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


def engine_round(table: Table) -> Any:
    """The table's current round as its game keeps it (the game's own state)."""
    table.refresh_from_db()
    assert table.current_round_id
    row = Round.objects.get(pk=table.current_round_id)
    return game_named(row.game).from_dict(row.state)


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
        """Every box decides in turn, as its player's decision move offers: ``choices[box]``
        (default 1x); a raise the move does not offer (the hand does not allow it) becomes
        the most it offers below it."""
        choices = choices or {}
        while True:
            rnd = engine_round(self.table)
            g = game_named(Round.objects.get(pk=self.table.current_round_id).game)
            due = [
                (seat.player, move)
                for seat in Seat.objects.filter(table=self.table).select_related("player")
                for move in g.moves(rnd, Actor.player(seat.player.username))
                if move.name == DECIDE and move.box is not None
            ]
            if not due:
                return
            user, move = min(due, key=lambda d: d[1].box or 0)
            assert move.box is not None
            wanted = choices.get(move.box, 1)
            offered = [c.args.get("raise") for c in move.choices]
            multiple = max(m for m in offered if isinstance(m, int) and m <= wanted)
            services.decide(self.table.pk, user, move.box, multiple)

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
