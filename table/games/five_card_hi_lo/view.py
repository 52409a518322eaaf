"""What each viewer may see of a Five Card Hi-Lo round (what each may do now is the adapter's
``moves``).

Viewers: a player who owns boxes in the round, any other player, a spectator (nobody logged
in) and the dealer console. The rules of who sees what:

- A box's five cards go to its owner only (§663a.11(a)) until settlement shows them; nobody
  else, the dealer console included, sees them before then. While deciding whether to Play
  and during the setting step the owner is offered the legal settings with their totals
  (§663a.11(d)); once set, the setting is the owner's until settlement turns both hands over
  (§663a.11(f)).
- A box that folded without a Poker Bonus goes to the discard rack unseen (§663a.11(c)):
  its cards are never shown to anyone but its owner.
- The dealer's cards are seen by nobody until the reveal (§663a.11(e)).
- Cards found face up while dealing are seen by everyone (§663a.13(a)).
- The shoe order and salt are shown to everyone once the round is over (commit-reveal).
- The dealer console also sees the stub count (§663a.10(d)) and the irregularities it may
  void the round for now.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from table.games.cards import codes
from table.games.common import viewer_entry
from table.games.words import from_spectators

from .poker import poker_rank_trusted
from .round import GAME, VOID_REASONS, BoxPlay, Phase, Round, offered_settings, setting_json
from .settlement import POKER_BONUS
from .words import annotate, annotate_box


@lru_cache(maxsize=4096)
def _settings(cards: tuple[int, ...]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """The settings a dealt box's five cards allow (``offered_settings``; the round's own
    cards, checked when it was loaded): its owner's view offers them at every command until
    the box is set, the same each time, so worked out once."""
    return tuple(tuple(s.items()) for s in offered_settings(list(cards)))


def _box_view(
    rnd: Round, play: BoxPlay, viewer: str | None, settled: dict[str, Any] | None
) -> dict[str, Any]:
    mine = viewer is not None and play.player == viewer
    item: dict[str, Any] = {
        "box": play.box,
        "player": play.player,
        "mine": mine,
        "wagers": dict(play.wagers),
        "dealt": bool(play.cards),
        "decision": play.decision,
        "abandoned": play.abandoned,
        "set": play.is_set,
        # Who set the hands: "player", or the house on a time-out or a player who left
        # ("timeout", "abandoned": aces high, house rule), so the felt can say so.
        "set_by": play.set_by,
        # §663a.11(c): folded without a Poker Bonus, the cards go to the rack unseen.
        "discarded": play.folded and not play.wagers.get(POKER_BONUS, 0),
        "cards": None,
        "setting": None,
    }
    if mine and play.cards:
        item["cards"] = codes(play.cards)
    # §663a.13(c), (e): a box dealt other than five cards (the round is void) has no hand.
    if mine and len(play.cards) == 5:
        item["poker_hand"] = poker_rank_trusted(play.cards).hand.value
        setting = play.setting()
        if setting is not None:
            item["setting"] = setting_json(setting)
        elif rnd.phase in (Phase.DECISIONS, Phase.SETTING) and not play.folded:
            # The settings the hand allows, with their totals: to decide, then to set.
            item["settings"] = [
                {k: list(v) if type(v) is list else v for k, v in offered}
                for offered in _settings(tuple(play.cards))
            ]  # each list the view's own (the memo's shared)
            item["may_set"] = rnd.next_to_set(play.player) == play.box
    if settled is not None:
        item["results"] = settled["results"]
        item["net"] = settled["net"]
        if settled["cards"] is not None:
            item["cards"] = settled["cards"]
            item["poker_hand"] = settled["poker_hand"]
            item["setting"] = settled["setting"]
    return item


def _console(rnd: Round) -> dict[str, Any]:
    """What the dealer console alone sees of the round."""
    # §663a.10(d): the dealer counts the stub
    return {"stub": len(rnd.stub)} if rnd.dealer_cards else {}


def round_view(
    rnd: Round,
    viewer: str | None,
    *,
    dealer: bool = False,
    spectators: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The round as ``viewer`` (a player's name, None: a spectator) or the dealer sees it;
    from ``spectators`` when given (``SkeletonRound.view_from``)."""
    name = None if dealer else viewer
    settled = {b["box"]: b for b in (rnd.results or {}).get("boxes", [])}
    built = from_spectators(
        spectators,
        name,
        dealer,
        viewer=viewer_entry,
        own_boxes=lambda who: {
            n: annotate_box(_box_view(rnd, play, who, settled.get(n)), spectators or {})
            for n, play in rnd.boxes.items()
            if play.player == who
        },
        console_extras=lambda: _console(rnd),
        after="players",
    )
    if built is not None:
        return built
    boxes = [_box_view(rnd, rnd.boxes[n], name, settled.get(n)) for n in sorted(rnd.boxes)]
    view: dict[str, Any] = {
        "game": GAME,
        "round": rnd.number,
        "phase": rnd.phase.value,
        "deck_back": rnd.deck_back,
        "commitment": rnd.commitment,
        "viewer": viewer_entry(dealer, viewer),
        "boxes": boxes,
        "to_act": rnd.to_act,
        "setting_pending": rnd.pending_settings() if rnd.phase is Phase.SETTING else [],
        "dealt": bool(rnd.dealer_cards),
        "dealer": rnd.dealer_public() if rnd.dealer_visible() else None,
        "face_up_discards": codes(rnd.discards),
        "void_reason": rnd.void_reason,
        "void_explanation": (
            VOID_REASONS[rnd.void_reason].explanation if rnd.void_reason is not None else None
        ),
        "players": (rnd.results or {}).get("players"),
    }
    if dealer:
        view.update(_console(rnd))
    if rnd.finished:
        view["shoe"] = codes(rnd.order)
        view["salt"] = rnd.salt
    return annotate(view)  # its words, for the felt (.words)
