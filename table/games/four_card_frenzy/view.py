"""What each viewer may see of a Four Card Frenzy round, phase by phase (the ``playerView``;
the same shape as Crazy 4 Poker's and Five Card Hi-Lo's, with the game's own keys beside).

Viewers: a player who owns boxes in the round, any other player, a spectator (nobody logged
in) and the dealer console.

* A box's wagers are chips on the layout: everyone sees them.
* A box's five cards go face down to its owner only (§684a.10(b), §684a.11(a)) until
  settlement turns them face up box by box (§684a.11(c)); nobody else, the dealer console
  included, sees them before then. With them the owner sees the best four (§684a.11(a)) and
  the most the hand may raise (§684a.11(b): 3x only from a pair of aces or better).
* A hand folded with no optional wager goes to the discard rack unseen (§684a.11(b)(2)):
  ``discarded``; one folded with an optional wager stays on the layout to be settled and is
  turned up at settlement.
* The dealer's cards and the All-Six card are face down until every box has raised or folded
  and the dealer reveals (§684a.11(c), §684a.10(b)), or the main game is void and the optional
  wagers are settled with them (§684a.13(d)).
* The dealer console also sees the stub count (§684a.10(d)).
* The shoe order and salt are shown to everyone once the round is over (commit-reveal).

The moves each viewer may do now are the game's (:meth:`FourCardFrenzy.moves`), added by
:func:`table.games.base.seen_by`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from table.games.cards import codes
from table.games.common import viewer_entry
from table.games.shoe import CARDS_PER_STACK
from table.games.words import from_spectators

from .hands import best_four, describe, max_raise_multiple
from .round import BoxPlay, Phase, Round
from .rules import OPTIONAL
from .words import annotate, annotate_box


@lru_cache(maxsize=4096)
def _hand(cards: tuple[int, ...]) -> tuple[tuple[str, ...], str, int]:
    """A dealt box's best four, its words and the most it may raise, from its five cards
    (the round's own, checked when it was loaded): its owner's view shows them at every
    command from the deal to the settlement, the same each time, so worked out once."""
    hand = best_four(cards)
    return tuple(codes(hand.cards)), describe(hand.value), max_raise_multiple(hand.value)


def _box(rnd: Round, play: BoxPlay, viewer: str | None, settled: dict[int, Any]) -> dict[str, Any]:
    mine = viewer is not None and play.player == viewer
    folded = play.decision == 0
    item: dict[str, Any] = {
        "box": play.box,
        "player": play.player,
        "mine": mine,
        "wagers": dict(play.wagers),
        "dealt": bool(play.cards),
        "decision": play.decision,
        "folded": folded,
        "abandoned": play.abandoned,
        # §684a.11(b)(2): folded with no optional wager, the cards go to the rack unseen.
        "discarded": folded and not any(play.wagers.get(w) for w in OPTIONAL),
        "cards": None,
    }
    item["mucked"] = item["discarded"]  # the felt's older word for it
    if mine and play.cards:
        # A box dealt other than five cards (a misdeal, §684a.13(c), or a jammed shoe,
        # §684a.13(f), both void the round) has no hand: its owner sees the cards.
        item.update(cards=codes(play.cards), best_four=None, hand=None, max_raise=None)
        if len(play.cards) == CARDS_PER_STACK:
            four, words, most = _hand(tuple(play.cards))
            item.update(best_four=list(four), hand=words, max_raise=most)
            if rnd.phase is Phase.DECISIONS and play.decision is None:
                # §684a.11(b): fold, or raise 1x; 2x-3x only from a pair of aces or better.
                item["play_options"] = {
                    "fold": True,
                    "max_raise": item["max_raise"],
                    "ante": play.wagers.get("ante", 0),
                    "your_turn": rnd.to_act == play.box,
                }
    shown = settled.get(play.box)
    if shown is not None:
        item["results"] = shown["results"]
        item["net"] = shown["net"]
        if shown["cards"] is not None:
            item.update(cards=shown["cards"], best_four=shown["best_four"], hand=shown["hand"])
    return item


def _console(rnd: Round) -> dict[str, Any]:
    """What the dealer console alone sees of the round."""
    if not rnd.dealer_cards:
        return {}
    # §684a.10(d): the dealer counts the stub
    return {"stub": len(rnd.stub), "discards": len(rnd.discards)}


def project(
    rnd: Round,
    viewer: str | None,
    dealer: bool = False,
    spectators: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The round as ``viewer`` (a player's name, None: a spectator) or the dealer sees it;
    from ``spectators`` when given (``SkeletonRound.view_from``)."""
    name = None if dealer else viewer  # the dealer console is nobody's box
    results = rnd.results or {}
    settled = {b["box"]: b for b in results.get("boxes", [])}
    built = from_spectators(
        spectators,
        name,
        dealer,
        viewer=lambda as_dealer, who: viewer_entry(as_dealer, who, rnd.boxes_of),
        own_boxes=lambda who: {
            n: annotate_box(_box(rnd, play, who, settled), spectators or {}, rnd.rules)
            for n, play in rnd.boxes.items()
            if play.player == who
        },
        console_extras=lambda: _console(rnd),
        after="players",
    )
    if built is not None:
        return built
    shown = rnd.dealer_visible()
    dealer_hand = rnd.dealer_public() if shown else None
    view: dict[str, Any] = {
        "game": "four_card_frenzy",
        "round": rnd.number,
        "phase": rnd.phase.value,
        "deck_back": rnd.deck_back,
        "commitment": rnd.commitment,
        "viewer": viewer_entry(dealer, viewer, rnd.boxes_of),
        "boxes": [_box(rnd, rnd.boxes[n], name, settled) for n in sorted(rnd.boxes)],
        "to_act": rnd.to_act,
        "dealer": dealer_hand,
        "dealt": bool(rnd.dealer_cards),
        # §684a.10(b): the All-Six card is the shared card, face down until the reveal.
        "all_six": {
            "dealt": rnd.all_six_card is not None,
            "card": dealer_hand["all_six_card"] if dealer_hand is not None else None,
        },
        "void_reason": rnd.void_reason,
        "main_game_void": rnd.main_game_void,
        "irregularity": rnd.irregularity(),
        "players": results.get("players"),
    }
    if dealer:
        view.update(_console(rnd))
    # The shared card's spot as every felt draws it.
    view["shared_card"] = {"label": "All-Six card", **view["all_six"]}
    if rnd.finished:
        view["shoe"] = codes(rnd.order)
        view["salt"] = rnd.salt
    return annotate(view, rnd.rules)  # its words, for the felt (.words)
