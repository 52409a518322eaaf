"""Every registered game implements the platform's interface (table/games/base.py), and the
game-agnostic driver (table/games/driver.py) plays whole rounds of each through it alone:
a Rules Submission validated, wagers from the moves the views offer, the dealing plan, the
decisions and settings, the reveal, settlement, money that adds up, views for the owner,
another player, a spectator and the dealer at every command (never a hole card to anyone
else before the round is over), the state through to_dict/from_dict, and voids."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

from table.games import (
    ENTRIES,
    GAMES,
    REPORTS,
    contract_settler,
    game,
    game_of_state,
    meter_catalogue,
    paytable_report,
    register,
    unregister,
)
from table.games.base import (
    BET,
    BETTING_PHASE,
    CLOSE_BETTING,
    DEAL,
    DEALER,
    DECIDE,
    PUBLIC,
    SET_HANDS,
    SETTLE,
    SETTLED_PHASE,
    VOID,
    VOID_PHASE,
    Actor,
    Command,
    Fault,
    Game,
    Inputs,
    MeterReading,
    PaytableReport,
    Role,
    check_view,
)
from table.games.driver import TableDriver, choose_args, place_bets, play_round, void_now
from table.games.errors import EngineError, InvalidInput, RuleViolation
from tests.conftest import SeededSource
from tests.platform.ante_pair import ENTRY as TEST_GAME

#: Every game the registry finds, and the tests' own (tests/platform/ante_pair, registered
#: for this module only): whatever the interface promises, a newcomer's game keeps too.
NAMES = sorted([*GAMES, TEST_GAME.name])
PLAYERS = ("ann", "bob", "cat")
#: Seated but betting nothing: "another player" in every view check.
OTHER = "eve"
SEEDS = range(24)


@pytest.fixture(autouse=True, scope="module")
def _the_tests_own_game() -> Any:
    register(TEST_GAME)
    yield
    unregister(TEST_GAME.name)


def _strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON value (keys included)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        out = set()
        for k, v in value.items():
            out |= {k} | _strings(v)
        return out
    if isinstance(value, list | tuple):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def _driver(name: str, seed: int) -> tuple[TableDriver, SeededSource]:
    g = game(name)
    rng = SeededSource(seed)
    return TableDriver(g, g.default_rules(), rng), rng


class ViewChecks:
    """Run after every command: every viewer's view keeps the contract and the secrets (no
    box's cards to anyone but its owner, no dealer card to anybody before the reveal); every
    move offered is accepted; the stored state round-trips; the deck adds up; what the
    dealing plan said is dealt."""

    def __init__(self, every_move: bool = True) -> None:
        self.phases: set[str] = set()
        self.plan_cards: int | None = None
        self.checked = 0
        self.every_move = every_move
        #: What every viewer was shown before the dealer's cards were turned over.
        self.before_reveal: set[str] = set()
        self.moves_tried = 0
        #: Whether a deal ever planned a shared card's stack (All-Six, Six Card Bonus).
        self.shared_card = False

    def __call__(self, driver: TableDriver) -> None:
        g = driver.game
        stored = driver.stored
        assert stored is not None
        state = g.from_dict(stored)
        # The round is the audit record: nothing lost between store and load.
        assert json.loads(json.dumps(g.to_dict(state))) == stored
        status = g.status(state)
        if driver.log[-1][1].name == "open":
            self.before_reveal = set()  # a new round, a new deck
        assert status.phase in g.phases
        self.phases.add(status.phase)
        assert status.cards_counted == 52
        boxes = g.boxes(state)
        if not status.dealt:
            plan = g.dealing_plan(state)
            self.plan_cards = plan.cards
            self.shared_card |= any(stack.to == "shared" for stack in plan.stacks)
        elif driver.log[-1][1].name == DEAL and status.phase != "void":
            # What the plan said, plus any card found face up and discarded
            # (§684a.13(a), §657a.13(a), §663a.13(a)).
            face_up = [e for e in driver.log[-1][2].events if e.kind == "face_up_card"]
            assert self.plan_cards is not None
            assert status.cards_dealt == self.plan_cards + len(face_up)
        owners = {b.player for b in boxes}
        viewers = [Actor.player(p) for p in (*PLAYERS, OTHER)]
        viewers += [Actor.spectator(), Actor.dealer("dealer")]
        for viewer in viewers:
            view = g.view(state, viewer)
            assert check_view(view) == [], check_view(view)
            assert view["game"] == g.name
            assert view["phase"] == status.phase
            assert view["viewer"]["role"] == viewer.role.value
            shown = _strings(json.loads(json.dumps(view)))
            if viewer.role is not Role.PLAYER or viewer.name not in owners:
                assert all(m["move"] not in (DECIDE, SET_HANDS) for m in view["moves"])
            if viewer.role is Role.SPECTATOR:
                assert view["moves"] == []
            if not status.revealed:
                assert view["dealer"] is None
                self.before_reveal |= shown
            elif view["dealer"] is not None and self.before_reveal:
                # Nobody saw a dealer card before the reveal (the view contract: ``dealer`` is
                # None until then, and no card of it shows anywhere else either).
                early = set(view["dealer"]["cards"]) & self.before_reveal
                assert not early, f"{viewer} saw the dealer's {early} before the reveal"
            if self.every_move:
                self._every_move_is_accepted(driver, viewer, view["moves"])
            if status.finished:
                continue
            for box in boxes:
                if viewer.role is Role.PLAYER and box.player == viewer.name:
                    if box.cards and box.in_play:
                        item = next(b for b in view["boxes"] if b["box"] == box.box)
                        assert set(box.cards) <= set(item["cards"] or ())
                    continue
                leaked = set(box.cards) & shown
                assert not leaked, f"{viewer} sees box {box.box}'s {leaked} in {status.phase}"
        # Built together (as a command builds its table's views: what viewers see alike once,
        # shared), every view is the one built alone, keys in the same order, and no viewer's
        # own boxes show in another's view (all serialised after all were built).
        together = [json.dumps(v) for v in g.views(state, viewers)]
        assert together == [json.dumps(g.view(state, v)) for v in viewers]
        self.checked += 1

    def _every_move_is_accepted(
        self, driver: TableDriver, viewer: Actor, moves: list[dict[str, Any]]
    ) -> None:
        """The interface's promise: every move a view offers, with any of its choices or its
        amounts at either limit, is accepted (tried on a copy of the stored round)."""
        g = driver.game
        inputs = Inputs(rng=SeededSource(0), meters=dict(driver.meters.readings))
        for move in moves:
            tries = [dict(c["args"]) for c in move["choices"]]
            if move["amounts"]:
                for edge in ("low", "high"):
                    tries.append({a["arg"]: a[edge] for a in move["amounts"] if a["required"]})
                    tries.append({a["arg"]: a[edge] for a in move["amounts"]})
            for args in tries or [{}]:
                state = g.from_dict(driver.stored or {})
                g.apply(state, viewer, Command(move["move"], move["box"], args), inputs)
                self.moves_tried += 1


# --- the interface ---------------------------------------------------------------------------


def _protocol_members() -> list[str]:
    members = [n for n in vars(Game) if not n.startswith("_")]
    return [*members, *Game.__annotations__]


@pytest.mark.parametrize("name", NAMES)
def test_every_game_satisfies_the_protocol(name: str) -> None:
    g = game(name)
    assert isinstance(g, Game)
    assert g.name == name
    for member in _protocol_members():
        assert hasattr(g, member), member
    assert g.phases[-1] == VOID_PHASE
    # The platform's rows know a round in play by its phase alone (the admin, recall).
    assert g.phases[0] == BETTING_PHASE and SETTLED_PHASE in g.phases
    assert contract_settler(name) is g.settle_one


@pytest.mark.parametrize("name", NAMES)
def test_each_game_has_its_paytable_report(name: str) -> None:
    """``manage.py paytable_report`` and docs/paytables.md reach a game's report only through
    the registry (:data:`REPORTS`), each module the :class:`PaytableReport` it promises."""
    assert set(REPORTS) == set(GAMES)
    report = paytable_report(name)
    assert isinstance(report, PaytableReport)
    for member in ("parse_sections", "build_report", "text_lines", "markdown_lines"):
        promised = list(inspect.signature(getattr(PaytableReport, member)).parameters)[1:]
        assert list(inspect.signature(getattr(report, member)).parameters) == promised, member
    whole = report.parse_sections(None)
    if not whole:  # a report computed whole refuses any part named alone
        with pytest.raises(InvalidInput):
            report.parse_sections("main")
    with pytest.raises(InvalidInput) as refused:
        paytable_report("blackjack")
    assert refused.value.code == "unknown_game"


@pytest.mark.parametrize("name", NAMES)
def test_the_meters_a_table_needs_are_in_its_game_catalogue(name: str) -> None:
    """Every meter :meth:`Game.meters` names (``pool`` = ``kind:paytable:wager``) is one of
    the game's :meth:`Game.meter_catalogue`, with its seed and reseed for that wager, fed and
    paid by wagers the game has; the registry's catalogue is every game's."""
    g = game(name)
    catalogue = {(m.kind, m.paytable): m for m in g.meter_catalogue()}
    assert len(catalogue) == len(g.meter_catalogue())
    assert all(meter_catalogue()[key] is m for key, m in catalogue.items())
    rules = g.default_rules()
    wagers = {w.key for w in g.wagers(rules)}
    for m in catalogue.values():
        assert set(m.wagers) <= wagers and set(m.split) <= set(m.wagers) and m.stakes
    for spec in g.meters(rules):
        kind, paytable, wager = spec.pool.split(":")
        found = catalogue[(kind, paytable)]
        assert int(wager) in found.stakes
        assert (spec.seed, spec.reseed) == (
            found.rates.seed_amount(int(wager)),
            found.rates.reseed_amount(int(wager)),
        )


def test_every_member_of_the_interface_is_documented() -> None:
    for member, value in vars(Game).items():
        if inspect.isfunction(value) and not member.startswith("_"):
            assert (value.__doc__ or "").strip(), member
    source = inspect.getsource(Game)
    for attribute in Game.__annotations__:
        assert "#: " in source.split(f"    {attribute}:")[0].rsplit("\n\n", 1)[-1], attribute


def test_a_stored_round_names_its_game_but_the_unkeyed_games() -> None:
    """Every game's stored round says its game (``"game"``) but the one whose entry is
    ``unkeyed`` (its rounds predate the key), and is found to be that game's."""
    unkeyed = [e.name for e in ENTRIES.values() if e.unkeyed]
    assert len(unkeyed) == 1 and unkeyed[0] in NAMES
    for name in NAMES:
        driver, _ = _driver(name, 1)
        driver.open()
        assert game_of_state(driver.stored or {}) is game(name)
        assert (driver.stored or {}).get("game") == (None if name in unkeyed else name)
    with pytest.raises(InvalidInput) as refused:
        game("blackjack")
    assert refused.value.code == "unknown_game"


