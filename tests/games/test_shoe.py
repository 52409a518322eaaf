"""The virtual shuffler and automated dealing shoe (§684a.3, §684a.5, §684a.10, §684a.13)."""

from __future__ import annotations

import ast
import hashlib
from collections import Counter
from pathlib import Path

import pytest

from table.games import shoe as shoe_module
from table.games.cards import DECK, card_code
from table.games.errors import RuleViolation
from table.games.shoe import (
    DECK_LIFETIME_SECONDS,
    DealPlan,
    Fault,
    SecretsSource,
    Shuffler,
    commitment,
    deal,
    new_salt,
    shuffle,
)

from ..conftest import SeededSource

#: The games and what they share (table/engine until the games became packages): every module,
#: none excepted (a game's seeded benchmark rounds live in bench/games/, outside).
ENGINE = Path(__file__).resolve().parents[2] / "table" / "games"


def engine_modules() -> list[Path]:
    return list(ENGINE.rglob("*.py"))


class Fixed:
    """A "random" source that always answers the same."""

    def __init__(self, answer: int) -> None:
        self.answer = answer

    def randbelow(self, n: int) -> int:
        return min(self.answer, n - 1)


# --- randomness: the secrets module, never random's Mersenne Twister --------------------------


def test_engine_never_imports_random() -> None:
    modules = engine_modules()
    assert any(p.name == "shoe.py" for p in modules) and len(modules) > 20
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert "random" not in names, path
            assert not any(n.startswith("random.") for n in names), path
            assert "numpy.random" not in names, path


def test_production_source_is_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []

    def fake(n: int) -> int:
        asked.append(n)
        return 0

    monkeypatch.setattr(shoe_module.secrets, "randbelow", fake)
    order = shuffle(DECK, SecretsSource())
    assert asked == list(range(52, 1, -1))  # Fisher-Yates: one draw per position
    assert sorted(order) == list(DECK)


def test_shuffle_is_a_permutation_and_replayable(seeded: SeededSource) -> None:
    first = shuffle(DECK, SeededSource(1))
    assert sorted(first) == list(DECK)
    assert shuffle(DECK, SeededSource(1)) == first
    assert shuffle(DECK, SeededSource(2)) != first
    assert shuffle(DECK, Fixed(10**9)) == list(DECK)  # j = i every time: nothing moves
    assert DECK == tuple(range(52))  # the input is not changed


def test_shuffle_is_uniform_on_a_small_deck() -> None:
    source = SeededSource(99)
    counts = Counter(tuple(shuffle([0, 1, 2], source)) for _ in range(6000))
    assert len(counts) == 6
    assert all(800 < n < 1200 for n in counts.values()), counts


def test_commitment_is_sha256_of_the_order_and_salt() -> None:
    order = list(DECK)
    text = " ".join(card_code(c) for c in order) + "|salt"
    assert commitment(order, "salt") == hashlib.sha256(text.encode()).hexdigest()
    assert commitment(order, "salt") != commitment(order, "other")
    assert commitment(order[::-1], "salt") != commitment(order, "salt")
    salt = new_salt()
    assert len(salt) == 32 and int(salt, 16) >= 0 and salt != new_salt()


# --- dealing stacks of five (§684a.10(b)) -------------------------------------------------------


def test_deal_order_boxes_then_dealer_then_all_six_stack() -> None:
    order = list(DECK)
    dealt = deal(order, boxes=3, all_six=True)
    assert dealt.irregularity is None
    assert dealt.box_stacks == (tuple(range(0, 5)), tuple(range(5, 10)), tuple(range(10, 15)))
    assert dealt.dealer_stack == tuple(range(15, 20))
    # The top card of the next stack is the All-Six card; the other four are discarded unseen.
    assert dealt.shared_card == 20
    assert dealt.shared_discards == (21, 22, 23, 24)
    assert dealt.stub == tuple(range(25, 52))
    assert dealt.cards_dealt == 25


