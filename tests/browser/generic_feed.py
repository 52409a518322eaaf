"""A table of any game, served to a real page over a routed websocket.

The page, its scripts and the login are the live site's; the socket is answered here, by the
game itself: every round is a real one played through the game's interface (table/games/
driver.py), each view is ``Game.view`` for that viewer with its moves, and each ``act`` the
page sends is applied with ``Game.apply`` (a refusal comes back as the error frame the
consumer sends). The snapshot carries what docs/protocol.md says a snapshot of such a table
carries (``table.game``, ``felt``, ``meters``, ``paytables``; ``round`` is the view). So the
felt and the console are tested against the games' own views and moves, whatever the state of
the services behind the real socket.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.games import GAME_TITLES, game
from table.games.base import Actor, Command, EngineError
from table.games.driver import TableDriver
from table.snapshot import felt_parts
from tests.conftest import SeededSource

from .fixtures import Client, Site, login

#: Where the screenshots of the fake tables' felts go, for people to look at.
SHOTS = Path(os.environ.get("GENERIC_SHOTS", "/tmp/shots/generic"))
#: The demo table's sockets (player and dealer), which :func:`open_fake` answers itself.
SOCKET = re.compile(r"/ws/tables/1/(dealer/)?$")

#: The dealer steps the console's commands name (protocol v1), by the game's move names.
DEALER_COMMANDS = {
    "no_more_bets": "close_betting",
    "deal": "deal",
    "reveal": "reveal",
    "settle": "settle",
    "time_out": "time_out",
}


@dataclass
class FakeTable:
    """One table of ``game_name`` with the page's player ``me`` (and a second player, bob)."""

    game_name: str
    me: str
    seed: int = 3
    dealer_page: bool = False
    version: int = 1
    seats: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    meter_versions: dict[str, int] = field(default_factory=dict)
    balance: int = 100_000
    ws: Any = None

    def __post_init__(self) -> None:
        self.game = game(self.game_name)
        self.rules = self.game.default_rules()
        self.driver = TableDriver(self.game, self.rules, SeededSource(self.seed))
        self.driver.open()

    # --- what the page is sent --------------------------------------------------------------

    def viewer(self) -> Actor:
        return Actor.dealer(self.me) if self.dealer_page else Actor.player(self.me)

    def round_view(self) -> dict[str, Any]:
        return json.loads(json.dumps(self.game.view(self.driver.state(), self.viewer())))

    def meter_frames(self) -> list[dict[str, Any]]:
        frames = []
        for i, spec in enumerate(self.game.meters(self.rules), start=1):
            reading = self.driver.meters.readings.get(spec.name)
            amount = reading.amount if reading is not None else spec.seed
            frames.append(
                {
                    "type": "meter",
                    "meter": i,
                    "kind": spec.name,
                    "name": spec.label,
                    "amount": amount,
                    "version": self.meter_versions.get(spec.name, 0),
                }
            )
        return frames

    def snapshot(self) -> dict[str, Any]:
        felt = self.game.felt
        now = int(time.time() * 1000)
        return {
            "type": "snapshot",
            "version": self.version,
            "now": now,
            "table": {
                "id": 1,
                "name": "Frenzy 1",
                "game": self.game_name,
                "game_title": GAME_TITLES[self.game_name],
                "felt": felt_parts(felt),  # as the snapshot sends them
                "meters": self.meter_frames(),
                "paytables": [s.to_dict() for s in self.game.signs(self.rules)],
                "is_open": True,
                "rules_name": "Demo rules",
                "pending_rules": None,
                "rules": self.game.rules_to_dict(self.rules),
                "payout_limit": None,
                "rules_notice": None,
            },
            "seats": self.seats,
            "round": self.round_view(),
            "betting_deadline": now + 60_000,
            "turn_deadline": now + 30_000,
            "shoe": None,
            "dealing": None,
            "me": {
                "username": self.me,
                "balance": self.balance,
                "boxes": [s["box"] for s in self.seats if s["player"] == self.me],
                "is_dealer": self.dealer_page,
                "is_staff": False,
            },
        }

    def send(self, frame: dict[str, Any]) -> None:
        self.sent.append(frame)
        if self.ws is not None:
            self.ws.send(json.dumps(frame))

    def changed(self, events: list[dict[str, Any]] | None = None) -> None:
        """A command committed: the version's events frame with the view riding in it (as
        the consumer sends it)."""
        self.version += 1
        view = {"type": "view", "version": self.version, "round": self.round_view()}
        self.send(
            {
                "type": "events",
                "version": self.version,
                "table": 1,
                "events": events or [],
                "view": view,
            }
        )

    def publish_meters(self) -> None:
        for frame in self.meter_frames():
            self.meter_versions[frame["kind"]] = frame["version"] + 1
            self.send({**frame, "version": frame["version"] + 1})

    # --- what the page sends ----------------------------------------------------------------

    def attach(self, ws: Any) -> None:
        self.ws = ws
        ws.on_message(self.on_message)
        self.send(self.snapshot())

    def on_message(self, text: str | bytes) -> None:
        frame = json.loads(text)
        self.received.append(frame)
        cmd, ref = frame.get("cmd"), frame.get("ref")
        if cmd == "ping":
            self.send(
                {
                    "type": "pong",
                    "t": frame.get("t"),
                    "ref": ref,
                    "server": int(time.time() * 1000),
                    "version": self.version,
                }
            )
            return
        if cmd == "snapshot":
            self.send({**self.snapshot(), "ref": ref})
            return
        try:
            result = self.run(frame)
        except EngineError as exc:
            self.send({"type": "error", "code": exc.code, "message": exc.message, "ref": ref})
            return
        self.send(
            {
                "type": "ok",
                "cmd": cmd,
                "ref": ref,
                "version": self.version,
                "replayed": False,
                "result": result,
            }
        )

    def run(self, frame: dict[str, Any]) -> dict[str, Any]:
        cmd = frame["cmd"]
        if cmd == "sit":
            self.seats.append({"box": frame["box"], "player": self.me, "connected": True})
            self.changed([{"kind": "seated", "data": {"box": frame["box"], "player": self.me}}])
            return {"box": frame["box"]}
        if cmd == "act":
            actor = Actor.player(self.me)
            self.driver.send(actor, Command(frame["move"], frame["box"], frame.get("args", {})))
            self.changed()
            return {"box": frame["box"]}
        if cmd == "more_time":
            # As services.more_time answers: the clock's new deadline, told to every viewer.
            deadline = int(time.time() * 1000) + 25_000
            data = {"box": frame["box"], "player": self.me, "seconds": 20, "deadline": deadline}
            self.version += 1
            self.send(
                {
                    "type": "events",
                    "version": self.version,
                    "table": 1,
                    "events": [{"kind": "more_time", "data": data}],
                }
            )
            return {"box": frame["box"], "deadline": deadline}
        if cmd in DEALER_COMMANDS:
            self.dealer(DEALER_COMMANDS[cmd])
            return {}
        if cmd == "void":
            self.driver.send(self.viewer(), Command("void", None, {"reason": frame["reason"]}))
            self.changed()
            return {"reason": frame["reason"]}
        raise EngineError("unknown_command", f"the fake table has no command {cmd!r}")

    # --- the rest of the table --------------------------------------------------------------

    def dealer(self, step: str, box: int | None = None) -> None:
        """The dealer (or the clock) moves the round on."""
        actor = Actor.dealer("dealer")
        if step == "time_out" and box is None:
            timer = self.game.timer(self.driver.state())
            box = timer.expire.box if timer and timer.expire else None
        self.driver.send(actor, Command(step, box))
        if step == "close_betting":
            self.publish_meters()  # the increments at "no more bets" (§657a.10(a)(2))
        self.changed()

    def other_player(self, name: str, box: int, args: dict[str, Any]) -> None:
        self.seats.append({"box": box, "player": name, "connected": True})
        self.driver.send(Actor.player(name), Command("bet", box, args))
        self.changed()

    def others_act(self) -> None:
        """Every other player takes the first choice offered (their decisions, settings)."""
        for _ in range(12):
            for seat in self.seats:
                if seat["player"] == self.me:
                    continue
                who = Actor.player(seat["player"])
                moves = [m for m in self.driver.moves(who) if m.name not in ("bet", "withdraw")]
                if moves:
                    m = moves[0]
                    self.driver.send(who, Command(m.name, m.box, dict(m.choices[-1].args)))
                    self.changed()
                    break
            else:
                return

    def my_moves(self) -> list[str]:
        return [m.name for m in self.driver.moves(Actor.player(self.me))]


def shot(client: Client, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    client.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def open_fake(client: Client, site: Site, fake: FakeTable, path: str = "/tables/1/") -> None:
    """Open the page at ``path`` with its socket answered by ``fake``."""
    client.page.route_web_socket(SOCKET, fake.attach)
    client.page.goto(site.url(path))


def player(browser: Any, site: Site, screen: tuple[str, dict[str, int]]) -> Client:
    """alice, at the size ``screen`` says (the ``screen`` fixture)."""
    name, viewport = screen
    return login(browser, site, "alice", viewport=viewport, phone=name == "phone")
