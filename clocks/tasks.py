"""Clock timers: a beat tick every second plus an on-time task per period end (thin)."""

from celery import shared_task

from clocks.services.clock import clock_advance_one, clocks_advance_due, clocks_ending_soon


@shared_task(ignore_result=True)
def clocks_tick() -> int:
    """Advance every clock that is due and schedule on-time tasks for the next minute."""
    changed = clocks_advance_due()
    for tournament_id, version, ends_at_ms in clocks_ending_soon(within_ms=60_000):
        clock_advance_on_time.apply_async(
            args=(tournament_id, version), eta=ends_at_ms / 1000, ignore_result=True
        )
    return changed


@shared_task(ignore_result=True)
def clock_advance_on_time(tournament_id: int, version: int) -> int:
    """Scheduled for a period's end; a stale task (version moved on) does nothing."""
    return clock_advance_one(tournament_id, expected_version=version)