def test_deal_without_all_six() -> None:
    dealt = deal(list(DECK), boxes=6, all_six=False)
    assert len(dealt.box_stacks) == 6 and dealt.dealer_stack == tuple(range(30, 35))
    assert dealt.shared_card is None and dealt.shared_discards == ()
    assert len(dealt.stub) == 17


def test_one_card_face_up_is_discarded_and_dealing_goes_on() -> None:
    # §684a.13(a): not used in the round, placed in the discard rack.
    dealt = deal(list(DECK), 1, False, DealPlan.from_faults([Fault.FACE_UP_CARD], 2))
    assert dealt.irregularity is None
    assert dealt.face_up_discards == (1,)
    assert dealt.box_stacks == ((0, 2, 3, 4, 5),)
    assert dealt.dealer_stack == (6, 7, 8, 9, 10)


@pytest.mark.parametrize(
    "fault, reason",
    [
        (Fault.TWO_FACE_UP_CARDS, "face_up_cards"),  # §684a.13(a)
        (Fault.JAM, "shoe_jam"),  # §684a.13(f)
        (Fault.MISDEAL, "wrong_card_count"),  # §684a.13(c)
    ],
)
def test_faults_that_void_the_deal(fault: Fault, reason: str) -> None:
    dealt = deal(list(DECK), 2, True, DealPlan.from_faults([fault], 4))
    assert dealt.irregularity == reason


def test_a_short_deck_jams() -> None:
    dealt = deal(list(range(20)), boxes=6, all_six=False)
    assert dealt.irregularity == "shoe_jam"


# --- the shuffler: two decks alternating, counting 52, eight hours -----------------------------


def test_two_decks_of_different_backs_alternate(seeded: SeededSource) -> None:
    shuffler = Shuffler.fresh(now=0.0)
    backs = [shuffler.shuffle_next(seeded, now=1.0)[0] for _ in range(4)]
    assert backs == ["red", "blue", "red", "blue"]
    assert [d.rounds for d in shuffler.decks] == [2, 2]
    one = Shuffler.fresh(now=0.0, two_decks=False)
    assert {one.shuffle_next(seeded, 1.0)[0] for _ in range(3)} == {"red"}


def test_every_shuffle_is_a_full_deck(seeded: SeededSource) -> None:
    shuffler = Shuffler.fresh(now=0.0)
    for _ in range(5):
        _, order = shuffler.shuffle_next(seeded, now=1.0)
        assert sorted(order) == list(DECK)


def test_a_deck_that_counts_wrong_is_removed(seeded: SeededSource) -> None:
    # §684a.5(b)
    shuffler = Shuffler.fresh(now=0.0)
    shuffler.arm(Fault.MISCOUNT)
    with pytest.raises(RuleViolation) as exc:
        shuffler.shuffle_next(seeded, now=1.0)
    assert exc.value.code == "deck_miscount"
    assert [d.back for d in shuffler.decks] == ["blue"]
    assert shuffler.shuffle_next(seeded, now=1.0)[0] == "blue"


def test_no_deck_and_expired_decks(seeded: SeededSource) -> None:
    shuffler = Shuffler([])
    with pytest.raises(RuleViolation) as exc:
        shuffler.shuffle_next(seeded, now=0.0)
    assert exc.value.code == "no_deck"
    # §684a.3(c)(2): decks dealt from a shoe are changed at least every eight hours.
    shuffler = Shuffler.fresh(now=0.0)
    assert not shuffler.deck_due(DECK_LIFETIME_SECONDS - 1)
    assert DECK_LIFETIME_SECONDS == 8 * 3600
    with pytest.raises(RuleViolation) as exc:
        shuffler.shuffle_next(seeded, now=DECK_LIFETIME_SECONDS)
    assert exc.value.code == "deck_expired"
    shuffler.change_decks(now=DECK_LIFETIME_SECONDS)
    assert shuffler.shuffle_next(seeded, now=DECK_LIFETIME_SECONDS + 1)[0] == "red"


