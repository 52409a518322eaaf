"""What each viewer may see of a Crazy 4 Poker round, phase by phase (the ``playerView``).

* A box's wagers are chips on the layout: everyone sees them.
* A box's five cards go face down to its owner only (§657a.11(a)) until settlement turns them
  face up box by box (§657a.11(c)); a folded hand goes to the discard rack unseen, unless a
  Six Card Bonus keeps it on the layout to be settled (§657a.11(b)(3), (c)).
* The dealer's cards are face down until every box has played or folded and the dealer reveals
  (§657a.11(c)); the Six Card Bonus card is face down until then too (§657a.10(b), (g)).
* The Magic Card and Lucky position are shown at settlement (CRAZY_4_POKER.md).
* The owner of the box to act sees the Play sizes allowed (§657a.11(b)).
* The dealer console sees what a spectator sees plus the shoe's stub and discards and this
  round's meter increments - never a player's face-down cards.
* The shoe order and salt are public once the round is over (commit-reveal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.engine.cards import codes

from .settlement import ANTE, SIX_CARD_BONUS

if TYPE_CHECKING:
    from .round import BoxPlay, Round


def _box(rnd: Round, play: BoxPlay, player: str | None, settled: dict[int, Any]) -> dict[str, Any]:
    from .round import Phase, hand_json

    owner = player is not None and play.player == player
    keeps_cards = not play.folded or bool(play.wagers.get(SIX_CARD_BONUS))
    item: dict[str, Any] = {
        "box": play.box,
        "player": play.player,
        "mine": owner,
        "wagers": dict(play.wagers),
        "dealt": bool(play.cards),
        "decision": play.decision,
        "folded": play.folded,
        "abandoned": play.abandoned,
        # Face down on the layout, or (folded, no Six Card Bonus) in the discard rack.
        "on_layout": bool(play.cards) and keeps_cards,
        "cards": None,
    }
    if play.cards and owner:
        # A misdealt box (§657a.13(c)) holds other than five cards: shown, but not valued.
        item.update(hand_json(play.cards) if len(play.cards) == 5 else {"cards": codes(play.cards)})
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


def project(rnd: Round, player: str | None, dealer: bool = False) -> dict[str, Any]:
    """The round as ``player`` (None: a spectator) or, with ``dealer``, the dealer sees it."""
    from .round import Phase

    if dealer:
        player = None  # the dealer console is nobody's box
    results = rnd.results or {}
    settled = {b["box"]: b for b in results.get("boxes", [])}
    revealed = rnd.phase in (Phase.REVEALED, Phase.SETTLED)
    six_in_play = rnd.six_card_bonus_card is not None
    view: dict[str, Any] = {
        "game": "crazy_4_poker",
        "round": rnd.number,
        "phase": rnd.phase.value,
        "deck_back": rnd.deck_back,
        "commitment": rnd.commitment,
        "viewer": {"player": player, "dealer": dealer, "boxes": rnd.boxes_of(player or "")},
        "boxes": [_box(rnd, rnd.boxes[n], player, settled) for n in sorted(rnd.boxes)],
        "to_act": rnd.to_act,
        "dealt": bool(rnd.dealer_cards),
        "dealer": rnd.dealer_public() if revealed else None,
        "six_card_bonus": {
            "dealt": six_in_play,
            "card": rnd.dealer_public()["six_card_bonus_card"]
            if revealed and six_in_play
            else None,
        },
        "draws": results.get("draws"),
        "players": results.get("players"),
        "meters": results.get("meters"),
        "void_reason": rnd.void_reason,
    }
    if dealer:
        view["console"] = {
            "stub": len(rnd.stub),
            "discards": len(rnd.discards),
            "meter_increments": {
                name: {"amount": inc.primary, "reserve": inc.reserve}
                for name, inc in sorted(rnd.increments.items())
            },
        }
    if rnd.finished:
        view["shoe"] = codes(rnd.order)
        view["salt"] = rnd.salt
    return view
