"""Small builders shared by the engine tests."""

from __future__ import annotations

from typing import Any

from table.games.cards import parse_card
from table.games.four_card_frenzy.contract import settle_document


def cards(text: str) -> list[int]:
    """``"AS KD 7H"`` -> engine cards."""
    return [parse_card(c) for c in text.split()]


def box(
    number: int,
    hand: str,
    ante: int = 1000,
    raise_: int | None = None,
    player: str = "p1",
    **optional: int,
) -> dict[str, Any]:
    """A contract box; ``raise_`` None means 1x the Ante, 0 a fold."""
    wagers: dict[str, Any] = {"ante": ante, "odds": ante}
    wagers["raise"] = ante if raise_ is None else raise_
    wagers.update(optional)
    return {"box": number, "player": player, "cards": hand.split(), "wagers": wagers}


def round_doc(
    dealer: str,
    *boxes: dict[str, Any],
    all_six_card: str | None = None,
    **rules: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {"rules": rules, "dealer": dealer.split(), "boxes": list(boxes)}
    if all_six_card is not None:
        doc["all_six_card"] = all_six_card
    return doc


def settle_one(dealer: str, *boxes: dict[str, Any], **kw: Any) -> dict[str, Any]:
    out = settle_document(round_doc(dealer, *boxes, **kw))
    assert isinstance(out, dict)
    return out


def nets(result: dict[str, Any], box_index: int = 0) -> dict[str, int]:
    """``{"ante": 1000, ...}`` for one box of a contract answer."""
    return {k: v["net"] for k, v in result["boxes"][box_index]["wagers"].items()}


def outcomes(result: dict[str, Any], box_index: int = 0) -> dict[str, str]:
    return {k: v["outcome"] for k, v in result["boxes"][box_index]["wagers"].items()}
