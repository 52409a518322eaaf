"""The progressive meters' store (table/meters.py): each rule of §657a.12's meters, the money
in the ledger, the history, the frames (the "Meters" section and interpretations 5-7 of the
rules document of the game whose paytables have meters; that game's engine against the store:
tests/games/<game>/services/test_meters.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer
from django.db import transaction
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from table import ledger, meters
from table.models import (
    Account,
    AppendOnlyError,
    MeterEvent,
    ProgressiveMeter,
    Round,
    RulesSubmission,
    Table,
)
from tests.services.conftest import make_player

Hit = meters.Hit


def stakes(progressive: Sequence[int] = (), hand_bonus: Sequence[int] = ()) -> dict[str, list[int]]:
    """A round's meter stakes by wager (the hand-bonus hands on the player's
    hand), as the table's command hands them to the meters store."""
    return {"progressive": list(progressive), "hand_bonus_player": list(hand_bonus)}


def new_round(table: Table, number: int | None = None) -> Round:
    number = number or Round.objects.filter(table=table).count() + 1
    return Round.objects.create(
        table=table,
        number=number,
        rules_submission=table.rules,
        rules={},
        phase="betting",
        state={},
        commitment="-",
        deck_back="red",
    )


def stake(table: Table, rnd: Round, user: Any, amount: int, wager: str) -> None:
    """A player's wager moves to the table's bankroll (the drop), as the table's bet does."""
    player = ledger.player_account(user).pk
    bankroll = ledger.table_bankroll(table).pk
    ledger.post([ledger.Posting("bet", ((player, -amount), (bankroll, amount)), 1, wager)])


def five_card_c(name: str = "C", wager: int = 100, *tables: Table) -> dict[str, ProgressiveMeter]:
    return {
        kind: meters.create_meter(f"{name} {kind}", kind, "C", wager, tables)
        for kind in ("mega", "major", "minor")
    }


def standing(meter: ProgressiveMeter) -> tuple[int, int]:
    meter.refresh_from_db()
    return meter.amount, meter.reserve


@pytest.fixture
def hand_bonus(table: Table) -> ProgressiveMeter:
    return meters.create_meter("hand bonus", "hand_bonus", "", 100, [table])


@pytest.fixture(autouse=True)
def meters_agree(db: None) -> Any:
    yield
    assert meters.verify() == []


# --- seeding --------------------------------------------------------------------------------


def test_a_new_meter_starts_at_its_seed_funded_by_the_house(table: Table) -> None:
    m = five_card_c("bank", 500, table)
    # §657a.12(e)(3): Five-Card C, "$10,000 / $1,000 / $250 for 1", here for a $5 wager.
    assert [standing(m[k]) for k in ("mega", "major", "minor")] == [
        (50_000_00, 0),
        (5_000_00, 0),
        (1_250_00, 0),
    ]
    assert (m["mega"].primary_rate, m["major"].primary_rate, m["minor"].primary_rate) == (9, 7, 3)
    assert meters.house_account().balance == -(50_000_00 + 5_000_00 + 1_250_00)
    assert Account.objects.get(pk=m["mega"].account_id).balance == 50_000_00
    seed = MeterEvent.objects.get(meter=m["mega"])
    assert (seed.kind, seed.version, seed.amount_after, seed.funded) == (
        "seed",
        1,
        50_000_00,
        50_000_00,
    )


def test_the_kind_choices_name_every_meter_of_the_games() -> None:
    """The meter row's kind choices (as the migrations have them) are the kinds of the games'
    meter catalogues, each with its label: the admin offers and the store keeps only those."""
    from table.games import meter_catalogue

    catalogue = {(m.kind, m.label) for m in meter_catalogue().values()}
    assert catalogue == set(ProgressiveMeter.KINDS)


def test_a_meter_no_paytable_has_is_refused(table: Table) -> None:
    with pytest.raises(meters.MeterError):
        meters.create_meter("x", "mega", "A", 100)  # Five-Card A has one five_card meter
    with pytest.raises(meters.MeterError):
        meters.create_meter("y", "four_card", "A", 200)
    assert not ProgressiveMeter.objects.exists()
    assert not Account.objects.filter(kind="meter").exists()


