"""Four Card Frenzy's voids as its dealer's moves offer them through the platform's services
(its irregularities and their refusals: test_irregularities.py)."""

from __future__ import annotations

import pytest

from tests.services.tables import voids_tried

pytestmark = [pytest.mark.django_db]


def test_the_voids_the_console_offers() -> None:
    """From betting to the decisions, with the stub right and wrong: the table closing while
    betting and the miscount (each accepted); no declared dealer card exposed: only the shoe
    exposes one (§684a.13(d))."""
    tried = voids_tried("four_card_frenzy")
    assert tried == {"betting": 1, "closed": 0, "decisions": 0, "miscount": 1}
