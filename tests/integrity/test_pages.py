"""What the site's pages send: a Content-Security-Policy that allows only our own scripts,
styles and socket, pages that need nothing inline to work under it, our own error pages
(never Django's debug pages), and static files served by the app itself with DEBUG off."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.views import defaults

from table import services
from table.demo import DEMO_PASSWORD, ensure_demo
from table.games import GAMES, game
from table.models import Round, Table

#: The games' own staff pages beside their Rules Submissions (``Game.staff_page``).
GAME_PAGES = [(n, "paytable-report") for n in GAMES if game(n).staff_page("paytable-report")]

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def demo() -> Table:
    return ensure_demo().table


def logged_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password=DEMO_PASSWORD), username
    return client


class Inline(HTMLParser):
    """Everything in a page a strict policy would block: inline scripts and styles, style
    attributes, event handler attributes, javascript: links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.scripts: list[str] = []
        self.stylesheets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            if not names.get("src"):
                self.found.append("inline <script>")
            else:
                self.scripts.append(str(names["src"]))
        if tag == "style":
            self.found.append("<style> element")
        if tag == "link" and names.get("rel") == "stylesheet":
            self.stylesheets.append(str(names.get("href")))
        for name, value in attrs:
            if name == "style":
                self.found.append(f"style attribute on <{tag}>")
            if name.startswith("on"):
                self.found.append(f"{name} handler on <{tag}>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"javascript: URL on <{tag}>")


def policy(response: Any) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        if part.strip():
            name, *values = part.split()
            directives[name] = values
    return directives


def check_page(response: Any, status: int) -> Inline:
    path = response.request["PATH_INFO"]
    admin = path.startswith("/admin/")
    assert response.status_code == status, (path, response.status_code)
    csp = policy(response)
    assert csp["default-src"] == ["'self'"], csp
    for directive in ("script-src", "style-src"):
        assert csp[directive] == ["'self'"], (directive, csp)
    assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"] and csp["form-action"] == ["'self'"]
    assert "'self'" in csp["connect-src"] and "ws://testserver" in csp["connect-src"]
    # Only the staff's admin may use style attributes (its signs are drawn with them).
    assert csp.get("style-src-attr") == (["'unsafe-inline'"] if admin else None), (path, csp)
    html = Inline()
    html.feed(response.content.decode())
    found = [f for f in html.found if not (admin and f.startswith("style attribute"))]
    assert found == [], (path, found)
    for url in html.scripts + html.stylesheets:  # our own, from this site
        assert url.startswith("/") and not url.startswith("//"), (path, url)
    return html


def test_every_page_sends_a_strict_policy_and_needs_nothing_inline(demo: Table) -> None:
    table = demo.pk
    alice, dealer, staff = logged_in("alice"), logged_in("dealer"), logged_in("admin")
    services.sit(table, get_user_model().objects.get(username="alice"), 1)
    pages = [
        (Client(), "/login/", 200),
        (Client(), f"/tables/{table}/", 200),  # a spectator
        (alice, "/", 200),
        (alice, f"/tables/{table}/", 200),
        (alice, "/rounds/mine/", 200),
        (dealer, f"/tables/{table}/dealer/", 200),
        (staff, "/rounds/mine/", 200),
        (staff, "/admin/", 200),
        (staff, "/admin/table/rulessubmission/", 200),
        *(
            (staff, f"/admin/table/rulessubmission/game-pages/{name}/{page}/", 200)
            for name, page in GAME_PAGES
        ),
        (staff, "/admin/table/rulessubmission/add/", 200),
        (staff, f"/admin/table/table/{table}/change/", 200),
    ]
    for client, path, status in pages:
        check_page(client.get(path), status)
    table_page = check_page(alice.get(f"/tables/{table}/"), 200)
    assert "/static/table/table.js" in table_page.scripts


def test_error_pages_are_ours_never_debug_pages(demo: Table, settings: Any) -> None:
    alice = logged_in("alice")
    services.open_betting(demo.pk)
    round_id = Round.objects.get(table=demo).pk
    for client, path, status, words in (
        (alice, f"/rounds/{round_id}/", 404, "Not found"),  # a round alice was not in
        (alice, "/rounds/999999/", 404, "Not found"),
        (alice, "/no/such/page/", 404, "Not found"),
        (Client(), "/tables/999999/", 404, "Not found"),
        (alice, f"/tables/{demo.pk}/dealer/", 403, "Not allowed"),  # not a dealer
    ):
        response = client.get(path)
        check_page(response, status)
        text = response.content.decode()
        assert words in text, (path, text[:500])
        for debug in ("URLconf", "Django tried", "Traceback", "DEBUG = True", "urlpatterns"):
            assert debug not in text, (path, debug)
        assert 'href="/"' in text  # a way back to the lobby
    request = RequestFactory().get("/")
    crashed = defaults.server_error(request)
    assert crashed.status_code == 500
    text = crashed.content.decode()
    assert "went wrong" in text and "Traceback" not in text
    page = Inline()
    page.feed(text)
    assert page.found == []


def test_static_files_are_served_by_the_app_with_debug_off(settings: Any) -> None:
    assert settings.DEBUG is False
    client = Client()
    for path, kind in (
        ("/static/table/table.js", "javascript"),
        ("/static/table/felt.css", "text/css"),
        ("/static/admin/css/base.css", "text/css"),
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert kind in response["Content-Type"], (path, response["Content-Type"])