# --- increments at "no more bets" ------------------------------------------------------------


def test_a_round_feeds_its_meters_once(table: Table, hand_bonus: ProgressiveMeter) -> None:
    rnd = new_round(table)
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes(hand_bonus=[100]))
    with pytest.raises(meters.MeterError) as e, transaction.atomic():
        meters.apply_increments(table, rnd, stakes(hand_bonus=[100]))
    assert e.value.code == "already_incremented"
    assert standing(hand_bonus) == (10_000_00 + 13, 8)


@pytest.mark.parametrize(
    "progressive, hand, linked, code",
    [
        ([500], [], True, "bad_stake"),
        ([100], [100, 500], True, "bad_stake"),
        ([100], [100], False, "no_meter"),
    ],
)
def test_bad_increments_change_nothing(
    table: Table,
    hand_bonus: ProgressiveMeter,
    progressive: list[int],
    hand: list[int],
    linked: bool,
    code: str,
) -> None:
    if linked:
        five_card_c("c", 100, table)
    rnd = new_round(table)
    before = [standing(m) for m in ProgressiveMeter.objects.all()]
    with pytest.raises(meters.MeterError) as e, transaction.atomic():
        meters.apply_increments(table, rnd, stakes(progressive, hand))
    assert e.value.code == code
    assert [standing(m) for m in ProgressiveMeter.objects.all()] == before
    assert not MeterEvent.objects.filter(kind="increment").exists()


# --- voids ---------------------------------------------------------------------------------------


def test_a_void_takes_the_increments_back_out(table: Table, hand_bonus: ProgressiveMeter) -> None:
    m = five_card_c("c", 100, table)
    rnd = new_round(table)
    before = [standing(x) for x in (*m.values(), hand_bonus)]
    bankroll = ledger.table_bankroll(table).balance
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes([100, 100], [100, 100, 100]))
    assert standing(hand_bonus) != before[-1]
    with transaction.atomic():
        back = meters.reverse_increments(rnd)
    assert back["hand_bonus"].primary == 39 and back["hand_bonus"].reserve == 24
    assert [standing(x) for x in (*m.values(), hand_bonus)] == before
    assert ledger.table_bankroll(table).balance == bankroll
    with transaction.atomic():
        assert meters.reverse_increments(rnd) == {}  # a second void changes nothing
    assert MeterEvent.objects.filter(kind="reversal").count() == 4


def test_a_void_after_a_linked_table_hit_takes_back_only_what_is_left(
    rules: RulesSubmission, alice: Any
) -> None:
    one = Table.objects.create(name="one", rules=rules)
    two = Table.objects.create(name="two", rules=rules)
    hb = meters.create_meter("linked hand bonus", "hand_bonus", "", 100, [one, two])
    first = new_round(one)
    with transaction.atomic():
        meters.apply_increments(one, first, stakes(hand_bonus=[100] * 10))  # +130, reserve +80
    with transaction.atomic():
        meters.pay_hits(
            two, new_round(two), [Hit("hand_bonus", 100, ((2, "alice"),), "hand_bonus_player")]
        )
    # The royal at table two paid 10,000.00 + 1.30; the reset left reseed $0 + reserve 0.80.
    assert standing(hb) == (80, 0)
    with transaction.atomic():
        meters.reverse_increments(first)
    assert standing(hb) == (0, 0)  # never below zero; what was paid stays paid
    event = MeterEvent.objects.get(kind="reversal")
    assert event.paid == 130  # the shortfall the table's bankroll bore


# --- hits ----------------------------------------------------------------------------------------


def test_a_hit_pays_the_meter_as_it_stands_at_that_box_s_turn(table: Table, alice: Any) -> None:
    m = meters.create_meter("five", "five_card", "A", 100, [table])
    rnd = new_round(table)
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes([100] * 5))  # 5 x 21 cents
        paid = meters.pay_hits(table, rnd, [Hit("five_card", 100, ((4, "alice"),))])
    assert paid[0].paid == 10_000_00 + 105  # this round's increments included
    assert ledger.player_account(alice).balance == 10_000_00 + 10_000_00 + 105
    assert standing(m) == (10_000_00, 0)  # reseed $10,000 for 1, no reserve
    hit = MeterEvent.objects.get(kind="hit")
    assert (hit.table_id, hit.round_number, hit.box, hit.player_id, hit.paid) == (
        table.pk, rnd.number, 4, alice.pk, 10_000_00 + 105,
    )  # fmt: skip
    assert (hit.amount_before, hit.amount_after, hit.reseeded, hit.funded) == (
        10_000_00 + 105, 10_000_00, True, 10_000_00,
    )  # fmt: skip


