"""Four Card Frenzy's saved Rules Submission in the admin: its paytable warning is shown once
(issue 28, bug 1; every game's add page: tests/services/test_admin_add_form.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from table.demo import make_user
from tests.games.four_card_frenzy.examples import fcf_rules
from tests.services.test_admin_add_form import FCF_WARNING

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss() -> Client:
    client = Client()
    client.force_login(make_user("boss", staff=True))
    return client


def test_a_saved_four_card_frenzy_warning_is_marked_for_the_preview(boss: Client) -> None:
    """The saved values' warning is written once, marked so the live preview, which says
    the same for the same table, hides it (the browser test sees it once)."""
    rules = fcf_rules("flagged", four_card_bonus_paytable="A")
    html = boss.get(f"/admin/table/rulessubmission/{rules.pk}/change/").content.decode()
    assert html.count(FCF_WARNING) == 1
    assert 'class="errornote saved-warning"' in html
    assert 'data-wager="four_card_bonus" data-table="A"' in html
