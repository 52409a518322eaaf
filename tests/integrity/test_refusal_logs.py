"""A page refused (HTTP 403) logs one line, never a ``PermissionDenied`` traceback: the demo's
terminal filled with them each time a staff page refused someone (issue 28, bug 8)."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from table.demo import make_user

pytestmark = pytest.mark.django_db


def test_a_refused_staff_page_logs_a_line_without_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Staff with no permission at all: the admin refuses the Rules Submissions.
    clerk = make_user("clerk", staff=True, superuser=False)
    client = Client()
    client.force_login(clerk)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        page = client.get("/admin/table/rulessubmission/add/")
    assert page.status_code == 403
    refusals = [r for r in caplog.records if getattr(r, "status_code", None) == 403]
    assert refusals, "the refusal is still logged, as one line"
    assert all(r.exc_info is None and not r.exc_text for r in refusals)
    assert "Traceback" not in caplog.text and "PermissionDenied" not in caplog.text
