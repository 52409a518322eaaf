"""Every view of every phase of every round renders for every viewer, void rounds included.

A round is walked through each phase, with each shoe drill armed and each way a round can end
(settled, the main game void after an exposed dealer card, voided by the dealer in each phase,
a stub count), and after every step the table's snapshot is built for each seated owner, a
player who is not seated, a spectator, the dealer and staff; finished rounds are also recalled
(the round page and the recall panel) by each of them. None may fail: a box dealt a wrong
number of cards (§684a.13(c)) or a jammed shoe (§684a.13(f)) is still shown to everyone.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from table import services
from table.games.base import SETTLED_PHASE, VOID_PHASE
from table.models import Round, Table
from table.snapshot import snapshot

from .conftest import Game, engine_round

DRILLS = [None, "jam", "face_up_card", "two_face_up_cards", "misdeal", "miscount"]
ENDINGS = [
    "settled",
    "dealer_card_exposed",
    "void_in_betting",
    "void_after_no_more_bets",
    "void_in_decisions",
    "void_after_reveal",
]


class Viewers:
    """Everyone who may look at the table, each with a logged-in browser where they have one."""

    def __init__(self, table: Table, **people: Any) -> None:
        self.table = table
        self.people: dict[str, Any] = {**people, "spectator": AnonymousUser()}
        self.clients: dict[str, Client] = {}
        for name, user in people.items():
            client = Client()
            client.force_login(user)
            self.clients[name] = client
        self.renders = 0

    def look(self, step: str) -> None:
        for name, user in self.people.items():
            try:
                snap = snapshot(self.table.pk, user)
                json.dumps(snap)
            except Exception as exc:  # pragma: no cover - the failure message is the point
                raise AssertionError(f"snapshot for {name} after {step} failed: {exc!r}") from exc
            assert snap["type"] == "snapshot" and snap["version"] >= 0
            self.renders += 1
        self.table.refresh_from_db()
        if self.table.current_round_id is None:
            return
        row = Round.objects.get(pk=self.table.current_round_id)
        finished = row.phase in (SETTLED_PHASE, VOID_PHASE)
        for name, client in self.clients.items():
            if not finished and name not in ("dealer", "staff"):
                continue  # a round in play has a page for the dealer and staff only
            page = client.get(f"/rounds/{row.pk}/")
            assert page.status_code in (200, 404), (name, step, page.status_code)
            if finished:
                recall = client.get(f"/tables/{self.table.pk}/recall.json")
                assert recall.status_code == 200, (name, step, recall.status_code)


def walk(
    game: Game,
    viewers: Viewers,
    people: dict[str, Any],
    drill: str | None,
    ending: str,
    all_six: bool,
) -> None:
    """One round from opening to its end, looking after every step."""
    table, dealer = game.table, game.dealer
    alice, bob = people["alice"], people["bob"]
    if drill == "miscount":
        services.arm_fault(table.pk, drill, dealer)
        viewers.look("arming the miscount")
        # §684a.5(b): the deck that counts wrong is removed and no round opens on it.
        assert services.open_betting(table.pk, dealer).response["opened"] is False
        viewers.look("a deck removed")
        services.change_decks(table.pk, dealer)
        viewers.look("new decks")
    game.open()
    viewers.look("opening")
    game.bet(alice, 1, ante=10_00, prime=1_00, **({"all_six": 1_00} if all_six else {}))
    game.bet(alice, 2, ante=5_00, four_card_bonus=2_00)
    game.bet(bob, 4, ante=20_00)
    viewers.look("bets")
    if ending == "void_in_betting":
        # Closing the table voids a round still taking bets (nobody voids one by hand).
        services.close_table(table.pk, dealer)
        viewers.look("a void in betting: the table closed")
        services.open_table(table.pk, dealer)
        return
    if drill and drill != "miscount":
        try:
            services.arm_fault(table.pk, drill, dealer)
        except services.ServiceError as refused:
            # Still armed from a round cleared before its deal.
            assert "already armed" in refused.message
        viewers.look(f"arming {drill}")
    if ending == "dealer_card_exposed":
        try:  # the shoe's drill: a dealer card comes out face up while dealing
            services.arm_fault(table.pk, "dealer_card_exposed", dealer)
            viewers.look("arming a dealer card exposed")
        except services.ServiceError:
            ending = "settled"  # refused beside a drill that voids the same deal
    services.no_more_bets(table.pk, dealer)
    viewers.look("no more bets")
    if ending == "void_after_no_more_bets":
        services.fail_unfinished_round(table.pk)  # a table cleared after a restart
        viewers.look("a void before the deal")
        return
    services.deal(table.pk, dealer)
    viewers.look(f"the deal ({drill}, {ending})")
    if engine_round(table).finished:
        services.count_stub(table.pk, dealer)
        viewers.look("counting the stub of a round ended by the deal")
        return
    first = engine_round(table).to_act
    assert first is not None
    owner = alice if engine_round(table).boxes[first].player == "alice" else bob
    services.decide(table.pk, owner, first, 1)
    viewers.look("the first decision")
    if ending == "void_in_decisions":
        services.fail_unfinished_round(table.pk)
        viewers.look("a void in decisions")
        return
    while (to_act := engine_round(table).to_act) is not None:
        owner = alice if engine_round(table).boxes[to_act].player == "alice" else bob
        services.decide(table.pk, owner, to_act, 0)
        viewers.look(f"box {to_act} folds")
    services.reveal(table.pk, dealer)
    viewers.look("the reveal")
    if ending == "void_after_reveal":
        services.fail_unfinished_round(table.pk)  # after the reveal: settled, not void
        viewers.look("a round cleared after the reveal")
        return
    services.settle(table.pk, dealer)
    viewers.look("settlement")
    services.count_stub(table.pk, dealer)
    viewers.look("the stub count")


@pytest.mark.parametrize("drill", DRILLS)
def test_every_view_of_every_phase_renders_for_every_viewer(
    drill: str | None,
    game: Game,
    table: Table,
    dealer: Any,
    alice: Any,
    bob: Any,
    carol: Any,
    staff: Any,
) -> None:
    people = {
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "dealer": dealer,
        "staff": staff,
    }
    viewers = Viewers(table, **people)
    game.sit(alice, 1, 2)
    game.sit(bob, 4)
    viewers.look("seating")
    walked = 0
    for ending in ENDINGS:
        for all_six in (False, True):
            walk(game, viewers, people, drill, ending, all_six)
            walked += 1
    assert walked == len(ENDINGS) * 2
    assert viewers.renders > walked * 6 * 5
