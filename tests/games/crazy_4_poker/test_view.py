"""What each viewer may see of a Crazy 4 Poker round in each phase (the per-viewer projection):
a box's owner, another player, a spectator and the dealer console."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from table.games.base import Actor
from table.games.cards import card_code
from table.games.crazy_4_poker.game import GAME
from table.games.crazy_4_poker.round import Phase, Round
from table.games.crazy_4_poker.rules import Rules
from table.games.shoe import Fault

from .rounds import FULL, Books, stacked, table

ALICE = "AS AH 7C 4D 2H"  # pair of aces: Play 1x-3x
BOB = "KS KH 8C 5D 3H"  # pair of kings: Play = Ante
CAROL = "9C 7D 5S 3C 2D"
DEALER = "QD JC 8D 6H 4S"
SIX = "AD TC TD TH TS"  # the Six Card Bonus card is AD
RULES = Rules(FULL.queens_up, FULL.progressive, 100, FULL.six_card_bonus, Fraction(1), Fraction(1))
VIEWERS: list[tuple[str | None, bool]] = [
    ("alice", False),  # box 1, with a Six Card Bonus
    ("bob", False),  # box 2
    ("carol", False),  # box 4, no optional wager
    ("dave", False),  # seated, no box this round
    (None, False),  # a spectator
    (None, True),  # the dealer console
    ("alice", True),  # the dealer flag wins: the console is nobody's box
]


class Draw:
    """Magic Card QD (the dealer's), Lucky position box 2."""

    def __init__(self) -> None:
        self.answers = [0, 4 * 10 + 1, 0, 1]

    def randbelow(self, n: int, /) -> int:
        return self.answers.pop(0) % n


def start() -> tuple[Round, Books]:
    rnd, opening = Round.open(
        3, table(RULES), "blue", stacked(ALICE, BOB, CAROL, DEALER, SIX), "pepper"
    )
    books = Books(rnd.rules)
    books.add(opening)
    return rnd, books


def bets(rnd: Round, books: Books) -> None:
    books.add(rnd.bet(1, "alice", {"ante": 1000, "six_card_bonus": 500, "hand_bonus_dealer": 100}))
    books.add(rnd.bet(2, "bob", {"ante": 1000, "queens_up": 500, "hand_bonus_player": 100}))
    books.add(rnd.bet(4, "carol", {"ante": 1000}))


def rounds() -> dict[str, Round]:
    """A round in every phase (and the ways a round ends), by name."""
    out: dict[str, Round] = {}

    def snap(name: str, rnd: Round) -> None:
        out[name] = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))

    rnd, books = start()
    snap("betting_empty", rnd)
    bets(rnd, books)
    snap("betting", rnd)
    books.add(rnd.close_betting())
    snap("closed", rnd)
    books.add(rnd.deal(rng=Draw()))
    snap("decisions_first", rnd)
    books.add(rnd.decide(1, "alice", 0))  # folds, but her Six Card Bonus keeps the cards
    snap("decisions_second", rnd)
    books.add(rnd.decide(2, "bob", 1000))
    snap("decisions_last", rnd)
    books.add(rnd.time_out())  # carol folds: her cards go to the rack unseen
    snap("decided", rnd)
    books.add(rnd.reveal())
    snap("revealed", rnd)
    books.settle(rnd)
    snap("settled", rnd)

    for name, phase in (("void_betting", "betting"), ("void_closed", "closed")):
        rnd, books = start()
        bets(rnd, books)
        if phase == "closed":
            books.add(rnd.close_betting())
            books.add(rnd.void("server_restart", {"restarted": "the server"}))
        else:
            books.add(rnd.void("table_closed", {"closed_by": "the pit boss"}))
        snap(name, rnd)
    rnd, books = start()
    bets(rnd, books)
    books.add(rnd.close_betting())
    books.add(rnd.deal([Fault.DEALER_CARD_EXPOSED]))  # §657a.13(d), by the shoe
    snap("void_dealer_card_shown_by_the_shoe", rnd)
    rnd, books = start()
    bets(rnd, books)
    books.add(rnd.close_betting())
    books.add(rnd.deal([Fault.FACE_UP_CARD], rng=Draw()))  # §657a.13(a): one card, discarded
    snap("decisions_after_a_face_up_card", rnd)
    rnd, books = start()
    bets(rnd, books)
    books.add(rnd.close_betting())
    books.add(rnd.deal([Fault.JAM]))
    snap("void_shoe_jam", rnd)
    rnd, books = start()
    bets(rnd, books)
    books.add(rnd.close_betting())
    books.add(rnd.deal([Fault.MISDEAL]))  # box 1 gets four cards (§657a.13(c))
    assert len(rnd.boxes[1].cards) == 4
    snap("void_misdeal", rnd)
    rnd, books = start()
    bets(rnd, books)
    books.add(rnd.close_betting())
    books.add(rnd.deal(rng=Draw()))
    books.add(rnd.decide(1, "alice", 3000))
    books.add(rnd.dealer_card_exposed())
    snap("void_dealer_card_exposed", rnd)
    return out


