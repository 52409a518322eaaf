"""A dealer whose round is voided at the console reads, at once, what the regulation tells them
to do now (the dealer's round view's ``procedure``, docs/protocol.md "view"): the void, the
section and its words, the steps; after a reload too; gone once the next round opens. The
player's felt never shows it (no citation on the felt). At every in-tree game the registry
holds (a jammed shoe is an irregularity of each chapter), on the live stack: the console arms
the jam drill at a test table and deals. Screenshots at 1440x900 and 390x844."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from table.games import ENTRIES

from .fixtures import DESKTOP_WIDE, PHONE, Site, login, screenshot
from .helpers import expect_no_citation

pytestmark = [pytest.mark.browser]

#: The in-tree games (a test's own game has no demo rules).
IN_TREE = sorted(name for name, e in ENTRIES.items() if e.adapter.startswith("table.games."))

MAKE_TABLE = """
from table import ledger
from table.demo import game_rules_submission, link_meters
from table.games import game
from table.models import DealerAssignment, Table
from django.contrib.auth import get_user_model
name = %r
rules = game_rules_submission(name, game(name).title + " void drill")
table = Table.objects.create(name="Void drill " + name, rules=rules, is_test=True)
ledger.table_bankroll(table)
link_meters(table, rules)
DealerAssignment.objects.create(table=table, dealer=get_user_model().objects.get(username="dealer"))
print(table.pk)
"""


def bet_the_least(page: Any, box: int) -> None:
    """Place the least the box's bet form takes: each required wager at its minimum."""
    form = page.locator(f"#bet-form fieldset[data-box='{box}']")
    expect(form).to_be_visible()
    for field in form.locator("input[data-arg]").all():
        low = field.get_attribute("min") or "0"
        if float(low) > 0:
            field.fill(low)
    form.get_by_role("button", name=f"Place wagers on box {box}").click()
    expect(page.locator(f"#box-{box} .g-chip").first).to_be_visible()


@pytest.mark.parametrize("name", IN_TREE)
def test_a_void_at_the_console_shows_the_regulations_procedure(
    browser: Any, site: Site, name: str
) -> None:
    out = site.stack.manage("shell", "-c", MAKE_TABLE % name)
    table_id = int(out.strip().splitlines()[-1])
    dealer = login(browser, site, "dealer", viewport=DESKTOP_WIDE)
    player = login(browser, site, "frank", viewport=DESKTOP_WIDE)
    console = dealer.page.locator("#console")
    dealer.page.goto(site.url(f"/tables/{table_id}/dealer/"))
    expect(console).to_have_attribute("data-ready", "1")
    player.page.goto(site.url(f"/tables/{table_id}/"))
    player.page.click("#box-2 .sit")
    button = dealer.page.locator("#next-action")
    procedure = dealer.page.locator("#procedure")
    expect(button).to_have_text("Open betting")
    button.click()
    expect(player.page.locator("#app")).to_have_attribute("data-phase", "betting")
    bet_the_least(player.page, 2)
    expect(procedure).to_be_hidden()  # nothing void yet
    # The drill: the shoe jams on the next deal (§684a.13(f), §657a.13(f), §663a.13(e)).
    dealer.page.click(".fault[data-fault='jam']")
    expect(dealer.page.locator("#armed")).not_to_have_text("none")
    expect(button).to_have_text("No more bets")
    button.click()
    expect(button).to_have_text("Deal")
    button.click()
    expect(console).to_have_attribute("data-phase", "void")
    # As soon as the round is void: the void, the section with the regulation's words, the step.
    expect(procedure).to_be_visible()
    said = dealer.page.evaluate("() => window.frenzy.state().round.procedure")
    assert said["section"] and said["words"], said
    expect(procedure.locator("h2")).to_have_text("Void: shoe jam.")
    words = procedure.locator(".procedure-words")
    expect(words).to_contain_text(f"Procedure ({said['section']}): ")
    expect(words).to_contain_text(said["words"])
    expect(procedure.locator(".procedure-steps li")).to_have_text(
        "Take the cards out of the shoe and reshuffle them with the cards already dealt before "
        "the next round."
    )
    screenshot(dealer.page, f"procedure-{name}-desktop", full_page=True)
    # A reload shows it too (the snapshot's view), on a phone's screen.
    dealer.page.set_viewport_size(PHONE)
    dealer.page.reload()
    expect(console).to_have_attribute("data-ready", "1")
    expect(procedure.locator("h2")).to_have_text("Void: shoe jam.")
    expect(words).to_contain_text(said["words"])
    procedure.scroll_into_view_if_needed()
    fits = dealer.page.evaluate(
        "() => document.querySelector('#procedure').scrollWidth"
        " <= document.documentElement.clientWidth"
    )
    assert fits, "the procedure overflows the phone's width"
    screenshot(dealer.page, f"procedure-{name}-phone")
    # The player's felt says the round is void, with no citation and no procedure.
    expect(player.page.locator("#app")).to_have_attribute("data-phase", "void")
    expect_no_citation(player.page)
    felt = player.page.locator("#app")
    for told in ("Procedure (", said["words"], *said["steps"]):
        expect(felt).not_to_contain_text(told)
    assert "procedure" not in str(player.frames)
    # The next round opens: the procedure is done with.
    button.click()
    expect(console).to_have_attribute("data-phase", "betting")
    expect(procedure).to_be_hidden()
    for client in (dealer, player):
        assert not client.errors, f"{client.name}: {client.errors}"
