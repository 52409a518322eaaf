import os
from typing import TYPE_CHECKING, Any, cast

from django.urls import path

from . import consumers

if TYPE_CHECKING:
    from channels.consumer import _ASGIApplicationProtocol
    from channels.routing import URLRouter, _ExtendedURLPattern


def _route(route: str, app: "_ASGIApplicationProtocol") -> "_ExtendedURLPattern":
    """A websocket route: Django's ``path`` carrying a consumer's ASGI application, as Channels'
    URLRouter takes it."""
    view: Any = app  # django-stubs types path()'s view as an HTTP view only
    return cast("_ExtendedURLPattern", path(route, view))


websocket_urlpatterns: "list[_ExtendedURLPattern | URLRouter]" = [
    _route("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    _route("ws/tables/<int:table_id>/dealer/", consumers.DealerConsumer.as_asgi()),
]

if os.environ.get("FRENZY_BENCH_ROUTES"):
    # The load benchmark's bare-broadcast baseline; never routed in normal operation.
    websocket_urlpatterns.append(
        _route("ws/bench/<slug:group>/", consumers.BroadcastBaseline.as_asgi())
    )