ROUNDS = rounds()


def view(name: str, player: str | None, dealer: bool = False) -> dict[str, Any]:
    return ROUNDS[name].view(player, dealer)


def box(v: dict[str, Any], number: int) -> dict[str, Any]:
    return next(b for b in v["boxes"] if b["box"] == number)


def visible_cards(rnd: Round, player: str | None) -> set[int]:
    """Every card ``player`` (None: spectator or dealer) may see now."""
    if rnd.finished:
        return set(rnd.order)  # commit-reveal: the whole shoe is public once it is over
    seen: set[int] = set()
    for b in rnd.boxes.values():
        if player is not None and b.player == player:
            seen |= set(b.cards)
    seen |= set(rnd.face_up)  # §657a.13(a): found face up, seen by everyone
    if rnd.phase is Phase.REVEALED:
        seen |= set(rnd.dealer_cards)
        if rnd.six_card_bonus_card is not None:
            seen.add(rnd.six_card_bonus_card)
    return seen


@pytest.mark.parametrize(("player", "dealer"), VIEWERS)
@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_every_view_of_every_phase_renders_for_every_viewer(
    name: str, player: str | None, dealer: bool
) -> None:
    rnd = ROUNDS[name]
    v = rnd.view(player, dealer)
    assert json.loads(json.dumps(v)) == v
    assert v["phase"] == rnd.phase.value and v["game"] == "crazy_4_poker"
    assert [b["box"] for b in v["boxes"]] == sorted(rnd.boxes)
    assert ("meter_increments" in v) is dealer
    assert v["viewer"]["role"] == ("dealer" if dealer else "player" if player else "spectator")
    assert v["face_up_discards"] == [card_code(c) for c in rnd.face_up]
    who = None if dealer else player
    # No card the viewer may not see appears anywhere in what it is sent.
    text = json.dumps(v)
    secret = set(rnd.order) - visible_cards(rnd, who)
    leaked = [card_code(c) for c in secret if f'"{card_code(c)}"' in text]
    assert leaked == [], (name, who, leaked)
    for item in v["boxes"]:
        if item["player"] != who and rnd.phase is not Phase.SETTLED:
            assert item["cards"] is None
        assert item["mine"] is (who is not None and item["player"] == who)
        if "play_options" in item:
            assert item["mine"] and rnd.phase is Phase.DECISIONS
    if rnd.finished:
        assert v["shoe"] and v["salt"] == "pepper"
    else:
        assert "shoe" not in v and "salt" not in v


def test_hole_cards_go_to_the_owner_only_until_settlement() -> None:
    for name in ("decisions_first", "decided", "revealed"):
        assert box(view(name, "bob"), 2)["cards"] == BOB.split()
        assert box(view(name, "bob"), 2)["hand"] == "Pair of kings"
        for other in ("alice", "carol", "dave", None):
            assert box(view(name, other), 2)["cards"] is None
        assert box(view(name, None, dealer=True), 2)["cards"] is None
    # §657a.11(c): turned face up at settlement, for everyone.
    assert box(view("settled", None), 2)["cards"] == BOB.split()
    assert box(view("settled", "carol"), 2)["category"] == "pair"


