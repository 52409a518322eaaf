"""Four Card Frenzy's demo table in the lobby (its limits, optional wagers and free boxes), a
logged-out spectator at it, and the dealer console's irregularity controls (§684a.13)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import PHONE, Site, login, screenshot
from tests.browser.helpers import (
    add_chips,
    dealer_does,
    expect_balance,
    expect_no_citation,
    expect_opaque_bar,
    open_betting,
    open_console,
    open_table,
    place_bets,
    seated,
    wait_phase,
)

from .helpers import assert_no_foreign_cards_seen, decide

pytestmark = pytest.mark.browser


def test_lobby_lists_tables_with_limits_free_boxes_and_optional_wagers(
    browser: Any, site: Site
) -> None:
    dave = login(browser, site, "dave")
    open_table(dave, site)
    seated(dave, site, 2)
    dave.page.goto(site.url("/"))
    card = dave.page.locator(f'.table-card[data-table-id="{site.table_id}"]')
    expect(card.locator("h3")).to_have_text("Frenzy 1")
    expect(card.locator(".limits")).to_have_text("$5.00 – $500.00")
    expect(card.locator(".optional")).to_have_text("Prime, Four Card Bonus, All-Six Bonus")
    free = site.free_boxes()
    assert 2 not in free
    expect(card.locator(".free-boxes")).to_contain_text(f"{len(free)} of 6")
    expect(card.locator(".free-boxes")).to_contain_text("box " + ", ".join(map(str, free)))
    expect(card).to_contain_text("$100,000.00")
    expect(card.get_by_role("link", name="Dealer console")).to_have_count(0)
    # dave's balance in the ledger ($10,000.00 from the demo, less what another test in this
    # worker may have had him lose at its own table).
    balance = site.balances()["dave"]
    expect(dave.page.locator("#lobby-balance")).to_have_text(f"${balance / 100:,.2f}")
    screenshot(dave.page, "lobby-desktop", full_page=True)
    card.get_by_role("link", name="Take a seat").click()
    expect(dave.page).to_have_url(site.url(f"/tables/{site.table_id}/"))

    dealer = login(browser, site, "dealer")
    # The demo has a table of every game, each with its console: the Four Card Frenzy one.
    frenzy = dealer.page.locator(f'.table-card[data-table-id="{site.table_id}"]')
    frenzy.get_by_role("link", name="Dealer console").click()
    expect(dealer.page).to_have_url(site.url(f"/tables/{site.table_id}/dealer/"))

    phone = login(browser, site, "erin", PHONE, phone=True)
    screenshot(phone.page, "lobby-phone", full_page=True)
    # Logged out, the lobby asks you to log in first.
    stranger = login(browser, site, None)
    stranger.page.goto(site.url("/"))
    expect(stranger.page).to_have_url(re.compile(r"/login/\?next=/$"))
    for client in (dave, dealer, phone, stranger):
        assert not client.errors, (client.name, client.errors)


def test_a_logged_out_spectator_never_sees_hole_cards(browser: Any, site: Site) -> None:
    spectator = login(browser, site, None)
    open_table(spectator, site)
    expect(spectator.page.locator("#spectator")).to_be_visible()
    expect(spectator.page.locator("#betting")).to_be_hidden()
    expect(spectator.page.locator(".balance")).to_be_hidden()
    # The four-colour deck is a choice remembered by the browser.
    spectator.page.check("#four-colour")
    expect(spectator.page.locator("body")).to_have_class(re.compile("four-colour"))
    open_table(spectator, site)
    expect(spectator.page.locator("#four-colour")).to_be_checked()
    expect(spectator.page.locator("body")).to_have_class(re.compile("four-colour"))
    carol = login(browser, site, "carol")
    open_table(carol, site)
    seated(carol, site, 5)
    dealer = login(browser, site, "dealer")
    open_console(dealer, site)
    open_betting(dealer)
    # After it: opening may first void a round an earlier test left taking bets.
    number = site.next_round() - 1
    add_chips(carol, 5, [(500, "ante"), (100, "all_six")])
    place_bets(carol)
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "decisions")
    wait_phase(spectator, "decisions")
    expect(spectator.page.locator("#box-5 .card.back")).to_have_count(5)
    expect(spectator.page.locator("#dealer-cards .card.back")).to_have_count(5)
    expect(carol.page.locator("#my-hands .card.face")).to_have_count(5)
    expect(spectator.page.locator(".card.face")).to_have_count(0)
    screenshot(spectator.page, "spectator-desktop-decisions")
    decide(carol, 5, 1, keyboard=True)
    expect(dealer.page.locator("#next-action")).to_have_text(re.compile("^Reveal"))
    html = {"spectator": spectator.page.content()}
    dealer_does(dealer, "Reveal", "revealed")
    dealer_does(dealer, "Settle", "settled")
    wait_phase(spectator, "settled")
    assert_no_foreign_cards_seen(site, number, [spectator], html)
    # Settlement turns carol's cards face up for everyone.
    expect(spectator.page.locator("#box-5 .card.face")).to_have_count(5)
    # The spectator reads the table in words too: no regulation's section, an opaque bar.
    expect_no_citation(spectator.page)
    expect_opaque_bar(spectator.page)
    screenshot(spectator.page, "spectator-desktop-settled")
    # A dropped connection comes back by itself, from a fresh snapshot.
    spectator.page.evaluate("window.frenzy.connection.ws.close()")
    expect(spectator.page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
    expect(spectator.page.locator("#conn")).to_have_attribute("data-state", "open")
    expect(spectator.page.locator("#box-5 .card.face")).to_have_count(5)
    wait_phase(spectator, "settled")
    # A spectator who tries to sit is sent to log in: at the box carol stands up from (each
    # other box may still be held by a player an earlier test in this worker seated).
    carol.page.click("#stand-5")
    free = spectator.page.locator("#box-5 .sit")
    expect(free).to_be_visible()
    free.click()
    expect(spectator.page).to_have_url(re.compile(r"/login/"))
    for client in (spectator, carol, dealer):
        assert not client.errors, (client.name, client.errors)


def test_dealer_irregularities_void_rounds_and_return_every_stake(browser: Any, site: Site) -> None:
    carol = login(browser, site, "carol")
    open_table(carol, site)
    seated(carol, site, 5)
    dealer = login(browser, site, "dealer")
    open_console(dealer, site)
    before = site.balances()["carol"]

    # An armed shoe jam voids the round on the deal (§684a.13(f)).
    open_betting(dealer)
    add_chips(carol, 5, [(500, "ante"), (100, "prime")])
    place_bets(carol)
    expect_balance(carol, before - 1100)
    dealer.page.click('.fault[data-fault="jam"]')
    expect(dealer.page.locator("#armed")).to_have_text("shoe jam")
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "void")
    expect(dealer.page.locator("#log")).to_contain_text("Round void")
    wait_phase(carol, "void")
    expect(carol.page.locator("#round-result")).to_contain_text("Void")
    # Why, in words for carol; the console (staff) keeps the section the void applies.
    expect(carol.page.locator("#irregularity")).to_contain_text("jammed")
    expect_no_citation(carol.page)
    expect(dealer.page.locator("#log")).to_contain_text("(§684a.13(f))")
    expect_balance(carol, before)
    assert site.balances()["carol"] == before
    screenshot(dealer.page, "dealer-void-shoe-jam", full_page=True)
    screenshot(carol.page, "player-desktop-void")
    # (bugs14's "no stub count in a round voided before its deal" needs a void by hand before
    # the deal, which the console no longer has (insiders); services keep refusing it.)

    # Nothing is voided by hand: the shoe reports its own irregularities. A dealer card the
    # shoe exposes while dealing returns the main game (§684a.13(d)).
    expect(dealer.page.locator("#void")).to_have_count(0)
    expect(dealer.page.locator("#exposed")).to_have_count(0)
    dealer_does(dealer, "Open betting", "betting")
    add_chips(carol, 5, [(500, "ante")])
    place_bets(carol)
    expect_balance(carol, before - 1000)
    dealer.page.click('.fault[data-fault="dealer_card_exposed"]')
    expect(dealer.page.locator("#armed")).to_have_text("dealer card exposed")
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "settled")
    expect(dealer.page.locator("#log")).to_contain_text("exposed")
    wait_phase(carol, "settled")
    expect_balance(carol, before)
    screenshot(dealer.page, "dealer-card-exposed-drill", full_page=True)

    # The console says why the counting shuffler makes the stub count of §684a.10(d) moot
    # (§684a.5(b)).
    expect(dealer.page.locator("#shuffler-count")).to_contain_text("52 cards")
    expect(dealer.page.locator("#stub-note")).to_contain_text("§684a.5(b)")
    for client in (carol, dealer):
        assert not client.errors, (client.name, client.errors)
