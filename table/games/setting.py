"""A step of the round after the decisions where every box that played sets its hand.

    … decisions ─► setting ─reveal─► revealed …    (every box folded: decisions ─reveal─►)

Once every box has decided, each box that plays is set by its player: the players set at the
same time, a player with more boxes sets them in the order the game's rules say, each locked
before the next (e.g. §663a.7(f), §663a.11(d)). A setting that times out is made by the
house (the game's default setting); a player who leaves forfeits each box not yet set (it is
never set for them). The dealer reveals once nothing is waited for.

:class:`SettingRound` is that step on the shared skeleton (:mod:`table.games.skeleton`); a game
whose round has it subclasses it, its boxes :class:`SettingBox`, and fills in what a setting
is: its order, whether a box holds one, how it is recorded and said, the house's default and
what a forfeited box loses. Its Phase enum has ``setting`` between decisions and revealed.

Pure: no Django; it imports no game's modules (the games import it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeVar

from table.games.common import check_player as _player
from table.games.errors import RuleViolation
from table.games.events import Event
from table.games.skeleton import DECISIONS, R, S, SkeletonBox, SkeletonRound

#: The phase in which the boxes that played are set.
SETTING: Final = "setting"
#: ``set_by`` of a box its player left before setting it: never set, it loses.
ABANDONED: Final = "abandoned"


@dataclass(slots=True)
class SettingBox(SkeletonBox):
    """A box that is set after it plays: by whom (``set_by``: "player", "timeout", or
    :data:`ABANDONED`: never set). A game adds the setting's own fields (stored as it says)."""

    set_by: str | None = None

    @property
    def playing(self) -> bool:
        """Hook: whether the box's decision is to play (it is then set)."""
        raise NotImplementedError

    def has_setting(self) -> bool:
        """Hook: whether the box holds a setting."""
        raise NotImplementedError

    @property
    def is_set(self) -> bool:
        """Set and locked; or left by its player before setting it (never set: it loses), so
        nothing is waited for."""
        return self.has_setting() or self.forfeited

    @property
    def forfeited(self) -> bool:
        return self.set_by == ABANDONED and not self.has_setting()


SB = TypeVar("SB", bound=SettingBox)