def test_the_owner_sees_the_play_sizes_allowed() -> None:
    alice = box(view("decisions_first", "alice"), 1)["play_options"]
    assert alice.pop("words").startswith("A pair of aces or better allows a Play of up to 3x")
    assert alice == {"fold": True, "min": 1000, "max": 3000, "ante": 1000, "your_turn": True}
    bob = box(view("decisions_first", "bob"), 2)["play_options"]
    assert bob.pop("words").endswith("($10.00) only: 2x or 3x needs a pair of aces or better.")
    assert bob == {"fold": True, "min": 1000, "max": 1000, "ante": 1000, "your_turn": False}
    assert box(view("decisions_second", "bob"), 2)["play_options"]["your_turn"] is True
    for viewer in ("alice", "carol", "dave", None):
        assert "play_options" not in box(view("decisions_first", viewer), 2)
    assert "play_options" not in box(view("decisions_first", None, dealer=True), 2)
    assert "play_options" not in box(view("decisions_second", "alice"), 1)  # decided
    for name in ("betting", "closed", "revealed", "settled"):
        assert "play_options" not in box(view(name, "bob"), 2)


def test_a_folded_hand_is_discarded_unseen_unless_its_six_card_bonus_keeps_it() -> None:
    decided = view("decided", None)
    assert box(decided, 1)["folded"] and not box(decided, 1)["discarded"]  # §657a.11(b)(3)
    assert box(decided, 4)["folded"] and box(decided, 4)["discarded"]  # §657a.11(c)
    assert not box(decided, 2)["discarded"] and not box(decided, 2)["folded"]
    settled = view("settled", "bob")
    assert box(settled, 1)["cards"] == ALICE.split()  # settled with the Six Card Bonus card
    assert box(settled, 1)["six_card_category"] == "three_of_a_kind"
    assert box(settled, 4)["cards"] is None
    assert box(view("settled", None, dealer=True), 4)["cards"] is None
    assert box(view("settled", "carol"), 4)["cards"] == CAROL.split()  # her own hand


def test_dealer_cards_and_the_six_card_bonus_card_stay_down_until_the_reveal() -> None:
    for name in ("betting", "closed", "decisions_first", "decided"):
        for player, dealer in VIEWERS:
            v = view(name, player, dealer)
            assert v["dealer"] is None
            assert v["six_card_bonus"]["card"] is None
    assert view("decided", None)["six_card_bonus"]["dealt"] is True
    assert view("closed", None)["six_card_bonus"]["dealt"] is False
    for name in ("revealed", "settled"):
        v = view(name, "dave")
        assert v["dealer"]["cards"] == DEALER.split()
        assert v["dealer"]["qualifies"] is False
        assert v["six_card_bonus"]["card"] == "AD"


def test_magic_card_and_lucky_position_are_shown_at_settlement() -> None:
    for name in ("decisions_first", "revealed"):
        assert view(name, "bob")["draws"] is None
        assert view(name, None, dealer=True)["draws"] is None
    assert view("settled", None)["draws"] == {"magic_card": "QD", "lucky_position": 2}
    settled = view("settled", "alice")
    # Alice folded: her dealer-hand wager is lost and gets no Magic Card (interpretation 3).
    assert box(settled, 1)["bonuses"] == {}
    assert box(settled, 2)["bonuses"] == {"lucky_bonus": 500}


def test_the_dealer_console_sees_the_shoe_and_meters_but_no_face_down_card() -> None:
    console = view("decisions_first", None, dealer=True)
    assert console["stub"] == 52 - 25 and console["discards"] == 4
    assert console["meter_increments"]["hand_bonus"] == {"amount": 26, "reserve": 16}
    assert view("betting", None, dealer=True)["meter_increments"] == {}
    assert "stub" not in view("closed", None, dealer=True)
    for player, dealer in VIEWERS:
        if not dealer:
            v = view("decisions_first", player)
            assert "stub" not in v and "meter_increments" not in v


def test_results_and_meters_are_public_after_settlement() -> None:
    for player, dealer in VIEWERS:
        v = view("settled", player, dealer)
        assert v["players"] == {
            "alice": {"net": -2000 - 100 + 2500},
            "bob": {"net": 1000 + 500 - 100 + 500},
            "carol": {"net": -2000},
        }
        assert set(v["meters"]) == {"hand_bonus", "mega", "major", "minor"}
        assert box(v, 2)["net"] == 1900


