"""Helpers every part of the admin uses: links, JSON, read-only history."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from .. import duties

WAGER_LABELS = {
    "ante": "Ante",
    "odds": "Odds",
    "raise": "Raise",
    "prime": "Prime",
    "four_card_bonus": "Four Card Bonus",
    "all_six": "All-Six Bonus",
}


def _link(viewname: str, args: list[Any], text: object) -> SafeString | str:
    try:
        return format_html('<a href="{}">{}</a>', reverse(viewname, args=args), text)
    except NoReverseMatch:
        return str(text)


def _admin_link(obj: Model | None, text: object | None = None) -> SafeString | str:
    if obj is None:
        return "—"
    meta = obj._meta
    return _link(f"admin:{meta.app_label}_{meta.model_name}_change", [obj.pk], text or obj)


def _pretty_json(value: object) -> SafeString:
    return format_html(
        '<pre style="white-space: pre-wrap; max-height: 30em; overflow: auto">{}</pre>',
        json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False),
    )


def staff_of(request: HttpRequest) -> User:
    """The staff member signed in behind an admin request (the admin lets nobody else in: an
    anonymous request here is refused)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


class AuditedRefusals:
    """A ModelAdmin mixin: a change its form refuses on duty grounds (a ValidationError with
    code ``duties.REFUSED_CODE``: a dealer assignment, a group or a permission that would let
    a dealer credit) is a refused privileged attempt, and goes in the audit log."""

    refused_action = "admin_change"

    def get_form(self, request: HttpRequest, obj: Any = None, *args: Any, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, *args, **kwargs)  # type: ignore[misc]
        action = self.refused_action

        class Audited(form):  # type: ignore[misc, valid-type]
            def clean(self) -> Any:
                try:
                    return super().clean()
                except forms.ValidationError as exc:
                    if exc.code == duties.REFUSED_CODE:
                        what = {"object": str(obj) if obj is not None else ""}
                        duties.refused(staff_of(request), action, " ".join(exc.messages), what)
                    raise

        return Audited


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    """History: can be looked at, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline[Any, Any]):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
