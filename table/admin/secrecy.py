"""One rule for every admin page over round data: what the players at a table may not know
yet (a box's hole cards, a setting of a box's hands, the shoe, a hash over any of them) is not
shown to staff, nor searched, filtered or sorted on, while its round is in play.

:data:`SECRET_FIELDS` names every stored field that can hold such a secret. :func:`guard`
(run on the whole admin site once every admin is registered, ``table/admin/__init__.py``)
puts each registered admin, whatever its model, under the rule:

- a lookup in the URL that reaches a secret field, here or across relations
  (``?response__icontains=TS``, ``?table__last_hash__startswith=ab``), is refused (a 400):
  each is an oracle ("which rows hold this card?") for what the page hides;
- a search, a list filter, a date hierarchy or a sortable column over a secret field is a
  configuration error at start-up (and a search field added at request time is dropped);
- the pages that show a secret field's value show it only once its round is over: the
  round's state and the events a player alone saw (``rounds.py``), a command's first answer
  (:func:`command_in_play`).

tests/services/test_admin_walk.py walks every admin page, filter and search of every
registered model at a round in play of each game and finds the secret fields from the data,
not from this list: a field missing here fails it.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist, ImproperlyConfigured
from django.db.models import Model
from django.http import HttpRequest

from table.games.base import FINISHED_PHASES

from ..models import CommandRecord, Round, RoundEvent, Table

log = logging.getLogger(__name__)

#: Model -> its fields that can hold a secret of a round in play.
SECRET_FIELDS: dict[type[Model], frozenset[str]] = {
    # The shoe order and every box's cards.
    Round: frozenset({"state"}),
    # What a player alone saw; a hash over it (a few million candidates from the cards).
    RoundEvent: frozenset({"data", "hash", "prev_hash"}),
    # A command's first answer (a set_hands answers the box's hands) and
    # the fingerprint of its arguments (a setting, a hash away).
    CommandRecord: frozenset({"request", "response"}),
    # The last event's hash: the chain's newest link, over the round's private events too.
    Table: frozenset({"last_hash"}),
}

HIDDEN_ANSWER = "Hidden until the round is over (it can hold cards only a player sees)."


def reaches_secret(model: type[Model], path: str) -> str | None:
    """The secret field (``Model.field``) a lookup, search or ordering path reaches from
    ``model``, or None. Follows relations (``round__state__icontains``); a search path's
    prefix (``^``, ``=``, ``@``) and an ordering's ``-`` are ignored."""
    for part in path.lstrip("^=@-").split("__"):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return None
        if field.name in SECRET_FIELDS.get(model, ()):
            return f"{model._meta.label}.{field.name}"
        if not field.is_relation or field.related_model is None:
            return None
        model = field.related_model
    return None


def _static_problems(model: type[Model], model_admin: admin.ModelAdmin) -> list[str]:  # type: ignore[type-arg]
    problems = []
    for path in model_admin.search_fields or ():
        if reaches_secret(model, path):
            problems.append(f"searches {path}")
    filters = [*(model_admin.list_filter or ()), model_admin.date_hierarchy]
    for item in filters:
        name = item[0] if isinstance(item, (tuple, list)) else item
        if isinstance(name, str) and reaches_secret(model, name):
            problems.append(f"filters on {name}")
    for column in model_admin.list_display or ():
        order = getattr(getattr(model_admin, str(column), None), "admin_order_field", column)
        if isinstance(order, str) and reaches_secret(model, order):
            problems.append(f"sorts on {order}")
    return problems


def guard(site: admin.AdminSite) -> None:
    """Put every admin registered on ``site`` under the rule (idempotent)."""
    problems = []
    for model, model_admin in site._registry.items():
        problems += [f"{model._meta.label}: {p}" for p in _static_problems(model, model_admin)]
        if getattr(model_admin, "_secrecy_guarded", False):
            continue
        model_admin._secrecy_guarded = True  # type: ignore[attr-defined]
        model_admin.lookup_allowed = functools.partial(  # type: ignore[method-assign]
            _lookup_allowed, model, model_admin.lookup_allowed
        )
        model_admin.get_search_fields = functools.partial(  # type: ignore[method-assign]
            _search_fields, model, model_admin.get_search_fields
        )
    if problems:
        raise ImproperlyConfigured(
            "the admin would search, filter or sort on a secret of a round in play: "
            + "; ".join(problems)
        )


def _lookup_allowed(
    model: type[Model], allowed: Any, lookup: str, value: str, request: HttpRequest | None = None
) -> bool:
    if reaches_secret(model, lookup):
        return False  # Django answers 400: "Filtering by ... not allowed"
    return bool(allowed(lookup, value, request))


def _search_fields(model: type[Model], fields: Any, request: HttpRequest) -> tuple[str, ...]:
    kept = []
    for path in fields(request):
        if reaches_secret(model, path):
            log.error("not searching %s on %s: it holds secrets", path, model._meta.label)
            continue
        kept.append(path)
    return tuple(kept)


def command_in_play(record: CommandRecord) -> bool:
    """Was this command given during a round of its table that is still in play (its answer
    can hold what only its player may see until then)?"""
    row = (
        Round.objects.filter(table_id=record.table_id, opened_at__lte=record.created)
        .exclude(phase__in=FINISHED_PHASES)
        .order_by("-opened_at")
        .values_list("pk", flat=True)
        .first()
    )
    return row is not None