def test_armed_deal_faults_are_taken_once() -> None:
    shuffler = Shuffler.fresh(now=0.0)
    shuffler.arm(Fault.JAM)
    shuffler.arm(Fault.MISCOUNT)
    assert shuffler.take_deal_faults() == [Fault.JAM]
    assert shuffler.take_deal_faults() == []
    assert shuffler.armed == [Fault.MISCOUNT]


def test_shuffler_round_trips_through_a_dict(seeded: SeededSource) -> None:
    shuffler = Shuffler.fresh(now=12.5)
    shuffler.shuffle_next(seeded, now=13.0)
    shuffler.arm(Fault.FACE_UP_CARD)
    again = Shuffler.from_dict(shuffler.to_dict())
    assert again.to_dict() == shuffler.to_dict()
    assert again.next_deck == 1 and again.armed == [Fault.FACE_UP_CARD]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (Fault.MISDEAL, Fault.TWO_FACE_UP_CARDS),
        (Fault.TWO_FACE_UP_CARDS, Fault.MISDEAL),
        (Fault.JAM, Fault.MISDEAL),
        (Fault.TWO_FACE_UP_CARDS, Fault.JAM),
    ],
)
def test_two_faults_that_void_the_same_deal_are_refused_together(
    first: Fault, second: Fault
) -> None:
    """A deal is voided once, for its first irregularity (§684a.13): arming a second voiding
    fault would silently drop one, so it is refused and the first stays armed."""
    shuffler = Shuffler.fresh(now=0.0)
    shuffler.arm(first)
    with pytest.raises(RuleViolation) as refused:
        shuffler.arm(second)
    assert refused.value.code == "faults_conflict"
    assert shuffler.armed == [first]
    shuffler.arm(Fault.MISCOUNT)  # a shuffle fault is another matter
    shuffler.take_deal_faults()
    shuffler.arm(second)  # after the deal it may be armed
    assert shuffler.armed == [Fault.MISCOUNT, second]


def test_one_face_up_card_goes_with_a_voiding_fault_but_not_twice() -> None:
    shuffler = Shuffler.fresh(now=0.0)
    shuffler.arm(Fault.FACE_UP_CARD)
    shuffler.arm(Fault.MISDEAL)  # a discarded card, then the misdeal: both happen
    with pytest.raises(RuleViolation):
        shuffler.arm(Fault.FACE_UP_CARD)  # a second face-up card would void it first
    with pytest.raises(RuleViolation):
        shuffler.arm(Fault.MISDEAL)  # already armed


def test_the_decks_follow_the_rules_submission(seeded: SeededSource) -> None:
    """§684a.3(b): two decks alternate when the submission says so; a change of submission
    brings the decks it asks for at the next shuffle, not at the next deck change."""
    shuffler = Shuffler.fresh(now=0.0, two_decks=False)
    assert shuffler.match_rules(two_decks=True, now=1.0) is True
    assert [d.back for d in shuffler.decks] == ["red", "blue"]
    assert shuffler.match_rules(two_decks=True, now=2.0) is False
    assert shuffler.match_rules(two_decks=False, now=3.0) is True
    assert [d.back for d in shuffler.decks] == ["red"]


def test_a_deck_short_after_a_miscount_is_refused_until_new_decks(seeded: SeededSource) -> None:
    shuffler = Shuffler.fresh(now=0.0)
    shuffler.arm(Fault.MISCOUNT)
    with pytest.raises(RuleViolation):
        shuffler.shuffle_next(seeded, now=1.0)
    assert shuffler.last_count == 51
    with pytest.raises(RuleViolation) as short:
        shuffler.match_rules(two_decks=True, now=2.0)
    assert short.value.code == "deck_short" and "change the decks" in short.value.message
    shuffler.change_decks(now=3.0)
    assert shuffler.match_rules(two_decks=True, now=4.0) is False
    shuffler.shuffle_next(seeded, now=5.0)
    assert shuffler.last_count == 52
    assert Shuffler.from_dict(shuffler.to_dict()).to_dict() == shuffler.to_dict()