@pytest.mark.parametrize("name", NAMES)
def test_a_state_of_another_game_is_refused(name: str) -> None:
    other = next(n for n in NAMES if n != name)
    driver, _ = _driver(other, 2)
    driver.open()
    with pytest.raises(InvalidInput) as refused:
        game(name).from_dict(driver.stored or {})
    assert refused.value.code == "bad_state"


# --- the Rules Submission -----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_rules_choices_round_trip_and_are_validated(name: str) -> None:
    g = game(name)
    rules = g.default_rules()
    assert g.rules_problems(rules) == []
    stored = json.loads(json.dumps(g.rules_to_dict(rules)))
    assert g.parse_rules(stored) == rules
    assert g.rule_changes(rules, rules) == []
    fields = g.rules_fields()
    assert {f.name for f in fields} <= set(stored)
    for f in fields:
        assert f.default == stored[f.name], f.name  # the form starts from the default rules
        assert f.kind in ("choice", "flag", "cents", "count", "seconds", "text"), f
        assert f.kind != "choice" or stored[f.name] in f.options or f.optional, f
    choice = next(f for f in fields if f.kind == "choice")
    other = next(o for o in choice.options if o != stored[choice.name])
    changed = g.parse_rules({**stored, choice.name: other})
    assert g.rule_changes(rules, changed), "a new paytable is something a player notices"
    # An unknown paytable: refused when read, or named among the problems; no round opens.
    try:
        bad = g.parse_rules({**stored, choice.name: "Z9"})
    except InvalidInput:
        return
    assert choice.name in {p.field for p in g.rules_problems(bad)}
    with pytest.raises(InvalidInput):
        g.open_round(1, bad, "red", list(range(52)), "salt")