@pytest.mark.parametrize(
    "name",
    [
        "void_betting",
        "void_closed",
        "void_shoe_jam",
        "void_misdeal",
        "void_dealer_card_exposed",
        "void_dealer_card_shown_by_the_shoe",
    ],
)
def test_void_rounds_show_why_and_reveal_the_shoe(name: str) -> None:
    v = view(name, "carol")
    assert v["phase"] == "void" and v["void_reason"] is not None
    assert v["void_explanation"] == v["irregularity"]
    assert GAME.view(ROUNDS[name], Actor.player("carol"))["moves"] == []
    assert len(v["shoe"]) == 52 and v["players"] is None
    if name == "void_misdeal":
        assert box(v, 4)["cards"] == ROUNDS[name].view("carol")["boxes"][2]["cards"]
        alice = box(view(name, "alice"), 1)
        assert len(alice["cards"]) == 4 and alice["hand"] is None  # as dealt, no hand
    if name in ("void_misdeal", "void_shoe_jam"):
        # The recall may show the dealer's stack as dealt: whole or not, it renders.
        dealer = ROUNDS[name].dealer_public()
        assert json.loads(json.dumps(dealer)) == dealer


def test_views_do_not_change_the_round() -> None:
    for name, rnd in ROUNDS.items():
        before = rnd.to_dict()
        for player, dealer in VIEWERS:
            rnd.view(player, dealer)
        assert rnd.to_dict() == before, name


def test_moves_say_what_each_viewer_may_do_now() -> None:
    def offered(name: str, player: str | None, dealer: bool = False) -> list[dict[str, Any]]:
        """What the viewer may do now, as the platform sends it (the adapter's moves)."""
        who = Actor.dealer() if dealer else Actor.player(player) if player else Actor.spectator()
        return list(GAME.view(ROUNDS[name], who)["moves"])

    def moves(name: str, player: str | None, dealer: bool = False) -> list[str]:
        return [m["move"] for m in offered(name, player, dealer)]

    assert moves("betting", "dave") == ["bet"] * 3
    assert [m["box"] for m in offered("betting", "dave")] == [3, 5, 6]
    assert set(moves("betting", "bob")) == {"bet", "withdraw"}
    assert moves("betting", None, dealer=True) == ["close_betting", "void"]
    assert moves("betting_empty", None, dealer=True) == ["void"]
    assert moves("closed", None, dealer=True) == ["deal"]
    [decide] = offered("decisions_first", "alice")
    assert (decide["move"], decide["box"]) == ("decide", 1)
    assert [c["args"] for c in decide["choices"]] == [
        {"play": 0},
        {"play": 1000},
        {"play": 2000},
        {"play": 3000},
    ]
    assert [(a["low"], a["high"]) for a in decide["amounts"]] == [(1000, 3000)]
    assert moves("decisions_first", "bob") == []
    # The stub counts 52 and a dealer card is exposed only by the shoe: no void to offer.
    assert moves("decisions_first", None, dealer=True) == ["time_out"]
    assert moves("decided", None, dealer=True) == ["reveal"]
    # The supervisor's void is never the dealer's move: only the back office sends it.
    assert moves("revealed", None, dealer=True) == ["settle"]
    for name in ("settled", "void_betting"):
        for player, dealer in VIEWERS:
            assert moves(name, player, dealer) == []
    assert moves("decisions_first", None) == []  # a spectator does nothing


def test_a_card_found_face_up_is_shown_to_everyone() -> None:
    rnd = ROUNDS["decisions_after_a_face_up_card"]
    assert rnd.phase is Phase.DECISIONS and len(rnd.face_up) == 1
    shown = card_code(rnd.face_up[0])
    for player, dealer in VIEWERS:
        assert view("decisions_after_a_face_up_card", player, dealer)["face_up_discards"] == [shown]


def test_a_dealt_boxs_hand_is_worked_out_once_for_every_command_that_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its owner's view shows a dealt box's hand at every command until the settlement: the
    hand is worked out once from the cards (issue 26), the bytes as before (test_view_bytes)."""
    from table.games.crazy_4_poker import view as module
    from tests.games.test_view_work import assert_hand_worked_out_once

    assert_hand_worked_out_once(monkeypatch, "crazy_4_poker", module, module._hand, "hand_json")
