"""Publish/subscribe of tournament events: Redis pub/sub when REDIS_URL is set, else in-process.

Subscribers (the SSE stream) always re-read the event table, so a lost message only delays a
screen until its next read; publishing never blocks or fails a write.
"""

import contextlib
import hashlib
import json
import logging
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
    from django.db import connection

    database = hashlib.sha1(str(connection.settings_dict["NAME"]).encode()).hexdigest()[:12]
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
        if messages:
            try:
                pipe = redis_client().pipeline(transaction=False)
                for channel, text in messages:
                    pipe.publish(channel, text)
                pipe.execute()
            except Exception:  # as in `publish`: the screens catch up from the event table
                logger.warning("event publish to Redis failed", exc_info=True)


def publish(tournament_id: int, message: dict[str, Any]) -> None:
    if settings.REDIS_URL:
        held = getattr(_held, "messages", None)
        if held is not None:
            held.append((channel_name(tournament_id), json.dumps(message)))
            return
        try:
            redis_client().publish(channel_name(tournament_id), json.dumps(message))
        except Exception:  # a screen catches up from the event table; never fail a write
            logger.warning("event publish to Redis failed", exc_info=True)
        return
    with _local_lock:
        listeners = list(_local_listeners[tournament_id])
    for listener in listeners:
        listener(message)


def subscribe_local(tournament_id: int, listener: Listener) -> Callable[[], None]:
    """Register an in-process listener; returns the function that removes it."""
    with _local_lock:
        _local_listeners[tournament_id].add(listener)

    def unsubscribe() -> None:
        with _local_lock:
            _local_listeners[tournament_id].discard(listener)

    return unsubscribe
