"""Clock deadlines of registration and absence (docs/rules.md §2.2, §2.3), as pure functions.

Both deadlines are "the end of blind level N" (N counts levels from 1, breaks not counted):

- late registration is open through the end of level `late_registration_level` (TDA/house
  practice "late registration until the end of level N", N set per tournament; None = no clock
  deadline, registration stays open while the tournament runs); level 0 is the start itself:
  registration closes when the clock starts (house rule ``late_registration`` off);
- with ``absent_policy == "eliminate"`` an entry still absent at the end of level
  `absent_eliminate_after_levels` (counted from the start) is eliminated (Rimóc: 1 level).

A deadline has passed once the clock's *effective* period (caught up to `now_ms`, see
`clocks.domain.clock`) is a later period than level N, including the break right after it, or
the structure has run out (overtime) or the clock has finished. A pending clock has passed no
deadline. Units: instants are Unix epoch milliseconds, durations milliseconds. No Django
imports.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from clocks.domain.clock import AdvanceResult, ClockState, advance, view
from clocks.domain.structures import Period


def level_index(periods: Sequence[Period], level: int) -> int | None:
    """The period index of blind level `level` (1-based, breaks not counted); None when the
    structure has fewer levels (the deadline then never comes before the clock finishes)."""
    count = 0
    for index, period in enumerate(periods):
        if period.kind == "level":
            count += 1
            if count == level:
                return index
    return None


def level_count(periods: Sequence[Period]) -> int:
    return sum(1 for p in periods if p.kind == "level")


def level_end_passed(state: ClockState, periods: Sequence[Period], level: int) -> bool:
    """True when the *stored* state is past the end of level `level` (caller catches up). In
    overtime the structure has run out: every level it has is over, and a level it lacks will
    never come."""
    if state.status == "finished":
        return True
    if state.status == "pending":
        return False
    if level == 0:  # the start: registration closes when the clock starts
        return True
    index = level_index(periods, level)
    if state.status == "overtime":
        return index is None or state.period_index >= index
    return index is not None and state.period_index > index


def deadline_crossing(
    before: ClockState, result: AdvanceResult, periods: Sequence[Period], level: int, now_ms: int
) -> tuple[str, int] | None:
    """Whether the change from `before` to `result.state` crossed the end of level `level`:
    ``("closed", at_ms)`` forwards, stamped with the scheduled end of that level when an
    advance stepped over it (else `now_ms`, a manual change); ``("open", now_ms)`` when a
    manual change went back before it; None otherwise. A catch-up of several periods is one
    `result`, so it reports the crossing once."""
    was, now_passed = (
        level_end_passed(before, periods, level),
        level_end_passed(result.state, periods, level),
    )
    if was == now_passed:
        return None
    if was:
        return ("open", now_ms)
    index = level_index(periods, level)
    for change in result.changes:
        if index is not None and change.period_index == index + 1:
            return ("closed", change.scheduled_at_ms)
    return ("closed", result.overtime_at_ms or now_ms)


@dataclass(frozen=True)
class Deadline:
    """Where the clock stands against the end of level `level` at `now_ms`.

    `passed`: the deadline is over. `remaining_ms`: clock time left until it (pauses not
    counted; None when passed or when the structure has no such level). `at_ms`: the instant
    it will pass if the clock keeps running (None unless running).
    """

    level: int
    passed: bool
    remaining_ms: int | None
    at_ms: int | None


def deadline(state: ClockState, periods: Sequence[Period], now_ms: int, level: int) -> Deadline:
    """The end of level `level` seen from `now_ms` (the state is caught up first)."""
    current = advance(state, periods, now_ms).state
    if level_end_passed(current, periods, level):
        return Deadline(level, True, None, None)
    index = level_index(periods, level)
    if index is None:
        return Deadline(level, False, None, None)
    shown = view(current, periods, now_ms)
    remaining = shown.remaining_ms + sum(
        p.duration_seconds * 1000 for p in periods[current.period_index + 1 : index + 1]
    )
    at = now_ms + remaining if current.status == "running" else None
    return Deadline(level, False, remaining, at)
