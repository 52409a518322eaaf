"""Player protection in the browser, at a phone's size (390x844) and a desktop's (1440x900):
the bar's clock in the player's own time zone and the time since login (§814a.1(e)(1)), the
helpline (§814a.1(b)), the previous login (§812a.9(a)(4)); the reality check that must be
answered (§814a.1(e)(2)); the password after 15 minutes idle (§812a.3(a)(6)); the limits
page (§814a.2). Screenshots: artifacts/screenshots/protection-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .fixtures import PASSWORD, PHONE, Site, login, screenshot
from .helpers import (
    add_chips,
    dealer_does,
    open_betting,
    open_console,
    open_table,
    place_bets,
    play_on,
    shown_balance,
    sit,
    wait_phase,
)

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1440, "height": 900}
SIZES = [("phone", PHONE, True), ("desktop", DESKTOP, False)]
#: Players of these tests only: the limits, aged sessions and idle locks set here must not
#: reach the demo players the other browser tests play with (the stack is shared).
PLAYERS = ("pp-bar", "pp-reality", "pp-idle", "pp-limits-phone", "pp-limits-desktop")
#: Players who play a round here (funded).
PLAYING = ("pp-live-phone", "pp-live-desktop")


@pytest.fixture(scope="module", autouse=True)
def players(site: Site) -> None:
    site.stack.python(
        "from django.contrib.auth import get_user_model\n"
        "from table import ledger\n"
        f"for name in {PLAYERS + PLAYING!r}:\n"
        "    if not get_user_model().objects.filter(username=name).exists():\n"
        f"        user = get_user_model().objects.create_user(name, password={PASSWORD!r})\n"
        f"        if name in {PLAYING!r}:\n"
        "            ledger.credit(user, 1_000_00, 'browser test play money')\n"
    )


def age_session(site: Site, username: str, field: str, minutes: int) -> None:
    """Move the player's latest session's ``field`` back in time (as if that long passed)."""
    site.stack.python(
        "import datetime as dt\n"
        "from table.models import PlayerSession\n"
        f"s = PlayerSession.objects.filter(user__username={username!r}).order_by('-id')[0]\n"
        f"setattr(s, {field!r}, getattr(s, {field!r}) - dt.timedelta(minutes={minutes}))\n"
        f"s.save(update_fields=[{field!r}])\n"
    )


@pytest.mark.parametrize(("size", "viewport", "phone"), SIZES)
def test_the_bar_shows_local_time_time_since_login_and_the_helpline(
    browser: Any, site: Site, size: str, viewport: dict[str, int], phone: bool
) -> None:
    client = login(
        browser, site, "pp-bar", viewport=viewport, phone=phone, timezone_id="America/Los_Angeles"
    )
    page = client.page
    bar = page.locator("[data-protection]")
    bar.wait_for()
    clock = page.locator("[data-pp=clock]")
    page.wait_for_function(
        "() => /^\\d\\d:\\d\\d:\\d\\d PST$/"
        ".test(document.querySelector('[data-pp=clock]').textContent)"
    )
    first = clock.text_content()
    page.wait_for_timeout(1100)
    assert clock.text_content() != first  # it ticks
    assert page.locator("[data-pp=elapsed]").text_content() == "0 min"
    assert page.locator("[data-pp=net]").text_content() == "$0.00"
    assert page.locator("[data-pp=wagered]").text_content() == "$0.00"
    assert "1-800-GAMBLER" in bar.text_content()
    assert "Your previous login" in page.locator(".messages").text_content()
    previous = page.locator(".pp-previous").text_content()
    shown = r"Previous login\s+(none: this is your first|\d{4}-\d\d-\d\d \d\d:\d\d PST)"
    assert re.search(shown, previous), previous
    # Nothing of the bar runs off a phone's screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    screenshot(page, f"protection-bar-{size}")
    page.goto(site.url("/tables/1/"))
    bar.wait_for()
    screenshot(page, f"protection-bar-table-{size}")
    assert not client.errors, client.errors


@pytest.mark.parametrize(("size", "viewport", "phone"), SIZES)
def test_the_reality_check_waits_for_an_answer(
    browser: Any, site: Site, size: str, viewport: dict[str, int], phone: bool
) -> None:
    client = login(browser, site, "pp-reality", viewport=viewport, phone=phone)
    page = client.page
    age_session(site, "pp-reality", "started", 61)
    age_session(site, "pp-reality", "reality_answered", 61)
    page.goto(site.url("/tables/1/"))
    dialog = page.locator("dialog[data-pp=reality]")
    dialog.wait_for(state="visible")
    text = dialog.text_content()
    assert re.search(r"logged in for\s+1 h 01 min", text), text
    assert "$0.00" in text
    # Escape does not dismiss it: it must be answered.
    page.keyboard.press("Escape")
    assert dialog.is_visible()
    screenshot(page, f"protection-reality-{size}")
    page.click("dialog[data-pp=reality] [data-answer=keep]")
    dialog.wait_for(state="hidden")
    status = page.evaluate("fetch('/protection/status.json').then(r => r.json())")
    assert not status["reality_due"]
    assert not client.errors, client.errors


@pytest.mark.parametrize(("size", "viewport", "phone"), SIZES)
def test_after_15_minutes_idle_the_password_again(
    browser: Any, site: Site, size: str, viewport: dict[str, int], phone: bool
) -> None:
    client = login(browser, site, "pp-idle", viewport=viewport, phone=phone)
    page = client.page
    age_session(site, "pp-idle", "last_active", 16)
    page.goto(site.url("/tables/1/"))
    dialog = page.locator("dialog[data-pp=locked]")
    dialog.wait_for(state="visible")
    screenshot(page, f"protection-idle-{size}")
    page.fill("#pp-password", "not-it")
    page.click("dialog[data-pp=locked] button[type=submit]")
    page.locator("[data-pp=unlock-error]").wait_for(state="visible")
    page.fill("#pp-password", PASSWORD)
    page.click("dialog[data-pp=locked] button[type=submit]")
    dialog.wait_for(state="hidden")
    # (the wrong password's 403 is the answer the dialog shows, not a page error)
    assert [e for e in client.errors if "/protection/unlock/" not in e] == [], client.errors


@pytest.mark.parametrize(("size", "viewport", "phone"), SIZES)
def test_the_limits_page(
    browser: Any, site: Site, size: str, viewport: dict[str, int], phone: bool
) -> None:
    name = f"pp-limits-{size}"
    client = login(browser, site, name, viewport=viewport, phone=phone)
    page = client.page
    page.click("text=My limits")
    page.wait_for_url(site.url("/protection/limits/"))
    row = page.locator(".pp-limit-row[data-kind=loss_day]")
    row.locator("input[name=amount]").fill("50")
    row.locator("button", has_text="Save").click()
    page.wait_for_load_state()
    assert "in force now" in page.locator(".messages").text_content()
    assert row.locator(".pp-current").text_content() == "$50.00"
    row.locator("input[name=amount]").fill("75")
    row.locator("button", has_text="Save").click()
    page.wait_for_load_state()
    assert "You asked for $75.00" in row.text_content()
    assert row.locator(".pp-current").text_content() == "$50.00"  # not before its time
    screenshot(page, f"protection-limits-{size}")
    screenshot(page, f"protection-limits-{size}-full", full_page=True)
    widest = page.evaluate(
        "() => [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right"
        " > document.documentElement.clientWidth + 1).slice(0, 5).map(e => e.tagName + '.' +"
        " e.className + ' ' + Math.round(e.getBoundingClientRect().right))"
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], (width, widest)
    assert not client.errors, client.errors


def dollars(cents: int) -> str:
    """As the bar writes an amount: $1,234.50; a loss with a minus sign, a win with a plus."""
    sign = "−" if cents < 0 else "+" if cents > 0 else ""
    return f"{sign}${abs(cents) / 100:,.2f}"


def balance_after(client: Any, before: int) -> int:
    """The balance the felt shows once it moved from ``before``."""
    expect(client.page.locator("#balance")).not_to_have_attribute("data-cents", str(before))
    return shown_balance(client)


@pytest.mark.parametrize(("size", "viewport", "phone"), SIZES)
def test_the_bar_follows_a_round_live(
    browser: Any, site: Site, size: str, viewport: dict[str, int], phone: bool
) -> None:
    """Net result and amount wagered since login change with every wager and settlement, from
    the table's socket, without a reload (§814a.1(e)(1)-(2)): a player who lost $45 saw $0.00."""
    name = f"pp-live-{size}"
    player = login(browser, site, name, viewport=viewport, phone=phone)
    dealer = login(browser, site, "dealer")
    open_table(player, site)
    open_console(dealer, site)
    page = player.page
    net, wagered = page.locator("[data-pp=net]"), page.locator("[data-pp=wagered]")
    expect(net).to_have_text("$0.00")
    expect(wagered).to_have_text("$0.00")
    # From here the bar's figures can only come from the table's socket: its status poll
    # (every 20 s) is cut off, so a figure that changes changed live.
    page.route("**/protection/status.json", lambda route: route.abort())
    box = site.free_boxes()[0]
    sit(player, box)
    open_betting(dealer)
    wait_phase(player, "betting")
    start = shown_balance(player)
    add_chips(player, box, [(500, "ante")])
    place_bets(player)
    staked = start - balance_after(player, start)
    assert staked > 0
    expect(wagered).to_have_text(dollars(staked).lstrip("+"))
    expect(net).to_have_text(dollars(-staked))
    dealer_does(dealer, "No more bets", "closed")
    dealer_does(dealer, "Deal", "decisions")
    wait_phase(player, "decisions")
    before_raise = shown_balance(player)
    play_on(player, box)  # the game's first offer that stakes more
    raised = before_raise - balance_after(player, before_raise)
    expect(wagered).to_have_text(dollars(staked + raised).lstrip("+"))
    expect(net).to_have_text(dollars(-(staked + raised)))
    dealer_does(dealer, "Reveal", "revealed")
    dealer_does(dealer, "Settle", "settled")
    wait_phase(player, "settled")
    result = site.query(
        "SELECT COALESCE(SUM(e.amount), 0) FROM table_entry e "
        "JOIN table_ledgertransaction t ON t.id = e.transaction_id "
        "JOIN table_account a ON a.id = e.account_id JOIN auth_user u ON u.id = a.user_id "
        "WHERE u.username = ? AND t.round_id = (SELECT MAX(id) FROM table_round "
        "WHERE table_id = ?)",
        (name, site.table_id),
    )[0][0]
    # Won or lost, the bar says what the ledger says: the round's net, the stakes wagered.
    expect(net).to_have_text(dollars(int(result)))
    expect(wagered).to_have_text(dollars(staked + raised).lstrip("+"))
    assert shown_balance(player) == start + int(result)
    page.evaluate("window.scrollTo(0, 0)")  # the bar, over the settled felt
    screenshot(page, f"protection-live-{size}")
    assert not [e for e in player.errors if "status.json" not in e], player.errors
    # The seat goes back: the live stack is one per browser worker, and a later test in the
    # same worker (the lobby's) sits at a box it expects free.
    player.page.click(f"#stand-{box}")
    expect(player.page.locator(f"#box-{box} .sit")).to_be_visible()
    assert box in site.free_boxes()
