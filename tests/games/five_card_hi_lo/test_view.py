"""What each viewer sees of a Five Card Hi-Lo round, and may do, in every phase: a box's owner,
another player, a spectator and the dealer console (§663a.11(a), (c)-(f), §663a.13(a))."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from table.games.base import Actor
from table.games.cards import card_code
from table.games.five_card_hi_lo.game import GAME
from table.games.five_card_hi_lo.round import Phase, Round
from table.games.shoe import Fault

from .round_helpers import PHASES, example_at, example_round

VIEWERS: tuple[tuple[str | None, bool], ...] = (
    ("ann", False),  # owns boxes 1 and 2
    ("bob", False),  # owns box 4
    ("zed", False),  # a player with no box in this round
    (None, False),  # a spectator
    (None, True),  # the dealer console
)


def moves(rnd: Round, player: str | None, dealer: bool = False) -> list[dict[str, Any]]:
    """What the viewer may do now, as the platform sends it (the adapter's moves)."""
    viewer = Actor.dealer() if dealer else Actor.player(player) if player else Actor.spectator()
    return list(GAME.view(rnd, viewer)["moves"])


def every_state() -> Iterator[tuple[str, Round]]:
    """The example round in every phase, and the states in between that matter."""
    for stop in PHASES:
        yield stop, example_at(stop)[0]
    rnd, _ = example_at("setting")
    rnd.choose_setting(2, "ann", True)
    yield "half set", rnd
    rnd, _ = example_at("betting")
    rnd.void("table_closed")
    yield "void while betting", rnd
    rnd, _ = example_at("closed")
    rnd.deal([Fault.JAM])
    yield "void while dealing", rnd
    rnd, _ = example_at("closed")
    rnd.deal([Fault.FACE_UP_CARD])
    yield "one card face up", rnd
    rnd, _ = example_at("decisions")
    rnd.stub.pop()  # §663a.10(f): the stub, counted after the deal, shows a card gone
    rnd.void("stub_miscount")
    yield "void at the stub count", rnd
    rnd, _ = example_at("setting")
    rnd.void("server_restart")
    yield "void while setting", rnd
    rnd, _ = example_at("revealed")
    rnd.void("server_restart")
    yield "void after the reveal", rnd
    # bob folds without a Poker Bonus: his cards go to the rack unseen.
    rnd, _ = example_round()
    rnd.bet(4, "bob", {"ante": 2500})
    rnd.close_betting()
    rnd.deal()
    rnd.decide(1, "ann", True)
    rnd.decide(2, "ann", False)
    rnd.decide(4, "bob", False)
    rnd.choose_setting(1, "ann", False)
    rnd.reveal()
    rnd.settle()
    yield "settled, a fold without poker bonus", rnd


STATES = list(every_state())


def hidden_from(rnd: Round, viewer: str | None, dealer: bool) -> set[str]:
    """The card codes ``viewer`` must not see: every box not his until settlement shows it,
    a box discarded unseen always, the dealer's cards until the reveal."""
    shown = {b["box"] for b in (rnd.results or {}).get("boxes", []) if b["cards"] is not None}
    hidden: set[str] = set()
    for play in rnd.boxes.values():
        mine = not dealer and viewer is not None and play.player == viewer
        if not mine and play.box not in shown:
            hidden |= {card_code(c) for c in play.cards}
    if not rnd.dealer_visible():
        hidden |= {card_code(c) for c in rnd.dealer_cards}
    if not rnd.finished:
        hidden |= {card_code(c) for c in rnd.stub}
    return hidden


@pytest.mark.parametrize("state", [s for s, _ in STATES])
def test_every_view_of_every_phase_renders_for_every_viewer(state: str) -> None:
    rnd = dict(STATES)[state]
    for viewer, dealer in VIEWERS:
        view = rnd.view(viewer, dealer=dealer)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert view["game"] == "five_card_hi_lo" and view["phase"] == rnd.phase.value
        assert [b["box"] for b in view["boxes"]] == sorted(rnd.boxes)
        # Commit-reveal: the shoe order only once the round is over; it shows every card.
        assert ("shoe" in view) is rnd.finished
        view.pop("shoe", None)
        text = json.dumps(view)
        leaked = {code for code in hidden_from(rnd, viewer, dealer) if f'"{code}"' in text}
        assert not leaked, (state, viewer, dealer, leaked)
        for box in view["boxes"]:
            mine = box["mine"]
            assert mine == (
                not dealer and viewer is not None and rnd.boxes[box["box"]].player == viewer
            )
            if mine and rnd.boxes[box["box"]].cards:
                assert box["cards"] == [card_code(c) for c in rnd.boxes[box["box"]].cards]


def test_hole_cards_only_to_their_owner_until_settlement() -> None:
    rnd, _ = example_at("decisions")
    ann = {b["box"]: b for b in rnd.view("ann")["boxes"]}
    bob = {b["box"]: b for b in rnd.view("bob")["boxes"]}
    dealer = {b["box"]: b for b in rnd.view(None, dealer=True)["boxes"]}
    spectator = {b["box"]: b for b in rnd.view(None)["boxes"]}
    assert ann[1]["cards"] == "AS JD TH 9C 2S".split() and ann[2]["poker_hand"] == "full_house"
    assert ann[4]["cards"] is None and bob[4]["cards"] == "QH QD 5S 6D 2C".split()
    assert bob[1]["cards"] is None and bob[2]["cards"] is None
    assert all(b["cards"] is None for b in (*dealer.values(), *spectator.values()))
    assert all(b["dealt"] for b in spectator.values())
    # Deciding whether to Play, the owner already sees what each setting would total.
    assert [(s["high_total"], s["low_total"]) for s in ann[1]["settings"]] == [(31, 11), (29, 3)]
    assert ann[1]["may_set"] is False and "settings" not in bob[1]
    assert rnd.view(None)["dealer"] is None and rnd.view("ann")["dealer"] is None


def test_the_owner_is_offered_the_settings_with_their_totals() -> None:
    rnd, _ = example_at("setting")
    ann = {b["box"]: b for b in rnd.view("ann")["boxes"]}
    totals = [(s["high_total"], s["low_total"], s["ace_low"]) for s in ann[2]["settings"]]
    assert totals == [(33, 16, False), (30, 9, True)]
    assert ann[2]["may_set"] is True and ann[1]["may_set"] is False  # §663a.7(f): box 2 first
    assert [(s["high_total"], s["low_total"]) for s in ann[1]["settings"]] == [(31, 11), (29, 3)]
    assert "settings" not in ann[4]  # bob folded, and it is not ann's
    for viewer, dealer in VIEWERS[1:]:
        for box in rnd.view(viewer, dealer=dealer)["boxes"]:
            assert "settings" not in box or box["mine"]
    assert [(m["move"], m["box"]) for m in moves(rnd, "ann")] == [("set_hands", 2)]
    assert moves(rnd, "bob") == []  # bob folded: nothing to set
    assert rnd.view(None, dealer=True)["setting_pending"] == [2, 1]


def test_a_set_hand_is_face_down_to_everyone_but_its_owner() -> None:
    rnd, _ = example_at("setting")
    rnd.choose_setting(2, "ann", True)
    ann = {b["box"]: b for b in rnd.view("ann")["boxes"]}
    assert ann[2]["set"] and ann[2]["setting"]["low"] == ["8C", "AC"]
    assert "settings" not in ann[2]
    assert [(m["move"], m["box"]) for m in moves(rnd, "ann")] == [("set_hands", 1)]
    for viewer, dealer in VIEWERS[1:]:
        box = next(b for b in rnd.view(viewer, dealer=dealer)["boxes"] if b["box"] == 2)
        assert box["set"] is True and box["setting"] is None and box["cards"] is None
        assert box["set_by"] == "player"


def test_a_setting_the_house_made_on_a_time_out_says_so() -> None:
    rnd, _ = example_at("setting")
    rnd.choose_setting(2, "ann", True)
    rnd.time_out(None)  # box 1 is still to set: the house sets it aces high
    for viewer, dealer in VIEWERS:
        boxes = {b["box"]: b for b in rnd.view(viewer, dealer=dealer)["boxes"]}
        assert boxes[1]["set_by"] == "timeout" and boxes[2]["set_by"] == "player"
        assert boxes[4]["set_by"] is None  # bob folded: never set


def test_settlement_turns_the_hands_over() -> None:
    rnd, _ = example_at("settled")
    for viewer, dealer in VIEWERS:
        view = rnd.view(viewer, dealer=dealer)
        boxes = {b["box"]: b for b in view["boxes"]}
        assert boxes[1]["setting"]["high_total"] == 29 and boxes[1]["net"] == 1000
        assert boxes[2]["cards"] == "AD AH AC 8S 8C".split()
        # bob folded with a Poker Bonus: his cards stay for that wager (§663a.11(c)).
        assert boxes[4]["cards"] == "QH QD 5S 6D 2C".split() and boxes[4]["setting"] is None
        assert view["dealer"]["high_total"] == 26
        assert view["players"] == {"ann": {"net": 18500}, "bob": {"net": -2500}}
        assert moves(rnd, viewer, dealer) == [] and view["salt"] == "salt"


def test_a_fold_without_poker_bonus_is_discarded_unseen() -> None:
    rnd = dict(STATES)["settled, a fold without poker bonus"]
    for viewer, dealer in VIEWERS:
        boxes = {b["box"]: b for b in rnd.view(viewer, dealer=dealer)["boxes"]}
        assert boxes[4]["discarded"] is True and boxes[2]["discarded"] is False
        if viewer == "bob":
            assert boxes[4]["cards"] is not None  # he saw them when they were dealt
        else:
            assert boxes[4]["cards"] is None and boxes[4]["results"]
        # ann's box 2 folded with a Poker Bonus: shown at settlement for that wager.
        assert boxes[2]["cards"] == "AD AH AC 8S 8C".split() and boxes[2]["setting"] is None


def test_the_dealers_cards_are_seen_from_the_reveal() -> None:
    for stop in PHASES:
        rnd, _ = example_at(stop)
        for viewer, dealer in VIEWERS:
            shown = rnd.view(viewer, dealer=dealer)["dealer"]
            if stop in ("revealed", "settled"):
                assert shown["cards"] == "KS 9D 7H 4C 3S".split()
                assert (shown["high_total"], shown["low_total"]) == (26, 7)
            else:
                assert shown is None


def test_the_dealer_console_sees_the_stub_count_and_its_moves() -> None:
    expected: dict[str, list[str]] = {
        "betting": ["close_betting", "void"],
        "closed": ["deal", "void"],
        # Dealt with the stub counting 52: only the house's voids remain, none the dealer's.
        "decisions": ["time_out"],
        "setting": ["time_out"],
        "set": ["reveal"],
        "revealed": ["settle"],
        "settled": [],
    }
    for stop in PHASES:
        rnd, _ = example_at(stop)
        view = rnd.view(None, dealer=True)
        offered = moves(rnd, None, dealer=True)
        assert [m["move"] for m in offered] == expected[stop], stop
        void = [m for m in offered if m["move"] == "void"]
        if void:
            # The house's own voids (a restart, the supervisor's) are never the dealer's.
            reasons = [c["args"]["reason"] for c in void[0]["choices"]]
            house = {"server_restart", "supervisor_void"}
            assert reasons == [r for r in rnd.void_reasons_now() if r not in house]
        assert ("stub" in view) is bool(rnd.dealer_cards)
        for viewer in ("ann", "bob", None):
            assert "stub" not in rnd.view(viewer)
    rnd, _ = example_at("decisions")
    assert rnd.view(None, dealer=True)["stub"] == 32


def test_players_see_their_own_moves_only() -> None:
    rnd, _ = example_at("betting")
    bets = [m["box"] for m in moves(rnd, "zed") if m["move"] == "bet"]
    assert bets == [3, 5, 6]
    assert {m["move"] for m in moves(rnd, "ann")} == {"bet", "withdraw"}
    assert moves(rnd, None) == []
    rnd, _ = example_at("decisions")  # box 2 (ann) to act
    [decide] = moves(rnd, "ann")
    assert (decide["move"], decide["box"]) == ("decide", 2)
    assert [c["args"] for c in decide["choices"]] == [{"play": False}, {"play": True}]
    assert "$10.00" in decide["choices"][1]["label"]
    assert moves(rnd, "bob") == [] and moves(rnd, None) == []


def test_face_up_cards_and_void_reasons_are_public() -> None:
    rnd = dict(STATES)["one card face up"]
    for viewer, dealer in VIEWERS:
        assert rnd.view(viewer, dealer=dealer)["face_up_discards"] == [
            card_code(c) for c in rnd.discards
        ]
    rnd = dict(STATES)["void at the stub count"]
    for viewer, dealer in VIEWERS:
        view: dict[str, Any] = rnd.view(viewer, dealer=dealer)
        assert view["void_reason"] == "stub_miscount" and "§663a.10(f)" in view["void_explanation"]
        assert view["phase"] == Phase.VOID.value and moves(rnd, viewer, dealer) == []


@pytest.mark.parametrize("fault", [Fault.MISDEAL])
def test_a_misdealt_box_is_shown_to_its_owner_without_a_hand(fault: Fault) -> None:
    """§663a.13(c), (e): a box dealt a wrong number of cards voids the round; its owner still
    sees the cards it got, but they make no five-card hand to value."""
    rnd, _ = example_at("closed")
    rnd.deal([fault])
    assert rnd.phase is Phase.VOID
    short = [b for b in rnd.boxes.values() if b.cards and len(b.cards) != 5]
    assert short
    for play in short:
        item = next(b for b in rnd.view(play.player)["boxes"] if b["box"] == play.box)
        assert item["cards"] == [card_code(c) for c in play.cards]
        assert item.get("poker_hand") is None


def test_a_dealt_boxs_hand_is_worked_out_once_for_every_command_that_shows_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its owner's view shows a dealt box's hand at every command until the settlement: the
    hand is worked out once from the cards (issue 26), the bytes as before (test_view_bytes)."""
    from table.games.five_card_hi_lo import view as module
    from tests.games.test_view_work import assert_hand_worked_out_once

    assert_hand_worked_out_once(
        monkeypatch, "five_card_hi_lo", module, module._settings, "offered_settings"
    )
