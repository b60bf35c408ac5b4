"""Publish/subscribe of tournament events: Redis pub/sub when REDIS_URL is set, else in-process.

Subscribers (the SSE stream) always re-read the event table, so a lost message only delays a
screen until its next read; publishing never blocks or fails a write.

A web process publishes to Redis from a thread of its own (`publish_in_background`, set by
tourney/asgi.py): a write's answer goes out without waiting for Redis (a round trip and 0.3 ms
of CPU of every registration, docs/benchmarks.md), and the messages leave in the order the
writes committed.
"""

import atexit
import contextlib
import hashlib
import json
import logging
import queue
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]
_local_listeners: dict[int, set[Listener]] = defaultdict(set)
_local_lock = threading.Lock()


def channel_prefix() -> str:
    """`tourney:<database>:tournament:`; tournament ids are only unique within one database,
    so two installations (or two test runs) sharing a Redis never see each other's events."""
    from django.db import DEFAULT_DB_ALIAS, connections

    return _prefix_of(str(connections[DEFAULT_DB_ALIAS].settings_dict["NAME"]))


@cache
def _prefix_of(database_name: str) -> str:
    """The prefix for one database's name: hashed once, not on every event published."""
    database = hashlib.sha1(database_name.encode()).hexdigest()[:12]
    return f"tourney:{database}:tournament:"


def channel_name(tournament_id: int) -> str:
    return f"{channel_prefix()}{tournament_id}"


@cache
def redis_client():  # type: ignore[no-untyped-def]
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


# Messages held on this thread by `published_together` (None: publish each at once).
_held = threading.local()


@contextlib.contextmanager
def published_together() -> Iterator[None]:
    """Publish what is published meanwhile on this thread (e.g. after the commit of a write that
    changed many tournaments) in one round trip to Redis at the end, not one each."""
    if not settings.REDIS_URL or getattr(_held, "messages", None) is not None:
        yield  # in-process listeners are called at once; an outer block sends these
        return
    _held.messages = []
    try:
        yield
    finally:
        messages, _held.messages = _held.messages, None
        if messages and _outbox is not None:  # behind what this process queued before
            for item in messages:
                _outbox.put(item)
        elif messages:
            try:
                pipe = redis_client().pipeline(transaction=False)
                for channel, text in messages:
                    pipe.publish(channel, text)
                pipe.execute()
            except Exception:  # as in `publish`: the screens catch up from the event table
                logger.warning("event publish to Redis failed", exc_info=True)


_outbox: queue.SimpleQueue | None = None
"""Messages for Redis, (channel, data), that the publishing thread sends; None: sent at once."""
DRAIN_SECONDS = 5.0


def publish(tournament_id: int, message: dict[str, Any]) -> None:
    if settings.REDIS_URL:
        item = (channel_name(tournament_id), json.dumps(message))
        held = getattr(_held, "messages", None)
        if held is not None:
            held.append(item)
        elif _outbox is not None:
            _outbox.put(item)
        else:
            _publish_redis(*item)
        return
    with _local_lock:
        listeners = list(_local_listeners[tournament_id])
    for listener in listeners:
        listener(message)


def _publish_redis(channel: str, data: str) -> None:
    try:
        redis_client().publish(channel, data)
    except Exception:  # a screen catches up from the event table; never fail a write
        logger.warning("event publish to Redis failed", exc_info=True)


def publish_in_background() -> Callable[[], None]:
    """From now on this process publishes to Redis from a thread of its own, in order. Returns
    `drain`, also run when the process exits normally: it sends what is queued (for up to
    DRAIN_SECONDS) and publishing goes back to sending at once."""
    global _outbox
    outbox: queue.SimpleQueue = queue.SimpleQueue()

    def run() -> None:
        while (item := outbox.get()) is not None:
            _publish_redis(*item)

    thread = threading.Thread(target=run, name="redis-publish", daemon=True)
    thread.start()
    _outbox = outbox

    def drain() -> None:
        global _outbox
        if _outbox is outbox:
            _outbox = None
        outbox.put(None)
        thread.join(DRAIN_SECONDS)
        atexit.unregister(drain)

    atexit.register(drain)
    return drain


def subscribe_local(tournament_id: int, listener: Listener) -> Callable[[], None]:
    """Register an in-process listener; returns the function that removes it."""
    with _local_lock:
        _local_listeners[tournament_id].add(listener)

    def unsubscribe() -> None:
        with _local_lock:
            _local_listeners[tournament_id].discard(listener)

    return unsubscribe
