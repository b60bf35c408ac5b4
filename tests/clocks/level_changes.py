"""The level changes a live timer makes, as the tests of real workers (and the benchmarks) start,
wait for and check them: the `real_worker` mark, a worker and beat ticking, the stored automatic
changes (`clock` events with reason `advance`), and the no-skip, no-repeat, no-drift check.
The processes themselves: tests/clocks/worker_harness.py."""

import pytest

from tests.clocks.worker_harness import CeleryHarness, Proc, wait_until
from tourney.models import TournamentEvent

ON_TIME_MS = 300  # announced at most this late with a live worker (measured: tens of ms)
ON_TIME_TASK = "clocks.tasks.clocks_advance_on_time"  # (instant, [(tournament, version)])


def real_worker(test):
    """Mark a test that runs a real worker and beat (`-m worker`); transactional, as the
    worker (another process) must see committed rows."""
    return pytest.mark.worker(pytest.mark.django_db(transaction=True)(test))


def advances(tournament) -> list[TournamentEvent]:
    return list(
        TournamentEvent.objects.filter(
            tournament=tournament, kind="clock", payload__reason="advance"
        ).order_by("id")
    )


def at_ms(event: TournamentEvent) -> int:
    return round(event.at.timestamp() * 1000)


def wait_advances(celery, tournament, count: int, timeout_s: float):
    """The first `count` (or more) automatic level changes; `celery` (anything with `logs()`:
    the harness, or supervisord in tests/test_deploy.py) tells what ran when it times out."""
    return wait_until(
        lambda: (events := advances(tournament)) and len(events) >= count and events,
        timeout_s,
        f"{count} automatic level changes",
        celery.logs,
    )


def start_ticking(celery: CeleryHarness, beats: int = 1, concurrency: int = 2) -> Proc:
    """Start a worker and beat(s) and wait until a tick has run: timers are live from here."""
    for _ in range(beats):
        celery.start_beat()  # starts while the worker does
    worker = celery.start_worker(concurrency=concurrency)
    wait_until(
        lambda: "clocks.tasks.clocks_tick[" in worker.log() and "succeeded" in worker.log(),
        20,
        "the first tick",
        celery.logs,
    )
    return worker


def assert_consecutive_without_drift(
    events, first_end_ms: int, first_index: int = 1, *, level_ms: int
) -> None:
    """Each change enters the next period at exactly the previous scheduled end: every
    period once, none skipped, each stamped with its scheduled instant (0 ms drift)."""
    indices = [e.payload["period_index"] for e in events]
    assert indices == list(range(first_index, first_index + len(events))), indices
    for n, event in enumerate(events):
        scheduled = first_end_ms + n * level_ms
        assert event.payload["scheduled_at_ms"] == scheduled, (n, event.payload)
        assert event.payload["ends_at_ms"] == scheduled + level_ms, (n, event.payload)
        assert at_ms(event) >= scheduled - 5, (n, at_ms(event), scheduled)  # never early
