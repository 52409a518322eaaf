"""What the browser tests of Crazy 4 Poker do at a live table of the game."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


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
