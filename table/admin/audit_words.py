"""The audit log's details in words, for compliance officers (issue 28: they read
"model: table.rulessubmission, object_id: 6" and "reason: wrong_card_count"): each key as
words, a code as words, and the object an entry is about as a link to its admin page."""

from __future__ import annotations

import json
import re
from typing import Any

from django.apps import apps
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

#: Keys whose words are not their code's.
KEY_WORDS = {
    "object": "object",
    "change": "what changed",
    "why": "why refused",
    "test_table": "test table",
    "fault": "drill",
}
#: A value that is a code ("wrong_card_count", "drill_armed"), said in words.
CODE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def key_words(key: str) -> str:
    return KEY_WORDS.get(key, key.replace("_", " "))


def value_words(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, str):
        return value.replace("_", " ") if CODE.match(value) else value
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def object_link(details: dict[str, Any]) -> SafeString | None:
    """The object an admin change is about, linked to its admin page: "Rules submission
    “Pennsylvania demo”"."""
    label, object_id = details.get("model"), details.get("object_id")
    if not label or object_id in (None, ""):
        return None
    try:
        model = apps.get_model(str(label))
    except (LookupError, ValueError):
        return None
    name = str(model._meta.verbose_name).capitalize()
    shown = details.get("object") or f"#{object_id}"
    try:
        url = reverse(
            f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[object_id]
        )
    except NoReverseMatch:
        return format_html("{} “{}”", name, shown)
    return format_html('{} <a href="{}">“{}”</a>', name, url, shown)


def details_words(details: dict[str, Any], short: bool = False) -> SafeString:
    """The details as "key: value" in words, the object linked first; ``short``: one line."""
    link = object_link(details)
    skip = {"model", "object_id", "object"} if link is not None else set()
    items = [
        (key_words(k), value_words(v))
        for k, v in details.items()
        if k not in skip and v not in (None, "", [], {})
    ]
    if short:
        text = format_html_join("; ", "{}: {}", items)
        return format_html("{}{}{}", link or "", "; " if link and items else "", text)
    rows = format_html_join("", "<li>{}: {}</li>", items)
    head = format_html("<li>{}</li>", link) if link else ""
    return format_html('<ul class="audit-details">{}{}</ul>', head, rows)
