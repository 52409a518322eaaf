"""ASGI entry point: HTTP through Django, websockets through Channels.

The websocket router is wrapped in ``SameOriginValidator(AuthMiddlewareStack(...))``:
cookies ride on websocket handshakes, so a page from another origin (scheme, host and port)
must not be able to open a socket with a player's session (cross-site websocket hijacking);
see ``frenzy_site.websocket_origin``.
"""

import gc
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "frenzy_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from frenzy_site import write_through  # noqa: E402
from frenzy_site.websocket_origin import SameOriginValidator  # noqa: E402
from table.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Daphne's Twisted writes a websocket frame at once when nothing waits before it, rather
# than on the event loop's next turn (frenzy_site/write_through.py says why and when).
write_through.install()

# Everything loaded so far (Django, the apps, the engine's hand tables) lives as long as the
# process: move it out of the cyclic collector's sight, so that its full collections, which
# pause every socket of the process, scan only what the process made since.
gc.freeze()
# What a busy table server makes and keeps (sockets, consumers, their tasks) then piles up in
# the oldest generation, and each full collection of it pauses every socket of the process
# (tens of ms on a small machine). Full collections a tenth as often; the young generations,
# where short-lived cycles die, are still collected as usual.
gc.set_threshold(700, 10, 100)

# Services run in worker threads that give up the GIL on every database round trip; with
# the default 5 ms switch interval each of a command's dozen statements may then wait up to
# 5 ms for the event loop thread to hand the GIL back. A shorter interval keeps a command's
# wall time close to its CPU time.
sys.setswitchinterval(0.0005)
