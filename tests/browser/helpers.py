"""What the browser tests do at a table, in the words of the pages, whatever its game (a
game's own steps, its decisions in its words, are in its tests: tests/games/<game>/browser/)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .fixtures import Client, Site


def open_table(client: Client, site: Site) -> None:
    client.page.goto(site.url(f"/tables/{site.table_id}/"))
    expect(client.page.locator("#app")).to_have_attribute("data-ready", "1")
    expect(client.page.locator("#conn")).to_have_attribute("data-state", "open")


def open_console(client: Client, site: Site) -> None:
    client.page.goto(site.url(f"/tables/{site.table_id}/dealer/"))
    expect(client.page.locator("#console")).to_have_attribute("data-ready", "1")
    expect(client.page.locator("#conn")).to_have_attribute("data-state", "open")


def dealer_does(dealer: Client, label: str, phase: str) -> None:
    """Press the console's one big button, expecting ``label`` on it, and wait for ``phase``."""
    button = dealer.page.locator("#next-action")
    # The step's words begin with the label ("Reveal the dealer's hand").
    expect(button).to_have_text(re.compile(rf"^{re.escape(label)}"))
    expect(button).to_be_enabled()
    button.click()
    expect(dealer.page.locator("#console")).to_have_attribute("data-phase", phase)


def open_betting(dealer: Client) -> None:
    """Betting opens on a fresh round. An earlier test in the same browser worker (the live
    stack is one per worker: test_table_notices' automatic dealer) may leave a round taking
    bets, with none, when it stops: closing the table voids it (every wager returned, the
    seats kept) and the table opens again."""
    button = dealer.page.locator("#next-action")
    expect(button).to_have_text(re.compile(r"Open betting|No more bets"))
    if button.inner_text().strip() == "No more bets":
        dealer.page.click("#open-close")
        dealer.page.locator("#confirm").get_by_role("button", name="Close the table").click()
        expect(button).to_have_text("Open the table")
        button.click()
    dealer_does(dealer, "Open betting", "betting")


def wait_phase(client: Client, phase: str) -> None:
    expect(client.page.locator("#app")).to_have_attribute("data-phase", phase)


def sit(client: Client, box: int) -> None:
    client.page.click(f"#box-{box} .sit")
    expect(client.page.locator(f"#box-{box}")).to_have_class(_has("mine"))


def seat_holder(site: Site, box: int) -> str | None:
    """Who sits at ``box`` in the table's own record (None: nobody)."""
    rows = site.query(
        "SELECT u.username FROM table_seat s JOIN auth_user u ON u.id = s.player_id"
        " WHERE s.table_id = ? AND s.box = ?",
        (site.table_id, box),
    )
    return str(rows[0][0]) if rows else None


def seated(client: Client, site: Site, box: int) -> None:
    """The client sits at ``box``, or still does from an earlier test in the same browser worker.
    Decided from the table's record, not the felt: a settled round shows a box the player
    played as theirs ("mine") after they stood up from it, and a box with no seat is offered
    no bet."""
    if seat_holder(site, box) != client.name:
        sit(client, box)
    deadline = time.monotonic() + 10
    while (holder := seat_holder(site, box)) != client.name:
        assert time.monotonic() < deadline, f"box {box} is {holder}'s, not {client.name}'s"
        time.sleep(0.05)


def _has(cls: str) -> Any:
    import re

    return re.compile(rf"(^|\s){cls}(\s|$)")


def placed_wagers(client: Client, box: int) -> dict[str, int]:
    """The wagers the page's round view holds on ``box`` (cents by wager)."""
    return dict(
        client.page.evaluate(
            "(box) => { const b = window.frenzy.state().round?.boxes.find((x) => x.box === box);"
            " return b ? b.wagers : {}; }",
            box,
        )
    )


def bet_form(client: Client, box: int, seconds: float = 20) -> Any:
    """The box's bet form, once the felt draws it (the round view offers the box a bet). If it
    never does, the failure says what the felt holds (the phase, the seats, the moves offered),
    not only which element it waited for."""
    form = client.page.locator(f"#bet-form fieldset[data-box='{box}']")
    try:
        expect(form).to_be_visible(timeout=seconds * 1000)
    except AssertionError as missing:
        held = client.page.evaluate(
            "() => { const s = window.frenzy.state(); return JSON.stringify({"
            " round: s.round?.round, phase: s.round?.phase, seats: s.seats,"
            " moves: (s.round?.moves || []).map((m) => [m.move, m.box]) }); }"
        )
        said = f"{client.name}: no bet form for box {box}; the felt holds {held}"
        raise AssertionError(said) from missing
    return form


