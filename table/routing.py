import os

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/dealer/", consumers.DealerConsumer.as_asgi()),
]

if os.environ.get("FRENZY_BENCH_ROUTES"):
    # The load benchmark's bare-broadcast baseline; never routed in normal operation.
    websocket_urlpatterns.append(
        path("ws/bench/<slug:group>/", consumers.BroadcastBaseline.as_asgi())
    )
