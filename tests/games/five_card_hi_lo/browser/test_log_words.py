"""The round log's words for Five Card Hi-Lo's setting step (issue 28, bug 3): a round every
box folded out of has no setting line ("...sets its high and low hands: box ." it said)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.fixtures import Site, login

pytestmark = [pytest.mark.browser]

WORDS = """async () => {
  const g = await import('/static/table/game_words.js');
  return {
    noSetting: g.describeGameEvent('five_card_hi_lo', 'setting_started', {boxes: [], order: {}}),
    setting: g.describeGameEvent('five_card_hi_lo', 'setting_started', {boxes: [1, 3]}),
  };
}"""


def test_an_all_fold_round_in_words(browser: Any, site: Site) -> None:
    client = login(browser, site, None)
    client.page.goto(site.url("/"))
    words = client.page.evaluate(WORDS)
    # Bug 3: "...sets its high and low hands: box ." for a setting step nobody is in.
    assert words["noSetting"] is None
    assert words["setting"].endswith("box 1, box 3.")
