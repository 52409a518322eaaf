"""Logging filters: what the terminal and the logs should carry, and what they should not."""

from __future__ import annotations

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """A 403 is the site working as meant (a player at a dealer console, compliance at a
    cashier's page), not an error: Django logs it with the ``PermissionDenied`` traceback,
    which filled the demo's terminal. Keep the one line (who was refused what), drop the
    traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
