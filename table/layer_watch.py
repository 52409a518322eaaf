"""Notice when the channel layer's Redis has forgotten everything (it restarted).

Group memberships live in Redis; after a restart a socket would hear no event again. Rather
than every socket re-joining its groups all the time (hundreds of Redis commands a second at
a busy table server), one watcher per process keeps a key of its own alive in Redis and
counts an *epoch* each time that key has vanished; sockets re-join only when the epoch moves.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from django.conf import settings

log = logging.getLogger(__name__)

CHECK_SECONDS = 2.0
KEY_TTL_SECONDS = 3600


class RedisWatch:
    def __init__(self, url: str, prefix: str) -> None:
        self.url = url
        self.key = f"{prefix}:alive:{secrets.token_hex(8)}"
        self.epoch = 0

    async def run(self) -> None:
        import redis.asyncio as redis

        client = redis.from_url(self.url)
        first = True
        while True:
            try:
                created = await client.set(self.key, 1, nx=True, ex=KEY_TTL_SECONDS)
                if created and not first:
                    self.epoch += 1
                    log.warning("the channel layer's Redis lost its data: sockets re-join")
                elif not created:
                    await client.expire(self.key, KEY_TTL_SECONDS)
                first = False
            except Exception:  # Redis is down; once it is back the key is missing: new epoch
                log.debug("Redis watch: no answer", exc_info=True)
            await asyncio.sleep(CHECK_SECONDS)


_watches: dict[int, tuple[RedisWatch, asyncio.Task[None]]] = {}


def layer_epoch() -> int:
    """The current epoch of this process's channel layer (0 forever without Redis)."""
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return 0
    loop = asyncio.get_running_loop()
    entry = _watches.get(id(loop))
    if entry is None or entry[1].done():
        prefix = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("prefix", "frenzy")
        watch = RedisWatch(url, prefix)
        entry = _watches[id(loop)] = (watch, loop.create_task(watch.run()))
    return entry[0].epoch
