"""Game recall pages: a player sees their own rounds only, and in them only their own cards
and what was face up at the table; dealers and staff see everything."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from table.games.cards import RANK_NAMES, SUIT_NAMES, parse_card
from table.models import BoxRecord, Round, Table

from .conftest import Game, current_row

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def face(code: str) -> str:
    """How a card appears on a recall page (its accessible name)."""
    card = parse_card(code)
    return f'title="{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"'


@pytest.fixture
def played(game: Game, alice: Any, bob: Any, table: Table, stack_shoe: Any) -> Round:
    """Alice folds box 1 with no optional wager (her cards stay face down); Bob raises box 2
    with an All-Six wager."""
    stack_shoe(
        [
            *("2C", "7D", "9H", "JS", "4D"),  # box 1, alice: folds
            *("AS", "AH", "KD", "QC", "3S"),  # box 2, bob: pair of aces
            *("KS", "QH", "8C", "6D", "5S"),  # dealer: king high
            *("TD", "TC", "TH", "TS", "9C"),  # All-Six stack: 10♦ is the All-Six card
        ]
    )
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.play(
        [(alice, 1, {"ante": 10_00}), (bob, 2, {"ante": 20_00, "all_six": 5_00})], {1: 0, 2: 2}
    )
    return current_row(table)


ALICE = ("2C", "7D", "9H", "JS", "4D")
BOB = ("AS", "AH", "KD", "QC", "3S")
DEALER = ("KS", "QH", "8C", "6D", "5S")
DISCARDED = ("TC", "TH", "TS", "9C")


def test_anonymous_visitors_are_sent_to_log_in(played: Round) -> None:
    for path in (reverse("round_detail", args=[played.pk]), reverse("my_rounds")):
        response = Client().get(path)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_a_player_sees_their_round_but_not_anothers_hidden_cards(played: Round, bob: Any) -> None:
    page = client_for(bob).get(reverse("round_detail", args=[played.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for code in BOB + DEALER + ("TD",):
        assert face(code) in html, code
    for code in ALICE + DISCARDED:
        assert face(code) not in html, code
    assert "not shown (folded face down)" in html
    assert played.commitment in html
    assert "hash to that commitment" in html
    # Commit-reveal: once the round is over anyone may check the shoe against the commitment.
    assert "Salt:" in html and played.state["salt"] in html
    assert 'class="card-face red"' in html and "A♥" in html and "A♠" in html
    assert "Pair of aces" in html or "pair of aces" in html
    assert "raise 2x" in html


def test_the_folded_player_sees_their_own_cards(played: Round, alice: Any) -> None:
    html = client_for(alice).get(reverse("round_detail", args=[played.pk])).content.decode()
    for code in ALICE + BOB + DEALER:
        assert face(code) in html, code
    assert "(you)" in html


def test_a_stranger_cannot_open_the_round(played: Round, carol: Any) -> None:
    assert client_for(carol).get(reverse("round_detail", args=[played.pk])).status_code == 404
    assert (
        client_for(carol).get(reverse("round_detail", args=[played.pk + 1000])).status_code == 404
    )


def test_the_dealer_sees_everything_and_the_shoe_verifies(played: Round, dealer: Any) -> None:
    html = client_for(dealer).get(reverse("round_detail", args=[played.pk])).content.decode()
    for code in ALICE + BOB + DEALER + DISCARDED + ("TD",):
        assert face(code) in html, code
    assert "Salt:" in html
    assert "hash to that commitment" in html
    assert "Full record" in html
    for text in ("Betting opened", "Dealt", "Finished", "Test rules", "paytable", "hole cards"):
        assert text.lower() in html.lower(), text


def test_staff_see_everything(played: Round, staff: Any) -> None:
    html = client_for(staff).get(reverse("round_detail", args=[played.pk])).content.decode()
    for code in ALICE:
        assert face(code) in html


def test_a_round_in_play_shows_no_cards(game: Game, alice: Any, dealer: Any, table: Table) -> None:
    game.sit(alice, 1)
    game.open()
    game.bet(alice, 1, ante=10_00)
    game.deal()
    row = current_row(table)
    assert client_for(alice).get(reverse("round_detail", args=[row.pk])).status_code == 404
    html = client_for(dealer).get(reverse("round_detail", args=[row.pk])).content.decode()
    assert "still in play" in html
    assert "card-face" not in html
    assert "Salt:" not in html


def test_game_recall_lists_the_last_ten_rounds(
    game: Game, alice: Any, bob: Any, table: Table
) -> None:
    game.sit(alice, 1)
    game.sit(bob, 3)
    for n in range(11):
        bets = [(alice, 1, {"ante": 5_00 + n * 100})]
        if n == 0:
            bets.append((bob, 3, {"ante": 5_00}))
        game.play(bets)
    response = client_for(alice).get(reverse("my_rounds"))
    assert response.status_code == 200
    html = response.content.decode()
    numbers = [r.number for r in Round.objects.filter(table=table).order_by("-number")]
    assert len(numbers) == 11
    for number in numbers[:10]:
        assert f"round {number}</a>" in html
    assert "round 1</a>" not in html
    # Bob played only round 1: it is in his recall, with only what was face up of Alice's box.
    bob_html = client_for(bob).get(reverse("my_rounds")).content.decode()
    assert bob_html.count('class="recall-round"') == 1
    first = Round.objects.get(table=table, number=1)
    record = BoxRecord.objects.get(round=first, box=3)
    for code in record.cards.split():
        assert face(code) in bob_html


def test_game_recall_for_someone_who_never_played(carol: Any) -> None:
    html = client_for(carol).get(reverse("my_rounds")).content.decode()
    assert "You have not played a finished round yet." in html


def test_a_player_reads_the_rules_in_words_and_the_staff_see_the_sections(
    played: Round, bob: Any, dealer: Any
) -> None:
    """The posted signs cite §684a.12(a),(b) and paytables by letter: a player's recall names
    them in words (a letter is "paytable A"), the full record (dealer, staff) keeps the
    sections."""
    mine = client_for(bob).get(reverse("round_detail", args=[played.pk])).content.decode()
    assert "§" not in mine and "{#" not in mine and "staff``" not in mine
    assert "Ante and Raise</caption>" in mine and "Prime — paytable " in mine
    full = client_for(dealer).get(reverse("round_detail", args=[played.pk])).content.decode()
    assert "Ante and Raise — §684a.12(a)</caption>" in full


def test_the_plain_words_filters() -> None:
    from table.templatetags.frenzy_tags import plain, sign_name

    assert plain("the shoe jammed (§684a.13(f))") == "the shoe jammed"
    assert plain("exposed (§684a.13(d)): Ante returned") == "exposed: Ante returned"
    assert plain("payout limit $5.00 (was $6.00) (§684a.12(g)); Prime A") == (
        "payout limit $5.00 (was $6.00); Prime A"
    )
    assert plain("void (§684a.13(a), (c), (f)).") == "void."
    assert plain("no  citation, left  as is") == "no  citation, left  as is"
    assert plain(None) == ""
    assert sign_name("§684a.12(b)") == ""
    assert sign_name("C") == "paytable C"
    assert sign_name("FC-5") == "FC-5"
