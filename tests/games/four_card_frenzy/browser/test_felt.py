"""The felt as new players meet it (one desktop 1440x900, one phone 390x844, the dealer):
a box's bet form is the bet, the result says why and stays in view on a phone, leaving
asks first, the keyboard reaches the decision at once. Screenshots go to /tmp/shots/felt/
(``FELT_SHOTS``) for people to look at."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import PHONE, Client, Site, login
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
    sit,
    wait_phase,
)

from .helpers import decide

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
SHOTS = Path(os.environ.get("FELT_SHOTS", "/tmp/shots/felt"))


def shot(client: Client, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    client.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def no_pending(client: Client) -> None:
    """Every wager put down has been placed (is a bet the table holds): nothing refused."""
    place_bets(client)


def start_round(dealer: Client, *players: Client) -> None:
    open_betting(dealer)
    for p in players:
        wait_phase(p, "betting")


def close_and_deal(dealer: Client, *players: Client) -> None:
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "decisions")
    for p in players:
        wait_phase(p, "decisions")


def reveal_and_settle(dealer: Client, *players: Client) -> None:
    dealer_does(dealer, "Reveal", "revealed")
    for p in players:
        wait_phase(p, "revealed")
    dealer_does(dealer, "Settle", "settled")
    for p in players:
        wait_phase(p, "settled")


def seated(browser: Any, site: Site, name: str, box: int, **options: Any) -> tuple[Client, Client]:
    player = login(browser, site, name, DESKTOP, **options)
    dealer = login(browser, site, "dealer")
    open_table(player, site)
    open_console(dealer, site)
    sit(player, box)
    return player, dealer


def bet_and_place(player: Client, box: int, chips: list[tuple[int, str]]) -> None:
    """Wagers on a box, placed with its bet form."""
    add_chips(player, box, chips)
    place_bets(player)


def play_round(dealer: Client, player: Client, box: int, raise_: int) -> None:
    start_round(dealer, player)
    bet_and_place(player, box, [(500, "ante")])
    close_and_deal(dealer, player)
    decide(player, box, raise_)
    reveal_and_settle(dealer, player)


def stand(player: Client, box: int) -> None:
    player.page.click(f"#stand-{box}")
    expect(player.page.locator(f"#box-{box} .sit")).to_be_visible()


def no_errors(*clients: Client) -> None:
    for client in clients:
        assert not client.errors, (client.name, client.errors)


# --- desktop -----------------------------------------------------------------------------------


def test_sitting_keeps_the_keyboard_and_sit_here_goes_at_the_limit(
    browser: Any, site: Site
) -> None:
    frank = login(browser, site, "frank", DESKTOP)
    open_table(frank, site)
    frank.page.click("#box-6 .sit")
    expect(
        frank.page.locator("#box-6")
    ).to_be_focused()  # not lost to the page when the button goes
    expect(frank.page.locator("#box-4 .sit")).to_be_hidden()  # not adjacent to box 6
    sit(frank, 5)
    expect(frank.page.locator("#boxes .sit:visible")).to_have_count(0)  # 2 boxes: the most allowed
    stand(frank, 5)
    stand(frank, 6)
    no_errors(frank)


def test_a_bet_below_the_minimum_is_told_and_a_fold_leaves_the_layout(
    browser: Any, site: Site
) -> None:
    frank, dealer = seated(browser, site, "frank", 6)
    erin = login(browser, site, "erin", PHONE, phone=True)
    open_table(erin, site)
    sit(erin, 4)
    start = site.balances()["frank"]
    start_round(dealer, frank, erin)
    # Below the table minimum: the bet is not placed, and she is told where she looks.
    add_chips(erin, 4, [(100, "ante")], placed=False)
    expect(erin.page.locator("#notice")).to_contain_text("$5.00 to $500.00")
    expect(erin.page.locator("#notice")).to_be_in_viewport()
    shot(erin, "phone-bet-refused-told")
    # The Ante and its Odds, both taken from the balance.
    add_chips(frank, 6, [(500, "ante"), (500, "ante")])
    no_pending(frank)
    expect_balance(frank, start - 2000)
    # Undo takes back the last wager put down.
    add_chips(frank, 6, [(100, "prime")])
    frank.page.click("#undo-bets")
    expect(frank.page.locator("#box-6 .g-chip[data-wager='prime']")).to_have_count(0)
    expect(frank.page.locator("#bet-6-prime")).to_have_value("")
    no_pending(frank)
    expect_balance(frank, start - 2000)
    shot(frank, "desktop-betting-placed")
    close_and_deal(dealer, frank, erin)
    expect(erin.page.locator("#box-4 .card")).to_have_count(0)  # her box did not play
    expect(frank.page.locator("#my-hands .card.face")).to_have_count(5)
    expect(dealer.page.locator('#box-rows tr[data-box="6"]')).to_contain_text("frank")
    # Folded with no optional wager: off the layout at once for everyone else (§684a.11(b)(2)).
    decide(frank, 6, 0)
    expect(erin.page.locator("#box-6 .mucked")).to_be_visible()
    expect(erin.page.locator("#box-6 .card")).to_have_count(0)
    shot(erin, "phone-others-fold-mucked")
    reveal_and_settle(dealer, frank, erin)
    stand(frank, 6)
    stand(erin, 4)
    no_errors(frank, erin, dealer)


def test_the_decision_takes_the_keyboard(browser: Any, site: Site) -> None:
    frank, dealer = seated(browser, site, "frank", 6)
    start_round(dealer, frank)
    bet_and_place(frank, 6, [(500, "ante")])
    close_and_deal(dealer, frank)
    turn = frank.page.locator("#my-turn")
    expect(turn).to_be_focused()
    frank.page.keyboard.press("Tab")
    expect(turn.get_by_role("button", name="Fold")).to_be_focused()
    shot(frank, "desktop-decision-focused")
    frank.page.keyboard.press("Tab")
    expect(turn.get_by_role("button", name="Raise 1x ($5.00)")).to_be_focused()
    frank.page.keyboard.press("Enter")  # raise 1x
    expect(turn).to_be_hidden()
    expect(frank.page.locator("#box-6 .box-badge")).to_have_text("Raised 1x")
    reveal_and_settle(dealer, frank)
    stand(frank, 6)
    no_errors(frank, dealer)


def test_results_say_why_and_times_agree(browser: Any, site: Site) -> None:
    frank, dealer = seated(browser, site, "frank", 6, timezone_id="America/New_York")
    play_round(dealer, frank, 6, 1)
    text = frank.page.locator("#round-result").inner_text()
    assert re.match(r"You (won|lost) \$[\d,]+\.\d\d|You broke even", text), text
    # No "You lost −$15.00" (each wager's own line after it is signed).
    assert not re.match(r"You (won|lost) [−-]", text), text
    assert "dealer" in text, text  # what beat you, or what you beat
    lines = frank.page.locator("#my-result .result-lines li")
    expect(lines).to_have_count(3)  # Ante, Raise, Odds
    for i in range(3):
        why = lines.nth(i).locator(".res-why").inner_text()
        assert re.search(r"1 to 1|beats? your|pushes|pays", why), why
    ante = lines.nth(0).locator(".res-why").inner_text()
    assert re.search(
        r"pays 1 to 1: your .+ (beats?|ties?) the dealer's"
        r"|dealer's .+ beats? your|Ante pushes, Raise still plays",
        ante,
    ), ante
    log = frank.page.locator("#log").inner_text()
    assert re.search(r"Ante (won|lost) \$|Ante push", log), log
    assert "lose −" not in log
    paytables = frank.page.locator("#paytables").inner_text()
    assert "Ante and Raise" in paytables and "win or copy" not in paytables
    assert "Two pair or lower" in paytables  # the Odds push below a straight, posted
    # A paytable is named by its letter, the regulation's section is left out (§684a.12(a)).
    assert "Bonus paytable " in paytables, paytables
    # After a whole round nothing on the felt cites the regulation, and the pinned bar hides
    # what scrolls under it.
    expect_no_citation(frank.page)
    expect_opaque_bar(frank.page)
    shot(frank, "desktop-settled-result", full_page=True)

    # The table log and the recall page tell the time in the player's own zone.
    log_time = frank.page.locator("#log li time").first.inner_text()
    assert re.search(r"\b(EST|EDT)$", log_time), log_time
    href = frank.page.locator("#recall a").first.get_attribute("href")
    assert href
    recall = frank.page.context.new_page()
    recall.goto(site.url(href))
    for selector in (".recall-times time", ".recall-events time"):
        expect(recall.locator(selector).first).to_have_text(re.compile(r"\b(EST|EDT)$"))
    recall.locator(".recall-rules details summary").click()  # the paytables in force
    expect_no_citation(recall, "main")
    recall.screenshot(path=str(SHOTS / "desktop-recall.png"), full_page=True)
    recall.close()
    stand(frank, 6)
    no_errors(frank, dealer)


def test_rebet_survives_a_reload_and_doubles_within_limits(browser: Any, site: Site) -> None:
    frank, dealer = seated(browser, site, "frank", 6)
    play_round(dealer, frank, 6, 0)
    frank.page.reload()
    open_table(frank, site)
    before = site.balances()["frank"]
    start_round(dealer, frank)
    rebet = frank.page.locator("#repeat-bets")
    expect(rebet).to_have_text("Rebet Ante $5.00")
    expect(frank.page.locator("#bet-keys")).to_be_visible()  # a desktop has the keyboard
    rebet.click()  # one tap: placed
    no_pending(frank)
    expect(frank.page.locator("#box-6 .g-chip[data-wager='ante'] .g-chip-amt")).to_have_text("$5")
    expect_balance(frank, before - 1000)
    frank.page.click("#double-bets")
    no_pending(frank)
    expect(frank.page.locator("#box-6 .g-chip[data-wager='ante'] .g-chip-amt")).to_have_text("$10")
    expect(frank.page.locator("#bet-6-ante")).to_have_value("10")
    expect_balance(frank, before - 2000)
    # Keys: "2" picks $5, "a" puts it on the Ante.
    frank.page.locator("#box-6").focus()
    frank.page.keyboard.press("2")
    frank.page.keyboard.press("a")
    expect(frank.page.locator("#box-6 .g-chip[data-wager='ante'] .g-chip-amt")).to_have_text("$15")
    no_pending(frank)
    expect_balance(frank, before - 3000)
    close_and_deal(dealer, frank)
    # On the turn, "F" folds.
    expect(frank.page.locator("#my-turn .g-turn-keys")).to_contain_text("F Fold")
    frank.page.keyboard.press("f")
    expect(frank.page.locator("#my-turn")).to_be_hidden()
    expect(frank.page.locator("#box-6 .box-badge")).to_have_text("Folded")
    reveal_and_settle(dealer, frank)
    stand(frank, 6)
    no_errors(frank, dealer)


def test_leaving_on_your_turn_asks_first_and_shows_the_seat_as_left(
    browser: Any, site: Site
) -> None:
    frank, dealer = seated(browser, site, "frank", 6)
    start_round(dealer, frank)
    bet_and_place(frank, 6, [(2500, "ante")])
    close_and_deal(dealer, frank)
    frank.page.click("#leave")
    dialog = frank.page.locator("#leave-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Box 6 folds now: you lose its Ante and Odds ($50.00)")
    expect(dialog).to_contain_text("folds on its turn: its Ante and Odds lose")  # the rule
    shot(frank, "desktop-leave-confirm")
    dialog.locator(".confirm-cancel").click()
    expect(dialog).to_be_hidden()
    expect(frank.page.locator("#my-turn")).to_be_visible()  # nothing happened
    expect(frank.page.locator("#box-6")).to_have_class(re.compile(r"\bmine\b"))
    frank.page.click("#leave")
    dialog.locator(".confirm-ok").click()
    expect(frank.page.locator("#box-6 .box-badge")).to_have_text("Left — folded")
    expect(frank.page.locator("#box-6")).not_to_have_class(re.compile(r"\bmine\b"))
    expect(frank.page.locator("#leave")).to_be_hidden()
    expect(frank.page.locator("#my-turn")).to_be_hidden()
    shot(frank, "desktop-left")
    reveal_and_settle(dealer, frank)
    expect(frank.page.locator("#box-6 .sit")).to_be_visible()  # freed once the round is over
    no_errors(frank, dealer)


# --- phone -------------------------------------------------------------------------------------


def test_a_phone_reads_the_boxes_in_table_order_with_readable_labels(
    browser: Any, site: Site
) -> None:
    erin = login(browser, site, "erin", PHONE, phone=True)
    open_table(erin, site)
    boxes = {n: erin.page.locator(f"#box-{n}").bounding_box() for n in range(1, 7)}
    # Two rows in table order, as on the desktop: 6 5 4 over 3 2 1.
    assert boxes[6]["y"] < boxes[1]["y"] and boxes[6]["x"] < boxes[4]["x"], boxes
    assert boxes[3]["x"] < boxes[1]["x"] and abs(boxes[3]["y"] - boxes[1]["y"]) < 30, boxes
    # Money in refusals says "$".
    sit(erin, 4)
    dealer = login(browser, site, "dealer")
    open_console(dealer, site)
    start_round(dealer, erin)
    add_chips(erin, 4, [(100, "ante")], placed=False)
    expect(erin.page.locator("#notice")).to_contain_text("$5.00 to $500.00")
    add_chips(erin, 4, [(600, "ante")])  # $6: a bet the table takes
    no_pending(erin)
    # Rebet, Double and Undo above the form fit the phone. The single keys' hint does not show
    # on a touch screen, which has no keyboard to press them on (it shows at 1440x900:
    # test_rebet_survives_a_reload_and_doubles_within_limits).
    erin.page.locator(".g-rebet").evaluate("n => n.scrollIntoView({block: 'center'})")
    expect(erin.page.locator("#double-bets")).to_be_in_viewport()
    expect(erin.page.locator("#undo-bets")).to_be_in_viewport()
    expect(erin.page.locator("#bet-keys")).to_be_hidden()
    shot(erin, "phone-betting-tools")
    label = erin.page.locator("#box-4 .g-chip[data-wager='ante'] .g-chip-name")
    size = float(label.evaluate("n => parseFloat(getComputedStyle(n).fontSize)"))
    assert size >= 10, size
    close_and_deal(dealer, erin)
    expect(erin.page.locator("#my-turn")).to_be_visible()
    expect(erin.page.locator("#my-turn .g-turn-keys")).to_be_hidden()  # nor the turn's keys
    decide(erin, 4, 0)
    reveal_and_settle(dealer, erin)
    stand(erin, 4)
    no_errors(erin, dealer)


def test_a_phone_keeps_balance_timer_and_result_in_view(browser: Any, site: Site) -> None:
    erin = login(browser, site, "erin", PHONE, phone=True)
    dealer = login(browser, site, "dealer")
    open_table(erin, site)
    open_console(dealer, site)
    sit(erin, 4)
    start_round(dealer, erin)
    bet_and_place(erin, 4, [(500, "ante"), (500, "ante")])
    shot(erin, "phone-betting")
    close_and_deal(dealer, erin)
    # Down at her hand and the decision, the timer and balance stay in view.
    erin.page.locator("#my-turn").scroll_into_view_if_needed()
    expect(erin.page.locator("#countdown")).to_be_in_viewport()
    expect(erin.page.locator("#balance")).to_be_in_viewport()
    shot(erin, "phone-decision")
    decide(erin, 4, 1)
    erin.page.locator(".table-actions").scroll_into_view_if_needed()
    assert erin.page.evaluate("window.scrollY") > 200
    dealer_does(dealer, "Reveal", "revealed")
    wait_phase(erin, "revealed")
    expect(erin.page.locator("#dealer-cards")).to_be_in_viewport()  # brought into view
    dealer_does(dealer, "Settle", "settled")
    wait_phase(erin, "settled")
    expect(erin.page.locator("#round-result")).to_be_in_viewport()
    # The dealer's whole hand is clear of the pinned bar (which grew with the result).
    erin.page.wait_for_function(
        "document.querySelector('#dealer-cards').getBoundingClientRect().top >="
        " document.querySelector('#pinned').getBoundingClientRect().bottom - 1",
        timeout=5_000,
    )
    expect(erin.page.locator("#round-result")).to_contain_text(
        re.compile(r"You (won|lost|broke even)")
    )
    expect_no_citation(erin.page)
    expect_opaque_bar(erin.page)
    shot(erin, "phone-settled")
    erin.page.locator("#my-result").scroll_into_view_if_needed()
    expect(erin.page.locator("#round-result")).to_be_in_viewport()
    shot(erin, "phone-settled-result-panel")
    stand(erin, 4)
    no_errors(erin, dealer)


def test_a_superseded_tab_says_so_where_you_look(browser: Any, site: Site) -> None:
    erin = login(browser, site, "erin", PHONE, phone=True)
    open_table(erin, site)
    erin.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # down at the log
    assert erin.page.evaluate("window.scrollY") > 800
    second = erin.page.context.new_page()
    second.goto(site.url(f"/tables/{site.table_id}/"))
    expect(erin.page.locator("#superseded")).to_be_in_viewport()
    shot(erin, "phone-superseded")
    second.close()
    erin.page.click("#reconnect")
    expect(erin.page.locator("#conn")).to_have_attribute("data-state", "open")
    no_errors(erin)
