from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/dealer/", consumers.DealerConsumer.as_asgi()),
]