@pytest.mark.parametrize("name", NAMES)
def test_signs_wagers_and_settings(name: str) -> None:
    g = game(name)
    rules = g.default_rules()
    signs = g.signs(rules)
    assert signs and all(s.rows for s in signs)
    json.dumps([s.to_dict() for s in signs])
    wagers = g.wagers(rules)
    assert any(w.required and w.placed == "bet" for w in wagers)
    assert any(w.placed == "decision" for w in wagers)
    assert all(w.low <= w.high for w in wagers)
    settings = g.table_settings(rules)
    assert settings.boxes_per_player >= 1 and settings.betting_seconds >= 5


@pytest.mark.parametrize("name", NAMES)
def test_the_exact_mathematics_of_the_rules_in_force(name: str) -> None:
    g = game(name)
    figures = g.math_report(g.default_rules())
    assert figures
    for figure in figures:
        # Every wager keeps something for the house, and not more than the stake.
        assert 0 < figure.house_edge < 1, figure


# --- whole rounds through the interface ---------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_whole_rounds_through_the_interface_only(name: str) -> None:
    g = game(name)
    checks = ViewChecks()
    decisions: list[dict[str, Any]] = []
    settled = 0
    for seed in SEEDS:
        driver, rng = _driver(name, seed)
        driver.observers.append(checks)
        status = play_round(driver, PLAYERS, rng)
        assert status.finished
        if status.phase == "settled":
            settled += 1
            assert status.players is not None
            # Each player's transfers add up to the settlement's net, and what the players
            # won the table lost: no money made or lost.
            for player, net in status.players.items():
                assert driver.money.get(player, 0) == net
            # The records: each box's settlement lines add up to its net, and its player's.
            boxes = [b for b in g.boxes(driver.state()) if b.in_play]
            for box in boxes:
                assert box.net is not None and box.lines
                assert sum(line.net for line in box.lines) == box.net
            for player, net in status.players.items():
                assert sum(b.net or 0 for b in boxes if b.player == player) == net
        assert driver.table == -sum(driver.money.values())
        decisions += [dict(c.args) for _, c, _ in driver.log if c.name in (DECIDE, SET_HANDS)]
        # Every event is plain data for an audience the platform knows.
        for event in driver.events:
            json.dumps(event.data)
            assert event.audience in (PUBLIC, DEALER) or event.audience.startswith("player:")
    assert settled >= len(SEEDS) // 2
    assert checks.phases >= set(g.phases) - {"void"}, checks.phases
    assert checks.checked > 10 * len(SEEDS)
    assert checks.moves_tried > 50 * len(SEEDS)  # every move offered was accepted
    # The extra shared card (a side wager's: All-Six, Six Card Bonus), dealt only when a box
    # wagers on it; a game without such a wager deals none.
    has_shared = any(w.key in ("all_six", "six_card_bonus") for w in g.wagers(g.default_rules()))
    assert checks.shared_card == has_shared
    assert decisions


