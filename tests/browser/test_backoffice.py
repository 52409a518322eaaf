"""The back office in Chromium at 1440x900: the compliance account reads the table games
report with its charts (uPlot, served by the app: no CDN), the meters report and a player's
history; the charts are drawn, nothing is reported as an error, and the print layout hides
the admin's chrome."""

from __future__ import annotations

from typing import Any

import pytest

from .fixtures import Site, login, screenshot

pytestmark = [pytest.mark.browser]

#: A table of its own (no other browser test sits there) with 6 rounds of generated play, of
#: the first game in the registry whose tables have progressive meters (the meters report).
PLAY = """
from tests.backoffice.play import Source, make_table, play_round
from table import services
from table.games import ENTRIES, game
from django.contrib.auth import get_user_model
U = get_user_model()
players = {n: U.objects.get(username=n) for n in ("erin", "frank")}
seats = {"erin": 1, "frank": 3}
with_meters = next(n for n in ENTRIES if game(n).meters(game(n).default_rules()))
table, dealer = make_table("Back office browser", with_meters)
for name, user in players.items():
    services.sit(table.pk, user, seats[name])
src = Source(1440)
for _ in range(6):
    play_round(table, dealer, players, src, seats)
"""


def test_the_compliance_account_reads_the_back_office(browser: Any, site: Site) -> None:
    site.stack.manage("shell", "-c", PLAY)
    reader = login(browser, site, "compliance", viewport={"width": 1440, "height": 900})
    page = reader.page
    page.goto(site.url("/admin/table/wagershift/?by=day"))
    page.locator(".bo-chart canvas").first.wait_for()
    assert page.locator(".bo-chart .uplot").count() == 2  # hold, and RTP with its band
    # The total row counts at least the six rounds just played.
    assert int(page.locator("tr.bo-total td").first.inner_text()) >= 6
    screenshot(page, "backoffice-report", full_page=True)
    page.goto(site.url("/admin/table/wagershift/meters/"))
    assert "progressive liability" in page.locator("#content").inner_text()
    page.goto(site.url("/admin/table/wagershift/player/?player=erin"))
    page.locator("text=what the player saw").first.click()
    page.locator("#recreated").wait_for()
    assert "(theirs)" in page.locator("#recreated").inner_text()
    screenshot(page, "backoffice-player")
    page.emulate_media(media="print")
    page.goto(site.url("/admin/table/wagershift/?by=day"))
    assert not page.locator(".bo-form").is_visible()
    assert not page.locator("#header").is_visible()
    assert page.locator(".bo-printed").is_visible()
    assert reader.errors == []


def test_the_report_fits_a_phone(browser: Any, site: Site) -> None:
    """At 390x844 a wide report scrolls inside its own box: the page itself is no wider than
    the screen, so the admin's menu and the form stay where the reader can reach them."""
    site.stack.manage("shell", "-c", PLAY.replace("Back office browser", "Back office phone"))
    reader = login(browser, site, "compliance", viewport={"width": 390, "height": 844})
    page = reader.page
    for path in ("/admin/table/wagershift/?by=day", "/admin/table/wagershift/meters/"):
        page.goto(site.url(path))
        page.locator(".bo-table").first.wait_for()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (path, width)
    page.goto(site.url("/admin/table/wagershift/?by=day"))
    screenshot(page, "backoffice-report-phone")
    assert reader.errors == []
