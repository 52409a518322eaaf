"""Documents more than one test module starts from."""

from __future__ import annotations

import copy
from typing import Any

#: The settle_round input example of RULES.md.
RULES_MD_ROUND: dict[str, Any] = {
    "rules": {
        "bad_beat_paytable": "A",
        "prime_paytable": "A",
        "four_card_bonus_paytable": "A",
        "all_six_paytable": "A",
        "payout_limit": None,
    },
    "dealer": ["AS", "KD", "7H", "7C", "2S"],
    "all_six_card": "2D",
    "boxes": [
        {
            "box": 1,
            "player": "p1",
            "cards": ["QS", "QH", "QD", "4C", "9H"],
            "wagers": {
                "ante": 1000,
                "odds": 1000,
                "raise": 3000,
                "prime": 500,
                "four_card_bonus": 500,
                "all_six": 500,
            },
        }
    ],
}


def rules_md_round() -> dict[str, Any]:
    """A fresh copy of the RULES.md example, safe to change."""
    return copy.deepcopy(RULES_MD_ROUND)


#: A valid Rules Submission as the admin's add form posts it (dollars as typed).
RULES_SUBMISSION_FORM: dict[str, str] = {
    "name": "Casino rules",
    "jurisdiction": "pennsylvania",
    "bad_beat_paytable": "D",
    "offers_prime": "on",
    "prime_paytable": "B",
    "offers_four_card_bonus": "on",
    "four_card_bonus_paytable": "E",
    "offers_all_six": "on",
    "all_six_paytable": "E",
    "payout_limit": "100,000",
    "adjacent_boxes": "2",
    "ante_min": "10",
    "ante_max": "1,000.00",
    "prime_min": "1",
    "prime_max": "100",
    "four_card_bonus_min": "1",
    "four_card_bonus_max": "100",
    "all_six_min": "1",
    "all_six_max": "100",
    "two_decks": "on",
    "decision_seconds": "20",
    "betting_seconds": "15",
    "betting_unit": "1",
}