def add_chips(client: Client, box: int, chips: list[tuple[int, str]], placed: bool = True) -> None:
    """Add wagers to a box, [(cents, wager), ...], with the box's bet form (each wager's new
    total in dollars, then "Place wagers on box N"). ``placed``: wait until the table holds
    them (False: a bet the felt or the table refuses)."""
    # The form first: drawn from this round's view, so the wagers read next are this round's,
    # not those of the round before it (still on the page until the new round's view is in).
    form = bet_form(client, box)
    totals = placed_wagers(client, box)
    # A wager the form has no field for is one the table sets itself (a matched wager, a
    # decision's): the form's totals leave it out.
    target = {w: c for w, c in totals.items() if form.locator(f"#bet-{box}-{w}").count()}
    for cents, wager in chips:
        target[wager] = target.get(wager, 0) + cents
    for wager, cents in target.items():
        form.locator(f"#bet-{box}-{wager}").fill(f"{cents / 100:g}")
    form.get_by_role("button", name=f"Place wagers on box {box}").click()
    if placed:
        # Polled (the page's Content-Security-Policy may forbid evaluating strings in a wait).
        deadline = time.monotonic() + 10
        while True:
            now = placed_wagers(client, box)
            if all(now.get(w, 0) == c for w, c in target.items()):
                return
            assert time.monotonic() < deadline, f"box {box}: {now}, not {target}"
            time.sleep(0.05)


def place_bets(client: Client) -> None:
    """The wagers just put down are on the felt: nothing was refused."""
    expect(client.page.locator("#notice[data-kind='error']:visible")).to_have_count(0)


def shown_balance(client: Client) -> int:
    return int(client.page.get_attribute("#balance", "data-cents") or "0")


def expect_balance(client: Client, cents: int) -> None:
    expect(client.page.locator("#balance")).to_have_attribute("data-cents", str(cents))


#: Where the round-by-round screenshots of the live games go, for people to look at.
SHOTS = Path(os.environ.get("BROWSE_SHOTS", "/tmp/shots/browse"))


def shot(client: Client, name: str, focus: str | None = None) -> None:
    """The whole page; on a phone (too long to read whole) the screen with ``focus`` on it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone = client.page.viewport_size["width"] < 500
    if phone and focus:
        client.page.locator(focus).first.scroll_into_view_if_needed()
    client.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=not phone)


def expect_opaque_bar(page: Any) -> None:
    """Boxes scrolled under the pinned bar do not show through it: its background is opaque
    (a colour with no alpha below 1, and no opacity on the bar itself)."""
    style = page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('#pinned'));"
        " return [s.backgroundColor, s.opacity]; }"
    )
    colour, opacity = style
    alpha = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", colour)
    assert alpha is not None, colour
    assert float(alpha.group(4) or 1) == 1 and float(opacity) == 1, style


def play_on(client: Client, box: int) -> None:
    """On the box's turn, the first decision offered that keeps the box in the round (not a
    fold: the smallest Raise or Play the game offers first)."""
    panel = client.page.locator("#my-turn")
    expect(panel).to_be_visible()
    expect(panel.locator(".decision-title strong")).to_contain_text(f"Your turn — box {box}")
    buttons = panel.locator(".decision-buttons button")
    buttons.filter(has_not_text=re.compile(r"^Fold")).first.click()
    expect(panel).to_be_hidden()


def down_at_the_controls(page: Any) -> None:
    """The player is down at the bottom of the page (at the decision panel, the setting, the
    signs) when the dealer reveals, as players are."""
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")


#: The pinned bar's box and the dealer's cards', on the screen.
BAR_AND_DEALER = """() => {
  const bar = document.querySelector('#pinned').getBoundingClientRect();
  const cards = document.querySelector('#dealer-cards').getBoundingClientRect();
  return {bar: [bar.top, bar.bottom], cards: [cards.top, cards.bottom], height: innerHeight};
}"""


def expect_dealer_clear_of_the_bar(page: Any) -> None:
    """At settlement the dealer's cards are on the screen, whole, below the pinned bar (which
    has grown by the result), not under it nor scrolled away above it."""
    try:
        page.wait_for_function(
            """() => {
              const bar = document.querySelector('#pinned').getBoundingClientRect();
              const cards = document.querySelector('#dealer-cards').getBoundingClientRect();
              return cards.height > 0 && bar.bottom <= cards.top && cards.bottom <= innerHeight;
            }""",
            timeout=3_000,
        )
    except Exception as exc:
        where = page.evaluate(BAR_AND_DEALER)
        raise AssertionError(f"the bar and the dealer's cards: {where}") from exc


def region_html(client: Client, selectors: list[str]) -> str:
    return "\n".join(client.page.inner_html(s) for s in selectors)


def expect_no_citation(page: Any, where: str = "#app") -> None:
    """A player reads what happens in words, never a regulation's section number (``where``:
    the felt, or a recall page's ``main``)."""
    text = page.locator(where).inner_text()
    cited = re.findall(r".{0,40}§.{0,20}", text)
    assert not cited, cited
