"""static/table/protocol.js in a real browser: version tracking, replies, keys, latency."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .fixtures import Site, login

pytestmark = pytest.mark.browser

SCRIPT = """async () => {
  const { TableConnection } = await import('/static/table/protocol.js');
  const sent = [], applied = [], snaps = [], statuses = [];
  const conn = new TableConnection('/ws/tables/1/', {
    onSnapshot: (s) => snaps.push(s.version),
    onEvents: (f, o) => applied.push([f.version, o.private]),
    onStatus: (s) => statuses.push(s),
  });
  conn.raw = (frame) => { sent.push(frame); return true; };
  const rx = (o) => conn.receive(JSON.stringify(o));
  const out = {};
  rx({type: 'snapshot', version: 5, now: Date.now()});
  rx({type: 'events', version: 6, private: true, events: []});
  out.afterPrivate = conn.version;
  rx({type: 'events', version: 6, events: []});
  rx({type: 'events', version: 6, events: []});
  rx({type: 'events', version: 5, events: []});
  out.beforeGap = conn.version;
  rx({type: 'events', version: 9, events: []});
  rx({type: 'events', version: 10, events: []});
  out.sentDuringGap = sent.map((f) => f.cmd);
  rx({type: 'snapshot', version: 10, now: Date.now()});
  rx({type: 'events', version: 11, events: []});
  const sit = conn.send('sit', {box: 2});
  const voiding = conn.send('void', {reason: 'shoe_jam'}, {withVersion: true});
  const [sitFrame, voidFrame] = sent.slice(-2);
  rx({type: 'ok', ref: sitFrame.ref, cmd: 'sit', version: 12, replayed: false, result: {box: 2}});
  rx({type: 'error', ref: voidFrame.ref, code: 'stale_version', message: 'the table moved on'});
  out.ok = (await sit).result;
  try { await voiding; } catch (e) { out.err = [e.code, e.message]; }
  out.afterStale = sent.at(-1).cmd;
  rx({type: 'pong', t: Date.now() - 40, server: Date.now()});
  out.rtt = conn.rtt;
  Object.assign(out, {applied, snaps, sitFrame, voidFrame, version: conn.version});
  return out;
}"""


def test_the_client_tracks_versions_and_resyncs_on_a_gap(browser: Any, site: Site) -> None:
    client = login(browser, site, None)
    client.page.goto(site.url("/login/"))
    out = client.page.evaluate(SCRIPT)
    # A private frame carries the next version but does not advance it; the public one does.
    assert out["afterPrivate"] == 5
    assert out["beforeGap"] == 6
    # Duplicates and old frames are ignored; a gap asks for one snapshot and waits for it.
    assert out["sentDuringGap"] == ["snapshot"]
    assert out["snaps"] == [5, 10]
    assert out["applied"] == [[6, True], [6, False], [11, False]]
    # Every command has a ref and an idempotency key; the version only when asked for.
    for frame in (out["sitFrame"], out["voidFrame"]):
        assert re.fullmatch(r"[A-Za-z0-9_.:-]{8,64}", frame["key"])
        assert frame["ref"]
    assert out["sitFrame"]["key"] != out["voidFrame"]["key"]
    assert "version" not in out["sitFrame"]
    assert out["voidFrame"]["version"] == 11
    assert out["ok"] == {"box": 2}
    # A refusal keeps the server's words; a stale version also asks for a fresh snapshot.
    assert out["err"] == ["stale_version", "the table moved on"]
    assert out["afterStale"] == "snapshot"
    assert 30 <= out["rtt"] < 1000
    assert not client.errors, client.errors


VIEWS = """async () => {
  const { TableConnection } = await import('/static/table/protocol.js');
  const seen = [];
  const conn = new TableConnection('/ws/tables/1/', {
    onSnapshot: (s) => seen.push(['snapshot', s.version]),
    onEvents: (f, o) => seen.push([o.private ? 'private' : 'events', f.version]),
    onView: (v) => seen.push(['view', v.version, v.round && v.round.phase]),
  });
  conn.raw = () => true;
  const rx = (o) => conn.receive(JSON.stringify(o));
  const view = (version, phase) => ({type: 'view', version, round: {phase}});
  rx({type: 'snapshot', version: 5, now: Date.now()});
  rx({type: 'events', version: 6, private: true, events: []});
  rx({type: 'events', version: 6, events: [], view: view(6, 'betting')});
  rx({type: 'events', version: 6, events: [], view: view(6, 'again')});  // a duplicate
  rx({type: 'events', version: 7, events: []});
  rx(view(7, 'alone'));
  return seen;
}"""


def test_a_view_riding_in_an_events_frame_comes_after_its_events(browser: Any, site: Site) -> None:
    """The server puts a version's round view in its public events frame: the client hands
    it on after the frame's events, as a view that came alone; a duplicate frame's is dropped
    with it."""
    client = login(browser, site, None)
    client.page.goto(site.url("/login/"))
    assert client.page.evaluate(VIEWS) == [
        ["snapshot", 5],
        ["private", 6],
        ["events", 6],
        ["view", 6, "betting"],
        ["events", 7],
        ["view", 7, "alone"],
    ]
    assert not client.errors, client.errors