def test_a_second_winner_gets_what_the_first_left(table: Table, alice: Any, bob: Any) -> None:
    m = five_card_c("c", 100, table)
    rnd = new_round(table)
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes([100, 100]))
        paid = meters.pay_hits(
            table,
            rnd,
            [Hit("mega", 100, ((6, "alice"),)), Hit("mega", 100, ((2, "bob"),))],
        )
    assert [p.paid for p in paid] == [10_000_00 + 18, 10_000_00]  # the reseed, nothing more
    assert standing(m["mega"]) == (10_000_00, 0)
    a, b = MeterEvent.objects.filter(kind="hit").order_by("version")
    assert a.amount_after == b.amount_before


def test_a_hundred_percent_hit_resets_to_reseed_plus_reserve(
    table: Table, hand_bonus: ProgressiveMeter, alice: Any
) -> None:
    rnd = new_round(table)
    bankroll = ledger.table_bankroll(table).balance
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes(hand_bonus=[100] * 25))  # 325, reserve 200
        meters.pay_hits(table, rnd, [Hit("hand_bonus", 100, ((1, "alice"),), "hand_bonus_player")])
    # Interpretation 6: reseed $0 + the reserve, and the reserve to 0.
    assert standing(hand_bonus) == (200, 0)
    four = meters.create_meter("four B", "four_card", "B", 500, [table])
    rnd = new_round(table)
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes([500] * 3))  # 25% / 5% of $5: 375, reserve 75
        meters.pay_hits(table, rnd, [Hit("four_card", 100, ((3, "alice"),))])
    assert standing(four) == (5_000_00 + 75, 0)  # $1,000 for 1 at $5, plus the reserve
    # The hitting table's bankroll funded the $5,000 reseed (the hand bonus reseeds $0).
    assert ledger.table_bankroll(table).balance == bankroll - 525 - 450 - 5_000_00


def test_a_percentage_pays_rounded_down_and_leaves_the_rest(table: Table, alice: Any) -> None:
    m = meters.create_meter("five", "five_card", "A", 100, [table])
    rnd = new_round(table)
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes([100] * 5))  # 10,001.05
        paid = meters.pay_hits(table, rnd, [Hit("five_card", 10, ((5, "alice"),))])
    assert paid[0].paid == 1_000_10  # 10% of 1,000,105 cents is 100,010.5: rounded down
    assert standing(m) == (10_001_05 - 1_000_10, 0)
    assert not MeterEvent.objects.get(kind="hit").reseeded


def test_a_dealer_hand_jackpot_is_split_and_the_leftover_cents_stay(
    table: Table, hand_bonus: ProgressiveMeter, alice: Any, bob: Any, carol: Any
) -> None:
    rnd = new_round(table)
    with transaction.atomic():
        meters.apply_increments(table, rnd, stakes(hand_bonus=[100] * 3))  # 10,000.39, reserve 0.24
        winners = ((6, "alice"), (4, "bob"), (2, "carol"))
        paid = meters.pay_hits(table, rnd, [Hit("hand_bonus", 100, winners, "hand_bonus_dealer")])
    # 1,000,039 cents in three shares of 333,346; 1 cent stays, on top of reseed $0 + reserve.
    assert [p.paid for p in paid] == [333_346] * 3
    assert standing(hand_bonus) == (24 + 1, 0)
    for user in (alice, bob, carol):
        assert ledger.player_account(user).balance == 10_000_00 + 333_346
    rows = list(MeterEvent.objects.filter(kind="hit").order_by("version"))
    assert [r.box for r in rows] == [6, 4, 2] and {r.split for r in rows} == {3}
    assert [r.reseeded for r in rows] == [False, False, True]
    # A straight flush on the dealer's hand: 10% of what is left, split, rounded down.
    rnd2 = new_round(table)
    with transaction.atomic():
        meters.apply_increments(table, rnd2, stakes(hand_bonus=[100] * 2))  # 25 + 26, reserve 16
        paid = meters.pay_hits(
            table, rnd2, [Hit("hand_bonus", 10, ((5, "alice"), (1, "bob")), "hand_bonus_dealer")]
        )
    assert [p.paid for p in paid] == [2, 2]  # 10% of 51 = 5, two shares of 2, 1 stays
    assert standing(hand_bonus) == (51 - 4, 16)