@dataclass(slots=True)
class SettingRound(SkeletonRound[R, SB, S]):
    """A round on the shared skeleton with the setting step after the decisions."""

    #: The order a player's boxes are set in, in words (the refusal of another box first).
    ORDER_WORDS: ClassVar[str] = "each locked before the next"

    # --- the hooks a game fills in -------------------------------------------------------

    def setting_order_of(self, player: str) -> list[int]:
        """Hook: a player's playing boxes in the order they are set (default: from the
        dealer's left)."""
        return [b.box for b in self.boxes_in_play() if b.player == player and b.playing]

    def record_setting(self, box: SB, setting: Any, why: str) -> list[Event]:
        """Hook: lock ``setting`` on the box (``why``: "player" or "timeout") and say so."""
        raise NotImplementedError

    def default_setting(self, box: SB) -> Any:
        """Hook: the setting the house makes when the time to set runs out."""
        raise NotImplementedError

    def forfeited_stake(self, box: SB) -> int:
        """Hook: what a box its player left before setting it loses."""
        raise NotImplementedError

    # --- who plays, who sets next --------------------------------------------------------

    def decisions_complete(self) -> list[Event]:
        """Every box has decided: the setting step begins, or with every box folded there is
        nothing to set and the dealer reveals from here."""
        return self._start_setting() if self.anyone_plays() else []

    def anyone_plays(self) -> bool:
        return any(b.playing for b in self.boxes_in_play())

    def all_folded(self) -> bool:
        """Every box has decided and none plays: the round skips the setting step."""
        return self.phase == DECISIONS and self.to_act is None and not self.anyone_plays()

    def next_to_set(self, player: str) -> int | None:
        """The box ``player`` may set now, or None."""
        if self.phase != SETTING:
            return None
        for number in self.setting_order_of(player):
            if not self.boxes[number].is_set:
                return number
        return None

    def pending_settings(self) -> list[int]:
        """Playing boxes not yet set, in the order the house would set them on a time-out."""
        out: list[int] = []
        for player in dict.fromkeys(b.player for b in self.boxes_in_play()):
            out += [n for n in self.setting_order_of(player) if not self.boxes[n].is_set]
        return out

    def _start_setting(self) -> list[Event]:
        self.phase = self.PHASE(SETTING)
        playing = [b for b in self.boxes_in_play() if b.playing]
        players = list(dict.fromkeys(b.player for b in playing))
        events = [
            Event(
                "setting_started",
                {
                    "boxes": [b.box for b in playing],
                    "order": {p: self.setting_order_of(p) for p in players},
                },
            )
        ]
        for player in players:
            for number in self.setting_order_of(player):
                if self.boxes[number].abandoned:
                    # The player left; the box is not set for them.
                    events += self._forfeit(self.boxes[number])
            events += self._setting_turn(player)
        return events + self._settings_complete()

    def _setting_turn(self, player: str) -> list[Event]:
        number = self.next_to_set(player)
        if number is None:
            return []
        return [Event("setting_turn", {"box": number, "player": player})]

    def _settings_complete(self) -> list[Event]:
        return [] if self.pending_settings() else [Event("settings_complete", {})]

    def _forfeit(self, box: SB) -> list[Event]:
        """The player left before setting this box: it is never set, and it loses at
        settlement; no setting is made up for it."""
        box.set_by = ABANDONED
        data = {"box": box.box, "player": box.player, "why": ABANDONED}
        return [Event("hands_set", {**data, "forfeited": self.forfeited_stake(box)})]

    # --- setting a box -------------------------------------------------------------------

    def settable(self, box: int, player: str | None) -> SB:
        """The box, if ``player`` (None: the house) may set it now."""
        self._require(SETTING)
        box = self._box(box)
        if player is not None:
            _player(player)
        play = self.boxes.get(box)
        if play is None or not play.in_play:
            raise RuleViolation("not_in_play", f"box {box} has no cards in this round")
        if player is not None and play.player != player:
            # Each player sets his own hands; nobody else touches them.
            raise RuleViolation("not_your_box", f"box {box} is not yours")
        if not play.playing:
            raise RuleViolation("folded", f"box {box} folded: only a box that played is set")
        if play.is_set:
            # A set hand is placed face down and cannot change.
            raise RuleViolation("already_set", f"box {box} is set and locked")
        first = self.next_to_set(play.player)
        if first != box:
            raise RuleViolation("set_other_box_first", f"set box {first} first: {self.ORDER_WORDS}")
        return play

    def set_box(self, box: SB, setting: Any) -> S:
        """The player sets ``box`` (checked by :meth:`settable` and the game's rules)."""
        events = self.record_setting(box, setting, "player")
        events += self._setting_turn(box.player)
        return self.step(events + self._settings_complete())

    # --- time-outs, players leaving, the reveal ------------------------------------------

    def time_out(self, box: int | None = None) -> S:
        """Time ran out. Deciding: the box to act folds. Setting: the house makes the default
        setting of every box still unset, or only ``box`` when given (it must be settable)."""
        self._require(DECISIONS, SETTING)
        if self.phase == DECISIONS:
            return SkeletonRound.time_out(self, box)
        pending = self.pending_settings()
        if not pending:
            raise RuleViolation("nobody_to_act", "every playing box is set")
        if box is not None:
            number = self._box(box)
            owner = self.boxes[number].player if number in self.boxes else None
            if owner is None or number not in pending or self.next_to_set(owner) != number:
                raise RuleViolation("not_your_turn", f"box {box} is not waiting to be set")
            pending = [number]
        events: list[Event] = []
        for number in pending:
            play = self.boxes[number]
            events += self.record_setting(play, self.default_setting(play), "timeout")
        if box is not None:
            events += self._setting_turn(self.boxes[box].player)
        return self.step(events + self._settings_complete())

    def leaves(self, box: SB) -> bool:
        """A player who leaves abandons each box still to decide, and each box that played
        and is not set yet: it is not set for them."""
        return box.decision is None or (box.playing and not box.is_set)

    def leave_later(self, player: str) -> list[Event]:
        """Leaving while the hands are set: the player's unset boxes are forfeited now."""
        if self.phase != SETTING:
            return []
        events: list[Event] = []
        for number in self.setting_order_of(player):
            play = self.boxes[number]
            if not play.is_set:
                events += self._forfeit(play)
        if events:
            events += self._settings_complete()
        return events

    def check_reveal(self) -> None:
        """The dealer reveals once every playing box is set, or once every box folded (no
        setting step)."""
        if not self.all_folded():
            self._require(SETTING)
        pending = self.pending_settings()
        if pending:
            raise RuleViolation("settings_pending", f"box {pending[0]} has not set its hands")
