"""The embedded clock loop: without Redis the server process advances clocks itself."""

import logging
import threading

from django.db import close_old_connections

logger = logging.getLogger(__name__)

MAX_WAIT_S = 0.5
MIN_WAIT_S = 0.002  # never spin, even on a clock that stays due


def _seconds_to_wait(next_end_ms: int | None, now_ms: int) -> float:
    """Until the next period end (wake on time, not up to an interval late), at most MAX_WAIT_S."""
    if next_end_ms is None:
        return MAX_WAIT_S
    return min(MAX_WAIT_S, max(MIN_WAIT_S, (next_end_ms - now_ms) / 1000))


def run_clock_loop(stop: threading.Event) -> None:
    from django.db.models import Min

    from clocks.clock.selectors import now_ms
    from clocks.clock.usecases import clocks_advance_due
    from clocks.models import Clock
    from tables.cash_seats.tasks import cash_tick
    from tourney.sit_and_go.tasks import sng_tick

    wait_s = 0.0
    while not stop.wait(wait_s):
        try:
            clocks_advance_due()
            sng_tick()  # sit-and-gos whose countdown is over start (docs/rules.md §19)
            cash_tick()  # cash seat calls not taken in time are passed over (§20.2)
            next_end = Clock.objects.filter(status="running").aggregate(
                end=Min("period_ends_at_ms")
            )["end"]
            wait_s = _seconds_to_wait(next_end, now_ms())
        except Exception:  # keep the clock alive; the next pass retries
            logger.exception("embedded clock loop failed")
            wait_s = MAX_WAIT_S
        finally:
            close_old_connections()


def start_clock_thread() -> threading.Event:
    """Start the loop in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=run_clock_loop, args=(stop,), name="tourney-clock", daemon=True).start()
    return stop
