"""The clock timers against a real Celery worker, a real beat and real Redis (issue 3, item 3).

Each test starts its own `celery -A tourney worker` and `celery -A tourney beat` on a queue of
its own, pointed at this process's test database (see `worker_harness`). The tests are
transactional so the worker sees committed rows. Levels last 2 seconds; every wait polls a
condition against a deadline.

What is checked, per period change, on the stored `clock` events with reason `advance`: the
periods follow each other with no skip and no repeat; each change is stamped with its scheduled
instant, which is exactly the previous scheduled end plus the period's duration (no drift),
however late it was announced; and, with a live worker, it is announced within
`ON_TIME_MS` of that instant (the on-time ETA task; the 1-second tick alone would often miss).
"""

import threading
from collections import Counter

import pytest
import time_machine
from django.db import connection

from clocks.clock.selectors import clock_view, now_ms
from clocks.clock.usecases import clock_operate, clocks_advance_due
from clocks.models import Clock
from tests.clocks.level_changes import (
    ON_TIME_MS,
    ON_TIME_TASK,
    advances,
    assert_consecutive_without_drift,
    at_ms,
    real_worker,
    start_ticking,
    wait_advances,
)
from tests.clocks.worker_harness import (
    CeleryHarness,
    database_url_for_tests,
    redis_url_for_tests,
    wait_until,
)
from tests.factories import turbo_tournament
from tests.processes import redis_or_missing

LEVEL_S = 2
LEVEL_MS = LEVEL_S * 1000


@pytest.fixture
def celery(transactional_db):
    url = redis_url_for_tests()
    redis_or_missing(url)
    harness = CeleryHarness(broker_url=url, database_url=database_url_for_tests())
    yield harness
    harness.stop()  # before the database is flushed: no process may hold it


def assert_on_time(events, celery: CeleryHarness) -> None:
    late = [at_ms(e) - e.payload["scheduled_at_ms"] for e in events]
    assert max(late) <= ON_TIME_MS, f"announced late by {late} ms\n{celery.logs()}"


@real_worker
def test_two_second_levels_change_on_their_own_on_time_and_without_drift(celery):
    director, tournament = turbo_tournament([LEVEL_S] * 10)
    worker = start_ticking(celery)
    started = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")

    events = wait_advances(celery, tournament, 3, 3 * LEVEL_S + 5)[:3]

    assert_consecutive_without_drift(events, started["ends_at_ms"], level_ms=LEVEL_MS)
    assert_on_time(events, celery)
    made = list(worker.tasks(ON_TIME_TASK).values())
    # On-time tasks made the changes (a tick may win the race for one: both are correct).
    assert "1" in made, f"{made}\n{celery.logs()}"


@real_worker
def test_a_stale_on_time_task_after_a_pause_does_nothing_and_resume_changes_once(celery):
    # 3 s: the on-time task is queued (by the next tick) well before the end.
    director, tournament = turbo_tournament([3, LEVEL_S, LEVEL_S, LEVEL_S])
    worker = start_ticking(celery)
    started = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    (task_id,) = wait_until(
        lambda: list(worker.tasks(ON_TIME_TASK)), 3, "the on-time task to be queued", celery.logs
    )

    paused = clock_operate(actor=director, tournament_id=tournament.pk, operation="pause")
    assert paused["version"] > started["version"]
    # The queued task fires at the old end, finds the version moved on and makes 0 steps.
    result = wait_until(
        lambda: worker.tasks(ON_TIME_TASK)[task_id], 5, "the stale on-time task", celery.logs
    )
    assert now_ms() >= started["ends_at_ms"]
    assert result == "0"
    assert advances(tournament) == []
    clock = clock_view(tournament)
    assert (clock["status"], clock["period_index"]) == ("paused", 0)
    assert clock["remaining_ms"] == paused["remaining_ms"]

    resumed = clock_operate(actor=director, tournament_id=tournament.pk, operation="resume")
    assert resumed["ends_at_ms"] == resumed["server_time_ms"] + paused["remaining_ms"]
    events = wait_advances(celery, tournament, 2, paused["remaining_ms"] / 1000 + LEVEL_S + 5)

    assert [e.payload["period_index"] for e in events] == [1, 2]
    assert events[0].payload["scheduled_at_ms"] == resumed["ends_at_ms"]
    assert events[1].payload["scheduled_at_ms"] == resumed["ends_at_ms"] + LEVEL_MS
    assert_on_time(events, celery)


@real_worker
def test_racing_ticks_and_duplicated_or_redelivered_tasks_change_each_period_once(celery):
    director, tournament = turbo_tournament([LEVEL_S] * 20)
    start_ticking(celery, beats=2, concurrency=3)  # two beats by mistake
    started = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    stop = threading.Event()
    errors: list[BaseException] = []

    def rogue_ticker() -> None:
        """Ticks from this process too, as fast as it can poll, racing the worker."""
        try:
            while not stop.wait(0.005):
                clocks_advance_due()
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=rogue_ticker) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        for n in range(2):
            end = started["ends_at_ms"] + n * LEVEL_MS
            # The stored clock (not the derived view): its version is the one tasks carry.
            clock = wait_until(
                lambda end=end: Clock.objects.filter(
                    tournament=tournament, period_ends_at_ms=end
                ).first(),
                LEVEL_S + 5,
                f"period {n} to be stored",
                celery.logs,
            )
            # Duplicates of the on-time task for this end, and a copy of the previous
            # (now stale) one redelivered at once.
            for _ in range(3):
                celery.send(ON_TIME_TASK, (end, [(tournament.pk, clock.version)]), eta_ms=end)
            celery.send(ON_TIME_TASK, (end - LEVEL_MS, [(tournament.pk, clock.version - 1)]))
        events = wait_advances(celery, tournament, 3, LEVEL_S + 5)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
    assert errors == []

    counts = Counter(e.payload["period_index"] for e in events)
    assert all(count == 1 for count in counts.values()), counts
    assert_consecutive_without_drift(events, started["ends_at_ms"], level_ms=LEVEL_MS)


@pytest.mark.django_db  # no worker: the catch-up that a late tick or a restarted worker makes
def test_a_late_catch_up_records_each_period_as_it_was_at_its_instant():
    director, tournament = turbo_tournament([LEVEL_S] * 5)
    with time_machine.travel("2026-11-29 19:00:00 +01:00", tick=False) as traveller:
        started = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
        traveller.shift(2.5 * LEVEL_S)  # two period ends passed with nobody ticking
        assert clocks_advance_due() == 2
    first_end = started["ends_at_ms"]

    first, second = (e.payload for e in advances(tournament))

    assert (first["period_index"], first["period"]["small_blind"]) == (1, 200)
    assert (second["period_index"], second["period"]["small_blind"]) == (2, 300)
    assert first["scheduled_at_ms"] == first_end
    assert first["ends_at_ms"] == first_end + LEVEL_MS and first["remaining_ms"] == LEVEL_MS
    assert second["scheduled_at_ms"] == first_end + LEVEL_MS
    assert second["ends_at_ms"] == first_end + 2 * LEVEL_MS
    assert second["remaining_ms"] == LEVEL_MS // 2
    assert second["version"] == first["version"] + 1
