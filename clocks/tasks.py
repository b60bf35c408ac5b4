"""Clock timers: a beat tick every second plus an on-time task per instant a period ends (thin).

The tick is the safety net: it advances every due clock (stamping each change with its
scheduled instant, however late) and, for the periods ending within a minute, schedules one
`clocks_advance_on_time` task per instant, carrying every clock (tournament id and version)
whose period ends then. The task is queued ON_TIME_LEAD_MS ahead and waits for the instant in
the worker, so that the broker's and the pool's delays are behind it when the instant comes;
then it changes all those clocks in one go (`clocks_advance_at`: one transaction, one round
trip to Redis for their events). A stale clock in it (its version moved on: pause, next,
adjust, or a tick got there first) is left alone, so duplicates and redeliveries are harmless.
"""

import logging
import time
from collections import defaultdict
from datetime import UTC, datetime

from celery import shared_task
from django.conf import settings

from clocks.clock.usecases import (
    clock_advance_and_next,
    clocks_advance_at,
    clocks_advance_due,
    clocks_ending_soon,
)
from tables.cash_seats.tasks import cash_tick
from tourney.sit_and_go.tasks import sng_tick

logger = logging.getLogger(__name__)

SCHEDULE_AHEAD_MS = 60_000  # never further: Redis redelivers ETA tasks after the visibility timeout
# A period end is scheduled again after this long at most (a worker killed while holding the
# ETA task loses it until the visibility timeout; the next schedule replaces it).
RESCHEDULE_AFTER_S = 10
# An on-time task is released by the worker this long before its instant and waits for the
# instant itself in the pool process: the broker's, the worker's timer and the pool's delays
# (a few ms on a quiet machine, tens under load) are spent before the instant, not after it.
ON_TIME_LEAD_MS = 150
# A task that fires this little before its instant waits for it rather than leave the change
# to the next tick (the lead above, plus timer jitter of the worker's event loop).
EARLY_WAIT_LIMIT_MS = 1_000


def _first_schedules(ending: list[tuple[int, int, int]]) -> list[bool]:
    """For each (tournament_id, version, ends_at_ms): True unless this period end was scheduled
    in the last RESCHEDULE_AFTER_S seconds (one round trip to Redis for all of them).

    The tick runs every second; without this, one period end would get up to 60 copies that
    all fire at the same instant and queue ahead of other tournaments' changes.
    """
    from infra.bus import redis_client

    try:
        pipe = redis_client().pipeline(transaction=False)
        for tournament_id, version, ends_at_ms in ending:
            key = f"tourney:clock-eta:{tournament_id}:{version}:{ends_at_ms}"
            pipe.set(key, 1, nx=True, ex=RESCHEDULE_AFTER_S)
        return [bool(first) for first in pipe.execute()]
    except Exception:  # a duplicate is harmless, a missed schedule only makes the change late
        logger.warning("clock ETA de-duplication failed", exc_info=True)
        return [True] * len(ending)


@shared_task(name="clocks.tasks.clocks_tick", ignore_result=True)
def clocks_tick() -> int:
    """Advance every clock that is due and schedule on-time tasks for the next minute."""
    changed = clocks_advance_due()
    _schedule_on_time(clocks_ending_soon(within_ms=SCHEDULE_AHEAD_MS))
    sng_tick()  # sit-and-gos whose countdown is over start (docs/rules.md §19)
    cash_tick()  # cash seat calls not taken in time are passed over (§20.2)
    return changed


def _schedule_on_time(ending: list[tuple[int, int, int]]) -> None:
    """An on-time task per instant of `ending` ((tournament_id, version, ends_at_ms)) for the
    clocks ending then, those sent lately left out."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # no broker: an "ETA" task would run now, before its instant
    if not ending:
        return
    instants: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (tournament_id, version, ends_at_ms), first in zip(
        ending, _first_schedules(ending), strict=True
    ):
        if first:
            instants[ends_at_ms].append((tournament_id, version))
    for ends_at_ms, due in instants.items():
        clocks_advance_on_time.apply_async(
            args=(ends_at_ms, due),
            # Celery wants a datetime; a float ETA fails when the message is built
            eta=datetime.fromtimestamp((ends_at_ms - ON_TIME_LEAD_MS) / 1000, tz=UTC),
            ignore_result=True,
        )


def _wait_for(ends_at_ms: int | None) -> None:
    early_ns = ends_at_ms * 1_000_000 - time.time_ns() if ends_at_ms is not None else 0
    if 0 < early_ns <= EARLY_WAIT_LIMIT_MS * 1_000_000:
        time.sleep(early_ns / 1e9)  # the instant itself is the deadline, not a guess


@shared_task(name="clocks.tasks.clocks_advance_on_time", ignore_result=True)
def clocks_advance_on_time(ends_at_ms: int, due: list[tuple[int, int]]) -> int:
    """Scheduled for an instant at which the periods of the clocks `due` ((tournament_id,
    version)) end: waits for it, then changes those still at that version, together. The
    changes schedule their next period ends at once: the levels go on on time without the
    beat's tick (a beat taking over from a dead one, infra/beat.py), which stays the safety
    net. Returns the steps made."""
    _wait_for(ends_at_ms)
    steps, ending = clocks_advance_at(
        [(int(tournament_id), int(version)) for tournament_id, version in due], SCHEDULE_AHEAD_MS
    )
    _schedule_on_time(ending)
    return steps


@shared_task(name="clocks.tasks.clock_advance_on_time", ignore_result=True)
def clock_advance_on_time(tournament_id: int, version: int, ends_at_ms: int | None = None) -> int:
    """One clock's on-time task, as scheduled before `clocks_advance_on_time` (tasks of that
    kind still queued when the workers are upgraded run as before)."""
    _wait_for(ends_at_ms)
    steps, ending = clock_advance_and_next(tournament_id, version, SCHEDULE_AHEAD_MS)
    _schedule_on_time(ending)
    return steps
