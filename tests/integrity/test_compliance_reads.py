"""The compliance account reads its core records: progressive meters and their events (issue
28, Casino staff: both said "Not allowed"), and changes nothing there."""

from __future__ import annotations

import pytest
from django.test import Client

from table.demo import DEMO_PASSWORD, ensure_demo

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["progressivemeter", "meterevent"])
def test_compliance_reads_meters_and_meter_events(model: str) -> None:
    ensure_demo()
    client = Client()
    assert client.login(username="compliance", password=DEMO_PASSWORD)
    listing = client.get(f"/admin/table/{model}/")
    assert listing.status_code == 200, listing.status_code
    assert client.get(f"/admin/table/{model}/add/").status_code == 403
    index = client.get("/admin/").content.decode()
    assert f"/admin/table/{model}/" in index