@pytest.mark.parametrize(
    "hit, code",
    [
        (Hit("mega", 0, ((1, "alice"),)), "bad_hit"),
        (Hit("mega", 101, ((1, "alice"),)), "bad_hit"),
        (Hit("mega", 100, ((7, "alice"),)), "bad_hit"),
        (Hit("mega", 100, ((1, "nobody"),)), "bad_hit"),
        (Hit("mega", 100, ((1, "alice"), (2, "alice"))), "bad_hit"),
        (Hit("mega", 100, ((1, "alice"),), "hand_bonus_player"), "bad_hit"),
        (Hit("five_card", 100, ((1, "alice"),)), "no_meter"),
    ],
)
def test_bad_hits_change_nothing(table: Table, alice: Any, hit: Hit, code: str) -> None:
    m = five_card_c("c", 100, table)
    rnd = new_round(table)
    with pytest.raises(meters.MeterError) as e, transaction.atomic():
        meters.pay_hits(table, rnd, [Hit("major", 100, ((6, "alice"),)), hit])
    assert e.value.code == code
    assert standing(m["major"]) == (1_000_00, 0) and standing(m["mega"]) == (10_000_00, 0)
    assert not MeterEvent.objects.filter(kind="hit").exists()
    assert ledger.player_account(alice).balance == 10_000_00


def test_a_box_s_hit_is_paid_once(table: Table, alice: Any) -> None:
    m = five_card_c("c", 100, table)
    rnd = new_round(table)
    with transaction.atomic():
        meters.pay_hits(table, rnd, [Hit("minor", 100, ((2, "alice"),))])
    with pytest.raises(meters.MeterError) as e, transaction.atomic():
        meters.pay_hits(table, rnd, [Hit("minor", 100, ((2, "alice"),))])
    assert e.value.code == "already_paid"
    assert standing(m["minor"]) == (250_00, 0)


@pytest.mark.django_db(transaction=True)
def test_the_services_refuse_to_run_outside_a_transaction() -> None:
    with pytest.raises(RuntimeError):
        meters.lock_meters([1])


# --- links, history, frames ----------------------------------------------------------------------


def test_a_table_takes_one_meter_of_each_kind_from_one_paytable(
    table: Table, hand_bonus: ProgressiveMeter
) -> None:
    five_card_c("c", 100, table)
    assert meters.link_problems(None, "mega", "C", 100, [table])  # a second mega
    assert meters.link_problems(None, "four_card", "A", 100, [table])  # another paytable
    assert meters.link_problems(None, "hand_bonus", "", 100, [table])
    assert (
        meters.link_problems(
            None, "mega", "C", 100, [Table.objects.create(name="t2", rules=table.rules)]
        )
        == []
    )
    # Linked behind the admin's back anyway: the services refuse rather than guess.
    extra = meters.create_meter("second mega", "mega", "C", 100, [table])
    with pytest.raises(meters.MeterError) as e, transaction.atomic():
        meters.apply_increments(table, new_round(table), stakes([100]))
    assert e.value.code == "bad_links"
    assert standing(extra) == (10_000_00, 0)


def test_the_history_is_append_only(table: Table, hand_bonus: ProgressiveMeter) -> None:
    event = MeterEvent.objects.get(meter=hand_bonus)
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        MeterEvent.objects.filter(pk=event.pk).update(paid=1)
    with pytest.raises(AppendOnlyError):
        MeterEvent.objects.all().delete()
    from django.db import DatabaseError, connection

    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE table_meterevent SET paid = 1")  # the database refuses too


