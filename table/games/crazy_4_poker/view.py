"""What each viewer may see of a Crazy 4 Poker round, phase by phase (the ``playerView``; the
same shape as Five Card Hi-Lo's). What each may do now is the adapter's ``moves``.

Viewers: a player who owns boxes in the round, any other player, a spectator (nobody logged
in) and the dealer console.

* A box's wagers are chips on the layout: everyone sees them.
* A box's five cards go face down to its owner only (§657a.11(a)) until settlement turns them
  face up box by box (§657a.11(c)); nobody else, the dealer console included, sees them
  before then. A folded hand goes to the discard rack unseen, unless a Six Card Bonus keeps
  it on the layout to be settled (§657a.11(b)(3), (c)): then it is turned up at settlement.
* The dealer's cards are face down until every box has played or folded and the dealer reveals
  (§657a.11(c)); the Six Card Bonus card is face down until then too (§657a.10(b), (g)).
* Cards found face up while dealing are seen by everyone (§657a.13(a)).
* The Magic Card and Lucky position are shown at settlement (CRAZY_4_POKER.md).
* The owner of the box to act sees the Play sizes allowed (§657a.11(b)).
* The dealer console also sees the stub count (§657a.10(d)), this round's meter increments
  and the irregularities it may void the round for now.
* The shoe order and salt are shown to everyone once the round is over (commit-reveal).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from table.games.cards import codes
from table.games.common import viewer_entry
from table.games.words import from_spectators

from .round import VOID_REASONS, BoxPlay, Phase, Round, hand_json
from .settlement import ANTE, SIX_CARD_BONUS
from .words import annotate, annotate_box


@lru_cache(maxsize=4096)
def _hand(cards: tuple[int, ...]) -> tuple[tuple[str, Any], ...]:
    """A dealt box's hand in words (``hand_json``) from its cards (the round's own, checked
    when it was loaded): its owner's view shows it at every command from the deal to the
    settlement, the same each time, so worked out once."""
    return tuple(hand_json(list(cards)).items())


def _box(rnd: Round, play: BoxPlay, viewer: str | None, settled: dict[int, Any]) -> dict[str, Any]:
    mine = viewer is not None and play.player == viewer
    item: dict[str, Any] = {
        "box": play.box,
        "player": play.player,
        "mine": mine,
        "wagers": dict(play.wagers),
        "dealt": bool(play.cards),
        "decision": play.decision,
        "folded": play.folded,
        "abandoned": play.abandoned,
        # §657a.11(b)(3), (c): folded without a Six Card Bonus, the cards go to the rack unseen.
        "discarded": play.folded and not play.wagers.get(SIX_CARD_BONUS, 0),
        "cards": None,
    }
    if mine and play.cards:
        # A misdealt stack: the cards, no hand. Each list the view's own (the memo's shared).
        item.update((k, list(v) if type(v) is list else v) for k, v in _hand(tuple(play.cards)))
        if rnd.phase is Phase.DECISIONS and play.decision is None:
            low, high = rnd.play_range(play)
            item["play_options"] = {
                "fold": True,
                "min": low,
                "max": high,
                "ante": play.wagers[ANTE],
                "your_turn": rnd.to_act == play.box,
            }
    shown = settled.get(play.box)
    if shown is not None:
        for key in ("results", "bonuses", "envy", "net", "six_card_category"):
            item[key] = shown[key]
        if shown["cards"] is not None:
            item.update(
                {k: shown[k] for k in ("cards", "best_four", "hand", "category")},
                five_card_category=shown["five_card_category"],
            )
    return item


def _console(rnd: Round) -> dict[str, Any]:
    """What the dealer console alone sees of the round."""
    seen: dict[str, Any] = {}
    if rnd.dealer_cards:
        seen["stub"] = len(rnd.stub)  # §657a.10(d): the dealer counts the stub
        seen["discards"] = len(rnd.discards)
    seen["meter_increments"] = {
        name: {"amount": inc.primary, "reserve": inc.reserve}
        for name, inc in sorted(rnd.increments.items())
    }
    return seen


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
            n: annotate_box(_box(rnd, play, who, settled), spectators or {})
            for n, play in rnd.boxes.items()
            if play.player == who
        },
        console_extras=lambda: _console(rnd),
        after="irregularity",
    )
    if built is not None:
        return built
    revealed = rnd.phase in (Phase.REVEALED, Phase.SETTLED)
    six_in_play = rnd.six_card_bonus_card is not None
    view: dict[str, Any] = {
        "game": "crazy_4_poker",
        "round": rnd.number,
        "phase": rnd.phase.value,
        "deck_back": rnd.deck_back,
        "commitment": rnd.commitment,
        "viewer": viewer_entry(dealer, viewer, rnd.boxes_of),
        "boxes": [_box(rnd, rnd.boxes[n], name, settled) for n in sorted(rnd.boxes)],
        "to_act": rnd.to_act,
        "dealt": bool(rnd.dealer_cards),
        "dealer": rnd.dealer_public() if revealed else None,
        "six_card_bonus": {
            "dealt": six_in_play,
            "card": rnd.dealer_public()["six_card_bonus_card"]
            if revealed and six_in_play
            else None,
        },
        "face_up_discards": codes(rnd.face_up),
        "draws": results.get("draws"),
        "players": results.get("players"),
        "meters": results.get("meters"),
        "void_reason": rnd.void_reason,
        "void_explanation": (
            VOID_REASONS[rnd.void_reason].explanation if rnd.void_reason is not None else None
        ),
        "irregularity": rnd.irregularity(),
    }
    if dealer:
        view.update(_console(rnd))
    if rnd.finished:
        view["shoe"] = codes(rnd.order)
        view["salt"] = rnd.salt
    return annotate(view)  # its words, for the felt (.words)