@pytest.mark.parametrize("name", NAMES)
def test_the_decisions_each_game_really_has(name: str) -> None:
    """Players picking among the moves offered both fold and stay in, at every game (each
    game's own decisions, a Raise above 1x, an ace set low...: tests/games/<game>/)."""
    folds = stays = 0
    for seed in SEEDS:
        driver, rng = _driver(name, seed)
        play_round(driver, PLAYERS, rng, time_outs=False)
        boxes = {b.box: b for b in driver.game.boxes(driver.state())}
        for _, c, _ in driver.log:
            if c.name in (DECIDE, SET_HANDS):
                box = boxes[c.box or 0]
                folds += box.folded
                stays += not box.folded
    assert folds and stays, (folds, stays)


@pytest.mark.parametrize(
    "name", [n for n in sorted(GAMES) if game(n).meters(game(n).default_rules())]
)
def test_meters_shared_by_two_tables_follow_every_change(name: str) -> None:
    """Two tables of the same game share one set of meters (the platform keeps them): each
    round's increments at "no more bets", payouts at settlement and reversals on a void land
    on them, and they stand where the round's own settlement says."""
    g = game(name)
    first, rng = _driver(name, 23)
    second = TableDriver(g, g.default_rules(), rng, meters=first.meters)
    seeds = {s.name: s.seed for s in g.meters(g.default_rules())}
    assert first.meters.readings == {n: MeterReading(a) for n, a in seeds.items()}
    for round_ in range(12):
        driver = (first, second)[round_ % 2]
        before = dict(driver.meters.readings)
        status = play_round(driver, PLAYERS, rng)
        after = driver.meters.readings
        if status.phase == "void":
            assert after == before
            continue
        settled = g.view(driver.state(), Actor.dealer())
        assert set(settled["meters"]) == set(seeds)
        for meter, ends in settled["meters"].items():
            assert after[meter] == MeterReading(ends["amount"], ends["reserve"])
    # A void after "no more bets" takes the increments back out.
    before = dict(first.meters.readings)
    first.open()
    place_bets(first, PLAYERS, rng)
    first.send(Actor.dealer(), Command(CLOSE_BETTING))
    assert first.meters.readings != before
    void_now(first, "server_restart", {"phase": "closed"})
    assert first.meters.readings == before