def test_each_committed_change_publishes_one_meter_frame(
    table: Table,
    hand_bonus: ProgressiveMeter,
    alice: Any,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> None:
    # The in-process layer, on every pass (the realstack test covers Redis between processes).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(meters.meter_group(hand_bonus.pk), channel)
    rnd = new_round(table)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            meters.apply_increments(table, rnd, stakes(hand_bonus=[100]))
            meters.pay_hits(
                table, rnd, [Hit("hand_bonus", 10, ((3, "alice"),), "hand_bonus_player")]
            )
    import json

    frames = [json.loads(async_to_sync(layer.receive)(channel)["text"]) for _ in range(2)]
    assert [(f["cause"], f["version"], f["amount"]) for f in frames] == [
        ("increment", 2, 10_000_13),
        ("hit", 3, 10_000_13 - 1_000_01),
    ]
    assert frames[0]["meter"] == hand_bonus.pk and frames[0]["table"] == table.pk
    assert "reserve" not in frames[0]
    # A change that rolls back sends nothing.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(meters.MeterError), transaction.atomic():
            meters.apply_increments(table, new_round(table), stakes(hand_bonus=[100]))
            meters.apply_increments(
                table, Round.objects.get(table=table, number=2), stakes(hand_bonus=[100])
            )
    assert callbacks == []
    channel_layers.backends.clear()
    # A socket's first snapshot: the table's meters as they stand, then newer frames.
    assert meters.table_meter_frames(table.pk) == [
        {"type": "meter", "meter": hand_bonus.pk, "kind": "hand_bonus", "name": "hand bonus",
         "amount": 10_000_13 - 1_000_01, "version": 3}
    ]  # fmt: skip


# --- the admin -----------------------------------------------------------------------------------


def test_the_admin_creates_links_and_shows_a_meter_s_history(
    client: Any, staff: Any, table: Table
) -> None:
    client.force_login(staff)
    response = client.post(
        "/admin/table/progressivemeter/add/",
        {"name": "Bank mega", "meter": "mega|D", "wager": "500", "tables": [table.pk]},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    meter = ProgressiveMeter.objects.get(name="Bank mega")
    assert (meter.kind, meter.paytable, meter.amount, meter.primary_rate) == (
        "mega",
        "D",
        50_000_00,
        10,
    )
    assert list(meter.tables.all()) == [table]
    page = client.get(f"/admin/table/progressivemeter/{meter.pk}/change/").content.decode()
    assert "$50,000.00" in page and "1 changes" in page
    history = client.get(f"/admin/table/meterevent/?meter__id__exact={meter.pk}")
    assert history.status_code == 200 and "seed" in history.content.decode()
    assert client.get(f"/admin/table/meterevent/{meter.events.get().pk}/change/").status_code == 200
    # A second mega on the same table is refused, naming the clash.
    response = client.post(
        "/admin/table/progressivemeter/add/",
        {"name": "Other mega", "meter": "mega|D", "wager": "500", "tables": [table.pk]},
    )
    assert response.status_code == 200 and "already has a mega meter" in response.content.decode()
    assert not ProgressiveMeter.objects.filter(name="Other mega").exists()


# --- money is conserved --------------------------------------------------------------------------

ops = st.lists(
    st.one_of(
        st.tuples(st.just("increment"), st.integers(0, 1), st.integers(0, 6), st.integers(0, 12)),
        st.tuples(st.just("hit"), st.integers(0, 1), st.sampled_from(["five_card", "hand_bonus"]),
                  st.sampled_from([100, 10]), st.integers(1, 3)),
        st.tuples(st.just("void"), st.integers(0, 1)),
    ),
    max_size=25,
)  # fmt: skip


@pytest.mark.django_db
@hypothesis_settings(max_examples=40)
@given(ops)
def test_meters_and_ledger_conserve_money(ops: list[tuple[Any, ...]]) -> None:
    """Random rounds at two linked tables: increments, hits of every kind, voids. The ledger
    balances, each meter holds exactly its account, and every cent is where a model of the
    rules says: drop - voids = meters - seeds - reseeds + payouts."""
    sid = transaction.savepoint()
    try:
        rules = RulesSubmission.objects.create(name="prop")
        tables = [Table.objects.create(name=f"prop {i}", rules=rules) for i in range(2)]
        players = [make_player(f"prop{i}", 0) for i in range(3)]
        five = meters.create_meter("prop five", "five_card", "A", 100, tables)
        hb = meters.create_meter("prop hb", "hand_bonus", "", 500, tables)
        model = {"five_card": [10_000_00, 0], "hand_bonus": [50_000_00, 0]}
        spec = {"five_card": (21, 0, 10_000_00), "hand_bonus": (13, 8, 0)}
        wager = {"five_card": 100, "hand_bonus": 500}
        rounds: list[tuple[Round, dict[str, int]]] = []
        paid = funded = fed = 0
        for op in ops:
            table = tables[op[1]]
            if op[0] == "increment":
                rnd = new_round(table)
                with transaction.atomic():
                    meters.apply_increments(table, rnd, stakes([100] * op[2], [500] * op[3]))
                counts = {"five_card": op[2], "hand_bonus": op[3]}
                for kind, n in counts.items():
                    model[kind][0] += n * (wager[kind] * spec[kind][0] // 100)
                    model[kind][1] += n * (wager[kind] * spec[kind][1] // 100)
                    fed += n * (wager[kind] * (spec[kind][0] + spec[kind][1]) // 100)
                rounds.append((rnd, counts))
            elif op[0] == "hit":
                _, _, kind, percent, n = op
                winners = tuple((6 - i, players[i].username) for i in range(n))
                what = "hand_bonus_dealer" if kind == "hand_bonus" else "progressive"
                if kind == "five_card":
                    winners = winners[:1]
                with transaction.atomic():
                    out = meters.pay_hits(
                        table, new_round(table), [Hit(kind, percent, winners, what)]
                    )
                amount, reserve = model[kind]
                share = amount * percent // 100 // len(winners)
                assert [p.paid for p in out] == [share] * len(winners)
                paid += share * len(winners)
                if percent == 100:
                    model[kind] = [spec[kind][2] + reserve + amount - share * len(winners), 0]
                    funded += spec[kind][2]
                else:
                    model[kind][0] -= share * len(winners)
            elif rounds:
                rnd, counts = rounds.pop()
                with transaction.atomic():
                    meters.reverse_increments(rnd)
                for kind, n in counts.items():
                    pi = n * (wager[kind] * spec[kind][0] // 100)
                    ri = n * (wager[kind] * spec[kind][1] // 100)
                    amount, reserve = model[kind]
                    take_r = min(reserve, ri)
                    take_a = min(amount, pi + ri - take_r)
                    model[kind] = [amount - take_a, reserve - take_r]
                    fed -= take_a + take_r
            for kind, meter in (("five_card", five), ("hand_bonus", hb)):
                assert list(standing(meter)) == model[kind]
        assert ledger.verify() == [] and meters.verify() == []
        seeds = -meters.house_account().balance
        in_meters = sum(sum(v) for v in model.values())
        drop = -sum(ledger.table_bankroll(t).balance for t in tables)  # increments - reseeds
        assert sum(ledger.player_account(p).balance for p in players) == paid
        assert seeds + drop == in_meters + paid
        assert drop - funded == fed  # the bankrolls paid the increments (net of voids) and reseeds
    finally:
        transaction.savepoint_rollback(sid)


def test_the_accounts_a_table_command_holds_stay_up_to_date(
    table: Table, hand_bonus: ProgressiveMeter, alice: Any
) -> None:
    rnd = new_round(table)
    with transaction.atomic():
        players, bankroll, held, _locked = ledger.lock_for_table(table, ["alice"])
        meters.apply_increments(table, rnd, stakes(hand_bonus=[100]), held=held)
        hit = Hit("hand_bonus", 10, ((1, "alice"),), "hand_bonus_player")
        meters.pay_hits(table, rnd, [hit], held=held)
        for account in (bankroll, players["alice"]):
            assert held[account][2] == Account.objects.get(pk=account).balance
    assert ledger.player_account(alice).balance == 10_000_00 + 1_000_01
