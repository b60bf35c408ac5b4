"""Delivering published tournament events to the open streams of this process.

With Redis, one pub/sub connection per event loop listens to every tournament channel and hands
each message (with its SSE frame rendered once) to the queues of the streams watching that
tournament; a thousand screens cost one Redis connection, not a thousand. Without Redis the
in-process bus of `infra.bus` calls the listeners directly from the writer's thread.
"""

import asyncio
import json
import logging
import queue
import weakref
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any

from django.conf import settings

from infra import bus
from infra.streams.frames import message_frame

logger = logging.getLogger(__name__)

RECONNECT_DELAY_S = 1.0
# What a stream's mailbox gives when nothing came for the heartbeat's period.
HEARTBEAT = object()


class Mailbox:
    """A stream's queue of messages, with its keep-alive.

    Every change wakes every stream of the process at once (ten thousand player pages): an
    `asyncio.Queue` read under `asyncio.timeout` re-armed a timer and made a future per stream
    and message. Here a message is appended and the one waiting future (if any) resolved; the
    keep-alive is a timer per stream that fires once per `heartbeat` seconds and gives
    HEARTBEAT only when nothing was put since (tests/benchmarks/bench_scale.py).
    """

    __slots__ = ("_beat_pending", "_heartbeat", "_items", "_last_put", "_loop", "_timer", "_waiter")

    def __init__(self, heartbeat: float) -> None:
        self._loop = asyncio.get_running_loop()
        self._items: deque = deque()
        self._waiter: asyncio.Future | None = None
        self._heartbeat = heartbeat
        self._last_put = self._loop.time()
        self._beat_pending = False
        self._timer = self._loop.call_later(heartbeat, self._beat)

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        self._last_put = self._loop.time()
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _beat(self) -> None:
        due = self._last_put + self._heartbeat
        if self._loop.time() >= due and not self._beat_pending:
            self._beat_pending = True
            self.put_nowait(HEARTBEAT)
            due = self._loop.time() + self._heartbeat
        self._timer = self._loop.call_at(due, self._beat)

    async def get(self) -> Any:
        """The next message, None ("re-read, you may have missed some") or HEARTBEAT."""
        while not self._items:
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        item = self._items.popleft()
        if item is HEARTBEAT:
            self._beat_pending = False
        return item

    def close(self) -> None:
        self._timer.cancel()


def _with_frame(message: dict[str, Any]) -> dict[str, Any]:
    return {**message, "frame": message_frame(message)}


class RedisHub:
    """One Redis pattern subscription per event loop, fanned out to asyncio queues."""

    def __init__(self) -> None:
        self.queues: dict[int, set[Mailbox]] = defaultdict(set)
        self.ready = asyncio.Event()
        self.pattern = bus.channel_prefix() + "*"
        self.task = asyncio.get_running_loop().create_task(self._listen())

    def add(self, tournament_id: int, heartbeat: float) -> Mailbox:
        q = Mailbox(heartbeat)
        self.queues[tournament_id].add(q)
        return q

    def remove(self, tournament_id: int, q: Mailbox) -> None:
        q.close()
        self.queues[tournament_id].discard(q)
        if not self.queues[tournament_id]:
            del self.queues[tournament_id]

    def _dispatch(self, channel: bytes, data: bytes) -> None:
        try:
            tournament_id = int(channel.rsplit(b":", 1)[1])
            message = _with_frame(json.loads(data))
        except (ValueError, KeyError, IndexError):
            logger.warning("ignoring a malformed event message on %r", channel)
            return
        for q in self.queues.get(tournament_id, ()):
            q.put_nowait(message)

    def _broadcast_gap(self) -> None:
        """After a lost connection every stream re-reads the event table."""
        for queues in self.queues.values():
            for q in queues:
                q.put_nowait(None)

    async def _listen(self) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            pubsub = client.pubsub()
            try:
                await pubsub.psubscribe(self.pattern)
                self.ready.set()
                self._broadcast_gap()
                async for item in pubsub.listen():
                    if item.get("type") == "pmessage":
                        self._dispatch(item["channel"], item["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("event hub lost Redis; reconnecting", exc_info=True)
                self.ready.clear()
                await asyncio.sleep(RECONNECT_DELAY_S)
            finally:
                await pubsub.aclose()
                await client.aclose()


_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RedisHub]" = (
    weakref.WeakKeyDictionary()
)


async def subscribe_async(
    tournament_id: int, heartbeat: float
) -> tuple[Mailbox, Callable[[], None]]:
    """A mailbox of this tournament's published messages (None = "re-read, you may have missed
    some"; HEARTBEAT after `heartbeat` seconds of silence) and the function that stops the
    subscription. Messages carry a rendered `frame`."""
    if settings.REDIS_URL:
        loop = asyncio.get_running_loop()
        hub = _hubs.get(loop)
        if hub is None or hub.task.done():
            hub = _hubs[loop] = RedisHub()
        q = hub.add(tournament_id, heartbeat)
        try:
            await asyncio.wait_for(hub.ready.wait(), timeout=2)
        except TimeoutError:
            logger.warning("event hub not connected to Redis yet; streams will catch up")
        return q, lambda: hub.remove(tournament_id, q)

    loop = asyncio.get_running_loop()
    q = Mailbox(heartbeat)

    def listener(message: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(q.put_nowait, _with_frame(message))

    close_local = bus.subscribe_local(tournament_id, listener)

    def unsubscribe() -> None:
        close_local()
        q.close()

    return q, unsubscribe


class SyncSubscription:
    """The same subscription for a thread serving a WSGI request (the test server)."""

    def __init__(self, tournament_id: int) -> None:
        self._queue: queue.Queue = queue.Queue()
        self._pubsub = None
        if settings.REDIS_URL:
            self._pubsub = bus.redis_client().pubsub()
            self._pubsub.subscribe(bus.channel_name(tournament_id))
            self.close_local = None
        else:
            self.close_local = bus.subscribe_local(tournament_id, self._queue.put)

    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or raise queue.Empty after `timeout` seconds."""
        if self._pubsub is None:
            return _with_frame(self._queue.get(timeout=timeout))
        item = self._pubsub.get_message(ignore_subscribe_messages=True, timeout=timeout)
        if item is None:
            raise queue.Empty
        return _with_frame(json.loads(item["data"]))

    def close(self) -> None:
        if self._pubsub is not None:
            self._pubsub.close()
        if self.close_local is not None:
            self.close_local()