@pytest.mark.parametrize("name", NAMES)
def test_the_clock_times_out_whoever_is_awaited(name: str) -> None:
    g = game(name)
    driver, rng = _driver(name, 5)
    driver.open()
    assert g.timer(driver.state()).kind == "betting"  # type: ignore[union-attr]
    assert g.timer(driver.state()).expire is None  # type: ignore[union-attr]
    place_bets(driver, PLAYERS, rng)
    expire = g.timer(driver.state()).expire  # type: ignore[union-attr]
    assert expire is not None and expire.name == CLOSE_BETTING
    driver.send(Actor.house(), expire)
    driver.send(Actor.dealer(), Command(DEAL))
    # Nobody decides: the clock times out every box, then the house moves the round on.
    for _ in range(40):
        status = driver.status()
        if status.finished:
            break
        timer = g.timer(driver.state())
        if timer is not None and timer.expire is not None:
            assert timer.seconds >= 5 and timer.boxes
            driver.send(Actor.house(), timer.expire)
            continue
        step = next(m for m in driver.moves(Actor.dealer()) if m.name in ("reveal", SETTLE))
        driver.send(Actor.house(), Command(step.name))
    assert driver.status().finished
    boxes = g.boxes(driver.state())
    assert all(b.decision is not None for b in boxes if b.in_play)


