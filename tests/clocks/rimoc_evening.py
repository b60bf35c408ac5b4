"""The pure clock on the Rimóc championship structure on a tournament evening: the structure's
periods, times in epoch milliseconds and a clock started at 19:00 (tests of clocks/domain/clock.py).
"""

from datetime import UTC, datetime

from clocks.domain.clock import ClockState, start
from clocks.domain.structures import TEMPLATES

RIMOC = TEMPLATES["rimoc-championship"].periods
MIN = 60_000
SEC = 1_000
# Rimóc indices: L1-L4 = 0-3, Break 1 = 4, L5-L8 = 5-8, Break 2 = 9, ... Break 4 = 19.
BREAK_1, L5 = 4, 5


def at(hour: int, minute: int = 0, second: int = 0) -> int:
    """Epoch milliseconds on a tournament evening."""
    return int(datetime(2025, 3, 14, hour, minute, second, tzinfo=UTC).timestamp() * 1000)


T0 = at(19)


def started(periods=RIMOC, now=T0) -> ClockState:
    return start(ClockState(), periods, now)
