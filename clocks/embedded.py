"""The embedded clock loop: without Redis the server process advances clocks itself."""

import logging
import threading

from django.db import close_old_connections

logger = logging.getLogger(__name__)


def run_clock_loop(stop: threading.Event, interval_s: float = 0.2) -> None:
    from clocks.services.clock import clocks_advance_due

    while not stop.wait(interval_s):
        try:
            clocks_advance_due()
        except Exception:  # keep the clock alive; the next pass retries
            logger.exception("embedded clock loop failed")
        finally:
            close_old_connections()


def start_clock_thread() -> threading.Event:
    """Start the loop in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=run_clock_loop, args=(stop,), name="tourney-clock", daemon=True).start()
    return stop