# --- refusals change nothing ------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_refused_commands_change_nothing(name: str) -> None:
    driver, rng = _driver(name, 7)
    driver.open()
    place_bets(driver, PLAYERS, rng)
    before = json.dumps(driver.stored)
    refused = [
        (Actor.player("ann"), Command(DEAL)),  # only the dealer deals
        (Actor.spectator(), Command(BET, 1, {"ante": 500})),  # a spectator does not bet
        (Actor.dealer(), Command("shuffle_up_and_deal")),
        (Actor.player(OTHER), Command(DECIDE, 1, {})),  # not now, and malformed
        (Actor.dealer(), Command(SETTLE)),  # nothing dealt
        (Actor.player("ann"), Command(BET, 9, {"ante": 500})),  # no box 9
        (Actor.player("ann"), Command(BET, None, {"ante": 500})),
    ]
    for actor, command in refused:
        with pytest.raises(EngineError):
            driver.send(actor, command)
        assert json.dumps(driver.stored) == before
    for move in driver.moves(Actor.player(OTHER)):
        assert move.name == BET


# --- voids -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_dealer_voids_while_betting_every_stake_back(name: str) -> None:
    driver, rng = _driver(name, 11)
    driver.open()
    place_bets(driver, PLAYERS, rng)
    assert any(v < 0 for v in driver.money.values())
    void = next(m for m in driver.moves(Actor.dealer()) if m.name == VOID)
    table_closed = next(c for c in void.choices if c.args["reason"] == "table_closed")
    driver.send(Actor.dealer(), Command(VOID, None, table_closed.args))
    status = driver.status()
    assert status.finished and status.phase == "void" and status.void_reason == "table_closed"
    assert status.irregularity
    assert all(v == 0 for v in driver.money.values()) and driver.table == 0


@pytest.mark.parametrize("name", NAMES)
def test_a_round_voided_after_the_deal_returns_everything(name: str) -> None:
    driver, rng = _driver(name, 13)
    checks = ViewChecks()
    driver.observers.append(checks)
    meters = dict(driver.meters.readings)
    driver.open()
    place_bets(driver, PLAYERS, rng)
    driver.send(Actor.dealer(), Command(CLOSE_BETTING))
    driver.send(Actor.dealer(), Command(DEAL))
    status = driver.status()
    assert status.dealt and not status.finished
    void_now(driver, "server_restart", {"phase": status.phase})
    status = driver.status()
    assert status.phase == "void" and status.void_reason == "server_restart"
    assert all(v == 0 for v in driver.money.values()) and driver.table == 0
    assert driver.meters.readings == meters


@pytest.mark.parametrize("name", NAMES)
def test_every_drill_of_the_shoe_armed_by_the_platform(name: str) -> None:
    """The deal's drills (faults the platform's shoe arms): the voiding ones void the round
    with every stake back, the others let it end as the rules say; secrets and money hold."""
    g = game(name)
    assert Fault.JAM in g.drills and Fault.MISDEAL in g.drills
    for fault in g.drills:
        if fault is Fault.MISCOUNT:
            continue  # the shuffler's, before a round opens (the platform's)
        driver, rng = _driver(name, 17)
        driver.observers.append(ViewChecks())
        status = play_round(driver, PLAYERS, rng, faults=(fault,))
        assert status.finished
        if fault in (Fault.JAM, Fault.TWO_FACE_UP_CARDS, Fault.MISDEAL):
            assert status.phase == "void" and status.void_reason, fault
            assert all(v == 0 for v in driver.money.values()) and driver.table == 0
        elif status.players is not None:
            assert all(driver.money.get(p, 0) == n for p, n in status.players.items())


