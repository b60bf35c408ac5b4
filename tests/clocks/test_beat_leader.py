"""Two Celery beats, one tick (issue 15, part 4): the leader lock of infra/beat.py.

The lock itself against Redis, then real `celery beat` processes: two of them send one tick a
second between them, never two; when the leader is killed with SIGKILL the other takes over
within TAKEOVER_AFTER_KILL_S of the last tick, and when it stops normally (SIGTERM) at once.
The sends are read from the beats' own log lines, with their timestamps.
"""

import itertools
import os
import re
import signal
import uuid
from datetime import datetime

import pytest

from infra.beat import LOCK_TTL_MS, RENEW_S, LeaderLock
from tests.clocks.worker_harness import (
    CeleryHarness,
    Proc,
    database_url_for_tests,
    redis_url_for_tests,
    wait_until,
)
from tests.processes import redis_or_missing

TICK_S = 1.0
# The last tick, the lock's expiry, the standby's next look, and its first tick at once.
TAKEOVER_AFTER_KILL_S = TICK_S + LOCK_TTL_MS / 1000 + RENEW_S
TAKEOVER_AFTER_STOP_S = TICK_S + RENEW_S + 0.5
SEND = re.compile(
    r"^\[(?P<at>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): INFO/MainProcess\] "
    r"Scheduler: Sending due task clocks-tick",
    re.MULTILINE,
)


def sends(beat: Proc) -> list[float]:
    """When this beat sent the tick (Unix seconds, from its log)."""
    return [
        datetime.strptime(m["at"], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        for m in SEND.finditer(beat.log())
    ]


def all_sends(beats: list[Proc]) -> list[float]:
    return sorted(t for beat in beats for t in sends(beat))


def leading(beat: Proc) -> bool:
    log = beat.log()
    return log.rfind("beat: leading") > log.rfind("beat: standing by")


@pytest.fixture
def redis_client():
    return redis_or_missing(redis_url_for_tests())


def test_the_lock_has_one_holder_expires_and_is_released_by_its_holder_only(redis_client):
    key = f"tourney:test-beat-leader:{uuid.uuid4().hex}"
    first, second = LeaderLock(redis_client, key, ttl_ms=300), LeaderLock(redis_client, key)
    try:
        assert first.hold() and first.hold()  # taken, renewed
        assert not second.hold()
        second.release()  # not its own: nothing happens
        assert not second.hold()
        # Unrenewed, it expires by itself (a leader killed with SIGKILL).
        wait_until(second.hold, 5, "the first holder's lock to expire")
        assert not first.hold()
        second.release()
        assert first.hold()
    finally:
        redis_client.delete(key)


@pytest.fixture
def beats(redis_client):
    """Beats only (no worker: what they send is read from their logs), on a queue of their own."""
    harness = CeleryHarness(broker_url=redis_url_for_tests(), database_url=database_url_for_tests())
    yield harness
    harness.stop()


@pytest.mark.worker
@pytest.mark.django_db
def test_two_beats_send_one_tick_a_second_and_the_other_takes_over_when_one_dies(beats):
    a, b = beats.start_beat(), beats.start_beat()
    wait_until(lambda: len(all_sends([a, b])) >= 5, 30, "five ticks", beats.logs)
    leader, standby = (a, b) if leading(a) else (b, a)
    assert leading(leader) and not leading(standby), beats.logs()
    assert sends(standby) == []
    times = all_sends([a, b])
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    print(f"gaps between ticks with two beats: {[round(g, 3) for g in gaps]} s")
    assert min(gaps) > 0.9 * TICK_S, f"a tick sent twice: {gaps}\n{beats.logs()}"

    # SIGKILL the leader: its key expires, the standby leads and ticks.
    last = sends(leader)[-1]
    os.kill(leader.popen.pid, signal.SIGKILL)
    leader.popen.wait(timeout=10)
    wait_until(lambda: sends(standby), TAKEOVER_AFTER_KILL_S + 10, "the standby's tick", beats.logs)
    gap = sends(standby)[0] - last
    print(f"after a SIGKILL of the leader: {gap:.3f} s between ticks")
    assert gap <= TAKEOVER_AFTER_KILL_S, beats.logs()

    # A third beat stands by; the leader stops normally and hands over at once.
    third = beats.start_beat()
    wait_until(lambda: "beat: standing by" in third.log(), 30, "the third beat", beats.logs)
    last = sends(standby)[-1]
    standby.popen.send_signal(signal.SIGTERM)
    standby.popen.wait(timeout=15)
    wait_until(lambda: sends(third), TAKEOVER_AFTER_STOP_S + 10, "the third's tick", beats.logs)
    gap = sends(third)[0] - last
    print(f"after a SIGTERM of the leader: {gap:.3f} s between ticks")
    assert gap <= TAKEOVER_AFTER_STOP_S, beats.logs()
    wait_until(lambda: len(sends(third)) >= 2, 10, "ticks going on", beats.logs)
