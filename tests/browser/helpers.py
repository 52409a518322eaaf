"""What the browser tests do at the table, in the words of the pages."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import Client, Site, card_codes, frames_before_reveal

RANKS = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
    "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}  # fmt: skip
SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}


def card_name(code: str) -> str:
    return f"{RANKS[code[0]]} of {SUITS[code[1]][1]}"


def card_text(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]][0]


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
    totals = placed_wagers(client, box)
    target = {w: c for w, c in totals.items() if w not in ("odds", "raise")}
    for cents, wager in chips:
        target[wager] = target.get(wager, 0) + cents
    form = bet_form(client, box)
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


def decide(client: Client, box: int, raise_: int | str, keyboard: bool = False) -> int:
    """On the box's turn: fold (0), raise 1-3, or "max"; returns the multiple used.
    ``keyboard``: focus the button and press Enter instead of clicking."""
    panel = client.page.locator("#my-turn")
    expect(panel).to_be_visible()
    expect(panel.locator(".decision-title strong")).to_contain_text(f"Your turn — box {box}")
    expect(panel.locator(".g-play-why")).to_contain_text("you may raise")
    if raise_ == "max":
        raise_ = 3 if panel.locator("button", has_text="Raise 3x").count() else 1
    assert isinstance(raise_, int)
    button = panel.locator(
        ".decision-buttons button", has_text="Fold" if raise_ == 0 else f"Raise {raise_}x"
    )
    if keyboard:
        button.focus()
        client.page.keyboard.press("Enter")
    else:
        button.click()
    expect(panel).to_be_hidden()
    return raise_


def region_html(client: Client, selectors: list[str]) -> str:
    return "\n".join(client.page.inner_html(s) for s in selectors)


def assert_no_foreign_cards_seen(
    site: Site, number: int, clients: list[Client], html_before_reveal: dict[str, str]
) -> dict[str, Any]:
    """Nothing another player held, nor the dealer's cards or the All-Six card, reached a page
    (websocket frames, DOM) before the dealer's reveal of round ``number``."""
    cards = site.round_cards(number)
    dealer_secret = set(cards["dealer"]) | ({cards["all_six"]} if cards["all_six"] else set())
    for client in clients:
        own_boxes = {b for b, v in cards["boxes"].items() if v["player"] == client.name}
        own = {c for b in own_boxes for c in cards["boxes"][b]["cards"]}
        others = {
            c for b, v in cards["boxes"].items() if b not in own_boxes for c in v["cards"]
        } | dealer_secret
        window = frames_before_reveal(client.frames, number)
        assert window, f"{client.name}: no frames for round {number}"
        seen: set[str] = set()
        face_up: set[str] = set()
        for frame in window:
            seen |= card_codes(frame)
            for event in frame.get("events", []):
                if event["kind"] == "face_up_card":
                    face_up.add(event["data"]["card"])
                if event["kind"] == "hole_cards":
                    assert event["data"]["box"] in own_boxes, (client.name, event)
                    assert frame.get("private") is True, (client.name, frame)
            if frame.get("type") == "snapshot" and frame.get("round"):
                assert frame["round"]["dealer"] is None, (client.name, "dealer cards early")
                for box in frame["round"]["boxes"]:
                    if box["cards"] is not None:
                        assert box["box"] in own_boxes, (client.name, box)
        assert not (seen & others), f"{client.name} received {sorted(seen & others)} early"
        assert seen - face_up <= own, f"{client.name} received {sorted(seen - face_up - own)}"
        if own:
            assert own <= seen, f"{client.name} never got their own cards"
        html = html_before_reveal[client.name]
        lowered = html.lower()
        for code in others:
            assert f'data-card="{code}"' not in html, (client.name, code)
            assert card_name(code) not in lowered, (client.name, card_name(code))
            assert card_text(code) not in html, (client.name, card_text(code))
    return cards


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


def expect_no_citation(page: Any, where: str = "#app") -> None:
    """A player reads what happens in words, never a regulation's section number (``where``:
    the felt, or a recall page's ``main``)."""
    text = page.locator(where).inner_text()
    cited = re.findall(r".{0,40}§.{0,20}", text)
    assert not cited, cited


def generic_ante_play_round(player: Any, dealer: Any, box: int, ante: str = "5") -> None:
    """One Crazy 4 Poker round on the generic felt and console, from "Open betting" (the
    console showing it) to settled: ``player`` (a page, seated at ``box``) bets the Ante and
    plays 1x; ``dealer`` (the console's page) steps through every phase."""
    app = player.locator("#app")
    button = dealer.locator("#next-action")
    button.click()
    expect(app).to_have_attribute("data-phase", "betting")
    form = player.locator(f"#bet-form fieldset[data-box='{box}']")
    form.locator(f"#bet-{box}-ante").fill(ante)
    form.get_by_role("button", name=f"Place wagers on box {box}").click()
    expect(player.locator(f"#box-{box} .g-chip").filter(has_text="Ante")).to_contain_text(
        f"${ante}"
    )
    for step in ("No more bets", "Deal"):
        expect(button).to_have_text(step)
        button.click()
    turn = player.locator("#my-turn")
    expect(turn).to_be_visible()
    turn.get_by_role("button", name=re.compile(r"^Play 1x")).click()
    expect(button).to_have_text(re.compile("^Reveal"))
    button.click()
    expect(button).to_have_text("Settle")
    button.click()
    expect(app).to_have_attribute("data-phase", "settled")