@pytest.mark.parametrize("name", NAMES)
def test_the_stub_miscount_reason_is_one_the_game_knows(name: str) -> None:
    """Every game counts the stub itself (§684a.10(f), §657a.10(f), §663a.10(f)): a void for
    a stub that counts 52 is refused, and one that does not voids with the game's reason."""
    g = game(name)
    driver, rng = _driver(name, 3)
    driver.open()
    place_bets(driver, PLAYERS, rng)
    driver.send(Actor.dealer(), Command(CLOSE_BETTING))
    driver.send(Actor.dealer(), Command(DEAL))
    miscount = Command(VOID, None, {"reason": g.stub_miscount_reason})
    with pytest.raises(RuleViolation) as refused:
        driver.send(Actor.dealer(), miscount)
    assert refused.value.code == "stub_correct"
    assert driver.status().cards_counted == 52
    assert driver.stored is not None
    driver.stored["stub"] = driver.stored["stub"][1:]  # a card gone from the deck
    driver.send(Actor.dealer(), miscount)
    assert driver.status().void_reason == g.stub_miscount_reason


@pytest.mark.parametrize("name", NAMES)
def test_a_player_who_leaves_mid_round_is_folded_by_the_house(name: str) -> None:
    driver, rng = _driver(name, 19)
    driver.open()
    place_bets(driver, PLAYERS, rng)
    driver.send(Actor.dealer(), Command(CLOSE_BETTING))
    driver.send(Actor.dealer(), Command(DEAL))
    driver.send(Actor.house(), Command("abandon", None, {"player": "ann"}))
    for _ in range(60):
        if driver.status().finished:
            break
        moved = False
        for player in ("bob", "cat"):
            for move in driver.moves(Actor.player(player)):
                driver.send(
                    Actor.player(player), Command(move.name, move.box, choose_args(move, rng))
                )
                moved = True
                break
            if moved:
                break
        if moved:
            continue
        timer = driver.game.timer(driver.state())
        if timer is not None and timer.expire is not None:
            driver.send(Actor.house(), timer.expire)
            continue
        step = next(m for m in driver.moves(Actor.dealer()) if m.name in ("reveal", SETTLE))
        driver.send(Actor.dealer(), Command(step.name))
    status = driver.status()
    assert status.finished
    for box in driver.game.boxes(driver.state()):
        if box.player == "ann" and box.in_play:
            assert box.abandoned
    with pytest.raises(RuleViolation):
        driver.send(Actor.player("ann"), Command(DECIDE, 1, {"raise": 1, "play": True}))


@pytest.mark.parametrize("name", NAMES)
def test_wagers_changed_and_taken_back_before_no_more_bets(name: str) -> None:
    driver, rng = _driver(name, 29)
    driver.open()
    ann = Actor.player("ann")
    bet = next(m for m in driver.moves(ann) if m.name == BET)
    ante = next(a for a in bet.amounts if a.required)
    driver.send(ann, Command(BET, bet.box, {ante.arg: ante.low}))
    staked = -driver.money["ann"]
    assert staked >= ante.low
    # A change is the box's new complete set of wagers: only the difference moves.
    driver.send(ann, Command(BET, bet.box, {ante.arg: ante.low + 100}))
    assert -driver.money["ann"] > staked
    withdraw = next(m for m in driver.moves(ann) if m.name == "withdraw")
    assert withdraw.box == bet.box
    driver.send(ann, Command(withdraw.name, withdraw.box))
    assert driver.money["ann"] == 0 and driver.table == 0
    assert not [b for b in driver.game.boxes(driver.state()) if b.in_play]
    assert not [m for m in driver.moves(Actor.dealer()) if m.name == CLOSE_BETTING]


# --- what the platform asks of a finished round, and of a table -------------------------------


def _tampered(g: Game[Any, Any], stored: dict[str, Any], change: Any) -> list[str]:
    data = json.loads(json.dumps(stored))
    change(data)
    return g.recheck(g.from_dict(data), ())


