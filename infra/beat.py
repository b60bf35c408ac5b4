"""A Celery beat that may run twice: only the holder of a lock in Redis sends the schedule.

Run two beats (on two machines, or two programs on one) and one of them leads: it renews a key
in Redis (`tourney:beat-leader:<queue>`) every RENEW_S seconds and sends the clock's tick; the
other checks the key as often and sends nothing. When the leader dies (even by SIGKILL) its
key expires after LOCK_TTL_MS and the other takes over within RENEW_S more; a leader that stops
normally deletes its key, so the other takes over at once. Measured (tests/clocks/
test_beat_leader.py): one tick a second with two beats, the gap after a SIGKILL under 3 s.

The lock only saves work: every tick is idempotent (clocks/tasks.py), so a tick sent twice at
a takeover (a leader frozen for longer than the TTL, then thawed) changes nothing twice, and
the level changes themselves are made by the on-time tasks the workers hold, which a beat's
death does not touch (each change schedules the next one, clocks/tasks.py).
"""

import logging
import os
import socket
import time
import uuid

from celery.beat import Scheduler

logger = logging.getLogger(__name__)

LOCK_TTL_MS = 2_000
RENEW_S = 0.5

# Renew if ours, take if free: 1 when this token holds the key (for another TTL), else 0.
_HOLD = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
return 0
"""
# Delete only if ours.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class LeaderLock:
    """A lock that expires unless renewed, owned by a token ("host:pid:random")."""

    def __init__(self, client, key: str, ttl_ms: int = LOCK_TTL_MS) -> None:  # type: ignore[no-untyped-def]
        self.client = client
        self.key = key
        self.ttl_ms = ttl_ms
        self.token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._hold = client.register_script(_HOLD)
        self._release = client.register_script(_RELEASE)

    def hold(self) -> bool:
        """Take or renew the lock; False if another holds it or Redis does not answer."""
        try:
            return bool(self._hold(keys=[self.key], args=[self.token, self.ttl_ms]))
        except Exception:  # no broker: nothing could be sent anyway
            logger.warning("beat: the leader lock is out of reach", exc_info=True)
            return False

    def release(self) -> None:
        try:
            self._release(keys=[self.key], args=[self.token])
        except Exception:
            logger.warning("beat: could not release the leader lock", exc_info=True)


class LeaderScheduler(Scheduler):
    """Celery's in-memory scheduler, sending only while it holds the leader lock.

    In memory: the only entry is the one-second tick, nothing worth a schedule file (which a
    SIGKILL can leave half-written)."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.lock: LeaderLock | None = None
        self.leading: bool | None = None  # None until the first look
        self._renewed_at = 0.0

    def _lock(self) -> LeaderLock | None:
        url = self.app.conf.broker_url or ""
        if self.lock is None and url.startswith(("redis://", "rediss://", "unix://")):
            import redis

            client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
            queue = self.app.conf.task_default_queue
            self.lock = LeaderLock(client, f"tourney:beat-leader:{queue}")
        return self.lock

    def _leads(self) -> bool:
        lock = self._lock()
        if lock is None:
            return True  # no Redis (the memory broker): nobody to share with
        now = time.monotonic()
        if self.leading and now - self._renewed_at < RENEW_S:
            return True
        leading = lock.hold()
        if leading:
            self._renewed_at = now
        if leading != self.leading:
            logger.info("beat: %s (%s)", "leading" if leading else "standing by", lock.token)
            if leading:
                self._heap = None  # due entries are sent now, not at a standby's old times
        self.leading = leading
        return leading

    def tick(self, *args, **kwargs) -> float:  # type: ignore[no-untyped-def]
        if not self._leads():
            return RENEW_S
        interval = super().tick(*args, **kwargs)
        return min(interval, RENEW_S) if interval else interval

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self.lock is not None and self.leading:  # a standby has nothing to release
                self.lock.release()  # the other beat takes over at its next look
                self.leading = False
