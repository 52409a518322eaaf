"""The admin's ``_to_field`` parameter, empty: a 400, not a 500.

Django's admin refuses a ``_to_field`` naming a field it may not look up by
(``DisallowedModelAdminToField``, a 400), but an empty one passes that check (it is falsy) and
then fails in ``Options.get_field("")`` with ``FieldDoesNotExist``: a server error for a
malformed query string (found by tests/integrity/test_fuzz_http.py). This middleware refuses
it the way Django refuses a disallowed one.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.admin.exceptions import DisallowedModelAdminToField
from django.contrib.admin.options import TO_FIELD_VAR
from django.http import HttpRequest, HttpResponse


class EmptyToFieldMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/admin/"):
            for query in (request.GET, request.POST):
                if TO_FIELD_VAR in query and not query.get(TO_FIELD_VAR):
                    raise DisallowedModelAdminToField("an empty _to_field names no field")
        return self.get_response(request)
