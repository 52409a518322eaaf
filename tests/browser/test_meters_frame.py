"""static/table/protocol.js in a real browser: a ``meters`` frame (several linked meters
moved within one display interval, table/meter_relay.py) reaches the felt as each meter's own
frame, in order, as a ``meter`` frame does (docs/protocol.md "Meter frames")."""

from __future__ import annotations

from typing import Any

import pytest

from .fixtures import Site, login

pytestmark = pytest.mark.browser

SCRIPT = """async () => {
  const { TableConnection } = await import('/static/table/protocol.js');
  const shown = [];
  const conn = new TableConnection('/ws/tables/1/', {
    onMeter: (m) => shown.push([m.type, m.meter, m.version, m.amount, m.cause]),
  });
  conn.raw = () => true;
  const rx = (o) => conn.receive(JSON.stringify(o));
  const meter = (id, version, amount, cause) => ({type: 'meter', meter: id, kind: 'k',
    name: 'm' + id, amount, version, cause, table: 1});
  rx({type: 'snapshot', version: 5, now: Date.now()});
  rx(meter(3, 10, 1000, 'increment'));
  rx({type: 'meters', meters: [meter(3, 12, 1040, 'increment'), meter(4, 7, 500, 'increment')]});
  rx(meter(4, 8, 100, 'hit'));
  return shown;
}"""


def test_a_meters_frame_reaches_the_felt_as_each_meters_own_frame(browser: Any, site: Site) -> None:
    client = login(browser, site, None)
    client.page.goto(site.url("/login/"))
    assert client.page.evaluate(SCRIPT) == [
        ["meter", 3, 10, 1000, "increment"],
        ["meter", 3, 12, 1040, "increment"],
        ["meter", 4, 7, 500, "increment"],
        ["meter", 4, 8, 100, "hit"],
    ]
    assert not client.errors, client.errors
