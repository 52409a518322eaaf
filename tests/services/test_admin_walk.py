"""Nothing secret reaches staff while a round is in play (issue 23): at a round in play of each
game, a walk of every admin page of every registered model (its list, each of its filters,
each object's page) finds no card hidden at the table and no hash over one; no list can be
searched, filtered or sorted on a field whose stored value holds such a card or hash (each
would answer "does anyone hold the ten of spades?").

The secret fields are found from the data, not from the admin's own list of them: any text
or JSON column whose value, in some row, holds a hidden card or a hash of the event chain
from the round's first private event on."""

from __future__ import annotations

import json
import re
import uuid
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, reverse

from table import services
from table.demo import ensure_demo, make_user
from table.games import ENTRIES
from table.games import game as game_named
from table.games.base import FINISHED_PHASES, Actor
from table.games.cards import RANK_NAMES, SUIT_NAMES, card_label, parse_card
from table.models import Round, RoundEvent, Table

pytestmark = [pytest.mark.realstack, pytest.mark.django_db, pytest.mark.slow]

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][SHDC])(?![A-Za-z0-9])")
HASH = re.compile(r"[0-9a-f]{64}")


def key() -> str:
    return uuid.uuid4().hex


def cards_in(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def play_into_the_round(table: Table, dealer: Any, players: list[Any]) -> None:
    """Bets on two boxes, the deal, and the first player's decisions (at a game where every
    box decides before any sets its hands, the second's too, and the first then sets their
    hands while the second has not): every step
    with an idempotency key, so that the command records hold their answers."""
    for box, user in enumerate(players, start=1):
        services.sit(table.pk, user, box, key=key())
    services.open_betting(table.pk, dealer, key=key())
    g = game_named(table.rules.game)
    for box, user in enumerate(players, start=1):
        bet = next(
            m for m in g.moves(state_of(table), Actor.player(user.username)) if m.name == "bet"
        )
        wagers = {a.arg: a.low for a in bet.amounts if a.low > 0 or a.arg == "ante"}
        wagers = {k: max(v, 5_00) if k == "ante" else v for k, v in wagers.items()}
        services.act(table.pk, user, "bet", box, wagers, key=key())
    services.no_more_bets(table.pk, dealer, key=key())
    services.deal(table.pk, dealer, key=key())
    first, second = players

    def decide(user: Any) -> None:
        for _ in range(4):
            moves = [m for m in g.moves(state_of(table), Actor.player(user.username)) if m.choices]
            if not moves or moves[0].name == "set_hands":
                return
            move = moves[0]
            # A choice that stays in the hand (play, raise): not a fold.
            choice = next(
                (c for c in move.choices if "fold" not in c.label.lower()), move.choices[-1]
            )
            services.act(table.pk, user, move.name, move.box or 1, dict(choice.args), key=key())

    decide(first)
    if g.status(state_of(table)).phase in FINISHED_PHASES:
        raise AssertionError("the round ended before the walk")
    moves = g.moves(state_of(table), Actor.player(first.username))
    if not any(m.name == "set_hands" for m in moves):
        decide(second)  # everyone decides, then every box sets its hands
        moves = g.moves(state_of(table), Actor.player(first.username))
    for move in moves:
        if move.name == "set_hands":
            services.act(
                table.pk, first, "set_hands", move.box or 1, dict(move.choices[0].args), key=key()
            )
    assert g.status(state_of(table)).phase not in FINISHED_PHASES


def state_of(table: Table) -> Any:
    table.refresh_from_db()
    row = Round.objects.get(pk=table.current_round_id)
    return game_named(row.game).from_dict(row.state)


def hidden_now(table: Table, players: list[Any], dealer: Any) -> set[str]:
    """Every card someone at the table sees that a spectator does not, and the rest of the
    shoe: all 52 but what the table shows everyone."""
    g = game_named(table.rules.game)
    st = state_of(table)
    public = cards_in(g.view(st, Actor.spectator()))
    seen = set()
    for user in players:
        seen |= cards_in(g.view(st, Actor.player(user.username)))
    seen |= cards_in(g.view(st, Actor.dealer(dealer.username)))
    assert seen - public, "no hidden card at the table to look for"
    every = {r + s for r in "23456789TJQKA" for s in "SHDC"}
    return every - public


def hidden_hashes(table: Table) -> set[str]:
    """Hashes of the chain from the first private event of the round in play on: each pins
    down what that event holds (a few million candidates)."""
    start = (
        RoundEvent.objects.filter(table=table, round__isnull=False, audience__startswith="player:")
        .exclude(round__phase__in=FINISHED_PHASES)
        .order_by("version", "seq")
        .first()
    )
    assert start is not None
    later = RoundEvent.objects.filter(table=table, version__gte=start.version).exclude(
        version=start.version, seq__lt=start.seq
    )
    return set(later.values_list("hash", flat=True))


def secret_fields(hidden: set[str], hashes: set[str]) -> set[tuple[type[models.Model], str]]:
    """Every (model, field) whose stored value holds a hidden card or hash, in some row."""
    found = set()
    for model in admin.site._registry:
        for field in model._meta.concrete_fields:
            if not isinstance(field, (models.CharField, models.TextField, models.JSONField)):
                continue
            for value in model._default_manager.values_list(field.attname, flat=True):
                text = value if isinstance(value, str) else json.dumps(value)
                if (cards_in(value) & hidden) or (set(HASH.findall(text or "")) & hashes):
                    found.add((model, field.name))
                    break
    return found


def reached(model: type[models.Model], path: str) -> list[tuple[type[models.Model], str]]:
    """The (model, field) pairs a lookup path (``round__state__icontains``) goes through."""
    out = []
    for part in path.lstrip("^=@").split("__"):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            break
        out.append((model, field.name))
        if not field.is_relation or field.related_model is None:
            break
        model = field.related_model
    return out


#: A user's page summarises the password hash ("salt: 4S**********"): random characters that
#: can read as a card code by chance; they hold no card.
PASSWORD_SUMMARY = re.compile(r"<strong>[^<]*</strong>: <bdi>[^<]*\*</bdi>")


def visible_secret(page: str, hidden: set[str], hashes: set[str]) -> list[str]:
    text = PASSWORD_SUMMARY.sub("", page)
    found = [c for c in set(CARD.findall(text)) if c in hidden]
    for code in hidden:
        card = parse_card(code)
        label = card_label(card)
        name = f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"
        if f">{label}<" in text or name in text:
            found.append(code)
    found += [h for h in set(HASH.findall(text)) if h in hashes]
    return sorted(set(found))


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.in_filter = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag in ("nav", "div") and attr.get("id") == "changelist-filter":
            self.in_filter = 1
        if tag == "a" and self.in_filter and attr.get("href"):
            self.hrefs.append(str(attr["href"]))


def filter_links(page: str) -> list[str]:
    parser = Links()
    parser.feed(page)
    return [h for h in parser.hrefs if h.startswith("?")]


STANDARD = ("_changelist", "_add", "_history", "_delete", "_change", "_autocomplete")


def custom_pages(model_admin: Any) -> list[Any]:
    """The URL patterns a model admin adds to Django's own (named, not redirects)."""
    return [
        p
        for p in model_admin.get_urls()
        if isinstance(p, URLPattern) and p.name and not p.name.endswith(STANDARD)
    ]


#: Every game the registry holds with a table in the demo (the walk plays at that table).
GAMES = tuple(name for name, entry in ENTRIES.items() if entry.demo is not None)


@pytest.mark.parametrize("game_name", GAMES)
def test_no_admin_page_search_or_filter_gives_away_a_hidden_card(game_name: str) -> None:
    demo = ensure_demo()
    table = next(t for t in demo.tables if t.rules.game == game_name)
    dealer = make_user("dealer")
    players = [make_user("alice"), make_user("bob")]
    play_into_the_round(table, dealer, players)
    hidden = hidden_now(table, players, dealer)
    hashes = hidden_hashes(table)
    secret = secret_fields(hidden, hashes)
    held = sorted(
        cards_in(game_named(game_name).view(state_of(table), Actor.player("alice"))) & hidden
    )
    assert held and secret

    client = Client(raise_request_exception=False)
    client.force_login(make_user("admin", staff=True))
    leaks: list[str] = []
    pages = 0

    def look(url: str) -> str | None:
        nonlocal pages
        response = client.get(url)
        pages += 1
        if response.status_code != 200:
            return None
        page = response.content.decode()
        found = visible_secret(page, hidden, hashes)
        if found:
            leaks.append(f"{url} shows {found}")
        return page

    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        try:
            listing = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        except NoReverseMatch:
            continue
        request = client.get(listing).wsgi_request
        # Searching, filtering or sorting on a secret field is an oracle.
        for path in model_admin.get_search_fields(request):
            for where in reached(model, path):
                if where in secret:
                    leaks.append(f"{meta.label} searches {path}")
        for item in [*model_admin.get_list_filter(request), model_admin.date_hierarchy]:
            name = item[0] if isinstance(item, (tuple, list)) else item
            if isinstance(name, str):
                for where in reached(model, name):
                    if where in secret:
                        leaks.append(f"{meta.label} filters on {name}")
        for column in model_admin.get_list_display(request):
            order = column if isinstance(column, str) else None
            attr = getattr(model_admin, str(column), None)
            order = getattr(attr, "admin_order_field", order)
            if isinstance(order, str):
                for where in reached(model, order.lstrip("-")):
                    if where in secret:
                        leaks.append(f"{meta.label} sorts on {order}")
        # A lookup in the URL on any secret field, here or one relation away: refused.
        paths = []
        for field in meta.concrete_fields:
            if (model, field.name) in secret:
                paths.append(field.name)
            if field.is_relation and field.related_model is not None:
                for other in field.related_model._meta.concrete_fields:
                    if (field.related_model, other.name) in secret:
                        paths.append(f"{field.name}__{other.name}")
        for path in paths:
            probe = held[0] if not path.endswith("hash") else next(iter(hashes))[:6]
            lookup = "icontains" if not path.endswith("hash") else "startswith"
            response = client.get(listing, {f"{path}__{lookup}": probe})
            pages += 1
            # Answered by a list that applied it (a page of its own, not a list, ignores it).
            applied = response.status_code == 200 and "cl" in (response.context or {})
            if applied:
                leaks.append(f"{meta.label} answers ?{path}__{lookup}={probe}")
        page = look(listing)
        if page is None:
            continue
        for href in filter_links(page)[:60]:
            look(listing + href)
        pks = list(model._default_manager.values_list("pk", flat=True)[:200])
        for pk in pks:
            look(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[pk]))
        # The admin's own pages beyond lists and forms (the back office's reports, a meter's
        # reset page...): each, for each player, and for each object when it takes one.
        for pattern in custom_pages(model_admin):
            converters = pattern.pattern.converters
            if not converters:
                url = reverse(f"admin:{pattern.name}")
                look(url)
                for user in players:
                    look(f"{url}?player={user.username}")
            elif len(converters) == 1:
                for pk in pks[:20]:
                    look(reverse(f"admin:{pattern.name}", args=[pk]))
    for url in (reverse("admin:index"), reverse("admin:app_list", args=["table"])):
        look(url)
    assert pages > 100
    assert leaks == [], "\n".join(leaks)
