"""Bad input over HTTP: random paths and query strings to every view and admin page never give
a server error, whoever asks; garbage posted to the admin's forms (Rules Submission, table,
credit) gives form errors and changes nothing, never a 500.

Django's test client re-raises any exception a view lets escape, so a 500 fails the test with
its traceback.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from table import ledger
from table.models import Account, RulesSubmission, Table
from tests.examples import RULES_SUBMISSION_FORM

from .conftest import Game, balance

pytestmark = [pytest.mark.realstack, pytest.mark.django_db]

FUZZ = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Letters that a browser or a bot might send: ASCII, accents, symbols, emoji, controls.
words = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), max_codepoint=0x1F0FF), max_size=30
)
numbers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["0", "-1", "1e400", "NaN", "inf", "0x10", "1_000", "9" * 40, "", " "]),
)
values = st.one_of(words, numbers)


@st.composite
def paths(draw: Any) -> str:
    """A path near the site's routes, with random segments, and a random query string."""
    seg = quote(draw(st.one_of(numbers, words)), safe="")
    template = draw(
        st.sampled_from(
            [
                "/",
                "/login/",
                "/tables/{}/",
                "/tables/{}/dealer/",
                "/tables/{}/recall.json",
                "/rounds/{}/",
                "/rounds/mine/",
                "/{}",
                "/tables/1/{}",
                "/admin/",
                "/admin/{}/",
                "/admin/table/{}/",
                "/admin/table/round/",
                "/admin/table/round/{}/change/",
                "/admin/table/roundevent/",
                "/admin/table/roundevent/{}/change/",
                "/admin/table/rulessubmission/",
                "/admin/table/rulessubmission/{}/change/",
                "/admin/table/table/{}/change/",
                "/admin/table/account/",
                "/admin/table/ledgertransaction/",
                "/admin/auth/user/",
                "/static/{}",
            ]
        )
    )
    path = template.format(seg) if "{}" in template else template
    keys = st.one_of(
        words,
        st.sampled_from(
            [
                "q",
                "o",
                "p",
                "e",
                "all",
                "next",
                "phase__exact",
                "table__id__exact",
                "kind",
                "_changelist_filters",
                "_to_field",
                "_popup",
                "id__in",
                "created__gte",
                "box",
            ]
        ),
    )
    query = draw(st.dictionaries(keys, values, max_size=4))
    return path + ("?" + urlencode(query) if query else "")


@pytest.fixture
def clients(game: Game, alice: Any, bob: Any, dealer: Any, staff: Any, table: Table) -> list[Any]:
    game.sit(alice, 1)
    game.sit(bob, 2)
    game.play([(alice, 1, {"ante": 10_00, "prime": 1_00}), (bob, 2, {"ante": 5_00})], {1: 1, 2: 0})
    out: list[Any] = [Client()]
    for user in (alice, dealer, staff):
        client = Client()
        client.force_login(user)
        out.append(client)
    return out


@settings(FUZZ, max_examples=200)
@given(path=paths(), who=st.integers(min_value=0, max_value=3), method=st.sampled_from("GGGP"))
@example(path="/tables/" + "9" * 40 + "/recall.json", who=1, method="G")
@example(path="/rounds/" + "9" * 30 + "/", who=3, method="G")
@example(path="/admin/table/round/" + "9" * 30 + "/change/", who=3, method="G")
@example(path="/admin/table/round/?id__in=x&o=99&p=-1", who=3, method="G")
@example(path="/login/?next=//evil.example", who=0, method="P")
@example(path="/admin/table/round/0/change/?_to_field=", who=3, method="G")
@example(path="/admin/table/table/1/delete/?_to_field=", who=3, method="P")
def test_random_paths_and_queries_never_500(
    clients: list[Client], path: str, who: int, method: str
) -> None:
    client = clients[who]
    response = client.get(path) if method == "G" else client.post(path, {"x": "1"})
    assert response.status_code < 500, (path, response.status_code)


VALID = {**RULES_SUBMISSION_FORM, "name": "Fuzzed rules"}


@st.composite
def garbled(draw: Any, valid: dict[str, str]) -> dict[str, Any]:
    """The valid form with some fields garbled, dropped or doubled, and junk fields added."""
    form: dict[str, Any] = dict(valid)
    for name in draw(st.lists(st.sampled_from(sorted(valid)), min_size=1, unique=True)):
        action = draw(st.sampled_from(["value", "value", "drop", "list"]))
        if action == "drop":
            del form[name]
        elif action == "list":
            form[name] = draw(st.lists(values, min_size=2, max_size=3))
        else:
            form[name] = draw(values)
    form.update(draw(st.dictionaries(words, values, max_size=2)))
    return form


@FUZZ
@given(form=garbled(VALID))
def test_garbage_in_the_rules_submission_form_gives_form_errors(
    clients: list[Client], form: dict[str, Any]
) -> None:
    staff = clients[3]
    before = set(RulesSubmission.objects.values_list("pk", flat=True))
    response = staff.post(reverse("admin:table_rulessubmission_add"), form)
    assert response.status_code in (200, 302)
    created = set(RulesSubmission.objects.values_list("pk", flat=True)) - before
    if response.status_code == 200:
        assert "errornote" in response.content.decode() or "errorlist" in response.content.decode()
        assert not created
    else:  # the garbling happened to leave a valid Submission: it must obey the regulation
        for rules in RulesSubmission.objects.filter(pk__in=created):
            assert rules.game_rules().problems() == []
            rules.delete()


@FUZZ
@given(form=garbled({"name": "Fuzz table", "is_open": "on", "rules": "1"}), change=st.booleans())
def test_garbage_in_the_table_form_never_500s(
    clients: list[Client], table: Table, form: dict[str, Any], change: bool
) -> None:
    staff = clients[3]
    url = (
        reverse("admin:table_table_change", args=[table.pk])
        if change
        else reverse("admin:table_table_add")
    )
    response = staff.post(url, form)
    assert response.status_code in (200, 302)


@FUZZ
@given(amount=values, memo=values, apply=st.booleans())
def test_garbage_in_the_credit_form_moves_no_money_unless_valid(
    clients: list[Client], alice: Any, amount: str, memo: str, apply: bool
) -> None:
    staff = clients[3]
    before = balance(alice)
    account = Account.objects.get(user=alice).pk
    data = {"action": "credit", "_selected_action": [account], "amount": amount, "memo": memo}
    if apply:
        data["apply"] = "Credit"
    response = staff.post(reverse("admin:table_account_changelist"), data)
    assert response.status_code in (200, 302)
    moved = balance(alice) - before
    assert moved >= 0
    if moved:
        assert apply and 0 < moved <= 1_000_000_00
    assert ledger.verify() == []
