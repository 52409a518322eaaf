"""On the player's felt: the outcome of an irregularity (§684a.13) with its reason in words,
and a rules change announced before the betting window it applies to (bugs14).

Screenshots of both, phone (390x844) and desktop (1440x900), go to /tmp/shots/bugs14/ too."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import PHONE, Client, Site, login, screenshot
from tests.browser.helpers import (
    add_chips,
    dealer_does,
    expect_no_citation,
    expect_opaque_bar,
    open_betting,
    open_console,
    open_table,
    place_bets,
    seated,
)

from .helpers import decide

pytestmark = pytest.mark.browser

WIDE = {"width": 1440, "height": 900}
SHOTS = Path("/tmp/shots/bugs14")


def shot(client: Client, name: str) -> None:
    client.page.evaluate("window.scrollTo(0, 0)")
    path = screenshot(client.page, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def players(browser: Any, site: Site) -> tuple[Client, Client, Client, Client]:
    erin = login(browser, site, "erin", viewport=WIDE)
    open_table(erin, site)
    seated(erin, site, 4)
    frank = login(browser, site, "frank", viewport=PHONE, phone=True)
    open_table(frank, site)
    seated(frank, site, 6)
    spectator = login(browser, site, None, viewport=WIDE)
    open_table(spectator, site)
    dealer = login(browser, site, "dealer")
    open_console(dealer, site)
    return erin, frank, spectator, dealer


def clear_of_bar(client: Client, selector: str) -> None:
    """The element's top is below the pinned bar (waits for the page's scroll to settle; no
    wait_for_function: the Content-Security-Policy forbids evaluating strings)."""
    import time

    deadline = time.monotonic() + 5
    while True:
        top = client.page.locator(selector).evaluate("n => n.getBoundingClientRect().top")
        bar = client.page.locator("#pinned").evaluate("n => n.getBoundingClientRect().bottom")
        if top >= bar - 1:
            return
        assert time.monotonic() < deadline, f"{selector} at {top} is under the pinned bar ({bar})"
        time.sleep(0.1)


def bet_both(erin: Client, frank: Client) -> None:
    add_chips(erin, 4, [(500, "ante"), (100, "four_card_bonus")])
    place_bets(erin)
    add_chips(frank, 6, [(500, "ante"), (100, "four_card_bonus")])
    place_bets(frank)


def test_an_irregular_outcome_shows_on_the_felt_with_its_reason(browser: Any, site: Site) -> None:
    erin, frank, spectator, dealer = players(browser, site)

    # A shoe jam voids the round on the deal (§684a.13(f)): everyone sees why.
    open_betting(dealer)
    number = int(dealer.page.locator("#round-no").inner_text().split()[-1])
    bet_both(erin, frank)
    dealer.page.click('.fault[data-fault="jam"]')
    expect(dealer.page.locator("#armed")).to_have_text("shoe jam")
    # A second fault that would void the same deal is refused in words, not dropped.
    dealer.page.click('.fault[data-fault="misdeal"]')
    expect(dealer.page.locator("#notice")).to_contain_text("a misdeal could not happen")
    expect(dealer.page.locator("#armed")).to_have_text("shoe jam")
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "void")
    for client in (erin, frank, spectator):
        notice = client.page.locator("#irregularity")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text(f"Round {number} is void")
        # In words: the section (§684a.13(f)) stays on the console, for the staff.
        expect(notice).to_contain_text("jammed or failed to deal all cards. Every stake")
        expect(notice).to_contain_text("Every stake is returned")
        expect_no_citation(client.page)
        expect_opaque_bar(client.page)
    shot(erin, "void-desktop-1440x900")
    shot(frank, "void-phone-390x844")
    # It stays until the next round opens, and a reload shows it too.
    frank.page.reload()
    expect(frank.page.locator("#app")).to_have_attribute("data-ready", "1")
    expect(frank.page.locator("#irregularity")).to_contain_text("jammed")

    # A dealer card exposed before every Raise (§684a.13(d)): the exposed hand and why. The
    # console declares no irregularity by hand (insiders): the shoe exposes it while dealing.
    dealer_does(dealer, "Open betting", "betting")
    for client in (erin, frank, spectator):
        expect(client.page.locator("#irregularity")).to_be_hidden()
    bet_both(erin, frank)
    # On the phone frank looks down at his own hand while the cards are dealt.
    frank.page.locator(".table-actions").scroll_into_view_if_needed()
    dealer.page.click('.fault[data-fault="dealer_card_exposed"]')
    expect(dealer.page.locator("#armed")).to_have_text("dealer card exposed")
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "settled")
    # The console asks nothing of a box whose main game is void: no box is "waiting".
    row = dealer.page.locator('#box-rows tr[data-box="4"]')
    expect(row).to_contain_text("none: main game void")
    expect(row).not_to_contain_text("waiting")
    for client in (erin, frank, spectator):
        notice = client.page.locator("#irregularity")
        expect(notice).to_contain_text("a dealer card was exposed before every decision")
        expect(notice).to_contain_text("Ante, Odds and Raise are returned")
        expect(client.page.locator("#dealer-cards .card.face")).to_have_count(5)
        expect_no_citation(client.page)
    # Each returned wager says why, in words.
    returned = erin.page.locator("#my-result li.outcome-void .res-why").first
    expect(returned).to_have_text(
        "returned: a dealer card was exposed before every decision was made, so the main game "
        "is void"
    )
    # The player's recall of the round says it in words too; the staff's keeps the section.
    recall = erin.page.context.new_page()
    recall.goto(site.url("/rounds/mine/"))
    expect(recall.locator(".recall-note").first).to_contain_text(
        "a dealer card was exposed before every decision was made. Ante, Odds and Raise"
    )
    expect_no_citation(recall, "main")
    recall.close()
    # The reason is in view on the phone, not under the pinned bar (the page scrolls to the
    # dealer's hand at settlement, and the notice sits just above it).
    expect(frank.page.locator("#irregularity")).to_be_in_viewport()
    clear_of_bar(frank, "#irregularity")
    # The pinned result says once why the main game was returned.
    for client in (erin, frank):
        result = client.page.locator("#round-result").inner_text()
        assert result.count("main game void") == 1, result
    shot(erin, "exposed-desktop-1440x900")
    shot(frank, "exposed-phone-390x844")
    for client in (erin, frank, spectator):
        assert not client.errors, (client.name, client.errors)
    # The refused fault logged one failed command reply, nothing else.
    assert all("misdeal" in e or "could not happen" in e for e in dealer.errors), dealer.errors


def admin_set_bonus_paytable(browser: Any, site: Site, name: str) -> str:
    """As the casino's staff: change the Four Card Bonus paytable of the submission in force
    in the admin; returns the one it had."""
    staff = login(browser, site, "admin", viewport=WIDE)
    (rules_id,) = site.query("SELECT rules_id FROM table_table WHERE id = ?", (site.table_id,))[0]
    staff.page.goto(site.url(f"/admin/table/rulessubmission/{rules_id}/change/"))
    select = staff.page.locator("#id_four_card_bonus_paytable")
    was = select.input_value()
    select.select_option(name)
    staff.page.click("input[name=_save]")
    expect(staff.page.locator(".messagelist")).to_be_visible()
    staff.page.context.close()
    return was


def test_a_rules_change_is_announced_before_the_next_betting_window(
    browser: Any, site: Site
) -> None:
    erin, frank, spectator, dealer = players(browser, site)
    open_betting(dealer)
    bet_both(erin, frank)
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "decisions")
    # On the phone frank is down at his own hand when the change is saved.
    frank.page.locator(".table-actions").scroll_into_view_if_needed()
    was = admin_set_bonus_paytable(browser, site, "F")
    try:
        change = f"Four Card Bonus pays by paytable F (was {was})"
        for client in (erin, frank, spectator):
            notice = client.page.locator("#rules-notice")
            expect(notice).to_be_visible()
            expect(notice).to_have_text(f"From the next round: {change}.")
            # The round in play keeps its paytable, and its sign stays posted.
            expect(client.page.locator("#paytables")).to_contain_text(
                f"Four Card Bonus paytable {was}"
            )
        # Out of frank's sight on the felt: told where he looks too.
        told = frank.page.locator("#notice")
        expect(told).to_contain_text(f"From the next round: {change}.")
        expect(told).to_be_in_viewport()
        clear_of_bar(frank, "#notice")
        shot(erin, "rules-notice-desktop-1440x900")
        shot(frank, "rules-notice-phone-390x844")
        decide(erin, 4, 0)
        decide(frank, 6, 0)
        dealer_does(dealer, "Reveal", "revealed")
        dealer_does(dealer, "Settle", "settled")
        # The next betting window: the new sign, and the notice says it applies now.
        dealer_does(dealer, "Open betting", "betting")
        for client in (erin, frank, spectator):
            expect(client.page.locator("#rules-notice")).to_have_text(f"From this round: {change}.")
            expect(client.page.locator("#paytables")).to_contain_text("Four Card Bonus paytable F")
            expect_no_citation(client.page)
        # The message bar no longer says "From the next round" once it is this round.
        expect(frank.page.locator("#notice")).not_to_contain_text("From the next round")
        shot(frank, "rules-this-round-phone-390x844")
        for client in (erin, frank, spectator, dealer):
            assert not client.errors, (client.name, client.errors)
    finally:
        dealer.page.reload()
        admin_set_bonus_paytable(browser, site, was)


def test_the_console_shows_who_deals_and_takes_over(browser: Any, site: Site) -> None:
    """With an automatic dealer running, the console says so, its dealing buttons are off
    (no more "No more bets" 2 s into the players' countdown), and a dealer takes over."""
    import time

    clock = site.stack.spawn("autodealer", "--table", str(site.table_id))
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            rows = site.query("SELECT dealt_by FROM table_table WHERE id = ?", (site.table_id,))
            if rows and rows[0][0].startswith("autodealer"):
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the automatic dealer never started dealing")
        dealer = login(browser, site, "dealer", viewport=WIDE)
        open_console(dealer, site)
        line = dealer.page.locator("#dealing")
        expect(line).to_have_attribute("data-kind", "autodealer")
        expect(line).to_contain_text("The automatic dealer deals this table")
        # Its process id (autodealer-13389@host) is for the logs, not the console (issue 28).
        expect(line).not_to_contain_text("autodealer-")
        expect(dealer.page.locator("#next-action")).to_be_disabled()
        expect(dealer.page.locator("#phase-detail")).to_contain_text("take over")
        shot(dealer, "console-autodealer-deals-1440x900")
        dealer.page.click("#take-over")
        dealer.page.locator("#confirm").get_by_role("button", name="Take over").click()
        expect(line).to_have_attribute("data-kind", "me")
        expect(line).to_contain_text("You deal this table")
        expect(dealer.page.locator("#hand-back")).to_be_visible()
        shot(dealer, "console-taken-over-1440x900")
        dealer.page.click("#hand-back")
        expect(dealer.page.locator("#hand-back")).to_be_hidden()
        assert not dealer.errors, dealer.errors
    finally:
        clock.terminate()
        clock.wait(timeout=10)