def _swap_with_dealer(data: dict[str, Any]) -> None:
    box = next(b for b in data["boxes"] if b["cards"])
    box["cards"][0], data["dealer_cards"][0] = data["dealer_cards"][0], box["cards"][0]


def _pay_more(data: dict[str, Any]) -> None:
    box = data["results"]["boxes"][0]
    box["results"][0]["net"] += 100
    box["net"] += 100


def _total_more(data: dict[str, Any]) -> None:
    player = next(iter(data["results"]["players"].values()))
    player["net"] += 100


@pytest.mark.parametrize("name", NAMES)
def test_recheck_finds_a_finished_round_as_its_record_says(name: str) -> None:
    """§684a.11(e): every hand can be reconstructed. The game deals the committed shoe again
    and settles the stored layout again: a round as played agrees with both, and a stored
    round altered afterwards (a card swapped with the dealer's, a box paid more) does not."""
    g = game(name)
    settled = 0
    for seed in SEEDS:
        driver, rng = _driver(name, seed)
        status = play_round(driver, PLAYERS, rng)
        stored = driver.stored
        assert stored is not None
        assert g.recheck(g.from_dict(stored), ()) == [], seed
        if status.phase != "settled":
            continue
        settled += 1
        swapped = _tampered(g, stored, _swap_with_dealer)
        assert any("committed shoe" in p for p in swapped), swapped
        paid = _tampered(g, stored, _pay_more)
        assert any("re-settling the round gives" in p for p in paid), paid
        totals = _tampered(g, stored, _total_more)
        assert any("player totals" in p for p in totals), totals
    assert settled >= len(SEEDS) // 2


@pytest.mark.parametrize("name", NAMES)
def test_recheck_deals_again_with_the_drills_the_deal_took(name: str) -> None:
    """A drill changes what the shoe dispenses: the round re-deals as played only with the
    faults the platform armed for its deal, and a deal the shoe voided must be the void."""
    g = game(name)
    for fault in (Fault.JAM, Fault.MISDEAL, Fault.TWO_FACE_UP_CARDS):
        driver, rng = _driver(name, 17)
        status = play_round(driver, PLAYERS, rng, faults=(fault,))
        assert status.phase == "void"
        state = g.from_dict(driver.stored or {})
        assert g.recheck(state, (fault,)) == [], fault
        assert g.recheck(state, ()) != [], fault
        undone = json.loads(json.dumps(driver.stored))
        undone.update(phase="settled", void_reason=None)
        assert any("re-deal ends in" in p for p in g.recheck(g.from_dict(undone), (fault,)))


@pytest.mark.parametrize("name", NAMES)
def test_a_round_not_dealt_has_nothing_to_recheck(name: str) -> None:
    g = game(name)
    driver, rng = _driver(name, 5)
    driver.open()
    place_bets(driver, PLAYERS, rng)
    assert g.recheck(driver.state(), ()) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_best_cards_are_some_of_the_boxs_own(name: str) -> None:
    """A box record's best cards (§684a.11(a)'s best four, say) are some of the box's own
    cards, or none for a game that names no cards of its hands (each game's own:
    tests/games/<game>/)."""
    driver, rng = _driver(name, 2)
    play_round(driver, PLAYERS, rng)
    boxes = [b for b in game(name).boxes(driver.state()) if b.cards]
    assert boxes
    for box in boxes:
        assert len(set(box.best_cards)) == len(box.best_cards)
        assert set(box.best_cards) < set(box.cards) or box.best_cards == ()


def test_each_game_cites_its_own_adjacent_boxes_rule() -> None:
    """Each in-tree game cites a section of its own chapter for adjacent boxes (each game's
    section, and how its felt is drawn: tests/games/<game>/)."""
    for name in (n for n in NAMES if n != TEST_GAME.name):
        g = game(name)
        chapter = g.regulation.rsplit(" ", 1)[-1]
        assert g.table_settings(g.default_rules()).adjacent_rule.startswith(f"§{chapter}."), name
