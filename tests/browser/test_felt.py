"""The felt as new players meet it: chips on the layout are the bet, the result says why and
stays in view on a phone, leaving asks first, the keyboard reaches the decision at once."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Client, Site, login
from .helpers import (
    add_chips,
    dealer_does,
    expect_balance,
    open_console,
    open_table,
    pick_chip,
    sit,
    wait_phase,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
SHOTS = Path(os.environ.get("FELT_SHOTS", "/tmp/shots/felt"))


def shot(client: Client, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    client.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def in_view(client: Client, selector: str) -> None:
    """The element is on screen and not under the pinned bar."""
    expect(client.page.locator(selector)).to_be_in_viewport()


def focused(client: Client) -> str:
    return str(client.page.evaluate("document.activeElement?.id || document.activeElement?.className || ''"))


def no_pending(client: Client) -> None:
    expect(client.page.locator(".spot.pending")).to_have_count(0)


def start_round(dealer: Client, *players: Client) -> None:
    dealer_does(dealer, "Open betting", "betting")
    for p in players:
        wait_phase(p, "betting")


def close_and_deal(dealer: Client, *players: Client) -> None:
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "decisions")
    for p in players:
        wait_phase(p, "decisions")


def reveal_and_settle(dealer: Client, *players: Client) -> None:
    button = dealer.page.locator("#next-action")
    expect(button).to_have_text("Reveal")
    button.click()
    for p in players:
        wait_phase(p, "revealed")
    dealer_does(dealer, "Settle", "settled")
    for p in players:
        wait_phase(p, "settled")


def test_chips_on_the_layout_are_the_bet_rebet_double_undo_and_keys(browser: Any, site: Site) -> None:
    frank = login(browser, site, "frank", DESKTOP, timezone_id="America/New_York")
    dealer = login(browser, site, "dealer")
    open_table(frank, site)
    open_console(dealer, site)
    start = site.balances()["frank"]

    # Sitting keeps the keyboard on the box; "Sit here" goes once the player holds the most
    # boxes the table allows (2, adjacent).
    frank.page.click("#box-6 .sit")
    expect(frank.page.locator("#box-6")).to_be_focused()
    expect(frank.page.locator("#box-4 .sit")).to_be_hidden()  # not adjacent
    sit(frank, 5)
    expect(frank.page.locator("#boxes .sit:visible")).to_have_count(0)
    frank.page.click("#stand-5")
    expect(frank.page.locator("#box-5 .sit")).to_be_visible()

    # --- round 1: chips never confirmed with "Place bets" still play ------------------------
    start_round(dealer, frank)
    add_chips(frank, 6, [(500, "ante"), (500, "ante")])
    no_pending(frank)
    expect_balance(frank, start - 2000)
    # Undo takes back the last chip; a refused amount says "$".
    add_chips(frank, 6, [(100, "prime")])
    frank.page.click("#undo-bets")
    expect(frank.page.locator("#box-6 .spot-prime .spot-amount")).to_have_text("")
    no_pending(frank)
    expect_balance(frank, start - 2000)
    shot(frank, "desktop-r1-betting")
    close_and_deal(dealer, frank)
    expect(frank.page.locator("#my-hands .card.face")).to_have_count(5)

    # Keyboard: the decision has the focus; Tab reaches Fold, "1" raises 1x.
    expect(frank.page.locator("#decision")).to_be_focused()
    frank.page.keyboard.press("Tab")
    expect(frank.page.locator('#decision [data-raise="0"]')).to_be_focused()
    shot(frank, "desktop-r1-decision")
    frank.page.keyboard.press("1")
    expect(frank.page.locator("#decision")).to_be_hidden()
    expect_balance(frank, start - 3000)
    reveal_and_settle(dealer, frank)

    # The result in words: no double negatives, and why each wager went as it did.
    result = frank.page.locator("#round-result")
    text = result.inner_text()
    assert re.match(r"You (won|lost) \$[\d,]+\.\d\d|You broke even", text), text
    assert "−" not in text and "-$" not in text, text
    assert "dealer" in text, text
    lines = frank.page.locator("#my-result .result-lines li")
    expect(lines).to_have_count(3)  # Ante, Raise, Odds
    for i in range(3):
        why = lines.nth(i).locator(".res-why").inner_text()
        assert re.search(r"1 to 1|beats|ties|pushes|pays|below king high", why), why
    ante_why = lines.nth(0).locator(".res-why").inner_text()
    assert "1 to 1" in ante_why or "beats your" in ante_why or "Ante pushes, Raise still plays" in ante_why
    paytables = frank.page.locator("#paytables").inner_text()
    assert "Ante and Raise" in paytables and "win or copy" not in paytables
    shot(frank, "desktop-r1-settled", full_page=True)

    # The table log and the recall pages tell the time in the player's own zone.
    log_time = frank.page.locator("#log li time").first.inner_text()
    assert log_time.endswith(("EST", "EDT")), log_time
    href = frank.page.locator("#recall a").first.get_attribute("href")
    assert href
    recall = frank.page.context.new_page()
    recall.goto(site.url(href))
    times = recall.locator("time[data-local]")
    expect(times.first).to_have_text(re.compile(r"(EST|EDT)$"))
    recall.close()

    # --- round 2: Rebet survives a reload and is one tap; Double; keys ----------------------
    before = site.balances()["frank"]
    frank.page.reload()
    open_table(frank, site)
    start_round(dealer, frank)
    rebet = frank.page.locator("#repeat-bets")
    expect(rebet).to_have_text("Rebet $20.00")
    rebet.click()
    no_pending(frank)
    expect_balance(frank, before - 2000)
    frank.page.click("#double-bets")
    no_pending(frank)
    expect(frank.page.locator("#box-6 .spot-ante .spot-amount")).to_have_text("$20")
    expect_balance(frank, before - 4000)
    # Keys: "2" picks the $5 chip, "a" puts it on the Ante: two keys for a chip.
    frank.page.locator("#box-6").focus()
    frank.page.keyboard.press("2")
    frank.page.keyboard.press("a")
    expect(frank.page.locator("#box-6 .spot-ante .spot-amount")).to_have_text("$25")
    no_pending(frank)
    expect_balance(frank, before - 5000)
    close_and_deal(dealer, frank)

    # --- leaving on your turn asks first, says what it costs, and shows the seat as left ----
    frank.page.click("#leave")
    dialog = frank.page.locator("#leave-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Box 6 folds now: you lose its Ante and Odds ($50.00)")
    shot(frank, "desktop-r2-leave-confirm")
    dialog.locator(".confirm-cancel").click()
    expect(dialog).to_be_hidden()
    expect(frank.page.locator("#decision")).to_be_visible()
    frank.page.click("#leave")
    dialog.locator(".confirm-ok").click()
    expect(frank.page.locator("#box-6 .box-badge")).to_have_text("Left — folded")
    expect(frank.page.locator("#box-6")).not_to_have_class(re.compile(r"\bmine\b"))
    expect(frank.page.locator("#leave")).to_be_hidden()
    expect(frank.page.locator("#decision")).to_be_hidden()
    # A fold with no optional wager goes to the discard rack at once.
    expect(dealer.page.locator('#box-rows tr[data-box="6"]')).to_contain_text("fold")
    shot(frank, "desktop-r2-left")
    reveal_and_settle(dealer, frank)
    expect(frank.page.locator("#box-6 .sit")).to_be_visible()  # the seat is free again
    for client in (frank, dealer):
        assert not client.errors, (client.name, client.errors)


def test_a_phone_keeps_the_result_in_view_and_reads_in_table_order(browser: Any, site: Site) -> None:
    erin = login(browser, site, "erin", PHONE, phone=True)
    dealer = login(browser, site, "dealer")
    open_table(erin, site)
    open_console(dealer, site)

    # Two rows in table order, as on the desktop: 6 5 4 over 3 2 1.
    boxes = {n: erin.page.locator(f"#box-{n}").bounding_box() for n in range(1, 7)}
    assert boxes[6]["y"] < boxes[1]["y"] and boxes[6]["x"] < boxes[4]["x"], boxes
    assert boxes[3]["x"] < boxes[1]["x"] and abs(boxes[3]["y"] - boxes[1]["y"]) < 30, boxes
    label = erin.page.locator("#box-4 .spot-ante .spot-name")
    size = float(label.evaluate("n => parseFloat(getComputedStyle(n).fontSize)"))
    assert size >= 9.5, size

    sit(erin, 4)
    start_round(dealer, erin)
    pick_chip(erin, 500)
    erin.page.click('#box-4 .spot[data-wager="ante"]')
    erin.page.click('#box-4 .spot[data-wager="ante"]')
    no_pending(erin)
    shot(erin, "phone-r1-betting")
    close_and_deal(dealer, erin)
    # Down at her hand and the decision, the timer and balance stay pinned in view.
    erin.page.locator("#decision").scroll_into_view_if_needed()
    in_view(erin, "#pinned")
    in_view(erin, "#balance")
    shot(erin, "phone-r1-decision")
    erin.page.click('#decision [data-raise="1"]')
    expect(erin.page.locator("#decision")).to_be_hidden()
    erin.page.locator(".table-actions").scroll_into_view_if_needed()
    assert erin.page.evaluate("window.scrollY") > 200
    reveal_and_settle(dealer, erin)
    # The reveal brought the dealer's hand into view; the result is pinned.
    in_view(erin, "#dealer-cards")
    in_view(erin, "#round-result")
    expect(erin.page.locator("#round-result")).to_contain_text(re.compile(r"You (won|lost|broke even)"))
    shot(erin, "phone-r1-settled")
    erin.page.locator("#my-result").scroll_into_view_if_needed()
    in_view(erin, "#round-result")
    shot(erin, "phone-r1-settled-result-panel")

    # A second tab takes over: the first says so where the player is looking.
    second = erin.page.context.new_page()
    second.goto(site.url(f"/tables/{site.table_id}/"))
    expect(erin.page.locator("#superseded")).to_be_visible()
    in_view(erin, "#superseded")
    shot(erin, "phone-superseded")
    second.close()
    erin.page.click("#reconnect")
    expect(erin.page.locator("#conn")).to_have_attribute("data-state", "open")
    erin.page.click("#stand-4")
    expect(erin.page.locator("#box-4 .sit")).to_be_visible()
    for client in (erin, dealer):
        assert not client.errors, (client.name, client.errors)
